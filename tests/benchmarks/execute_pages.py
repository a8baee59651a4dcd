"""Execute the pages' code cells in plain Python and print what each cell shows.

For machines without the Sphinx toolchain, such as a GPU machine that has JAX
but not myst-nb: ``python tests/benchmarks/execute_pages.py docs/en/*.md``.
Each page runs in a fresh Python process (pages change JAX's configuration),
its cells in order in one namespace, as in the notebook; the value
of a cell's last expression is printed as the notebook would display it;
``myst_nb.glue`` records and prints; a cell tagged ``raises-exception`` must
raise, any other cell must not. Exit status 1 if any cell misbehaved.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any

import matplotlib as mpl
from tests.helpers import code_cells


def _show(value: object) -> None:
    if value is not None:
        print(value)


def _stub_myst_nb() -> None:
    module = types.ModuleType("myst_nb")

    def glue(name: str, value: object, display: bool = True) -> None:  # noqa: ARG001
        if type(value).__module__.startswith("matplotlib"):
            print(f"[glue {name}: figure]")
        else:
            print(f"[glue {name}: {value}]")

    module.glue = glue  # type: ignore[attr-defined]
    sys.modules["myst_nb"] = module


def run_cell(source: str, namespace: dict[str, Any]) -> None:
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        tree.body.pop()
        exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - running the page is the point
        _show(eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace))
    else:
        exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102


def run_page(path: Path) -> int:
    print(f"\n=== {path} ===", flush=True)
    namespace: dict[str, Any] = {"display": _show, "__name__": "__main__"}
    failures = 0
    for number, cell in enumerate(code_cells(path), 1):
        _, _, source = cell.partition("\n")  # drop the language after {code-cell}
        options = []
        while source.startswith(":"):
            line, _, source = source.partition("\n")
            options.append(line)
        expect_error = any("raises-exception" in line for line in options)
        print(f"--- cell {number}{' (raises-exception)' if expect_error else ''}")
        start = time.perf_counter()
        try:
            run_cell(source, namespace)
        except Exception as error:  # noqa: BLE001 - reported, then judged
            print(f"{type(error).__name__}: {str(error).splitlines()[0][:200]}")
            if not expect_error:
                traceback.print_exc()
                failures += 1
        else:
            if expect_error:
                print("!!! expected an exception, none raised")
                failures += 1
        print(f"--- {time.perf_counter() - start:.2f} s", flush=True)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path, help="MyST notebook pages")
    args = parser.parse_args()
    if len(args.pages) > 1:
        codes = [
            subprocess.run(
                [sys.executable, "-m", __spec__.name, str(page)], check=False
            ).returncode
            for page in args.pages
        ]
        return max(codes)
    mpl.use("Agg")
    _stub_myst_nb()
    failures = sum(run_page(page) for page in args.pages)
    print(f"\n{failures} cell(s) misbehaved")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
