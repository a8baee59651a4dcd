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
GLUE_ROLE = re.compile(r"\{glue(?::text)?\}`(?P<key>[^`]+)`")
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
    markdown: str, values: dict[str, str], missing: Callable[[str], None]
) -> str:
    """``markdown`` with glue roles replaced by their values and glue figures
    by their captions; ``missing(name)`` is called for a name never glued."""

    def value(match: re.Match[str]) -> str:
        key, _, fmt = match["key"].partition(":")
        if key not in values:
            missing(key)
            return match[0]
        return str(format_plain_text(values[key], fmt))

    return GLUE_ROLE.sub(value, GLUE_FIGURE.sub(_caption, markdown))


def for_readers(
    notebook: nbformat.NotebookNode, missing: Callable[[str], None]
) -> nbformat.NotebookNode:
    """The executed ``notebook`` without its build-only cells, glue resolved."""
    values = glued_values(notebook)
    notebook.cells = [cell for cell in notebook.cells if not build_only(cell)]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = resolve_glue(cell.source, values, missing)
    return notebook
