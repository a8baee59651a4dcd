"""Both languages have the same pages with the same code cells.

Identical code cells (source, options and tags) and kernelspec are what let
the two languages share one execution in the notebook cache, and what keeps
the pages from drifting apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import DOCS, code_cells

FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)


def kernelspec(path: Path) -> str:
    match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
    body = match["body"] if match else ""
    return body[body.find("kernelspec:") :] if "kernelspec:" in body else ""


def page_names(lang: str) -> set[str]:
    return {
        path.relative_to(DOCS / lang).as_posix() for path in (DOCS / lang).rglob("*.md")
    }


def test_both_languages_have_the_same_pages() -> None:
    only_ko = page_names("ko") - page_names("en")
    only_en = page_names("en") - page_names("ko")
    assert not only_ko, f"pages only in docs/ko: {sorted(only_ko)}"
    assert not only_en, f"pages only in docs/en: {sorted(only_en)}"


@pytest.mark.parametrize("name", sorted(page_names("ko") & page_names("en")))
def test_code_cells_and_kernelspec_are_identical(name: str) -> None:
    ko, en = DOCS / "ko" / name, DOCS / "en" / name
    assert kernelspec(ko) == kernelspec(en), f"{name}: kernelspec differs"
    ko_cells, en_cells = code_cells(ko), code_cells(en)
    assert len(ko_cells) == len(en_cells), (
        f"{name}: {len(ko_cells)} vs {len(en_cells)} cells"
    )
    for number, (ko_cell, en_cell) in enumerate(
        zip(ko_cells, en_cells, strict=True), 1
    ):
        assert ko_cell == en_cell, (
            f"{name}: code cell {number} differs between ko and en"
        )


def test_parser_finds_cells_with_their_tags(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n```{code-cell} ipython3\n:tags: [raises-exception]\n\n1 / 0\n```\n"
    )
    assert code_cells(page) == [" ipython3\n:tags: [raises-exception]\n\n1 / 0"]


LABEL = re.compile(r"^\((?P<label>[\w-]+)\)=$", re.MULTILINE)
HEADING = re.compile(r"^(?P<level>#{1,6}) ", re.MULTILINE)


def prose(path: Path) -> str:
    """The page without its code cells (a `# comment` in code is no heading)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(
        r"^(`{3,})\{code-cell\}.*?^\1$", "", text, flags=re.MULTILINE | re.DOTALL
    )


@pytest.mark.parametrize("name", sorted(page_names("ko") & page_names("en")))
def test_labels_and_heading_levels_are_the_same(name: str) -> None:
    ko, en = prose(DOCS / "ko" / name), prose(DOCS / "en" / name)
    assert LABEL.findall(ko) == LABEL.findall(en), f"{name}: (label)= targets differ"
    ko_levels = [len(level) for level in HEADING.findall(ko)]
    en_levels = [len(level) for level in HEADING.findall(en)]
    assert ko_levels == en_levels, (
        f"{name}: heading levels differ: {ko_levels} vs {en_levels}"
    )
