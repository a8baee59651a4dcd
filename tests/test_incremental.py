"""An incremental build writes what a clean build writes (myst-nb's
stylesheet included: jaxguide_site once copied it early for that, which
myst-nb 1.4 with Sphinx 9 no longer needs; execution/referrers.py's references
are tested in test_preview.py)."""

from __future__ import annotations

from pathlib import Path

from build_diff import first_difference
from helpers import build_project, tiny_project


def edit(page: Path, old: str, new: str) -> None:
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")


def test_incremental_builds_equal_clean_builds(tmp_path: Path) -> None:
    """Three rounds of edits: after each, the incremental build's output is a
    clean build's (myst-nb's stylesheet linked the same way), and neither
    writes Sphinx's search index (the site searches with Pagefind)."""
    cache = tmp_path / "cache"
    srcdir = tiny_project(tmp_path / "src", pages=3)
    page1, page2 = srcdir / "page1.md", srcdir / "page2.md"
    page1.write_text(page1.read_text() + "\nThe zebrafish swims.\n", encoding="utf-8")
    page2.write_text(
        page2.read_text() + "\n```{index} single: tuna\n```\n", encoding="utf-8"
    )
    incremental = tmp_path / "incremental"

    def build_and_compare(round_: int) -> None:
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

    first = build_project(srcdir, incremental, lang="en", cache=cache, execute=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert not (incremental / "html" / "searchindex.js").exists()
    assert (incremental / "html" / "search.html").is_file()

    edit(page1, "zebrafish", "trout")  # page2, with its entry, is not rewritten
    build_and_compare(1)
    edit(page2, "single: tuna", "single: salmon")
    build_and_compare(2)
    edit(page1, "trout", "carp")  # page2 not rewritten: its new entry stays
    build_and_compare(3)
    genindex = (incremental / "html" / "genindex.html").read_text(encoding="utf-8")
    assert "salmon" in genindex
    assert "tuna" not in genindex


def notebook_times(html: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in html.glob("*.ipynb")}


def test_a_rebuild_rewrites_the_notebook_downloads_only_when_something_changed(
    tmp_path: Path,
) -> None:
    """Writing the downloads was most of a no-change rebuild; they are left
    alone when nothing they hold changed, and every change still reaches
    them: a code cell, another page's heading that a link names, a setting
    that re-reads no page (the repository Colab installs from)."""
    cache = tmp_path / "cache"
    srcdir = tiny_project(tmp_path / "src", pages=3)
    page1, page2 = srcdir / "page1.md", srcdir / "page2.md"
    edit(page1, "# page1", "(first)=\n# page1")
    page2.write_text(page2.read_text() + "\nSee {ref}`first`.\n", encoding="utf-8")
    out = tmp_path / "out"

    # The site's address fixed: a fork's repository would change it too.
    site = {"JAXGUIDE_BASE_URL": "https://guide.example/"}

    def build(**env: str) -> dict[str, int]:
        result = build_project(srcdir, out, lang="en", cache=cache, env=site | env)
        assert result.returncode == 0, result.stdout + result.stderr
        return notebook_times(out / "html")

    def notebook(name: str) -> str:
        return (out / "html" / f"{name}.ipynb").read_text(encoding="utf-8")

    first = build()
    assert sorted(first) == ["index.ipynb", "page1.ipynb", "page2.ipynb"]
    assert build() == first

    edit(page1, "print('page1')", "print('the first page')")
    edited = build()
    assert edited != first
    assert "the first page" in notebook("page1")
    clean = build_project(srcdir, tmp_path / "clean", lang="en", cache=cache, env=site)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert first_difference(out / "html", tmp_path / "clean" / "html") is None
    assert build() == edited

    edit(page1, "# page1", "# The first page")  # page2 is not read again
    build()
    assert "[The first page]" in notebook("page2")

    build(JAXGUIDE_REPOSITORY="someone/fork")
    assert "someone/fork" in notebook("page2")
