"""A page that measures executes alone (src/jaxguide_site/execution/measuring.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import NOTEBOOK_FRONT_MATTER, run_sphinx
from jaxguide_site.execution.measuring import declares_measuring, times_code

MEASURING_FRONT_MATTER = NOTEBOOK_FRONT_MATTER.removesuffix("---\n") + (
    "jaxguide:\n  measures: true\n---\n"
)

# Each page's kernel sleeps, so that pages read side by side would overlap,
# and prints whether the build told it that it runs alone. Its name makes its
# code its own: the execution cache would share one run between equal pages.
CELL = """```{{code-cell}} ipython3
import os, time
time.sleep(0.4)
print({name!r}, "alone:", os.environ.get("JAXGUIDE_MEASURED_ALONE"))
```
"""


def project(srcdir: Path, measuring: list[str], ordinary: list[str]) -> Path:
    srcdir.mkdir(parents=True)
    names = [*measuring, *ordinary]
    toctree = "```{toctree}\n" + "\n".join(names) + "\n```\n"
    (srcdir / "index.md").write_text(f"# Sample\n\n{toctree}", encoding="utf-8")
    for name in names:
        front = MEASURING_FRONT_MATTER if name in measuring else NOTEBOOK_FRONT_MATTER
        text = f"{front}\n# {name}\n\n{CELL.format(name=name)}"
        (srcdir / f"{name}.md").write_text(text, encoding="utf-8")
    return srcdir


def test_the_sample_front_matter_declares_measuring() -> None:
    assert declares_measuring(MEASURING_FRONT_MATTER)
    assert not declares_measuring(NOTEBOOK_FRONT_MATTER)
    assert MEASURING_FRONT_MATTER.startswith("---\nfile_format: mystnb\n")


@pytest.mark.parametrize(
    ("front", "measures"),
    [
        ("jaxguide:\n  measures: true", True),
        ("jaxguide:\n  measures: false", False),
        ("jaxguide:\n  measures: yes please", False),
        ("measures: true", False),  # not under jaxguide:
        ("jaxguide: true", False),
    ],
)
def test_only_an_explicit_declaration_counts(front: str, measures: bool) -> None:
    assert declares_measuring(f"---\n{front}\n---\n# Page\n") is measures


def test_timing_calls_are_found_in_code_cells_only() -> None:
    page = "We compare(...) things in prose.\n\n```{code-cell} ipython3\nx = 1\n```\n"
    assert not times_code(page)
    assert times_code(page + "\n```{code-cell} ipython3\ncompare({'a': f})\n```\n")
    assert times_code("```{code-cell} ipython3\njaxguide.benchmark(f, x)\n```\n")


@pytest.mark.slow
def test_a_page_sphinx_executes_is_told_whether_it_measures(tmp_path: Path) -> None:
    """Where Sphinx executes (a page the pre-step could not, ``nox -s serve``),
    it executes one page at a time, in its own process, and a measuring
    page's kernel is told that it runs alone."""
    srcdir = project(tmp_path / "src", ["timed"], ["page"])
    out = tmp_path / "out"
    result = run_sphinx(srcdir, out, lang="en", cache=tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "alone: 1" in (out / "html" / "timed.html").read_text(encoding="utf-8")
    assert "alone: None" in (out / "html" / "page.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_page_that_times_code_without_declaring_it_fails_the_build(
    tmp_path: Path,
) -> None:
    srcdir = project(tmp_path / "src", [], ["undeclared"])
    page = srcdir / "undeclared.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        + "\n```{code-cell} ipython3\ndef compare(*args):\n    pass\n\n\ncompare()\n```\n",
        encoding="utf-8",
    )
    result = run_sphinx(srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache")
    assert result.returncode != 0
    assert "undeclared.md times code (benchmark or compare)" in result.stderr
    assert "'measures: true'" in result.stderr
