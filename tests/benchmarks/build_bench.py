"""How long the site takes to build, against the floor and a naive build.

    nox -s benchmark -- build   # or: python tests/benchmarks/build_bench.py

On a fresh copy of docs/ and a fresh execution cache, in one run:

1. cold: both languages, as ``nox -s docs`` builds them (every page executed
   into one shared cache first, execution/prefill.py, then parallel readers:
   each page executes once);
2. no change: the same again;
3. prose edit: one sentence of one Korean page changed;
4. code edit: one code cell changed in both languages (that page must execute
   once, for both languages, and nothing else);
5. warm: a fresh output folder with the warm cache (Sphinx's own time);
6. naive: every page executed in each language (``nb_execution_mode=force``,
   one reader), the baseline.

Each build reports its wall time, its notebook executions and the peak memory
of the whole process tree (Sphinx and its kernels). The floor is the sum of
the per-notebook execution times (each notebook once, as the naive build's
Korean pass measured them one at a time, uncontended) plus the warm build.
Writes ``build/bench/build-bench.json`` and ``build/bench/build-bench.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[2]
from jaxguide_site.site_build import (
    LANGUAGES,
    PAGES_FAILED,
    PREFILLED,
    jobs,
    prefill_command,
    sphinx_command,
)

# failures.py's warning for a cell that failed to execute, and any warning's
# page (Sphinx colours its log where it can: the colours are taken out first).
FAILED_CELL = re.compile(
    r"^(\S+?\.md)(?::\d+)?: WARNING: ((?:cell \d+|a cell) failed to execute: .*?)"
    r"(?: \[jaxguide\.exec\])?$",
    re.MULTILINE,
)
# As failures.py's _ANSI; not imported from there, which would load Sphinx
# into this process (the site_build it imports is the standard library only).
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WARNING = re.compile(
    r"^(?:(\S+?\.md)(?::\d+)?: )?(?:WARNING|ERROR|CRITICAL): ", re.MULTILINE
)


def failed_cells(output: str) -> list[str]:
    """The cells that failed, where a build failed only because of them: every
    warning is on a page with a failed cell (myst-nb's report, the download's
    missing outputs) and Sphinx did not crash. Empty otherwise."""
    plain = ANSI.sub("", output)
    cells = FAILED_CELL.findall(plain)
    pages = {page for page, _ in cells}
    warned = set(WARNING.findall(plain))
    if not cells or "Exception occurred" in plain or not warned <= pages:
        return []
    return [f"{page}: {what}" for page, what in cells]


REPORT = re.compile(
    r"jaxguide \[(\w+)\]: (\d+) notebook page\(s\) read: (\d+) executed, (\d+) from the cache"
)
# execution/prefill.py's summary line per language. A page that fails there
# executes again in Sphinx, whose report of the cell is the one kept.
PREFILL = re.compile(r"prefill \[(\w+)\]: \d+ notebook page\(s\): (\d+) executed")
PROSE_PAGE = "intro"  # a Korean page whose prose the benchmark edits
CODE_PAGE = "pure-functions"  # a page whose first code cell it edits (both languages)


@dataclass
class Build:
    name: str
    wall_s: float
    executions: int
    peak_rss_mib: float
    per_language: dict[str, dict[str, int]] = field(default_factory=dict)
    # Cells that failed ("docs/ko/jit.md: cell 9 failed to execute: ..."): a page whose
    # measured lesson did not hold on this run. The bench reports them and goes on.
    failed_cells: list[str] = field(default_factory=list)


def _tree_rss(process: psutil.Process) -> int:
    total = 0
    for member in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total


def run_measured(
    command: list[str], env: dict[str, str], allowed: int = 0
) -> tuple[float, int, str, int]:
    """Wall time, peak RSS of the process tree (sampled every 50 ms), output
    and exit status.

    A build that failed only because cells failed (a measuring page whose
    ``expect()`` did not hold on this run, say) still counts: the caller
    reports those cells. So does the exit status ``allowed``. Any other
    failure stops the bench."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    watched = psutil.Process(process.pid)
    peak = 0
    output: list[str] = []
    reader = threading.Thread(
        target=lambda: output.extend(process.stdout or []), daemon=True
    )
    reader.start()
    while process.poll() is None:
        with contextlib.suppress(psutil.Error):
            peak = max(peak, _tree_rss(watched))
        time.sleep(0.05)
    reader.join()
    wall = time.perf_counter() - start
    text = "".join(output)
    if process.returncode not in {0, allowed} and not failed_cells(text):
        sys.stderr.write(text[-5000:])
        msg = f"build failed ({process.returncode}): {' '.join(command)}"
        raise SystemExit(msg)
    return wall, peak, text, process.returncode


