"""Execute the pages into the cache before Sphinx reads them.

    python -m jaxguide_site.execution.prefill --docs docs --build build --jobs 2

``site_build`` runs it before every full build (``nox -s docs``, ``nox -s
site``, the build benchmark), so that Sphinx then only reads executed pages
from the cache. One process schedules the whole run, language by language:
the ordinary pages side by side (``--jobs`` kernels at a time, in one asyncio
loop), then the pages that measure (:mod:`.measuring`), one at a time with
nothing else executing and :data:`jaxguide.site.MEASURED_ALONE_ENV` set. The
second language's pages have the first's code, so they come from the cache.

Each page is read as myst-nb reads it, executed as jupyter-cache's executor
runs it (``record_timing=False``: jupyter-cache keys a notebook on its code
cells and their metadata, and a recorded timing would make every lookup
miss), and stored through jupyter-cache's own API. The Sphinx build is told
(``-D jaxguide_prefilled=1``), and :mod:`.report` warns if it still executes
a page that this step executed or found: that would mean the two read a
page differently.

A page whose cell fails is not stored, and the step ends with status
:data:`PAGES_FAILED` (after every page, its failures printed): Sphinx then
reads one page at a time, executes that page again and reports it as before
(page, line, cell and error, :mod:`.failures`). Each executed page is logged
in ``<build>/doctrees/<lang>/prefill-log.jsonl`` (when it started and ended,
and whether it ran alone), which is how the tests see that a measuring page
ran with nothing beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from myst_nb.core.read import is_myst_markdown_notebook, read_myst_markdown_notebook
from myst_parser.config.main import MdParserConfig
from sphinx.errors import ExtensionError

from ..languages import LANGUAGES
from ..page_structure import SITE_EXTENSIONS
from .cache import cache_folder
from .failures import summarize_failure
from .kernels import check_reader_kernel, kernel_environment, page_client
from .measuring import measures

if TYPE_CHECKING:
    from jupyter_cache.cache.main import JupyterCacheBase
    from nbformat import NotebookNode

CELL_TIMEOUT_S = 300  # per cell, here and in Sphinx (docs/conf.py)
LOG_NAME = "prefill-log.jsonl"
PAGES_FAILED = 3  # the exit status where a page failed (site_build.py reads it)
# Where Sphinx never reads a page (docs/conf.py's exclude_patterns).
SKIPPED_FOLDERS = frozenset({"_build", "jupyter_execute", ".ipynb_checkpoints"})


@dataclass(frozen=True)
class Outcome:
    """What became of one page: ``executed``, ``cached`` or ``failed``."""

    page: str
    outcome: str
    alone: bool
    started: float
    ended: float
    problem: str = ""


def notebook_pages(folder: Path) -> list[Path]:
    """The pages of ``folder`` that myst-nb reads as notebooks."""
    return sorted(
        path
        for path in folder.rglob("*.md")
        if not SKIPPED_FOLDERS.intersection(path.relative_to(folder).parts)
        and is_myst_markdown_notebook(path.read_text(encoding="utf-8"))
    )


def read_notebook(path: Path) -> NotebookNode:
    """The page as myst-nb's reader turns it into a notebook."""
    config = MdParserConfig(enable_extensions=set(SITE_EXTENSIONS))
    text = path.read_text(encoding="utf-8")
    nb: NotebookNode = read_myst_markdown_notebook(
        text, config, add_source_map=True, path=path
    )
    return nb


def is_cached(cache: JupyterCacheBase, nb: NotebookNode) -> bool:
    try:
        cache.match_cache_notebook(nb)
    except KeyError:
        return False
    return True


