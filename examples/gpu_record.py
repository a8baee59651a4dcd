"""Record the guide's GPU measurements, with what made them, in one JSON file.

The pages execute on the CPU that builds the site; what they say of a GPU
comes from a record this program writes, which the pages show with the
gpu-record directive (src/jaxguide_site/gpu_records/), labelled with the
device, driver, JAX version and date. On a machine with an NVIDIA GPU and
JAX's CUDA build, from the root of the repository:

  python examples/gpu_record.py      # a few minutes; then commit the file

writes docs/_data/gpu_records/<date>-<device>.json: for every table the raw
seconds of each round, the calls per round and the first call, and the values
of the observations; the files of this repository the run executed (this
program, benchmark.py, _cli.py and the jaxguide package) with one sha256 over
them, the git commit and whether those files had uncommitted changes; the
host's load average, XLA_FLAGS, and the GPUs' clocks, temperature and power
(nvidia-smi) before and after the measurements. Measurements (page; the name
a page's directive uses):

  jit-selu               SELU on 10^7 elements, eager and jitted (jit)
  jit-wave               sin(10·exp(x))·cos(x²+1) on 5·10^7 elements: NumPy,
                         eager jax.numpy, jax.jit (jit)
  jit-log-exp            whether exp and log survive in jit(log(exp(x)))'s
                         compiled program, and its results (jit)
  async-dispatch-matmul  jnp.matmul of 4000×4000, not blocked and blocked
                         (async-dispatch)
  numpy-vs-jax-matmul    jnp.matmul against np.matmul, both float32, the JAX
                         input already on the device; JAX at its default
                         precision (TF32 on recent NVIDIA GPUs) and at
                         precision="highest" (async-dispatch)
  device-put             x @ x.T with JAX input (default precision and
                         "highest"), NumPy input, after device_put, and
                         np.dot, all float32 (async-dispatch)
  matmul-precision       float32 matmul, default precision and "highest",
                         against a float64 NumPy reference: largest error
                         and times
  control-flow-unroll    a Python loop unrolled 1000 times against fori_loop:
                         first call and median (control-flow)
  autodiff-jacobians     jacfwd against jacrev on a tall and a wide function
                         (autodiff)

A run on a backend other than gpu is refused unless --allow-cpu is given.
Such a record, and a --smoke one (tiny sizes, on any device, the CPU
included), go to a temporary folder (or --out DIR), never into
docs/_data/gpu_records.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.metadata
import io
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import jaxguide
from _cli import HelpFormatter, figure_path
from benchmark import (  # the guide's functions, as the CPU tables time them
    gram,
    save_figure,
    selu,
    wave,
    wave_np,
)

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parents[1]
RECORDS = REPO / "docs" / "_data" / "gpu_records"  # what the site reads
FORMAT = 2  # the record's layout; jaxguide_site.gpu_records reads this one
EXAMPLES = ("examples/_cli.py", "examples/benchmark.py", "examples/gpu_record.py")
# What nvidia-smi tells of each GPU before and after the measurements.
GPU_STATE = (
    "index",
    "name",
    "clocks.sm",
    "clocks.mem",
    "clocks.max.sm",
    "temperature.gpu",
    "power.draw",
)


@dataclass(frozen=True)
class Sizes:
    """How big the inputs are and how many rounds each table takes."""

    selu: int  # elements for SELU
    wave: int  # elements for the wave
    matrix: int  # side of the square matrices (matmul, precision, device-put)
    unroll: int  # iterations of the unrolled loop and of fori_loop
    repeat: int  # rounds per candidate (compare needs 6; two benchmark() runs, 7)


FULL = Sizes(selu=10_000_000, wave=50_000_000, matrix=4000, unroll=1000, repeat=15)
# 7 rounds: the fewest that bound a ratio of two benchmark() runs (unpaired)
SMOKE = Sizes(selu=10_000, wave=10_000, matrix=64, unroll=20, repeat=7)

Fact = str | int | float | bool | list[str]


@dataclass(frozen=True)
class Measurement:
    """What one name records: its tables (timings) and facts (values)."""

    title: str
    page: str
    tables: list[tuple[str, jaxguide.Comparison]]  # (title, comparison)
    facts: dict[str, Fact]


def number(value: np.floating) -> str:
    """A float32 as text, as NumPy prints it (JSON has no inf or nan)."""
    return str(value)


# -- The measurements --------------------------------------------------------


def jit_selu(sizes: Sizes) -> Measurement:
    """The jit page's SELU table, as its cell runs it, at a GPU size."""
    x = jax.random.normal(jax.random.key(0), (sizes.selu,))
    table = jaxguide.compare(
        {"selu (eager)": selu, "selu_jit": jax.jit(selu)}, x, repeat=sizes.repeat
    )
    title = f"SELU on {sizes.selu:,} float32 elements"
    return Measurement(title, "jit", [(title, table)], {})


