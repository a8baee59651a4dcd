"""An incremental build writes what a clean build writes
(src/jaxguide_site/execution/incremental.py)."""

from __future__ import annotations

from pathlib import Path

from build_diff import first_difference
from helpers import build_project, tiny_project
from jaxguide_site.execution.incremental import index_entries, tidy


def test_tidy_drops_empty_terms_and_orders_each_entrys_pages() -> None:
    index = {
        "terms": {"kept": [0, 1], "gone": [], "single": 1},
        "titleterms": {"gone": []},
        "indexentries": {"tuna": [[1, "t1", False], [0, "t0", True]]},
    }
    assert tidy(index)
    assert index["terms"] == {"kept": [0, 1], "single": 1}
    assert index["titleterms"] == {}
    assert index["indexentries"] == {"tuna": [[0, "t0", True], [1, "t1", False]]}
    assert not tidy(index)  # nothing left to change


def test_index_entries_are_read_back_per_page() -> None:
    index = {
        "docnames": ["a", "b"],
        "indexentries": {
            "tuna": [[0, "t0", True], [1, "t1", False]],
            "cod": [[1, "c", False]],
        },
    }
    assert index_entries(index) == {
        "a": [("tuna", "t0", "main")],
        "b": [("tuna", "t1", ""), ("cod", "c", "")],
    }


def edit(page: Path, old: str, new: str) -> None:
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")


def test_incremental_builds_equal_clean_builds(tmp_path: Path) -> None:
    """Two rounds of edits: after each, the incremental build's HTML and
    search index are a clean build's. No removed word stays in the index,
    and index entries of pages not rewritten are neither lost nor stale."""
    cache = tmp_path / "cache"
    srcdir = tiny_project(tmp_path / "src", pages=3)
    page1, page2 = srcdir / "page1.md", srcdir / "page2.md"
    page1.write_text(page1.read_text() + "\nThe zebrafish swims.\n", encoding="utf-8")
    page2.write_text(
        page2.read_text() + "\n```{index} single: tuna\n```\n", encoding="utf-8"
    )
    incremental = tmp_path / "incremental"
    index = incremental / "html" / "searchindex.js"

    def build_and_compare(round_: int) -> str:
        again = build_project(
            srcdir, incremental, lang="en", cache=cache, execute=False
        )
        clean = build_project(
            srcdir, tmp_path / f"clean{round_}", lang="en", cache=cache, execute=False
        )
        for result in (again, clean):
            assert result.returncode == 0, result.stdout + result.stderr
        assert (
            first_difference(incremental / "html", tmp_path / f"clean{round_}" / "html")
            is None
        )
        return index.read_text(encoding="utf-8")

    first = build_project(srcdir, incremental, lang="en", cache=cache, execute=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "zebrafish" in index.read_text()

    edit(page1, "zebrafish", "trout")  # page2, with its entry, is not rewritten
    text = build_and_compare(1)
    assert "zebrafish" not in text
    assert '"tuna"' in text

    edit(page2, "single: tuna", "single: salmon")
    build_and_compare(2)
    edit(page1, "trout", "carp")  # page2 not rewritten: its new entry stays
    text = build_and_compare(3)
    assert '"salmon"' in text
    assert '"tuna"' not in text
