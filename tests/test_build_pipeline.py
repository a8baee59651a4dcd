"""The build pipeline, proved on tiny throwaway Sphinx projects.

Each test builds a real project in process (sphinx.testing's application)
with the site's own docs/conf.py, warnings failing the build as they fail
the site's, and its own notebook cache.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.build_bench import failed_cells
from helpers import NOTEBOOK_FRONT_MATTER, REPO, SPHINX_STRICT, build_project
from jaxguide_site import site_build
from jaxguide_site.execution import prefill
from jaxguide_site.site_build import sphinx_command

FRONT_MATTER = NOTEBOOK_FRONT_MATTER


def notebook(title: str, prose: str, *cells: str) -> str:
    """A MyST text notebook; a cell starting with ':tags:' keeps that line."""
    blocks = [FRONT_MATTER, f"# {title}\n", f"{prose}\n"]
    blocks += [f"```{{code-cell}} ipython3\n{cell}\n```\n" for cell in cells]
    return "\n".join(blocks)


def write_project(root: Path, lang: str, pages: dict[str, str]) -> Path:
    srcdir = root / "src" / lang
    srcdir.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (srcdir / f"{name}.md").write_text(text, encoding="utf-8")
    return srcdir


def executions(log: str, lang: str) -> tuple[int, int, int]:
    """(executed, from cache, failed) from the execution report line."""
    match = re.search(
        rf"jaxguide \[{lang}\]: \d+ notebook page\(s\) read: (\d+) executed, "
        r"(\d+) from the cache, (\d+) failed",
        log,
    )
    assert match, f"no execution report in the build log:\n{log}"
    executed, cached, failed = (int(group) for group in match.groups())
    return executed, cached, failed


BROKEN = notebook(
    "Broken",
    "The second cell divides by zero without the raises-exception tag.",
    "x = 1\nprint(x)",
    "y = x / 0",
)


def test_broken_cell_fails_the_build_naming_page_line_and_cell(tmp_path: Path) -> None:
    srcdir = write_project(tmp_path, "en", {"index": BROKEN})
    result = build_project(
        srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache"
    )
    log = result.stdout + result.stderr
    assert result.returncode != 0, log
    page = srcdir / "index.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    fences = [
        n for n, line in enumerate(lines, start=1) if line.startswith("```{code-cell}")
    ]
    expected = (
        f"{page}:{fences[1]}: WARNING: cell 2 failed to execute: "
        "ZeroDivisionError: division by zero"
    )
    assert expected in log
    assert "y = x / 0" in log  # myst-nb's report shows the cell's source
    assert "Exception occurred" not in log  # a failed build, not a Sphinx crash
    # The build benchmark reads the same log: a failed cell, reported, and
    # nothing else wrong, so the benchmark goes on.
    assert failed_cells(log) == [
        f"{page}: cell 2 failed to execute: ZeroDivisionError: division by zero"
    ]
    assert failed_cells(log + "\nWARNING: something else\n") == []


def test_cell_tagged_raises_exception_builds_and_shows_the_error(
    tmp_path: Path,
) -> None:
    page = notebook(
        "Expected error",
        "This cell is meant to fail.",
        ":tags: [raises-exception]\n\n1 / 0",
    )
    srcdir = write_project(tmp_path, "en", {"index": page})
    result = build_project(
        srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    html = (tmp_path / "out" / "html" / "index.html").read_text(encoding="utf-8")
    assert "ZeroDivisionError" in html


def test_failing_doctest_in_a_page_fails_the_doctest_build(tmp_path: Path) -> None:
    page = "# Doctest\n\n```{doctest}\n>>> 1 + 1\n3\n```\n"
    srcdir = write_project(tmp_path, "en", {"index": page})
    result = build_project(
        srcdir, tmp_path / "out", lang="en", cache=tmp_path / "cache", builder="doctest"
    )
    assert result.returncode != 0
    assert "1 failure in tests" in result.stdout + result.stderr


def test_languages_share_executions_and_prose_edits_execute_nothing(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    cells = ("import sys\nprint(sys.version_info[:2])", "print(sum(range(10)))")
    ko_page = notebook("한국어", "코드는 두 언어에서 똑같습니다.", *cells)
    en_page = notebook("English", "The code is the same in both languages.", *cells)
    ko_src = write_project(tmp_path, "ko", {"index": ko_page})
    en_src = write_project(tmp_path, "en", {"index": en_page})

    def build(lang: str, srcdir: Path) -> tuple[int, int, int]:
        result = build_project(srcdir, tmp_path / f"out-{lang}", lang=lang, cache=cache)
        log = result.stdout + result.stderr
        assert result.returncode == 0, log
        return executions(log, lang)

    assert build("ko", ko_src) == (1, 0, 0)
    assert build("en", en_src) == (0, 1, 0), "identical code must reuse the cache"

    (ko_src / "index.md").write_text(ko_page.replace("똑같습니다", "같습니다"), "utf-8")
    assert build("ko", ko_src) == (0, 1, 0), "a prose-only edit must not execute"

    assert build("en", en_src) == (0, 0, 0), "an unchanged page is not even read"

    (ko_src / "index.md").write_text(ko_page.replace("range(10)", "range(11)"), "utf-8")
    assert build("ko", ko_src) == (1, 0, 0), "a code edit executes that page once"


def test_pipeline_tests_use_the_same_sphinx_flags_as_noxfile() -> None:
    # noxfile.py builds with site_build.py (src/jaxguide_site/site_build.py),
    # and the tests' Sphinx runs take their flags from there too.
    noxfile = (REPO / "noxfile.py").read_text(encoding="utf-8")
    assert (
        'session.run(*BUILD_COMMAND, "--", *extra_sphinx_args, env=kernel)' in noxfile
    )
    assert 'BUILD_COMMAND = ("python", "-m", "jaxguide_site.site_build")' in noxfile
    command = sphinx_command("html", "ko", docs=REPO / "docs", build=REPO / "build")
    assert all(flag in command for flag in SPHINX_STRICT)
    assert "-j" in command


def test_what_runs_after_writing_is_one_list() -> None:
    """Only post_build.py connects to build-finished: a step added elsewhere
    would run in an order no list shows."""
    connecting = sorted(
        path.relative_to(REPO).as_posix()
        for path in (REPO / "src" / "jaxguide_site").rglob("*.py")
        if '"build-finished"' in path.read_text(encoding="utf-8")
    )
    assert connecting == ["src/jaxguide_site/post_build.py"]


def test_after_writing_the_templates_go_first_and_the_index_follows_the_pages() -> None:
    from jaxguide_site import post_build, site_search  # noqa: PLC0415
    from jaxguide_site.execution import report  # noqa: PLC0415
    from jaxguide_site.notebooks import downloads  # noqa: PLC0415

    steps = post_build.AFTER_WRITING
    assert steps[0].__name__ == "remove_theme_templates"
    assert steps.index(report.report_executions) < steps.index(site_search.index_pages)
    assert steps.index(downloads.write_notebooks) < steps.index(site_search.index_pages)
    assert len(set(steps)) == len(steps)


def test_the_build_reads_the_pre_steps_failure_status_as_written() -> None:
    """site_build keeps its own copy, so as not to import the executing code."""
    assert site_build.PAGES_FAILED == prefill.PAGES_FAILED