def jit_wave(sizes: Sizes) -> Measurement:
    """The jit page's wave table, float32 on both sides, at note 002's size."""
    wave_jit = jax.jit(wave)
    x_wave = jnp.linspace(-2.0, 2.0, sizes.wave)
    x_wave_np = np.asarray(x_wave)  # float32, as x_wave
    table = jaxguide.compare(
        {
            "NumPy": lambda: wave_np(x_wave_np),
            "jnp (eager)": lambda: wave(x_wave),
            "jax.jit(wave)": lambda: wave_jit(x_wave),
        },
        repeat=sizes.repeat,
    )
    title = f"sin(10·exp(x))·cos(x²+1) on {sizes.wave:,} float32 elements"
    return Measurement(title, "jit", [(title, table)], {})


def log_exp(x: jax.Array) -> jax.Array:
    return jnp.log(jnp.exp(x))


def optimized_hlo(fn: Callable[..., jax.Array], *args: object) -> str:
    """The operations of XLA's optimized program, as the jit page prints them."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    lines = [line.strip() for line in text.splitlines() if " = " in line]
    return "\n".join(re.sub(r", metadata=\{[^}]*\}", "", line) for line in lines)


def jit_log_exp(_sizes: Sizes) -> Measurement:
    """The jit page's log(exp(x)) cell: does the compiled program keep them?"""
    x_big = jnp.array([1.0, 50.0, 88.0, 89.0, 100.0, 1000.0])
    program = optimized_hlo(log_exp, x_big)
    facts: dict[str, Fact] = {
        "exp kept in the compiled program": bool(
            re.search(r"\bexponential\(", program)
        ),
        "log kept in the compiled program": bool(re.search(r"\blog\(", program)),
        "x": [number(v) for v in np.asarray(x_big)],
        "eager log(exp(x))": [number(v) for v in np.asarray(log_exp(x_big))],
        "jitted log(exp(x))": [number(v) for v in np.asarray(jax.jit(log_exp)(x_big))],
        "optimized program": program,
    }
    return Measurement("log(exp(x)) under jax.jit", "jit", [], facts)


def async_dispatch_matmul(sizes: Sizes) -> Measurement:
    """The async-dispatch page's first table: the dispatch against the product."""
    n = sizes.matrix
    x = jax.random.normal(jax.random.key(0), (n, n))
    timings = (
        jaxguide.benchmark(
            jnp.matmul, x, x, label="jnp.matmul", block=False, repeat=sizes.repeat
        ),
        jaxguide.benchmark(
            jnp.matmul, x, x, label="jnp.matmul (blocked)", repeat=sizes.repeat
        ),
    )
    # Two benchmark() runs, one after the other: rounds that cannot be paired,
    # so the ratio is the unpaired one (Timing.ratio_to), with its wider interval.
    table = jaxguide.Comparison(
        timings=timings, baseline="jnp.matmul (blocked)", interleaved=False
    )
    title = f"jnp.matmul of a {n}×{n} float32 matrix with itself"
    return Measurement(title, "async-dispatch", [(title, table)], {})


