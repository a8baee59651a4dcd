"""The programs in examples/: each runs with --smoke, answers --help, refuses bad input.

Every ``examples/*.py`` is found by a glob, so a new example is tested as soon
as it exists; ``test_every_example_is_covered`` then fails until it has an
output check below and a line in examples/README.md. The smoke runs are
subprocesses, as a reader runs them; ``--help`` and bad input stop in
argparse, before any work, so they run in this process instead (importing JAX
is most of a short run's time).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import runpy
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO
from jaxguide_site.translation.parity import read_source

EXAMPLES = REPO / "examples"
SCRIPTS = sorted(
    p for p in EXAMPLES.glob("*.py") if not p.name.startswith("_")
)  # _cli.py
NAMES = [script.stem for script in SCRIPTS]
TIMEOUT = 300  # seconds per smoke run: a hang fails instead of blocking


def fits(out: str) -> dict[str, tuple[float, float]]:
    """``label: b = 4.4872, w = 1.2861`` lines, as label → (b, w)."""
    pattern = r"(?m)^\s*(.+?): b = (-?[\d.]+), w = (-?[\d.]+)"
    return {m[1]: (float(m[2]), float(m[3])) for m in re.finditer(pattern, out)}


def number_after(label: str, out: str) -> float:
    """The number that follows ``label`` at the start of a line."""
    match = re.search(rf"(?m)^{re.escape(label)}\s*(-?[\d.]+(?:e[-+]?\d+)?)", out)
    assert match, f"no line starting {label!r}"
    return float(match[1])


def check_least_squares(out: str) -> None:
    found = fits(out)
    for method in ("normal equations", "jnp.linalg.lstsq"):
        assert found[method] == pytest.approx((4.5, 1.3), abs=0.05), method
    normal, lstsq = found["normal equations"], found["jnp.linalg.lstsq"]
    assert normal == pytest.approx(lstsq, abs=1e-3)


def check_gradient_descent(out: str) -> None:
    found = fits(out)
    assert found["gradient descent"] == pytest.approx(found["least squares"], abs=1e-3)
    assert found["least squares"] == pytest.approx((4.5, 1.3), abs=0.05)
    first, last = map(float, re.findall(r"(?m)^loss: (\S+) -> (\S+)$", out)[0])
    assert last < 1e-3 * first


def check_mlp(out: str) -> None:
    initial = number_after("initial loss:", out)
    final = number_after("final loss:", out)
    assert final < initial / 2, f"the loss went from {initial} to only {final}"


def check_sharded_training(out: str) -> None:
    n_devices = int(re.findall(r"(?m)^(\d+) device\(s\), batch of", out)[0])
    assert n_devices == 8, "the CPU was not split into --cpu-devices' 8 devices"
    assert "P('data', None) by rows" in out
    assert "all-reduce in the compiled step: True" in out
    assert "parameters after training: P() (replicated)" in out
    check_mlp(out)


def check_benchmark(out: str) -> None:
    environment = out.splitlines()[0]  # JAX 0.10.2 (jaxlib 0.10.2) · ... · cpu: ...
    assert re.match(r"JAX \S+ \(jaxlib \S+\) · Python \S+ · \w+: ", environment)
    titles = re.findall(r"(?m)^== (.+) \(([\w-]+)\) ==$", out)
    names = [name for _, name in titles]
    assert names == ["selu", "wave", "jit-in-loop", "device-put", "vmap"]
    assert titles[0][0].startswith("SELU on ")
    assert titles[1][0].startswith("sin(10·exp(x))·cos(x²+1) on ")
    assert titles[2][0].startswith("jax.jit inside a loop of ")
    assert titles[3][0].startswith("x @ x.T on a ")
    assert titles[4][0] == "150×100 matrix times a batch of 10 vectors"
    assert out.count("speed-up vs") == len(titles)  # one table under each title
    for label in ("selu_jit", "after device_put", "jax.jit(add_one)", "vmap, jit"):
        # the speed-up, then its interval: "3.21× (3.02–3.40)"
        assert re.search(rf"(?m)^{re.escape(label)} .* \d\S*× \(\S+–\S+\)$", out), label


def check_gpu_record(out: str) -> None:
    names = re.findall(r"(?m)^== ([\w-]+) ==$", out)
    assert names == [
        "jit-selu",
        "jit-wave",
        "jit-log-exp",
        "async-dispatch-matmul",
        "numpy-vs-jax-matmul",
        "device-put",
        "matmul-precision",
        "control-flow-unroll",
        "autodiff-jacobians",
    ]
    assert re.search(r"(?m)^record written to .+\.json$", out)
    assert "max relative error, float32, default precision: " in out


CHECKS: dict[str, Callable[[str], None]] = {
    "benchmark": check_benchmark,
    "gpu_record": check_gpu_record,
    "gradient_descent": check_gradient_descent,
    "least_squares": check_least_squares,
    "mlp": check_mlp,
    "sharded_training": check_sharded_training,
}

# (example, arguments, what argparse must say): at least one for each example.
BAD_INPUT = [
    ("gpu_record", ["--only", "nope"], "argument --only: invalid choice: 'nope'"),
    ("benchmark", ["--only", "nope"], "argument --only: invalid choice: 'nope'"),
    ("benchmark", ["--plot", "tables.txt"], "argument --plot: must be a .png/.pdf"),
    ("gradient_descent", ["--steps", "0"], "argument --steps: must be at least 1"),
    ("gradient_descent", ["--steps", "ten"], "argument --steps: invalid int value"),
    ("least_squares", ["--samples", "1"], "argument --samples: must be at least 2"),
    ("least_squares", ["--noise", "-0.1"], "argument --noise: must be a finite"),
    ("mlp", ["--learning-rate", "nan"], "argument --learning-rate: must be a finite"),
    ("mlp", ["--hidden", "32", "0"], "argument --hidden: must be at least 1"),
    (
        "sharded_training",
        ["--cpu-devices", "0"],
        "argument --cpu-devices: must be at least 1",
    ),
]


@dataclass(frozen=True)
class SmokeRun:
    result: subprocess.CompletedProcess[str]
    figure: Path


def run(script: Path, *args: str, pycache: Path) -> subprocess.CompletedProcess[str]:
    """Run an example as a reader would: its own Python process.

    Where PYTHONDONTWRITEBYTECODE is set, every process compiles JAX's Python
    sources anew; bytecode written to ``pycache`` (a folder of this test run,
    nothing in the repository or the environment) lets later runs reuse it.
    It changes nothing that the programs do.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONIOENCODING": "utf-8", "PYTHONPYCACHEPREFIX": str(pycache)}
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=TIMEOUT,
        check=False,
    )


