"""Record every measuring page's ratios over many runs, and check the record.

    nox -s record                       # 5 idle + 5 busy runs of each page
    python -m tests.benchmarks.timing_record [--runs 5] [--load 2] [PAGE ...]
    python -m tests.benchmarks.timing_record --runs 1 --extend RECORD.json
    python -m tests.benchmarks.timing_record --report RECORD.json

A page states the size of a measured ratio from its record
(:mod:`jaxguide.records`): this runs each measuring page (front matter
``jaxguide: measures: true``) ``--runs`` times with the machine idle and
``--runs`` times with ``--load`` processes keeping every core busy, each
run a fresh process executing the page's cells in order
(``execute_pages.py``), and keeps every glued :class:`jaxguide.Ratio`'s
value. The record says where and how it was made: the machine, the
versions, the commit, a hash of every file the runs executed, the load
before each run and ``XLA_FLAGS``. It is written to
``src/jaxguide/records/<machine>.json``, which replaces that machine's last
record; commit it.

The report, in ``build/bench/timing-record.md``, checks the record as a
reader's rerun would: each run left out in turn, does it land in the range
the other runs state (target: at least 90 % of them), and does the verdict
the pages state change (target: none). It also lists every page that
failed a run (an ``expect()`` whose direction reversed counts) and every
``expect()`` whose direction the record does not state (a build with
this record fails there).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

from jaxguide.environment import _cpu_model, _usable_cores
from jaxguide.ratios import RESOLUTION
from jaxguide.records import RECORDING_ENV, RECORDS, Recorded

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "build" / "bench"

# Run in the child process: execute one page, recording each glued Ratio.
CHILD = """
import json, sys, types
import matplotlib
matplotlib.use("Agg")
from tests.benchmarks import execute_pages
from jaxguide.ratios import Ratio

ratios = {}

def stub():
    module = types.ModuleType("myst_nb")
    def glue(name, value, display=True):
        if isinstance(value, Ratio):
            ratios[name] = [value.value, value.low, value.high, value.expected]
    module.glue = glue
    sys.modules["myst_nb"] = module

execute_pages._stub_myst_nb = stub
failures = execute_pages.run_page(execute_pages.Path(sys.argv[1]))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump({"failures": failures, "ratios": ratios}, out)
"""


def measuring_pages(lang: str = "en") -> list[Path]:
    from jaxguide_site.execution.measuring import declares_measuring  # noqa: PLC0415

    pages = sorted((REPO / "docs" / lang).glob("*.md"))
    return [p for p in pages if declares_measuring(p.read_text(encoding="utf-8"))]


@contextlib.contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes spinning on a core each, stopped on exit."""
    # Each spinner stops when its parent dies (a killed recorder leaves none).
    spin = (
        "import os, time\nparent = os.getppid()\nend = time.time() + 4 * 3600\n"
        "while time.time() < end and os.getppid() == parent: pass"
    )
    spinners = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def run_once(page: Path) -> dict[str, Any]:
    """One fresh process executing ``page``; its glued ratios and failures."""
    with tempfile.TemporaryDirectory() as tmp:
        result_file = Path(tmp) / "result.json"
        start = time.perf_counter()
        completed = subprocess.run(
            [sys.executable, "-c", CHILD, str(page), str(result_file)],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(REPO), RECORDING_ENV: "1"},
        )
        seconds = time.perf_counter() - start
        if not result_file.exists():
            return {
                "failures": 1,
                "ratios": {},
                "seconds": seconds,
                "error": completed.stderr[-2000:],
            }
        result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
        result["seconds"] = seconds
        if result["failures"]:
            result["error"] = completed.stdout[-3000:]
        return result


def executed_files(pages: list[Path]) -> list[Path]:
    """Every file a run executes that this repository holds."""
    helpers = sorted((REPO / "src" / "jaxguide").glob("*.py"))
    tools = [Path(__file__), REPO / "tests" / "benchmarks" / "execute_pages.py"]
    return [*helpers, *tools, *pages]