def numpy_vs_jax_matmul(sizes: Sizes) -> Measurement:
    """NumPy against JAX, float32 both, the JAX input already on the device:
    JAX's default precision (TF32 on recent NVIDIA GPUs) and "highest", a
    true float32 product as NumPy's."""
    n = sizes.matrix
    x = jax.random.normal(jax.random.key(0), (n, n))  # on the device
    x_np32 = np.asarray(x)  # a float32 copy in host memory
    table = jaxguide.compare(
        {
            "jnp.matmul (float32)": lambda: jnp.matmul(x, x),
            'jnp.matmul (float32, precision="highest")': lambda: jnp.matmul(
                x, x, precision="highest"
            ),
            "np.matmul (float32)": lambda: np.matmul(x_np32, x_np32),
        },
        repeat=sizes.repeat,
    )
    title = f"{n}×{n} float32 matrix product, JAX on the device against NumPy"
    return Measurement(title, "async-dispatch", [(title, table)], {})


def device_put(sizes: Sizes) -> Measurement:
    """The async-dispatch page's device_put table, all float32, at a GPU size,
    and the JAX input at precision="highest" beside np.dot's float32."""
    n = sizes.matrix
    gram_jit = jax.jit(gram)
    gram_highest = jax.jit(lambda m: jnp.dot(m, m.T, precision="highest"))
    m_jax = jax.random.normal(jax.random.key(0), (n, n))
    m_np = np.array(m_jax)  # a NumPy float32 copy
    m_put = jax.device_put(m_np)
    table = jaxguide.compare(
        {
            "JAX input": lambda: gram_jit(m_jax),
            'JAX input, precision="highest"': lambda: gram_highest(m_jax),
            "NumPy input": lambda: gram_jit(m_np),
            "after device_put": lambda: gram_jit(m_put),
            "np.dot (float32)": lambda: np.dot(m_np, m_np.T),
        },
        repeat=sizes.repeat,
    )
    title = f"x @ x.T on a {n}×{n} float32 matrix"
    return Measurement(title, "async-dispatch", [(title, table)], {})


def matmul_precision(sizes: Sizes) -> Measurement:
    """float32 products at two precisions against a float64 NumPy reference."""
    n = sizes.matrix
    a = jax.random.normal(jax.random.key(0), (n, n))
    b = jax.random.normal(jax.random.key(1), (n, n))
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    reference = a64 @ b64
    products = {
        "float32, default precision": jax.jit(jnp.matmul),
        'float32, precision="highest"': jax.jit(
            partial(jnp.matmul, precision="highest")
        ),
    }
    facts: dict[str, Fact] = {
        "error measure": "max |C - C64| / max |C64|, C64 = float64 NumPy product",
    }
    for label, product in products.items():
        error = np.abs(np.asarray(product(a, b), dtype=np.float64) - reference)
        facts[f"max relative error, {label}"] = float(
            error.max() / np.abs(reference).max()
        )
    candidates: dict[str, Callable[[], object]] = {
        label: partial(product, a, b) for label, product in products.items()
    }
    candidates["NumPy float64 (reference)"] = lambda: np.matmul(a64, b64)
    table = jaxguide.compare(candidates, repeat=sizes.repeat)
    title = f"{n}×{n} matrix product: precision and time"
    return Measurement(title, "", [(title, table)], facts)


def power_loop(x: jax.Array, n: int) -> jax.Array:
    result = jnp.ones_like(x)
    for _ in range(n):
        result = result * x
    return result


def power_fori(x: jax.Array, n: int) -> jax.Array:
    return jax.lax.fori_loop(0, n, lambda i, r: r * x, jnp.ones_like(x))  # noqa: ARG005 (as the page)