def load_examples(monkeypatch: pytest.MonkeyPatch, *names: str) -> ModuleType:
    """Load ``names`` from examples/, in order, as ``python examples/x.py``
    finds them beside it, leaving the import path alone; the last one."""
    module = None
    for name in names:
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)  # before: benchmark imports _cli
        spec.loader.exec_module(module)
    assert module is not None
    return module


def run_here(
    script: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> int | str | None:
    """Run an example in this process as ``__main__``; its exit code.

    ``python examples/x.py`` finds the modules beside the script (``_cli``,
    and ``benchmark``, whose functions ``gpu_record`` times); here they are
    loaded from there, leaving the import path alone.
    """
    load_examples(monkeypatch, "_cli", "benchmark")
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(script), run_name="__main__")
    return exited.value.code


@pytest.fixture(scope="module")
def smoke_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SmokeRun]:
    """Every example run once with --smoke and --plot, side by side."""
    figures = tmp_path_factory.mktemp("figures")
    pycache = tmp_path_factory.mktemp("pycache")
    with ThreadPoolExecutor() as pool:
        runs = {
            script.stem: pool.submit(
                run, script, "--smoke", "--plot", str(figure), pycache=pycache
            )
            for script in SCRIPTS
            for figure in [figures / f"{script.stem}.png"]
        }
        return {
            name: SmokeRun(result.result(), figures / f"{name}.png")
            for name, result in runs.items()
        }


def test_every_example_is_covered() -> None:
    assert NAMES, f"no examples found in {EXAMPLES}"
    assert set(CHECKS) == set(NAMES), "each example needs an output check in CHECKS"
    assert {name for name, _, _ in BAD_INPUT} == set(NAMES), "and a case in BAD_INPUT"
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert [name for name in NAMES if f"examples/{name}.py" not in readme] == []


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_smoke_run_succeeds_and_shows_its_result(
    name: str, smoke_runs: dict[str, SmokeRun]
) -> None:
    result, figure = smoke_runs[name].result, smoke_runs[name].figure
    assert result.returncode == 0, f"exit {result.returncode}:\n{result.stderr[-4000:]}"
    CHECKS[name](result.stdout)
    assert f"figure saved to {figure}" in result.stdout
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_every_example_answers_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for script in SCRIPTS:
        assert run_here(script, ["--help"], monkeypatch) == 0, script.name
        out = capsys.readouterr().out
        assert out.startswith(f"usage: {script.name} "), out
        docstring = ast.get_docstring(ast.parse(script.read_text("utf-8")))
        assert docstring, f"{script.name} has no docstring to describe it"
        assert docstring.splitlines()[0] in out  # the description
        for option in ("--smoke", "--plot PATH"):
            assert option in out, f"{script.name} --help does not list {option}"


@pytest.mark.parametrize(("name", "args", "message"), BAD_INPUT)
def test_bad_input_is_a_usage_error(
    name: str,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run_here(EXAMPLES / f"{name}.py", args, monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {name}.py ")
    assert f"{name}.py: error: {message}" in err


def page_compare_calls(page: Path) -> dict[frozenset[str], dict[str, object]]:
    """Each ``compare({...})`` in the page's code cells: its labels → the
    keywords it passes (the page's code, read, not run)."""
    calls = {}
    for cell in read_source(page).cells:
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # IPython magics
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "compare"
                and node.args
                and isinstance(node.args[0], ast.Dict)
                and all(isinstance(k, ast.Constant) for k in node.args[0].keys)
            ):
                labels = frozenset(ast.literal_eval(k) for k in node.args[0].keys if k)
                calls[labels] = {
                    kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg
                }
    return calls


def test_benchmark_tables_are_their_pages_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """benchmark.py reruns each table as its page's cell: the same labels,
    rounds and warm-up, and compare's defaults where the page keeps them."""
    benchmark = load_examples(monkeypatch, "_cli", "benchmark")
    for name, make in benchmark.TABLES.items():
        table = make(benchmark.SMOKE)  # the sizes do not change the settings
        page = REPO / "docs" / "en" / f"{table.page}.md"
        calls = page_compare_calls(page)
        labels = frozenset(table.candidates)
        assert labels in calls, f"{name}: no compare of {sorted(labels)} in {page}"
        page_settings = {"repeat": 15, "warmup": 1} | calls[labels]
        ours = {"repeat": table.repeat, "warmup": table.warmup}
        assert page_settings == ours, name
    assert (benchmark.FULL.elements, benchmark.FULL.matrix) == (1_000_000, 1000)