class Bench:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.docs = root / "docs"
        shutil.copytree(
            REPO / "docs", self.docs, ignore=shutil.ignore_patterns("__pycache__")
        )
        self.cache = root / "cache"

    def build(
        self, name: str, *, build: Path, naive: bool = False, cache: Path | None = None
    ) -> Build:
        env = {**os.environ, "JAXGUIDE_NB_CACHE": str(cache or self.cache)}
        bin_dir = Path(sys.executable).parent
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        wall, peak, executions = 0.0, 0, 0
        per_language: dict[str, dict[str, int]] = {}
        failed: list[str] = []
        prefilled: dict[str, int] = {}
        serial = naive
        if not naive:
            # As site_build builds: every page executed before Sphinx reads.
            command = prefill_command(self.docs, build)
            seconds, rss, output, status = run_measured(command, env, PAGES_FAILED)
            wall += seconds
            peak = max(peak, rss)
            prefilled = {m[1]: int(m[2]) for m in PREFILL.finditer(output)}
            # Sphinx executes a failed page again, and only reading serially.
            serial = status == PAGES_FAILED
        for lang in LANGUAGES:
            command = sphinx_command(
                "html", lang, docs=self.docs, build=build, parallel=not serial
            )
            if not naive:
                command += PREFILLED
            if naive:
                # The baseline measures execution. myst-nb's executed copy of a
                # forced page has its glue outputs taken out, so the notebook
                # downloads cannot fill in the glued figures: warnings a real
                # build (cache mode) never gives, left out of this one.
                command += [
                    "-D",
                    "nb_execution_mode=force",
                    "-D",
                    "suppress_warnings=jaxguide.downloads",
                ]
            seconds, rss, output, _ = run_measured(command, env)
            failed += failed_cells(output)
            wall += seconds
            peak = max(peak, rss)
            if naive:
                ran = len(notebook_runtimes(build, lang))
                per_language[lang] = {"executed": ran, "from_cache": 0}
            else:
                match = REPORT.search(output)
                if match is None:
                    msg = f"no execution report in the {lang} build's output"
                    raise SystemExit(msg)
                ran = int(match[3]) + prefilled.get(lang, 0)
                per_language[lang] = {"executed": ran, "from_cache": int(match[4])}
            executions += ran
        result = Build(
            name,
            round(wall, 2),
            executions,
            round(peak / 2**20, 1),
            per_language,
            sorted(set(failed)),
        )
        print(
            f"{name:>12}: {result.wall_s:7.1f} s, {executions:2d} executions, "
            f"peak {result.peak_rss_mib:6.0f} MiB",
            flush=True,
        )
        for cell in result.failed_cells:
            print(f"{'':>12}  failed, reported, the bench goes on: {cell}", flush=True)
        return result

    def edit_prose(self) -> None:
        path = self.docs / "ko" / f"{PROSE_PAGE}.md"
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for index, line in enumerate(lines):
            if line.strip().endswith("니다.") and not line.startswith((":", "#")):
                lines[index] = line.rstrip("\n") + " 이 문장은 벤치마크가 고쳤습니다.\n"
                break
        else:
            msg = f"no prose line to edit in {path}"
            raise SystemExit(msg)
        path.write_text("".join(lines), encoding="utf-8")

    def edit_code(self) -> None:
        for lang in LANGUAGES:
            path = self.docs / lang / f"{CODE_PAGE}.md"
            text = path.read_text(encoding="utf-8")
            marker = "```{code-cell} ipython3\n"
            if marker not in text:
                msg = f"no code cell in {path}"
                raise SystemExit(msg)
            edited = text.replace(
                marker, marker + "# edited by the build benchmark\n", 1
            )
            path.write_text(edited, encoding="utf-8")


