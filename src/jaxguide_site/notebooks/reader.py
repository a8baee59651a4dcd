"""The notebook a reader takes home: the page's cells, without what only the build needs.

A page's code that only feeds the site (``glue(...)`` of a figure or a measured
figure for the prose, which needs myst-nb) stands in cells tagged
``remove-cell``: the build executes them, the page hides them, and the
downloaded notebook and its Colab copy leave them out, so that they run where
myst-nb is not installed. What those cells glued is written into the prose
instead: ``{glue:text}`name:.1f``` becomes the value the page shows, and a
``{glue:figure}`` directive becomes its caption, under the cell whose output
is that figure (the figure's cell is tagged ``remove-output`` on the page,
where the captioned figure stands in for it).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import nbformat
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue import extract_glue_data_cell

BUILD_ONLY_TAG = "remove-cell"
# The glue roles the pages use; myst-nb's {glue} and {glue:md} are not.
GLUE_ROLE = re.compile(r"\{glue:text\}`(?P<key>[^`]+)`")
GLUE_FIGURE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{glue:figure\}[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*\n?",
    re.MULTILINE | re.DOTALL,
)
DIRECTIVE_OPTION = re.compile(r"^:[\w-]+:.*$")


def build_only(cell: nbformat.NotebookNode) -> bool:
    return BUILD_ONLY_TAG in cell.get("metadata", {}).get("tags", [])


def glued_values(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """Each glued name and its text (``text/plain``), from the executed cells."""
    values: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for key, output in extract_glue_data_cell(copy.deepcopy(cell)):
            values[key] = output["data"].get("text/plain", "")
    return values


def _caption(match: re.Match[str]) -> str:
    lines = match["body"].splitlines()
    caption = [line for line in lines if not DIRECTIVE_OPTION.match(line)]
    return "\n".join(caption).strip() + "\n"


def resolve_glue(
    markdown: str, values: dict[str, str], problem: Callable[[str], None]
) -> str:
    """``markdown`` with glue roles replaced by their values and glue figures
    by their captions; ``problem(message)`` hears of a name never glued or a
    value its format does not fit (the role then stays as written)."""

    def value(match: re.Match[str]) -> str:
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

    return GLUE_ROLE.sub(value, GLUE_FIGURE.sub(_caption, markdown))


def for_readers(
    notebook: nbformat.NotebookNode, problem: Callable[[str], None]
) -> nbformat.NotebookNode:
    """The executed ``notebook`` without its build-only cells, glue resolved."""
    values = glued_values(notebook)
    notebook.cells = [cell for cell in notebook.cells if not build_only(cell)]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = resolve_glue(cell.source, values, problem)
    return notebook