def provenance(pages: list[Path], runs: int, load: int) -> dict[str, Any]:
    digest = hashlib.sha256()
    for path in executed_files(pages):
        digest.update(path.relative_to(REPO).as_posix().encode())
        digest.update(path.read_bytes())

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, check=False
        ).stdout.strip()

    return {
        "schema": 1,
        "date": dt.date.today().isoformat(),
        "machine": {
            "platform": "cpu",
            "cpu_model": _cpu_model(),
            "cores": _usable_cores(),
        },
        "versions": {name: version(name) for name in ("jax", "jaxlib", "numpy")}
        | {"python": sys.version.split()[0]},
        "commit": git("rev-parse", "HEAD"),
        "uncommitted_changes": bool(git("status", "--porcelain", "--", "src", "docs")),
        "sha256": digest.hexdigest(),
        "files": [p.relative_to(REPO).as_posix() for p in executed_files(pages)],
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "method": f"{runs} runs idle and {runs} with {load} processes busy, "
        "each a fresh process per page, idle and busy rounds alternating",
    }


def record_path(machine: dict[str, Any]) -> Path:
    model = re.sub(r"[^a-z0-9]+", "-", machine["cpu_model"].lower()).strip("-")
    return RECORDS / f"cpu-{machine['cores']}core-{model}.json"


