"""How often a cold parallel build crashes: the execution cache's first opening.

    python tests/benchmarks/cold_parallel_builds.py [--builds 20] [--jobs 4]

Builds a tiny project (six pages of one quick cell each) with the site's
docs/conf.py and the site's sphinx-build flags, ``--builds`` times, each with a
fresh output folder and a fresh, empty execution cache, at ``-j --jobs``. A
build counts as crashed when it fails; the first line of each crash's error is
printed and its whole log kept in ``build/bench/cold-builds/``. Before the cache was created in the main process, about 8 in 20 such
builds crashed with "table settings already exists" (issue 18).

A measurement, not a test: it takes a few minutes. The regression test is
tests/test_execution_cache.py.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers import REPO, run_sphinx, tiny_project

LOGS = REPO / "build" / "bench" / "cold-builds"

ERROR = re.compile(r"^\S*(Error|Exception)\b.*$", re.MULTILINE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--pages", type=int, default=6)
    args = parser.parse_args(argv)

    crashes = 0
    with tempfile.TemporaryDirectory(prefix="cold-builds-") as scratch:
        srcdir = tiny_project(Path(scratch) / "src", pages=args.pages)
        for n in range(1, args.builds + 1):
            run = Path(scratch) / f"build{n}"
            started = time.perf_counter()
            result = run_sphinx(
                srcdir, run / "out", lang="en", cache=run / "cache", jobs=args.jobs
            )
            seconds = time.perf_counter() - started
            if result.returncode == 0:
                print(f"build {n:2d}: ok ({seconds:.1f} s)", flush=True)
                continue
            crashes += 1
            log = result.stdout + result.stderr
            LOGS.mkdir(parents=True, exist_ok=True)
            (LOGS / f"build{n}.log").write_text(log, encoding="utf-8")
            found = ERROR.search(log)
            reason = found.group(0) if found else log.strip().splitlines()[-1]
            print(f"build {n:2d}: CRASHED ({seconds:.1f} s): {reason}", flush=True)
    print(
        f"{crashes} of {args.builds} cold builds crashed "
        f"({args.pages} pages, -j {args.jobs}, a fresh cache each)"
    )
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
