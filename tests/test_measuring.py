"""A page that measures executes alone (src/jaxguide_site/execution/measuring.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import DOCS, NOTEBOOK_FRONT_MATTER, REPO, run_sphinx
from jaxguide_site.execution.measuring import (
    LOG_NAME,
    declares_measuring,
    overlaps_with_measuring,
    read_log,
    times_code,
)
from jaxguide_site.languages import LANGUAGES

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
def test_no_page_executes_while_a_measuring_page_does(tmp_path: Path) -> None:
    measuring = ["timed1", "timed2"]
    ordinary = [f"page{n}" for n in range(1, 7)]
    srcdir = project(tmp_path / "src", measuring, ordinary)
    out = tmp_path / "out"
    result = run_sphinx(srcdir, out, lang="en", cache=tmp_path / "cache", jobs=4)
    assert result.returncode == 0, result.stdout + result.stderr

    holds = read_log(out / ".doctrees")
    assert sorted(hold["page"] for hold in holds) == sorted(
        ["index", *measuring, *ordinary]
    )
    assert {hold["page"] for hold in holds if hold["exclusive"]} == set(measuring)
    assert overlaps_with_measuring(holds) == []
    assert len({hold["pid"] for hold in holds}) > 1  # read by parallel readers
    for name in measuring:
        html = (out / "html" / f"{name}.html").read_text(encoding="utf-8")
        assert "alone: 1" in html  # its kernel was told
    html = (out / "html" / "page1.html").read_text(encoding="utf-8")
    assert "alone: None" in html

    # The doctest builder that follows (site_build.py) reads no page: the log stays.
    cache = tmp_path / "cache"
    doctest = run_sphinx(srcdir, out, lang="en", cache=cache, builder="doctest")
    assert doctest.returncode == 0, doctest.stdout + doctest.stderr
    assert read_log(out / ".doctrees") == holds


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sites_last_build_ran_no_page_beside_a_measuring_one(
    site: Path, lang: str
) -> None:
    """The holds the site's last build logged (``nox -s site`` builds it, so
    in CI a cold build where every page executes): every measuring page it
    read held the lock alone, and nothing overlapped it."""
    del site
    doctrees = REPO / "build" / "doctrees" / lang
    assert (doctrees / LOG_NAME).is_file(), "the build logged no holds"
    holds = read_log(doctrees)
    pages = {hold["page"]: hold["exclusive"] for hold in holds}
    for page, exclusive in pages.items():
        source = (DOCS / lang / f"{page}.md").read_text(encoding="utf-8")
        assert exclusive == declares_measuring(source), page
    assert overlaps_with_measuring(holds) == []
