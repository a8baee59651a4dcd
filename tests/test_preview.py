"""The prose-only preview (``site_build --preview``, ``nox -s preview``):
it executes no page, and shows the outputs the execution cache holds
(src/jaxguide_site/execution/preview.py); a page the cache lacks says so at
its top and is listed when the preview ends. A reference into a page the
preview re-read is checked again (src/jaxguide_site/execution/referrers.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from jupyter_cache import get_cache

from helpers import (
    NOTEBOOK_FRONT_MATTER,
    BuildResult,
    run_sphinx,
    site_app,
    tiny_project,
)
from jaxguide_site.site_build import (
    PREVIEW_REPORT,
    not_executed_lines,
    preview_addresses,
)
from translation_docs import commit

PREVIEW = ("-D", "jaxguide_execute=0")
OUTPUT = 'class="cell_output'
BANNER = "jaxguide-not-executed"
BANNER_TITLE = {
    "ko": "이 미리 보기에서는 실행하지 않았습니다",
    "en": "Not executed in this preview",
}
# The banner says the glued values are missing too, not only the outputs.
BANNER_GLUED = {"ko": "glue로 넣은 수치와 그림", "en": "glued numbers and figures"}
RUN_NOTE = "jaxguide-run-note"


def preview_build(srcdir: Path, outdir: Path, *, lang: str, cache: Path) -> BuildResult:
    """A preview of ``srcdir`` in this process, as ``site_build --preview``
    makes it; its HTML in ``outdir/html``, its report in ``outdir/doctrees``."""
    overrides = {"nb_execution_cache_path": str(cache), "jaxguide_execute": "0"}
    app = site_app(srcdir, outdir, lang=lang, overrides=overrides)
    try:
        app.build()
    finally:
        app.cleanup()
    return BuildResult(app.statuscode, app.status.getvalue(), app.warning.getvalue())


def write_pages(srcdir: Path, pages: dict[str, str]) -> Path:
    srcdir.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (srcdir / f"{name}.md").write_text(text, encoding="utf-8")
    return srcdir


def edit(page: Path, old: str, new: str) -> None:
    """Replace ``old`` in ``page``, a second later than its last change (Sphinx
    tells a changed page by its time)."""
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")
    later = page.stat().st_mtime + 1
    os.utime(page, (later, later))


def test_a_preview_prints_the_address_of_the_page_edited_last(tmp_path: Path) -> None:
    pages, out = tmp_path / "docs" / "ko", tmp_path / "build" / "preview" / "ko"
    (pages / "sub").mkdir(parents=True)
    for name, seconds in (("index", 0), ("sub/jit", 2), ("vmap", 1)):
        (pages / f"{name}.md").write_text("# Page\n", encoding="utf-8")
        os.utime(pages / f"{name}.md", (1e9, 1e9 + seconds))  # sub/jit: last
    assert preview_addresses(pages, out) == [
        f"preview written, open {(out / 'index.html').as_uri()}",
        (
            f"the page edited last: {(out / 'sub' / 'jit.html').as_uri()} "
            f"(each page is {out}/<page>.html)"
        ),
    ]


def test_the_page_edited_last_is_one_changed_since_the_last_commit(
    tmp_path: Path,
) -> None:
    """Not the newest file: ``git checkout`` writes files it did not edit."""
    pages, out = tmp_path / "docs" / "ko", tmp_path / "build" / "preview" / "ko"
    pages.mkdir(parents=True)
    for name in ("jit", "vmap"):
        (pages / f"{name}.md").write_text("# Page\n", encoding="utf-8")
    commit(tmp_path, "pages")
    edit(pages / "jit.md", "Page", "Page, edited")
    later = (pages / "jit.md").stat().st_mtime + 10
    os.utime(pages / "vmap.md", (later, later))  # as a checkout leaves it
    assert preview_addresses(pages, out)[1].startswith(
        f"the page edited last: {(out / 'jit.html').as_uri()} "
    )
    commit(tmp_path, "the edit")
    assert preview_addresses(pages, out) == [
        f"preview written, open {(out / 'index.html').as_uri()}"
    ]


def test_the_end_of_a_preview_lists_the_pages_without_outputs(tmp_path: Path) -> None:
    report = tmp_path / PREVIEW_REPORT
    assert not_executed_lines(report) == []  # a build that is no preview
    report.write_text(json.dumps({"not_executed": [], "cache_empty": False}))
    assert not_executed_lines(report) == []

    report.write_text(
        json.dumps({"not_executed": ["jit", "vmap"], "cache_empty": True})
    )
    listed, how = not_executed_lines(report)
    assert listed.startswith("2 page(s) not executed")
    assert listed.endswith(": jit, vmap")
    assert "the execution cache is empty" in how
    assert "run 'python -m nox -s docs' once" in how

    report.write_text(json.dumps({"not_executed": ["jit"], "cache_empty": False}))
    listed, how = not_executed_lines(report)
    assert listed.endswith(": jit")
    assert "lacks their code as it is now" in how
    assert "'python -m nox -s docs' executes them" in how


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_page_the_cache_lacks_says_so_at_its_top_in_its_language(
    tmp_path: Path, lang: str
) -> None:
    notebook = (
        f"{NOTEBOOK_FRONT_MATTER}\n# Cells\n\n```{{code-cell}} ipython3\n1 + 1\n```\n"
    )
    srcdir = write_pages(
        tmp_path / "src",
        {
            "index": "# Home\n\n```{toctree}\ncells\nprose\n```\n",
            "cells": notebook,
            "prose": f"{NOTEBOOK_FRONT_MATTER}\n# Prose\n\nNo code.\n",
        },
    )
    result = preview_build(srcdir, tmp_path / "out", lang=lang, cache=tmp_path / "c")
    assert result.returncode == 0, result.stdout + result.stderr

    cells = (tmp_path / "out" / "html" / "cells.html").read_text(encoding="utf-8")
    title, banner = cells.index("<h1>"), cells.index(BANNER)
    # Under the title, above the code; the note that says the code ran when
    # the site was built is left out (it would contradict the banner).
    assert title < banner < cells.index("cell_input")
    assert RUN_NOTE not in cells
    assert BANNER_TITLE[lang] in cells
    assert BANNER_GLUED[lang] in cells[banner : cells.index("cell_input")]
    assert "<code" in cells[banner : cells.index("cell_input")]  # the command
    for page in ("index", "prose"):  # nothing to execute: nothing missing
        assert BANNER not in (tmp_path / "out" / "html" / f"{page}.html").read_text()
    # A notebook page the preview does not mark keeps its note.
    assert RUN_NOTE in (tmp_path / "out" / "html" / "prose.html").read_text()
    report = json.loads((tmp_path / "out" / "doctrees" / PREVIEW_REPORT).read_text())
    assert report == {"not_executed": ["cells"], "cache_empty": True}


def test_a_preview_checks_references_into_the_pages_it_re_read(tmp_path: Path) -> None:
    """A page not re-read that refers to a label renamed on a re-read page is
    written again, so the broken reference is reported; a changed title
    becomes the link's text; an edit of the prose alone rewrites no other page."""
    srcdir = write_pages(
        tmp_path / "src",
        {
            "index": "# Home\n\n```{toctree}\ntarget\nreferrer\n```\n",
            "target": "# Target\n\n(the-label)=\n## Old title\n\nText.\n",
            "referrer": "# Referrer\n\nSee {ref}`the-label` and {doc}`target`.\n",
        },
    )
    out, cache = tmp_path / "out", tmp_path / "c"
    assert preview_build(srcdir, out, lang="en", cache=cache).returncode == 0
    referrer = out / "html" / "referrer.html"
    written = referrer.stat().st_mtime_ns

    edit(srcdir / "target.md", "Text.", "Other text.")  # prose alone
    assert preview_build(srcdir, out, lang="en", cache=cache).returncode == 0
    assert referrer.stat().st_mtime_ns == written  # not written again

    edit(srcdir / "target.md", "## Old title", "## New title")
    result = preview_build(srcdir, out, lang="en", cache=cache)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "New title" in referrer.read_text(encoding="utf-8")

    edit(srcdir / "target.md", "(the-label)=", "(a-new-label)=")
    result = preview_build(srcdir, out, lang="en", cache=cache)
    assert "referrer.md" in result.stderr
    assert "undefined label: 'the-label'" in result.stderr

    again = preview_build(srcdir, out, lang="en", cache=cache)  # no change
    assert "undefined label: 'the-label'" in again.stderr  # until it is fixed

    edit(srcdir / "referrer.md", "{ref}`the-label`", "{ref}`a-new-label`")
    fixed = preview_build(srcdir, out, lang="en", cache=cache)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