def notebook_runtimes(build: Path, lang: str) -> dict[str, float]:
    """Each executed notebook's run time, from the build's saved environment."""
    with (build / "doctrees" / lang / "environment.pickle").open("rb") as file:
        env = pickle.load(file)
    runtimes = {}
    for docname, data in getattr(env, "nb_metadata", {}).items():
        exec_data = data.get("exec_data") or {}
        if exec_data.get("runtime") is not None:
            runtimes[docname] = float(exec_data["runtime"])
    return runtimes


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="jaxguide-bench-"))
    try:
        bench = Bench(root)
        builds: dict[str, Build] = {}
        out = root / "build"
        builds["cold"] = bench.build("cold", build=out)
        builds["no_change"] = bench.build("no change", build=out)
        bench.edit_prose()
        builds["prose_edit"] = bench.build("prose edit", build=out)
        bench.edit_code()
        builds["code_edit"] = bench.build("code edit", build=out)
        builds["warm"] = bench.build("warm cache", build=root / "warm")
        naive_runtimes: dict[str, float] = {}
        if not args.skip_naive:
            builds["naive"] = bench.build(
                "naive", build=root / "naive", naive=True, cache=root / "naive-cache"
            )
            naive_runtimes = notebook_runtimes(root / "naive", LANGUAGES[0])
        cold_runtimes = notebook_runtimes(out, LANGUAGES[0])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    runtimes = naive_runtimes or cold_runtimes
    floor = sum(runtimes.values()) + builds["warm"].wall_s
    cold = builds["cold"].wall_s
    report: dict[str, Any] = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "jobs": jobs(),
        },
        "builds": {key: asdict(value) for key, value in builds.items()},
        "notebook_runtimes_s": {
            "source": "naive build, one at a time" if naive_runtimes else "cold build",
            "each": dict(sorted(runtimes.items(), key=lambda item: -item[1])),
            "sum": round(sum(runtimes.values()), 2),
            "during_cold_build": dict(
                sorted(cold_runtimes.items(), key=lambda i: -i[1])
            ),
        },
        "floor_s": round(floor, 2),
        "cold_over_floor": round(cold / floor, 3),
        "no_change_over_cold": round(builds["no_change"].wall_s / cold, 3),
    }
    if "naive" in builds:
        report["naive_over_cold"] = round(builds["naive"].wall_s / cold, 3)
    return report


def markdown(report: dict[str, Any]) -> str:
    machine = report["machine"]
    lines = [
        (
            f"# Build benchmark ({machine['cores']} cores, {machine['cpu']}, "
            f"Python {machine['python']}, -j {machine['jobs']})"
        ),
        "",
        "| build | wall s | executions | peak MiB |",
        "| --- | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {build['name']} | {build['wall_s']:.1f} | {build['executions']} "
        f"| {build['peak_rss_mib']:.0f} |"
        for build in report["builds"].values()
    ]
    runtimes = report["notebook_runtimes_s"]
    lines += [
        "",
        (
            f"Floor: {report['floor_s']:.1f} s (notebooks {runtimes['sum']:.1f} s, "
            f"{runtimes['source']}, plus the warm build)."
        ),
        (
            f"Cold / floor: {report['cold_over_floor']:.2f}. "
            f"No change / cold: {report['no_change_over_cold']:.1%}."
        ),
    ]
    if "naive_over_cold" in report:
        lines.append(f"Naive / cold: {report['naive_over_cold']:.2f}x.")
    failed = {
        cell: build["name"]
        for build in report["builds"].values()
        for cell in build.get("failed_cells", [])
    }
    if failed:
        lines += [
            "",
            (
                "Cells that failed (a lesson that did not hold on this run; the page "
                "executes again in the next build, so its executions count there too):"
            ),
            "",
        ]
        lines += [f"- {cell} ({name})" for cell, name in failed.items()]
    lines += ["", "| slowest notebooks | s |", "| --- | ---: |"]
    lines += [
        f"| {name} | {seconds:.1f} |"
        for name, seconds in list(runtimes["each"].items())[:5]
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--output", type=Path, default=REPO / "build" / "bench", help="report folder"
    )
    parser.add_argument(
        "--skip-naive",
        action="store_true",
        help="skip the naive baseline (the longest build)",
    )
    args = parser.parse_args(argv)
    report = run(args)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "build-bench.json").write_text(
        json.dumps(report, indent=2) + "\n", encoding="utf-8"
    )
    text = markdown(report)
    # `nox -s benchmark -- audit`: the built site's figures
    audit = args.output / "site-audit.md"
    if audit.is_file():
        text += "\n" + audit.read_text(encoding="utf-8")
    (args.output / "build-bench.md").write_text(text, encoding="utf-8")
    print()
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