def control_flow_unroll(sizes: Sizes) -> Measurement:
    """The control-flow page's unrolled loop against fori_loop, as it runs it."""
    n = sizes.unroll
    x = jnp.array([0.5, 1.0, 2.0])
    unrolled = jax.jit(lambda v: power_loop(v, n))
    rolled = jax.jit(lambda v: power_fori(v, n))
    table = jaxguide.compare(
        {"Python loop": unrolled, "fori_loop": rolled}, x, repeat=sizes.repeat
    )
    facts: dict[str, Fact] = {}
    for name, fn in {"Python loop": unrolled, "fori_loop": rolled}.items():
        hlo = fn.lower(x).compile().as_text()
        facts[f"{name}: multiply, while in the compiled program"] = (
            f"{hlo.count(' multiply(')}, {hlo.count(' while(')}"
        )
    title = f"x**{n} by a Python loop (unrolled) and by fori_loop"
    return Measurement(title, "control-flow", [(title, table)], facts)


def autodiff_jacobians(sizes: Sizes) -> Measurement:
    """The autodiff page's jacfwd and jacrev tables, as its cell runs them."""
    n_few, n_many = 10, 1000
    w_tall = jax.random.normal(jax.random.key(0), (n_many, n_few))
    w_wide = w_tall.T

    def tall(x: jax.Array) -> jax.Array:  # R^10 -> R^1000
        return jnp.tanh(w_tall @ x)

    def wide(x: jax.Array) -> jax.Array:  # R^1000 -> R^10
        return jnp.tanh(w_wide @ x)

    tables = []
    for name, fn, inputs in (("tall", tall, n_few), ("wide", wide, n_many)):
        table = jaxguide.compare(
            {"jacfwd": jax.jit(jax.jacfwd(fn)), "jacrev": jax.jit(jax.jacrev(fn))},
            jnp.ones(inputs),
            repeat=sizes.repeat,
        )
        outputs = n_many + n_few - inputs
        tables.append((f"{name}: R^{inputs} -> R^{outputs}", table))
    return Measurement("jacfwd and jacrev", "autodiff", tables, {})


MEASUREMENTS: dict[str, Callable[[Sizes], Measurement]] = {
    "jit-selu": jit_selu,
    "jit-wave": jit_wave,
    "jit-log-exp": jit_log_exp,
    "async-dispatch-matmul": async_dispatch_matmul,
    "numpy-vs-jax-matmul": numpy_vs_jax_matmul,
    "device-put": device_put,
    "matmul-precision": matmul_precision,
    "control-flow-unroll": control_flow_unroll,
    "autodiff-jacobians": autodiff_jacobians,
}


# -- The record --------------------------------------------------------------


def output(*command: str) -> str | None:
    """What ``command`` prints, or None where it is missing or fails."""
    program = shutil.which(command[0])
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, *command[1:]],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def nvidia_smi(fields: Sequence[str]) -> list[dict[str, str]] | None:
    """nvidia-smi's ``--query-gpu``, one field → value (units included) per
    GPU; None where nvidia-smi is missing, fails or answers in another shape."""
    query = f"--query-gpu={','.join(fields)}"
    text = output("nvidia-smi", query, "--format=csv,noheader")
    if text is None:
        return None
    rows = [row for row in csv.reader(io.StringIO(text), skipinitialspace=True) if row]
    if not rows or any(len(row) != len(fields) for row in rows):
        return None
    return [dict(zip(fields, map(str.strip, row), strict=True)) for row in rows]


def driver_version() -> str | None:
    """The NVIDIA driver's version from nvidia-smi, or None without it."""
    rows = nvidia_smi(["driver_version"])
    return rows[0]["driver_version"] if rows else None


def load_average() -> list[float] | None:
    """The host's load over 1, 5 and 15 minutes, or None where not told."""
    try:
        return [round(load, 2) for load in os.getloadavg()]
    except (AttributeError, OSError):  # Windows has no getloadavg
        return None


