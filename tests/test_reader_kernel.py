"""The pages' kernel (src/jaxguide_site/execution/kernels.py): where the site's
build asks for a reader's Python (``JAXGUIDE_KERNEL=reader``, as ``nox -s
docs`` does), a kernel that can import the toolchain stops the build.

That the site's own build ran in a reader's Python is
tests/test_notebooks.py::test_the_pages_executed_in_a_readers_python.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from sphinx.errors import ExtensionError

from helpers import DOCS, build_project, tiny_project
from jaxguide_site.execution.kernels import (
    KERNEL_ENV,
    KERNEL_NAME,
    KERNEL_RECORD,
    TOOLCHAIN,
    kernel_python,
    toolchain_in,
)
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.page_structure import read


def test_this_python_is_not_a_readers() -> None:
    assert toolchain_in(sys.executable) == list(TOOLCHAIN)


def test_a_kernel_with_the_toolchain_stops_a_build_that_asks_for_a_readers(
    tmp_path: Path,
) -> None:
    source = tiny_project(tmp_path / "src", pages=1)
    with pytest.raises(ExtensionError, match=r"can import sphinx, myst_nb") as error:
        build_project(
            source,
            tmp_path / "out",
            lang="en",
            cache=tmp_path / "cache",
            env={KERNEL_ENV: "reader"},
        )
    assert kernel_python() in str(error.value)
    assert "nox -s docs" in str(error.value)


def test_any_build_that_executes_writes_down_its_kernel(tmp_path: Path) -> None:
    source = tiny_project(tmp_path / "src", pages=1)
    result = build_project(
        source, tmp_path / "out", lang="en", cache=tmp_path / "cache"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (record_file,) = (tmp_path / "out").rglob(KERNEL_RECORD)
    record = json.loads(record_file.read_text())
    assert record == {"python": kernel_python(), "toolchain": list(TOOLCHAIN)}


def test_every_notebook_page_runs_in_the_kernel_the_build_checks() -> None:
    """The build checks the kernel named python3: a page naming another would
    execute in a Python nobody checked."""
    names = {
        f"{lang}/{path.stem}": kernelspec.get("name")
        for lang in LANGUAGES
        for path in sorted((DOCS / lang).glob("*.md"))
        if (
            kernelspec := read(path.read_text("utf-8")).front_matter.data.get(
                "kernelspec"
            )
        )
    }
    assert len(names) >= 20
    assert set(names.values()) == {KERNEL_NAME}, names
