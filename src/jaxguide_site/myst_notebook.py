"""A page's cells, as the build executes them.

A page is a MyST text notebook. :func:`read_cells` gives the cells that
myst-nb reads from it (:mod:`.page_structure` reads them from the same
markdown-it tokens, with the site's extensions), so the translation checker,
the failure reporter, the page runner and the tests see exactly the cells
that the build executes, with where each cell is in the file, for messages an
editor can jump to::

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

from .page_structure import Cell, read

__all__ = ["Cell", "code_cells", "read_cells"]


def read_cells(text: str) -> list[Cell]:
    """The cells of the MyST notebook ``text``, in order, with their lines."""
    return list(read(text).cells)


def code_cells(text: str) -> list[Cell]:
    """The code cells of the MyST notebook ``text``, in order."""
    return [cell for cell in read(text).cells if cell.kind == "code"]
