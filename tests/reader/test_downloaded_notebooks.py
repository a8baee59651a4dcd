"""Every notebook a reader downloads runs top to bottom without our toolchain.

Run by ``nox -s notebooks``, in an environment with only what a reader has:
Python with jaxguide (and so JAX, NumPy, matplotlib, Optax), ipykernel and
nbclient, and nothing of the Sphinx toolchain. It executes the ``.ipynb``
files the site offers (download and Colab), the Colab setup cell included, as
Jupyter would: a cell tagged ``raises-exception`` may fail, any other error
fails the test, but for a speed verdict that did not hold on this machine
(:data:`SPEED_VERDICT`). ``nox -s tests`` does not collect this folder: its
environment has Sphinx and myst-nb, which would hide the very imports this
test is for.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

REPO = Path(__file__).resolve().parents[2]
# Kernels on Unix sockets of their own, as the build's: the notebooks run side
# by side (pytest-xdist), and kernels started at once can take the same TCP
# port. The site's tooling is not installed here, so its module is loaded from
# its file; it needs only jupyter_client.
_SOCKETS = REPO / "src" / "jaxguide_site" / "execution" / "kernel_sockets.py"
_spec = importlib.util.spec_from_file_location("kernel_sockets", _SOCKETS)
assert _spec is not None, _SOCKETS
assert _spec.loader is not None, _SOCKETS
kernel_sockets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_sockets)
LANG = os.environ.get("JAXGUIDE_NOTEBOOK_LANG", "en")
BUILT = REPO / "build" / "sphinx" / LANG / "html"
NOTEBOOKS = sorted(BUILT.glob("*.ipynb"))
TOOLCHAIN = ("sphinx", "myst_nb", "myst_parser", "jupyter_cache", "docutils")
# A cell that holds a measurement to the direction its page teaches
# (``ratio.expect("faster")``) raises this where a run measured the opposite:
# whether it holds depends on the machine, not on what the reader's
# environment can run. It is printed, not failed; the site's build checks
# those directions, and `nox -s record` reports whether they held in every
# recorded run, idle and busy.
SPEED_VERDICT = "UnexpectedVerdict"


def test_this_environment_is_a_readers() -> None:
    present = [name for name in TOOLCHAIN if importlib.util.find_spec(name)]
    assert not present, (
        f"{', '.join(present)} installed here: run this test through "
        "`nox -s notebooks`, whose environment has only what a reader installs"
    )


def test_the_site_has_notebooks() -> None:
    assert len(NOTEBOOKS) >= 10, (
        f"{len(NOTEBOOKS)} notebooks in {BUILT}: build the site first (`nox -s docs`)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_top_to_bottom(path: Path, tmp_path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        kernel_manager_class=kernel_sockets.UnixSocketKernelManager,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
        allow_error_names=[SPEED_VERDICT],
    )
    try:
        client.execute()
    except CellExecutionError as error:
        pytest.fail(f"{path.name} fails where a reader runs it:\n{error}")
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("ename") == SPEED_VERDICT:
                print(f"{path.name}, cell {number}: not a failure: {output.evalue}")
