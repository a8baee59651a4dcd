"""What `pip install` of the repository gives a reader (Colab's first cell, a
downloaded notebook): the jaxguide package alone, without the site's tooling,
its commands or its toolchain.

The tooling (src/jaxguide_site) reaches the docs, test and lint environments
through the editable install of the checkout instead (noxfile.py's
install()); these tests themselves import it that way.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from helpers import REPO

# What the site's build needs and a reader has no use for.
TOOLCHAIN = {"sphinx", "myst-nb", "babel", "pagefind", "sphinx-book-theme"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    # nox runs the tests with UV set to the uv it found (noxfile.py: run_pytest),
    # which need not be on PATH (a venv's `pip install nox[uv]`).
    uv = shutil.which(os.environ.get("UV") or "uv")
    if uv is None:
        pytest.fail(
            "uv not found: run the tests through nox (`python -m nox -s tests`), "
            "or put uv on PATH or name it in UV"
        )
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(out), str(REPO)],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("jaxguide-*.whl")
    return zipfile.ZipFile(path)


def _dist_info(wheel: zipfile.ZipFile) -> str:
    (folder,) = {
        name.split("/")[0] for name in wheel.namelist() if ".dist-info/" in name
    }
    return folder


def test_the_wheel_holds_jaxguide_alone(wheel: zipfile.ZipFile) -> None:
    top = {Path(name).parts[0] for name in wheel.namelist()}
    assert top == {"jaxguide", _dist_info(wheel)}
    assert "jaxguide/py.typed" in wheel.namelist()


def test_the_wheel_carries_the_timing_records(wheel: zipfile.ZipFile) -> None:
    """A reader's own run states the same recorded ranges as the site."""
    records = [n for n in wheel.namelist() if n.startswith("jaxguide/records/")]
    assert records
    assert all(name.endswith(".json") for name in records)


def test_the_wheel_installs_no_commands(wheel: zipfile.ZipFile) -> None:
    assert f"{_dist_info(wheel)}/entry_points.txt" not in wheel.namelist()


def test_the_wheel_needs_no_site_toolchain(wheel: zipfile.ZipFile) -> None:
    metadata = Parser().parsestr(
        wheel.read(f"{_dist_info(wheel)}/METADATA").decode("utf-8")
    )
    needs = {
        canonicalize_name(Requirement(line).name)
        for line in metadata.get_all("Requires-Dist") or []
        if "extra ==" not in line
    }
    assert "jax" in needs
    assert not needs & TOOLCHAIN


def test_the_wheel_never_imports_the_tooling(wheel: zipfile.ZipFile) -> None:
    """A reader's install has no jaxguide_site: importing it there fails."""
    importing = []
    for name in wheel.namelist():
        if not name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(wheel.read(name), filename=name)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            if any(module.split(".")[0] == "jaxguide_site" for module in modules):
                importing.append(f"{name}:{node.lineno}")
    assert not importing, importing