@pytest.mark.slow
def test_a_preview_executes_nothing_and_shows_the_cached_outputs(
    tmp_path: Path,
) -> None:
    srcdir = tiny_project(tmp_path / "src", pages=2)
    cache = tmp_path / "cache"

    # Each build in its own process: the preview replaces myst-nb's choice of
    # execution client for the whole process.
    cold = run_sphinx(srcdir, tmp_path / "cold", lang="en", cache=cache, extra=PREVIEW)
    assert cold.returncode == 0, cold.stdout + cold.stderr
    assert "0 executed" in cold.stdout
    assert get_cache(cache).list_cache_records() == []
    cold_page = tmp_path / "cold" / "html" / "page1.html"
    assert OUTPUT not in cold_page.read_text()
    assert BANNER in cold_page.read_text()

    full = run_sphinx(srcdir, tmp_path / "full", lang="en", cache=cache)
    assert full.returncode == 0, full.stdout + full.stderr
    assert len(get_cache(cache).list_cache_records()) == 2
    assert BANNER not in (tmp_path / "full" / "html" / "page1.html").read_text()

    # The same preview again: the pages it showed without outputs are read
    # again now that the cache holds them.
    again = run_sphinx(srcdir, tmp_path / "cold", lang="en", cache=cache, extra=PREVIEW)
    assert again.returncode == 0, again.stdout + again.stderr
    assert OUTPUT in cold_page.read_text()
    assert BANNER not in cold_page.read_text()

    warm = run_sphinx(srcdir, tmp_path / "warm", lang="en", cache=cache, extra=PREVIEW)
    assert warm.returncode == 0, warm.stdout + warm.stderr
    page = (tmp_path / "warm" / "html" / "page1.html").read_text()
    assert OUTPUT in page
    assert BANNER not in page
    assert "page1" in page.split(OUTPUT, 1)[1]