def conditions() -> dict[str, Any]:
    """What can slow the measurements, now: the host's load, and each GPU's
    clocks (a throttled one runs below clocks.max.sm), temperature and power."""
    return {"load_average": load_average(), "gpus": nvidia_smi(GPU_STATE)}


def executed_files() -> dict[str, Path]:
    """Repository path → file, for each file of the repository the run
    executes: the three examples, and jaxguide where it was imported from
    (an installed copy then hashes as what ran, not as the checkout)."""
    package = Path(jaxguide.__file__).resolve().parent
    files = {name: REPO / name for name in EXAMPLES}
    files |= {f"src/jaxguide/{path.name}": path for path in package.glob("*.py")}
    return dict(sorted(files.items()))


def files_sha256(files: dict[str, Path]) -> str:
    """One sha256: each file's repository path, its length, then its bytes,
    in order (jaxguide_site.gpu_records.records.files_sha256 checks it)."""
    digest = hashlib.sha256()
    for name, path in files.items():
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def provenance() -> dict[str, Any]:
    """The files the run executes, one sha256 over them, git's commit, and
    whether those files differ from it (None where git cannot tell)."""
    files = executed_files()
    git = ("git", "-C", str(REPO))
    head = (output(*git, "rev-parse", "HEAD") or "").strip()
    status = output(*git, "status", "--porcelain", "--", *files)
    return {
        "path": "examples/gpu_record.py",
        "files": list(files),
        "sha256": files_sha256(files),
        # What defines the measurements, apart from the helpers that time them:
        # the site holds the newest record to these, not to every helper edit.
        "examples_sha256": files_sha256({name: REPO / name for name in EXAMPLES}),
        "commit": head or None,
        "uncommitted_changes": None if status is None else bool(status.strip()),
    }


def plugin_versions() -> dict[str, str]:
    """Versions of JAX's installed device plugins (CUDA, ROCm) and libtpu."""
    found = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"] or ""
        if re.match(r"(jax[-_](cuda|rocm)|libtpu)", name.lower()):
            found[name] = dist.version
    return dict(sorted(found.items()))


def slug(text: str) -> str:
    """``NVIDIA H100 80GB HBM3`` → ``nvidia-h100-80gb-hbm3``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "device"


def timing_table(title: str, comparison: jaxguide.Comparison) -> dict[str, Any]:
    """One table: its rows' raw seconds per call, round by round."""
    return {
        "title": title,
        "baseline": comparison.baseline,
        # False: rounds timed apart, whose ratios cannot be paired
        "interleaved": comparison.interleaved,
        "rows": [
            {
                "label": timing.label,
                "first_call": timing.first_call,
                "times": list(timing.times),
                "number": timing.number,
                "blocked": timing.blocked,
            }
            for timing in comparison.timings
        ],
    }


def record(
    measured: dict[str, Measurement],
    *,
    smoke: bool,
    started: datetime,
    before: dict[str, Any],
    after: dict[str, Any],
) -> dict[str, Any]:
    """The whole record: what ran, on what, by which files, under what load
    (``before`` and ``after``: :func:`conditions`), and the results."""
    device = jax.devices()[0]
    report = jaxguide.environment_report()
    command = [
        "python",
        SCRIPT.relative_to(REPO).as_posix()
        if SCRIPT.is_relative_to(REPO)
        else str(SCRIPT),
        *sys.argv[1:],
    ]
    return {
        "format": FORMAT,
        "smoke": smoke,
        "date": started.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "device": {
            "kind": device.device_kind,
            "platform": device.platform,
            "count": jax.device_count(),
            "driver_version": driver_version(),
        },
        "host": {"cpu_model": report.cpu_model, "cpu_cores": report.cpu_cores},
        "software": {
            "python": platform.python_version(),
            "jax": jax.__version__,
            "jaxlib": importlib.metadata.version("jaxlib"),
            "numpy": np.__version__,
            "plugins": plugin_versions(),
            "xla_flags": os.environ.get("XLA_FLAGS", ""),
        },
        "script": {**provenance(), "command": shlex.join(command)},
        "conditions": {"before": before, "after": after},
        "measurements": {
            name: {
                "title": m.title,
                "page": m.page,
                "tables": [timing_table(title, table) for title, table in m.tables],
                "facts": m.facts,
            }
            for name, m in measured.items()
        },
    }


