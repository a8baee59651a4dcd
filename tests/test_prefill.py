"""Pages execute before Sphinx reads them (src/jaxguide_site/execution/prefill.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

import pytest
from jupyter_cache import get_cache

from helpers import DOCS, REPO, run_sphinx
from jaxguide_site.execution.measuring import (
    declares_measuring,
    overlaps_with_measuring,
)
from jaxguide_site.execution.prefill import (
    Outcome,
    fill_language,
    notebook_pages,
    read_log,
)
from jaxguide_site.languages import LANGUAGES
from test_measuring import project

BROKEN = "```{code-cell} ipython3\nprint('before')\n1 / 0\n```\n"


def fill(folder: Path, cache: Path, jobs: int = 3) -> list[Outcome]:
    """The pre-step's fill, in a thread of its own: a browser test earlier in
    the same worker leaves an event loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        run = thread.submit(asyncio.run, fill_language(folder, get_cache(cache), jobs))
        return run.result()


def test_only_notebook_pages_outside_skipped_folders_are_found(tmp_path: Path) -> None:
    srcdir = project(tmp_path / "src", ["timed"], ["page"])
    (srcdir / "jupyter_execute").mkdir()
    (srcdir / "jupyter_execute" / "page.md").write_text(
        (srcdir / "page.md").read_text("utf-8"), "utf-8"
    )
    assert [p.name for p in notebook_pages(srcdir)] == ["page.md", "timed.md"]


@pytest.mark.slow
def test_measuring_pages_run_alone_and_sphinx_then_executes_nothing(
    tmp_path: Path,
) -> None:
    srcdir = project(tmp_path / "src", ["timed1", "timed2"], ["p1", "p2", "p3", "p4"])
    cache = tmp_path / "cache"
    outcomes = fill(srcdir, cache)
    assert {o.page: o.outcome for o in outcomes} == dict.fromkeys(
        ["p1", "p2", "p3", "p4", "timed1", "timed2"], "executed"
    )
    holds = [asdict(o) for o in outcomes]
    assert overlaps_with_measuring(holds) == []
    ordinary = [o for o in outcomes if not o.alone]
    assert any(
        a.started < b.ended and b.started < a.ended
        for a in ordinary
        for b in ordinary
        if a is not b
    ), "the ordinary pages did not run side by side"
    outputs = {
        record.uri: "".join(
            out.get("text", "")
            for cell in get_cache(cache).get_cache_bundle(record.pk).nb.cells
            for out in cell.get("outputs", [])
        )
        for record in get_cache(cache).list_cache_records()
    }
    for uri, text in outputs.items():
        alone = "timed" in Path(uri).stem
        assert ("alone: 1" in text) is alone, (uri, text)

    result = run_sphinx(
        srcdir,
        tmp_path / "out",
        lang="en",
        cache=cache,
        jobs=2,
        extra=("-D", "jaxguide_prefilled=1"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "read: 0 executed, 6 from the cache, 0 failed" in result.stdout
    assert [o.outcome for o in fill(srcdir, cache)] == ["cached"] * 6


@pytest.mark.slow
def test_a_failing_page_is_named_not_stored_and_the_build_reports_it(
    tmp_path: Path,
) -> None:
    srcdir = project(tmp_path / "src", [], ["fine", "broken"])
    page = srcdir / "broken.md"
    page.write_text(page.read_text("utf-8") + "\n" + BROKEN, "utf-8")
    lines = page.read_text("utf-8").splitlines()
    fence = max(
        n for n, text in enumerate(lines, 1) if text.startswith("```{code-cell")
    )
    cache = tmp_path / "cache"
    outcomes = {o.page: o for o in fill(srcdir, cache)}
    assert outcomes["fine"].outcome == "executed"
    assert outcomes["broken"].outcome == "failed"
    assert outcomes["broken"].problem == (
        f"{page}:{fence}: cell 2 failed to execute: ZeroDivisionError: division by zero"
    )
    assert len(get_cache(cache).list_cache_records()) == 1

    result = run_sphinx(
        srcdir,
        tmp_path / "out",
        lang="en",
        cache=cache,
        extra=("-D", "jaxguide_prefilled=1"),
    )
    assert result.returncode != 0
    assert "cell 2 failed to execute: ZeroDivisionError" in result.stderr
    assert "executed, but the pre-step" not in result.stderr


@pytest.mark.slow
def test_sphinx_executing_a_page_after_the_pre_step_is_a_warning(
    tmp_path: Path,
) -> None:
    """What a pre-step that read pages differently from myst-nb would cause:
    here, no pre-step at all."""
    srcdir = project(tmp_path / "src", [], ["page"])
    result = run_sphinx(
        srcdir,
        tmp_path / "out",
        lang="en",
        cache=tmp_path / "cache",
        extra=("-D", "jaxguide_prefilled=1"),
    )
    assert result.returncode != 0
    assert "1 page(s) executed, but the pre-step" in result.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sites_last_build_executed_pages_only_in_the_pre_step(
    site: Path, lang: str
) -> None:
    """``nox -s site`` builds the site (in CI from an empty cache): the first
    language's pages executed in the pre-step, each measuring page with
    nothing beside it; the second language's came from the cache."""
    del site
    log = read_log(REPO / "build" / "doctrees" / lang)
    assert all(entry["outcome"] == "executed" for entry in log), log
    for entry in log:
        source = (DOCS / lang / f"{entry['page']}.md").read_text(encoding="utf-8")
        assert entry["alone"] == declares_measuring(source), entry["page"]
    assert overlaps_with_measuring(log) == []
