"""The code-cell reader the tests share (tests/helpers.py).

That both languages have the same pages, with identical code cells and
kernelspec (which lets them share one execution in the notebook cache), the
same headings, figures and labels, is checked by the translation checker:
see tests/test_translation.py, which also shows that its reader finds the
same cells as this one on every real page.
"""

from __future__ import annotations

from pathlib import Path

from helpers import code_cells


def test_parser_finds_cells_with_their_tags(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n```{code-cell} ipython3\n:tags: [raises-exception]\n\n1 / 0\n```\n"
    )
    assert code_cells(page) == [" ipython3\n:tags: [raises-exception]\n\n1 / 0"]