async def execute_page(
    path: Path, nb: NotebookNode, page: str, cache: JupyterCacheBase
) -> Outcome:
    """Execute one page, read as ``nb``, into ``cache`` unless it is there."""
    alone = measures(nb.metadata)
    started = time.time()
    if is_cached(cache, nb):
        return Outcome(page, "cached", alone, started, started)
    with tempfile.TemporaryDirectory() as cwd:
        client = page_client(
            nb, cwd, timeout=CELL_TIMEOUT_S, allow_errors=False, record_timing=False
        )
        try:
            await client.async_execute(env=kernel_environment(nb))
        except Exception as error:  # noqa: BLE001 (Sphinx reports it again)
            cell, line, message = summarize_failure(
                str(error), path.read_text(encoding="utf-8")
            )
            where = f"{path}:{line}: cell {cell}" if cell else f"{path}: a cell"
            problem = f"{where} failed to execute: {message}"
            return Outcome(page, "failed", alone, started, time.time(), problem)
    took = time.time() - started
    cache.cache_notebook_bundle(
        CacheBundleIn(nb, str(path), data={"execution_seconds": took}),
        check_validity=False,
        overwrite=True,
    )
    return Outcome(page, "executed", alone, started, time.time())


async def fill_language(
    folder: Path, cache: JupyterCacheBase, jobs: int
) -> list[Outcome]:
    """Every notebook page of one language: ordinary pages ``jobs`` at a
    time, then the measuring pages one by one."""
    notebooks = {path: read_notebook(path) for path in notebook_pages(folder)}
    measuring = [path for path, nb in notebooks.items() if measures(nb.metadata)]
    gate = asyncio.Semaphore(jobs)

    async def run(path: Path) -> Outcome:
        page = path.relative_to(folder).with_suffix("").as_posix()
        return await execute_page(path, notebooks[path], page, cache)

    async def ordinary(path: Path) -> Outcome:
        async with gate:
            return await run(path)

    outcomes = list(
        await asyncio.gather(*(ordinary(p) for p in notebooks if p not in measuring))
    )
    for path in measuring:  # one by one: each alone
        outcomes.append(await run(path))  # noqa: PERF401
    return outcomes


def summary(lang: str, outcomes: list[Outcome], seconds: float) -> str:
    """The line a build log shows for one language (the bench reads it).

    >>> summary("en", [], 0.04)
    'prefill [en]: 0 notebook page(s): 0 executed, 0 from the cache, 0 failed (0 s)'
    """
    counts = dict.fromkeys(("executed", "cached", "failed"), 0)
    for outcome in outcomes:
        counts[outcome.outcome] += 1
    return (
        f"prefill [{lang}]: {len(outcomes)} notebook page(s): "
        f"{counts['executed']} executed, {counts['cached']} from the cache, "
        f"{counts['failed']} failed ({seconds:.0f} s)"
    )


def write_log(folder: Path, outcomes: list[Outcome]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(asdict(o)) for o in outcomes if o.outcome != "cached"]
    (folder / LOG_NAME).write_text("".join(f"{line}\n" for line in lines), "utf-8")


def read_log(folder: Path) -> list[dict[str, object]]:
    """The pages the last pre-step executed (or failed) for one language."""
    path = folder / LOG_NAME
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line]


def prefill(docs: Path, build: Path, jobs: int) -> int:
    """Fill the cache for every language; the number of pages that failed."""
    cache = get_cache(cache_folder(docs.resolve().parent))
    failed = 0
    for lang in LANGUAGES:
        started = time.time()
        outcomes = asyncio.run(fill_language(docs / lang, cache, jobs))
        write_log(build / "doctrees" / lang, outcomes)
        for outcome in outcomes:
            if outcome.problem:
                print(f"prefill: {outcome.problem}", flush=True)
        failed += sum(o.outcome == "failed" for o in outcomes)
        print(summary(lang, outcomes, time.time() - started), flush=True)
    if failed:
        print(
            f"prefill: {failed} page(s) failed; Sphinx executes them again, "
            "one page at a time, and reports each failed cell",
            flush=True,
        )
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jaxguide_site.execution.prefill",
        description="Execute every page into the execution cache before Sphinx.",
    )
    parser.add_argument("--docs", type=Path, default=Path("docs"))
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--jobs", type=int, default=2, help="ordinary pages at once")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: run at least one page at a time")
    try:
        check_reader_kernel()
    except ExtensionError as error:
        message = f"prefill: {error}"
        raise SystemExit(message) from None
    return PAGES_FAILED if prefill(args.docs, args.build, args.jobs) else 0


if __name__ == "__main__":
    sys.exit(main())
