"""The one reader of the pages' source: myst-nb's own, which the build uses.

A page is a MyST text notebook. :func:`read_cells` reads it with myst-nb's
reader (:func:`myst_nb.core.read.read_myst_markdown_notebook`), so the
translation checker, the failure reporter, the page runner and the tests see
exactly the cells that the build executes, and adds where each cell is in the
file, for messages an editor can jump to::

    >>> page = '''# Title
    ...
    ... ```{code-cell} ipython3
    ... :tags: [raises-exception]
    ...
    ... 1 / 0
    ... ```
    ... '''
    >>> markdown, code = read_cells(page)
    >>> code.line, code.tags, code.source, code.line_of(0)
    (3, ('raises-exception',), '1 / 0', 6)

Importing this module imports no Sphinx.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from myst_nb.core.read import read_myst_markdown_notebook

__all__ = ["Cell", "code_cells", "read_cells"]


@dataclass(frozen=True)
class Cell:
    """A cell of a page, and where it is in the page's file.

    ``line`` is 1-based: a code cell's opening fence, a markdown cell's first
    line of text. ``source_line`` is the line of the source's first line.
    """

    kind: Literal["markdown", "code"]
    line: int
    source_line: int
    source: str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.metadata.get("tags", ()))

    def line_of(self, index: int) -> int:
        """The file's line of the source's line ``index`` (from 0)."""
        return self.source_line + index


def _find(lines: list[str], wanted: list[str], start: int) -> int:
    """The first index from ``start`` where ``wanted`` stands in ``lines``."""
    for index in range(start, len(lines) - len(wanted) + 1):
        if lines[index : index + len(wanted)] == wanted:
            return index
    return start


def read_cells(text: str) -> list[Cell]:
    """The cells of the MyST notebook ``text``, in order, with their lines."""
    notebook = read_myst_markdown_notebook(text, add_source_map=True)
    lines = text.splitlines()
    cells: list[Cell] = []
    for cell, start in zip(
        notebook.cells, notebook.metadata["source_map"], strict=True
    ):
        # myst-nb maps a code cell to its fence's line, counted from 1, and a
        # markdown cell to where its text may start, counted from 0; each
        # cell's source is the file's text from some line on.
        wanted = cell.source.splitlines()
        first = _find(lines, wanted, start) if wanted else start
        kind: Literal["markdown", "code"] = (
            "code" if cell.cell_type == "code" else "markdown"
        )
        line = start if kind == "code" else first + 1
        cells.append(Cell(kind, line, first + 1, cell.source, dict(cell.metadata)))
    return cells


def code_cells(text: str) -> list[Cell]:
    """The code cells of the MyST notebook ``text``, in order."""
    return [cell for cell in read_cells(text) if cell.kind == "code"]
