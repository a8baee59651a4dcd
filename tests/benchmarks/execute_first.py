"""Trial of issue 47, item 1: execute every page into the cache, then render.

    python -m tests.benchmarks.execute_first CACHE docs/ko [--jobs 2]

then build with ``JAXGUIDE_NB_CACHE=CACHE python -m jaxguide_site.site_build
--build OUT``: Sphinx should execute nothing ("Executed notebook" never in its
log). Ordinary pages run side by side in one asyncio loop (one process, so
jupyter_client hands out distinct TCP ports: no Unix-socket workaround, no
table race, no trim race); measuring pages run after them, one at a time,
with nothing else running. Each page's notebook is read as myst-nb reads it
and stored through jupyter-cache's own API, unexecuted metadata unchanged
(``record_timing=False``, as jupyter-cache's executor runs it), so that the
build's cache lookup matches it. Prints one JSON line per page and the total.
Not part of the build: see the closing note of issue 47 for what it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.cache.main import JupyterCacheBase
from myst_nb.core.read import read_myst_markdown_notebook
from myst_parser.config.main import MdParserConfig
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from jaxguide.site import GLUE_ENV, MEASURED_ALONE_ENV
from jaxguide_site.execution.cache_key import KERNEL_ARGUMENTS
from jaxguide_site.execution.measuring import declares_measuring
from jaxguide_site.page_structure import SITE_EXTENSIONS

# docs/conf.py's myst settings that change how a page reads.
CONFIG = MdParserConfig(enable_extensions=set(SITE_EXTENSIONS), heading_anchors=3)


def notebook_pages(folder: Path) -> list[Path]:
    """The pages that are notebooks: a kernelspec in the front matter."""
    return sorted(
        p for p in folder.glob("*.md") if "kernelspec" in p.read_text("utf-8")[:600]
    )


async def run_page(
    path: Path, cache: JupyterCacheBase, *, measures: bool
) -> dict[str, Any]:
    nb = read_myst_markdown_notebook(
        path.read_text("utf-8"), CONFIG, add_source_map=True, path=path
    )
    try:
        cache.match_cache_notebook(nb)
    except KeyError:
        pass
    else:
        return {"page": path.stem, "cached": True}
    env = {**os.environ, GLUE_ENV: "1"}
    if measures:
        env[MEASURED_ALONE_ENV] = "1"
    started = time.time()
    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(
            nb,
            timeout=300,
            allow_errors=False,
            record_timing=False,
            resources={"metadata": {"path": cwd}},
            extra_arguments=list(KERNEL_ARGUMENTS),
        )
        try:
            await client.async_execute(env=env)
        except CellExecutionError as error:
            return {"page": path.stem, "failed": str(error)[:300]}
    took = time.time() - started
    cache.cache_notebook_bundle(
        CacheBundleIn(nb, str(path), data={"execution_seconds": took}),
        check_validity=False,
        overwrite=True,
    )
    return {"page": path.stem, "measures": measures, "took": round(took, 1)}


async def fill(cache_path: Path, folder: Path, jobs: int) -> list[dict[str, Any]]:
    cache = get_cache(cache_path)
    pages = notebook_pages(folder)
    measuring = [p for p in pages if declares_measuring(p.read_text("utf-8"))]
    gate = asyncio.Semaphore(jobs)

    async def ordinary(path: Path) -> dict[str, Any]:
        async with gate:
            return await run_page(path, cache, measures=False)

    log = list(
        await asyncio.gather(*(ordinary(p) for p in pages if p not in measuring))
    )
    log.extend([await run_page(path, cache, measures=True) for path in measuring])
    return log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cache", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.time()
    log = asyncio.run(fill(args.cache, args.folder, args.jobs))
    for entry in log:
        print(json.dumps(entry))
    print(json.dumps({"total": round(time.time() - started, 1)}))
    return 1 if any("failed" in entry for entry in log) else 0


if __name__ == "__main__":
    sys.exit(main())
