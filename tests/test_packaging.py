"""What `pip install` of the repository gives a reader (Colab's first cell, a
downloaded notebook): the jaxguide package alone, without the site's tooling,
its commands or its toolchain."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from helpers import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not on PATH: install nox[uv] (the README's commands do)")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(out), str(REPO)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("jaxguide-*.whl")
    return zipfile.ZipFile(built)


def _dist_info(wheel: zipfile.ZipFile) -> str:
    (folder,) = {
        name.split("/")[0] for name in wheel.namelist() if ".dist-info/" in name
    }
    return folder


def test_the_wheel_holds_jaxguide_alone(wheel: zipfile.ZipFile) -> None:
    top = {Path(name).parts[0] for name in wheel.namelist()}
    assert top == {"jaxguide", _dist_info(wheel)}
    assert "jaxguide/py.typed" in wheel.namelist()


def test_the_wheel_installs_no_commands(wheel: zipfile.ZipFile) -> None:
    assert f"{_dist_info(wheel)}/entry_points.txt" not in wheel.namelist()


def test_the_wheel_needs_no_site_toolchain(wheel: zipfile.ZipFile) -> None:
    metadata = Parser().parsestr(
        wheel.read(f"{_dist_info(wheel)}/METADATA").decode("utf-8")
    )
    needs = {
        requirement.split(">")[0].split("=")[0].split("[")[0].strip().lower()
        for requirement in metadata.get_all("Requires-Dist") or []
        if "extra ==" not in requirement
    }
    assert "jax" in needs
    assert not needs & {"sphinx", "myst-nb", "babel", "pagefind", "sphinx-book-theme"}
