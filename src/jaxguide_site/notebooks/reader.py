"""The notebook a reader takes home: the page's cells, without what only the build needs.

A page's code that only feeds the site (``glue(...)`` of a figure or a measured
figure for the prose, which needs myst-nb) stands in cells tagged
``remove-cell``: the build executes them, the page hides them, and the
downloaded notebook and its Colab copy leave them out, so that they run where
myst-nb is not installed. What those cells glued is written into the prose
instead: ``{glue:text}`name:.1f``` becomes the value the page shows,
``{glue}`name``` of a jaxguide output that speaks both languages (a
measurement's verdict) becomes its words in the notebook's language, and a
``{glue:figure}`` directive becomes its caption, under the cell whose output
is that figure (the figure's cell is tagged ``remove-output`` on the page,
where the captioned figure stands in for it).
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Callable

import nbformat
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue import extract_glue_data_cell

BUILD_ONLY_TAG = "remove-cell"
# The glue roles the pages use; myst-nb's {glue:md} is not. {glue} (any) is
# used for outputs in both languages (jaxguide.Ratio), whose HTML carries
# <span lang="en">...</span><span lang="ko" hidden>...</span>.
GLUE_ROLE = re.compile(r"\{glue(?P<text>:text)?\}`(?P<key>[^`]+)`")
LANGUAGE_SPAN = r'<span lang="{lang}"(?: hidden)?>(?P<words>.*?)</span>'
CODE_TAG = re.compile(r"<code>(.*?)</code>")
GLUE_FIGURE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{glue:figure\}[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*\n?",
    re.MULTILINE | re.DOTALL,
)
DIRECTIVE_OPTION = re.compile(r"^:[\w-]+:.*$")
# A GPU record is rendered by the site's build from docs/_data; a notebook
# has no such data, and the observation after it says what it is.
GPU_RECORD = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{gpu-record\}[^\n]*\n(?P=fence)[ \t]*\n*", re.MULTILINE
)


def build_only(cell: nbformat.NotebookNode) -> bool:
    return BUILD_ONLY_TAG in cell.get("metadata", {}).get("tags", [])


def glued_values(
    notebook: nbformat.NotebookNode, lang: str = "en"
) -> tuple[dict[str, str], dict[str, str]]:
    """Each glued name's text (``text/plain``, for ``{glue:text}``) and its
    Markdown in ``lang`` (for ``{glue}``), from the executed cells."""
    values: dict[str, str] = {}
    words: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for key, output in extract_glue_data_cell(copy.deepcopy(cell)):
            data = output["data"]
            values[key] = data.get("text/plain", "")
            words[key] = _in_language(data, lang) or values[key]
    return values, words


def _in_language(data: dict[str, str], lang: str) -> str | None:
    """The Markdown of a two-language jaxguide output in ``lang``, if it is one.

    >>> _in_language({"text/html": '<span lang="en"><code>a</code> ran</span>'
    ...     '<span lang="ko" hidden><code>a</code> 쪽이</span>'}, "ko")
    '`a` 쪽이'
    """
    match = re.search(
        LANGUAGE_SPAN.format(lang=re.escape(lang)), data.get("text/html", "")
    )
    if match is None:
        return data.get("text/markdown")
    return html.unescape(CODE_TAG.sub(r"`\1`", match["words"]))


def _caption(match: re.Match[str]) -> str:
    lines = match["body"].splitlines()
    caption = [line for line in lines if not DIRECTIVE_OPTION.match(line)]
    return "\n".join(caption).strip() + "\n"


def resolve_glue(
    markdown: str,
    values: dict[str, str],
    problem: Callable[[str], None],
    words: dict[str, str] | None = None,
) -> str:
    """``markdown`` with glue roles replaced by their values (``{glue}`` by
    ``words``, where given) and glue figures by their captions;
    ``problem(message)`` hears of a name never glued or a value its format
    does not fit (the role then stays as written)."""

    def value(match: re.Match[str]) -> str:
        if not match["text"]:
            key = match["key"]
            found = (words or values).get(key)
            if found is None:
                problem(f"the prose uses glue name {key!r}, which no cell glued")
                return match[0]
            return found
        # As myst-nb reads the role: the format follows the last colon.
        head, colon, tail = match["key"].rpartition(":")
        key, fmt = (head, tail) if colon else (tail, "")
        if key not in values:
            problem(f"the prose uses glue name {key!r}, which no cell glued")
            return match[0]
        try:
            return str(format_plain_text(values[key], fmt))
        except ValueError as error:
            problem(f"glue name {key!r} cannot be formatted as {fmt!r}: {error}")
            return match[0]

    markdown = GPU_RECORD.sub("", GLUE_FIGURE.sub(_caption, markdown))
    return GLUE_ROLE.sub(value, markdown)


def for_readers(
    notebook: nbformat.NotebookNode,
    problem: Callable[[str], None],
    lang: str = "en",
) -> nbformat.NotebookNode:
    """The executed ``notebook`` without its build-only cells, glue resolved
    (two-language outputs in ``lang``)."""
    values, words = glued_values(notebook, lang)
    notebook.cells = [cell for cell in notebook.cells if not build_only(cell)]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = resolve_glue(cell.source, values, problem, words)
    return notebook