def write_record(data: dict[str, Any], folder: Path, started: datetime) -> Path:
    """``<date>-<device>.json`` in ``folder``; ``-2``, ``-3``... if taken."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{started.date().isoformat()}-{slug(data['device']['kind'])}"
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


# -- The command line --------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a bad value stops the program with a usage message."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    add = parser.add_argument
    add(
        "--only",
        choices=MEASUREMENTS,
        action="append",
        help="record only this measurement; repeatable",
    )
    add(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for the record (default: docs/_data/gpu_records on a GPU, "
        "else a temporary folder)",
    )
    add(
        "--allow-cpu",
        action="store_true",
        help="record even where JAX's backend is not gpu (never into "
        "docs/_data/gpu_records)",
    )
    add(
        "--plot", type=figure_path, metavar="PATH", help="save the tables as bar charts"
    )
    add(
        "--smoke",
        action="store_true",
        help="tiny sizes on any device, 7 rounds: checks it runs",
    )
    args = parser.parse_args(argv)
    into_site = args.out is not None and args.out.resolve() == RECORDS.resolve()
    if args.smoke and into_site:
        parser.error(
            f"--smoke records tiny sizes, not the guide's: not into {RECORDS}; "
            "give another --out DIR or leave --out out"
        )
    backend = jax.default_backend()
    if backend != "gpu" and into_site:
        parser.error(
            f"JAX's backend is {backend}, not gpu: its record is no GPU figure, "
            f"so not into {RECORDS}. Leave --out out (a temporary folder) or "
            "give another --out DIR; for the site's figures, run on a GPU"
        )
    if not args.smoke and backend != "gpu" and not args.allow_cpu:
        parser.error(
            f"JAX's backend is {backend}, not gpu ({jax.devices()[0].device_kind}): "
            "this record is for the guide's GPU figures. Run it where JAX sees a "
            "GPU (install JAX's CUDA build, e.g. pip install -U 'jax[cuda12]', and "
            "check that jax.devices() lists a CudaDevice), or pass --smoke to "
            "check the program, or --allow-cpu to record this backend anyway"
        )
    return args


def main(argv: list[str] | None = None) -> None:
    """Measure, printing as it goes, then write the record."""
    args = parse_args(argv)
    sizes = SMOKE if args.smoke else FULL
    started = datetime.now(UTC)
    print(jaxguide.environment_report())
    before = conditions()
    measured = {}
    for name in dict.fromkeys(args.only or MEASUREMENTS):  # each once
        print(f"\n== {name} ==")
        measured[name] = measurement = MEASUREMENTS[name](sizes)
        for title, table in measurement.tables:
            print(f"-- {title}\n{table}")
        for fact, value in measurement.facts.items():
            print(f"{fact}: {value}")
    after = conditions()
    if args.out is not None:
        folder = args.out
    elif args.smoke or jax.default_backend() != "gpu":  # no figure for the site
        folder = Path(tempfile.mkdtemp(prefix="gpu-record-"))
    else:
        folder = RECORDS
    data = record(
        measured, smoke=args.smoke, started=started, before=before, after=after
    )
    path = write_record(data, folder, started)
    print(f"\nrecord written to {path}")
    if folder.resolve() == RECORDS.resolve():
        print("commit it: git add docs/_data/gpu_records && git commit")
    if args.plot:
        tables = [table for m in measured.values() for table in m.tables]
        save_figure(args.plot, dict(tables))


if __name__ == "__main__":
    main()
