"""How often a measuring page's conclusions change from one run to the next.

    nox -s benchmark -- --only verdict_stability
    python -m tests.benchmarks.verdict_stability [--runs 5] [--load 2] [PAGE ...]

A page's prose draws its conclusions about speed from glued
:class:`jaxguide.Ratio` values: each renders as "took 2.3× as long",
"ran 3× as fast" or "could not tell apart", by its verdict. This executes
every measuring page (front matter ``jaxguide: measures: true``) ``--runs``
times, each in a fresh process with the page's cells in order (as
``tests/benchmarks/execute_pages.py`` runs them), while ``--load`` other
processes keep the cores busy, and reports for each glued ratio the verdicts
it got and how many runs disagreed with the most common one. A page whose
cell failed (such as a ``Ratio.expect`` whose direction did not hold) counts
as a changed conclusion for all its ratios in that run. The target is 0.

Writes ``build/bench/verdict-stability.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "build" / "bench"
FAILED = "page failed"

# Run in the child process: execute one page, recording each glued Ratio.
CHILD = """
import json, sys, types
import matplotlib
matplotlib.use("Agg")
from tests.benchmarks import execute_pages
from jaxguide.ratios import Ratio

verdicts = {}

def stub():
    module = types.ModuleType("myst_nb")
    def glue(name, value, display=True):
        if isinstance(value, Ratio):
            verdicts[name] = [value.verdict, value.value, value.low, value.high]
    module.glue = glue
    sys.modules["myst_nb"] = module

execute_pages._stub_myst_nb = stub
failures = execute_pages.run_page(execute_pages.Path(sys.argv[1]))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump({"failures": failures, "verdicts": verdicts}, out)
"""


def measuring_pages(lang: str = "en") -> list[Path]:
    from jaxguide_site.execution.measuring import declares_measuring  # noqa: PLC0415

    pages = sorted((REPO / "docs" / lang).glob("*.md"))
    return [p for p in pages if declares_measuring(p.read_text(encoding="utf-8"))]


@contextlib.contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes spinning on a core each, stopped on exit."""
    spin = "import time\nend = time.time() + 4 * 3600\nwhile time.time() < end: pass"
    spinners = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def run_once(page: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        result_file = Path(tmp) / "result.json"
        completed = subprocess.run(
            [sys.executable, "-c", CHILD, str(page), str(result_file)],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        if not result_file.exists():
            return {"failures": 1, "verdicts": {}, "error": completed.stderr[-2000:]}
        result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
        if result["failures"]:
            result["error"] = completed.stdout[-3000:]
        return result


def summarize(runs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per glued ratio: its verdicts over the runs and the changes."""
    rows = []
    for page, results in runs.items():
        names = sorted({name for result in results for name in result["verdicts"]})
        for name in names:
            verdicts = [
                FAILED
                if result["failures"]
                else result["verdicts"].get(name, [FAILED])[0]
                for result in results
            ]
            values = [
                result["verdicts"][name][1]
                for result in results
                if name in result["verdicts"] and not result["failures"]
            ]
            most_common, count = Counter(verdicts).most_common(1)[0]
            rows.append(
                {
                    "page": page,
                    "glue": name,
                    "verdicts": dict(Counter(verdicts)),
                    "changed": len(verdicts) - count,
                    "verdict": most_common,
                    "ratio_range": [min(values), max(values)] if values else None,
                }
            )
    return rows


def markdown(report: dict[str, Any]) -> str:
    lines = [
        (
            f"Verdict stability: {report['runs']} runs of each measuring page, "
            f"{report['load']} busy processes on {report['cores']} cores, "
            f"{report['seconds']:.0f} s."
        ),
        "",
        "| page | glued ratio | verdicts | changed | ratio range |",
        "| --- | --- | --- | --: | --- |",
    ]
    for row in report["rows"]:
        verdicts = ", ".join(f"{v} ×{n}" for v, n in row["verdicts"].items())
        span = row["ratio_range"]
        shown = f"{span[0]:.3g}–{span[1]:.3g}" if span else ""
        lines.append(
            f"| {row['page']} | `{row['glue']}` | {verdicts} | {row['changed']} | {shown} |"
        )
    lines += ["", f"Changed conclusions: {report['changed']} (target 0)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pages", nargs="*", type=Path, help="default: every measuring page"
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="runs of each page (default 5)"
    )
    parser.add_argument(
        "--load", type=int, default=2, help="busy processes meanwhile (default 2)"
    )
    args = parser.parse_args(argv)
    if args.runs < 2:
        parser.error("--runs must be at least 2: one run cannot change")
    pages = [p.resolve() for p in args.pages] or measuring_pages()
    runs: dict[str, list[dict[str, Any]]] = {}
    start = time.perf_counter()
    with busy_cores(args.load):
        for run in range(args.runs):
            for page in pages:
                result = run_once(page)
                runs.setdefault(page.stem, []).append(result)
                status = "failed" if result["failures"] else "ok"
                print(f"run {run + 1}/{args.runs} {page.stem}: {status}", flush=True)
                if result.get("error"):
                    print(result["error"], file=sys.stderr)
    rows = summarize(runs)
    report = {
        "runs": args.runs,
        "load": args.load,
        "cores": os.cpu_count(),
        "seconds": time.perf_counter() - start,
        "changed": sum(row["changed"] for row in rows),
        "rows": rows,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "verdict-stability.json").write_text(
        json.dumps(report, indent=2), encoding="utf-8"
    )
    text = markdown(report)
    (OUT / "verdict-stability.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
