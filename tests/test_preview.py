"""The prose-only preview (``jaxguide-build --preview``, ``nox -s preview``):
it executes no page, and shows the outputs the execution cache holds
(src/jaxguide_site/execution/preview.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from jupyter_cache import get_cache

from helpers import run_sphinx, tiny_project
from jaxguide_site.site_build import preview_addresses

PREVIEW = ("-D", "jaxguide_execute=0")
OUTPUT = 'class="cell_output'


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
    assert OUTPUT not in (tmp_path / "cold" / "html" / "page1.html").read_text()

    full = run_sphinx(srcdir, tmp_path / "full", lang="en", cache=cache)
    assert full.returncode == 0, full.stdout + full.stderr
    assert len(get_cache(cache).list_cache_records()) == 2

    warm = run_sphinx(srcdir, tmp_path / "warm", lang="en", cache=cache, extra=PREVIEW)
    assert warm.returncode == 0, warm.stdout + warm.stderr
    page = (tmp_path / "warm" / "html" / "page1.html").read_text()
    assert OUTPUT in page
    assert "page1" in page.split(OUTPUT, 1)[1]
