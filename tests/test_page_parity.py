"""The cells of the pages, as myst_notebook.py gives them (read by page_structure.py).

That both languages have the same pages, with identical code cells and
kernelspec (which lets them share one execution in the notebook cache), the
same headings, figures and labels, is checked by the translation checker:
see tests/test_translation.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import GUIDE_PAGES
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.myst_notebook import code_cells, read_cells

PAGES = [
    GUIDE_PAGES.source(lang, name)
    for lang in LANGUAGES
    for name in GUIDE_PAGES.written[lang]
]


def test_cells_keep_their_options_and_where_they_are() -> None:
    text = (
        "# T\n\n```{code-cell} ipython3\n:tags: [raises-exception]\n\n1 / 0\n```\n"
        "\nMore prose.\n\n````{code-cell} ipython3\n---\ntags: [hide-cell]\n---\n"
        "x = 1\ny = 2\n````\n"
    )
    first, second = code_cells(text)
    assert (first.line, first.tags, first.source, first.line_of(0)) == (
        3,
        ("raises-exception",),
        "1 / 0",
        6,
    )
    assert (second.line, second.tags, second.line_of(1)) == (11, ("hide-cell",), 16)
    prose = [cell for cell in read_cells(text) if cell.kind == "markdown"]
    assert [(cell.line, cell.source) for cell in prose] == [
        (1, "# T"),
        (9, "More prose."),
    ]


# Not "page": that is pytest-playwright's fixture, which brings a browser.
@pytest.mark.parametrize(
    "path", PAGES, ids=lambda path: f"{path.parent.name}/{path.stem}"
)
def test_every_cell_of_a_real_page_is_where_the_reader_says(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for cell in read_cells(text):
        source = cell.source.splitlines()
        if cell.kind == "code":
            assert lines[cell.line - 1].startswith("```{code-cell}"), cell
        if source:
            assert lines[cell.line_of(0) - 1 : cell.line_of(len(source)) - 1] == source
