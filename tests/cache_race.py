"""Open one jupyter-cache from many processes at the same instant.

This is what ``sphinx-build -j N`` does on a cold build: every parallel reader
opens the execution cache as it starts its first notebook, and stores each
notebook it executed. Run as a script::

    python tests/cache_race.py CACHE [--processes 16] [--store]

it prints one line per process that failed and exits 1 if any did. With
``--store`` each process also stores a notebook of its own, and a notebook
missing from the cache afterwards counts as a failure. The tests and the
benchmark run it in a fresh interpreter, so the processes are forked from a
small, single-threaded parent rather than from pytest's (where JAX may have
started threads). Pass ``--as-the-build`` to apply what the site's Sphinx
extension does to jupyter-cache in the build's processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from multiprocessing.synchronize import Barrier

import nbformat

# Imported before forking, so that every child is at the starting line at once.
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.cache.main import JupyterCacheBase

from jaxguide_site.execution.cache import defer_truncation

PROCESSES = 16


def notebook(number: int) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(f"print({number})", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", text=f"{number}\n")]
    return nbformat.v4.new_notebook(cells=[cell])


def _open(
    cache: str,
    number: int,
    store: bool,
    barrier: Barrier,
    errors: multiprocessing.Queue[str],
) -> None:
    barrier.wait()
    try:
        opened = JupyterCacheBase(cache)
        opened.get_cache_limit()  # reads the settings table
        opened.list_cache_records()  # reads the nbcache table
        if store:
            opened.cache_notebook_bundle(
                CacheBundleIn(notebook(number), f"page{number}.md")
            )
    except Exception as error:  # noqa: BLE001 (any error is the finding)
        errors.put(f"{type(error).__name__}: {str(error).splitlines()[0]}")
    else:
        errors.put("")


def open_at_once(
    cache: str, processes: int = PROCESSES, store: bool = False
) -> list[str]:
    """What went wrong when ``processes`` processes opened ``cache`` together
    (and each stored a notebook, with ``store``); [] when nothing did."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(processes)
    errors: multiprocessing.Queue[str] = context.Queue()
    children = [
        context.Process(target=_open, args=(cache, n, store, barrier, errors))
        for n in range(processes)
    ]
    for child in children:
        child.start()
    found = [errors.get(timeout=120) for _ in children]
    for child in children:
        child.join()
    problems = [error for error in found if error]
    if store:
        stored = {record.uri for record in JupyterCacheBase(cache).list_cache_records()}
        problems += [
            f"page{n}.md is missing from the cache"
            for n in range(processes)
            if f"page{n}.md" not in stored
        ]
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache")
    parser.add_argument("--processes", type=int, default=PROCESSES)
    parser.add_argument("--store", action="store_true")
    parser.add_argument("--as-the-build", action="store_true")
    args = parser.parse_args()
    if args.as_the_build:
        defer_truncation()
    problems = open_at_once(args.cache, args.processes, args.store)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