def collect(
    pages: list[Path], runs: int, load: int, extend: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``runs`` idle and busy rounds of ``pages``; added to ``extend``'s runs
    where given (its provenance kept, the new runs' own listed under
    ``extensions``)."""
    record = provenance(pages, runs, load)
    ratios: dict[str, dict[str, Any]] = {}
    log: list[dict[str, Any]] = []
    first = 0
    if extend is not None:
        ratios, log = extend["ratios"], extend["runs"]
        first = 1 + max(run["run"] for run in log)
        total = first + runs
        added = {key: record[key] for key in ("date", "commit", "sha256")}
        record = extend | {
            "extensions": [*extend.get("extensions", []), added | {"runs": runs}],
            "method": f"{total} runs idle and {total} with {load} processes busy, "
            "each a fresh process per page, idle and busy rounds alternating",
        }
    for run in range(first, first + runs):
        for busy in (False, True):
            with busy_cores(load if busy else 0):
                for page in pages:
                    before = os.getloadavg()[0]
                    result = run_once(page)
                    log.append(
                        {
                            "page": page.stem,
                            "run": run,
                            "busy": busy,
                            "load_before": round(before, 2),
                            "seconds": round(result["seconds"], 1),
                            "failures": result["failures"],
                            "error": result.get("error", "")[-1500:],
                        }
                    )
                    for name, (value, low, high, expected) in result["ratios"].items():
                        entry = ratios.setdefault(
                            name,
                            {
                                "page": page.stem,
                                "expected": expected,
                                "values": [],
                                "busy": [],
                                "run_intervals": [],
                            },
                        )
                        entry["expected"] = expected  # as the page is now
                        entry["values"].append(value)
                        entry["busy"].append(busy)
                        entry["run_intervals"].append([low, high])
                    partial = OUT / "timing-record.partial.json"
                    partial.parent.mkdir(parents=True, exist_ok=True)
                    partial.write_text(
                        json.dumps(record | {"ratios": ratios, "runs": log}),
                        encoding="utf-8",
                    )
                    state = "failed" if result["failures"] else "ok"
                    condition = "busy" if busy else "idle"
                    print(
                        f"run {run + 1}/{first + runs} {condition} {page.stem}: {state} "
                        f"({result['seconds']:.0f} s)",
                        flush=True,
                    )
    return record | {"ratios": ratios, "runs": log}


def check(record: dict[str, Any]) -> dict[str, Any]:
    """Leave each run out: does it land in the others' range, and does the
    stated verdict hold?"""
    rows = []
    for name, entry in record["ratios"].items():
        values = entry["values"]
        full = Recorded(name, tuple(values), tuple(entry["busy"]), "", "")
        verdict = full.verdict(RESOLUTION)
        inside, changed = 0, 0
        for i, value in enumerate(values):
            rest = values[:i] + values[i + 1 :]
            busy = entry["busy"][:i] + entry["busy"][i + 1 :]
            others = Recorded(name, tuple(rest), tuple(busy), "", "")
            low, high = others.range
            inside += low <= value <= high
            changed += others.verdict(RESOLUTION) != verdict
        low, high = full.range
        expected = entry["expected"]
        rows.append(
            {
                "glue": name,
                "page": entry["page"],
                "runs": len(values),
                "values": [min(values), max(values)],
                "range": [low, high],
                "verdict": verdict,
                "inside": inside,
                "changed": changed,
                "expected": expected,
                "expect_ok": expected is None or expected == verdict,
            }
        )
    checks = sum(row["runs"] for row in rows)
    return {
        "rows": rows,
        "share_inside": sum(row["inside"] for row in rows) / max(checks, 1),
        "verdict_changes": sum(row["changed"] for row in rows),
        "failed_runs": [run for run in record["runs"] if run["failures"]],
        "weak_expects": [row["glue"] for row in rows if not row["expect_ok"]],
    }


def markdown(record: dict[str, Any], report: dict[str, Any]) -> str:
    machine = record["machine"]
    lines = [
        (
            f"Timing record: {machine['cores']}-core {machine['cpu_model']}, "
            f"JAX {record['versions']['jax']}, {record['date']}, commit "
            f"{record['commit'][:10]}; {record['method']}."
        ),
        "",
        (
            "| page | glued ratio | runs | values | stated range | verdict | "
            "left-out runs inside | verdict changes | expect |"
        ),
        "| --- | --- | --: | --- | --- | --- | --: | --: | --- |",
    ]
    for row in report["rows"]:
        values, stated = row["values"], row["range"]
        expect = "" if row["expected"] is None else row["expected"]
        if row["expected"] is not None and not row["expect_ok"]:
            expect += " (the record does not state it)"
        lines.append(
            f"| {row['page']} | `{row['glue']}` | {row['runs']} | "
            f"{values[0]:.3g}–{values[1]:.3g} | {stated[0]:.3g}–{stated[1]:.3g} | "
            f"{row['verdict']} | {row['inside']}/{row['runs']} | {row['changed']} | "
            f"{expect} |"
        )
    seconds: dict[str, list[float]] = {}
    for run in record["runs"]:
        if not run["busy"]:
            seconds.setdefault(run["page"], []).append(run["seconds"])
    lines += [
        "",
        (
            f"Left-out runs inside the others' range: {report['share_inside']:.1%} "
            "(target at least 90 %)."
        ),
        (
            "Stated verdicts changed by leaving a run out: "
            f"{report['verdict_changes']} (target 0)."
        ),
        f"Failed page runs: {len(report['failed_runs'])} (target 0).",
        f"expect() the record does not state: {report['weak_expects'] or 'none'}.",
        "",
        "Seconds per page run, idle (min–max): "
        + ", ".join(
            f"{p} {min(s):.0f}–{max(s):.0f}" for p, s in sorted(seconds.items())
        ),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pages", nargs="*", type=Path, help="default: every measuring page"
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="idle runs, and as many busy (5)"
    )
    parser.add_argument(
        "--load",
        type=int,
        default=os.cpu_count() or 2,
        help="busy processes in the busy runs (default: one a core)",
    )
    parser.add_argument(
        "--report", type=Path, help="report on this record; run nothing"
    )
    parser.add_argument("--out", type=Path, help="where to write the record")
    parser.add_argument(
        "--extend", type=Path, help="add the runs to this record (written back to it)"
    )
    args = parser.parse_args(argv)
    if args.report:
        record = json.loads(args.report.read_text(encoding="utf-8"))
    else:
        if args.runs < 3 and not args.extend:
            parser.error(
                "--runs must be at least 3: leaving one of the 6 runs out "
                "still leaves a range (4 runs or more)"
            )
        pages = [p.resolve() for p in args.pages] or measuring_pages()
        extend = None
        if args.extend:
            extend = json.loads(args.extend.read_text(encoding="utf-8"))
        record = collect(pages, args.runs, args.load, extend)
        out = args.out or args.extend or record_path(record["machine"])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"Record written: {out}")
    report = check(record)
    text = markdown(record, report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "timing-record.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
