"""Execute the pages' code cells in plain Python and print what each cell shows.

``python -m tests.benchmarks.execute_pages docs/en/jit.md`` reads a page with
the site's own reader (myst-nb's, :mod:`jaxguide_site.myst_notebook`). Where
myst-nb is not installed, such as a GPU machine that has JAX only, give it the
site's downloaded notebooks instead (``build/sphinx/en/html/jit.ipynb``): they
hold the same cells but the build-only ones, and need nothing to be read.
Each page runs in a fresh Python process (pages change JAX's configuration),
its cells in order in one namespace, as in the notebook; the value
of a cell's last expression is printed as the notebook would display it;
``jaxguide.glue`` prints what it records; a cell tagged ``raises-exception`` must
raise, any other cell must not. Exit status 1 if any cell misbehaved.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import matplotlib as mpl


def _show(value: object) -> None:
    if value is not None:
        print(value)


def _print_glue() -> None:
    """Make ``jaxguide.glue`` print what it would record for the prose."""
    import jaxguide.site  # noqa: PLC0415

    def glue(name: str, value: object, *, display: bool = False) -> None:  # noqa: ARG001
        if type(value).__module__.startswith("matplotlib"):
            print(f"[glue {name}: figure]")
        else:
            print(f"[glue {name}: {value}]")

    jaxguide.site.glue = glue
    jaxguide.glue = glue  # type: ignore[attr-defined] # as `from jaxguide import glue` finds it


def run_cell(source: str, namespace: dict[str, Any]) -> None:
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        tree.body.pop()
        exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - running the page is the point
        _show(eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace))
    else:
        exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102


# The downloads' first cell installs jaxguide in Colab (IPython's %pip): not
# Python, and nothing to do here (src/jaxguide_site/notebooks/downloads.py).
COLAB_SETUP_TAG = "jaxguide-colab-setup"


def code_cells(path: Path) -> list[tuple[str, list[str]]]:
    """(source, tags) of each code cell of a page or a downloaded notebook."""
    if path.suffix == ".ipynb":
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = [
            ("".join(cell["source"]), cell.get("metadata", {}).get("tags", []))
            for cell in notebook["cells"]
            if cell["cell_type"] == "code"
        ]
        return [(source, tags) for source, tags in cells if COLAB_SETUP_TAG not in tags]
    from jaxguide_site.myst_notebook import code_cells as page_cells  # noqa: PLC0415

    text = path.read_text(encoding="utf-8")
    return [(cell.source, list(cell.tags)) for cell in page_cells(text)]


def run_page(path: Path) -> int:
    print(f"\n=== {path} ===", flush=True)
    namespace: dict[str, Any] = {"display": _show, "__name__": "__main__"}
    failures = 0
    cells = code_cells(path)  # read with the site's reader first
    _print_glue()
    for number, (source, tags) in enumerate(cells, 1):
        expect_error = "raises-exception" in tags
        print(f"--- cell {number}{' (raises-exception)' if expect_error else ''}")
        start = time.perf_counter()
        try:
            run_cell(source, namespace)
        except Exception as error:  # noqa: BLE001 - reported, then judged
            print(
                f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:200]}"
            )
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
    parser.add_argument(
        "pages",
        nargs="+",
        type=Path,
        help="pages (.md) or downloaded notebooks (.ipynb)",
    )
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
    failures = sum(run_page(page) for page in args.pages)
    print(f"\n{failures} cell(s) misbehaved")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
