"""A page in progress, added as docs/en/contributing.md says, fails no test.

The contributing page's "Adding a page" has an English page merged before its
Korean translation: docs/en/<page>.md, listed in docs/en/index.md's toctree
and under ``[in_progress] ko`` in docs/_data/translations.toml. The
translation checker accepts it; so must every test that walks the pages,
which take them from tests/helpers.py's GUIDE_PAGES (issue 32). This test
adds such a page to a copy of docs/ and runs those tests over the copy.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from helpers import DOCS_VARIABLE, NOTEBOOK_FRONT_MATTER, PROJECT_DOCS, REPO
from jaxguide_site.translation.checker import main as translation_checker
from jaxguide_site.translation.consistency import check
from jaxguide_site.translation.pages import guide_pages

TESTS = Path(__file__).resolve().parent
# The modules whose page lists GUIDE_PAGES gives (those of the built site are
# only collected here: their tests wait for `nox -s site`).
PAGE_WALKING = (
    "test_content_pages.py",
    "test_notebooks.py",
    "test_page_parity.py",
    "test_page_structure.py",
    "test_notes_asides.py",
    "test_glossary.py",
    "test_api_page.py",
    "test_gpu_records.py",
    "test_section_anchors.py",
    "test_site.py",
    "test_every_page_on_a_phone.py",
    "test_search_browser.py",
)
PAGE_LISTS = {"GUIDE_PAGES", "written_in_each_language"}  # tests/helpers.py's
# A name no contributor's page has: the test adds its page beside theirs.
PAGE = "test-page-in-progress"
# A teaching page, as tests/test_content_pages.py wants one.
SOURCE = f"""{NOTEBOOK_FRONT_MATTER}
({PAGE})=
# Loops that compile once

A Python loop under `jit` is unrolled: the compiled program holds one copy of
the body for each step. {{func}}`jax.lax.fori_loop` compiles the body once and
runs it as many times as asked.

```{{code-cell}} ipython3
import jax

from jaxguide import environment_report

environment_report()
```

## A loop in one piece

```{{code-cell}} ipython3
def total(n):
    return jax.lax.fori_loop(0, n, lambda i, acc: acc + i, 0)


print(jax.jit(total)(10))
```

## What you learned

- {{func}}`jax.lax.fori_loop` keeps one copy of the loop's body.

## Exercises

1. Sum the squares of the first ten numbers with a loop that compiles once.

```{{code-cell}} ipython3
:tags: [hide-cell]

print(jax.lax.fori_loop(0, 10, lambda i, acc: acc + i * i, 0))
```
"""


def add_english_page_in_progress(docs: Path, name: str, source: str) -> None:
    """What the contributing page asks: the page, its toctree entry (in the
    part of worked examples) and its name under ``[in_progress] ko``."""
    page = docs / "en" / f"{name}.md"
    assert not page.exists(), f"{page} exists: the test's page needs another name"
    page.write_text(source, encoding="utf-8")
    index = docs / "en" / "index.md"
    text = index.read_text(encoding="utf-8")
    listed = text.replace("least-squares\n", f"least-squares\n{name}\n", 1)
    assert listed != text
    index.write_text(listed, encoding="utf-8")
    translations = docs / "_data" / "translations.toml"
    text = translations.read_text(encoding="utf-8")
    # Beside any page already in progress (a contributor's own, say).
    listed = re.sub(
        r"^ko = \[(.*?)\]$",
        lambda m: f'ko = [{m[1]}{", " if m[1].strip() else ""}"{name}"]',
        text,
        count=1,
        flags=re.MULTILINE,
    )
    assert listed != text, "docs/_data/translations.toml has no 'ko = [...]' line"
    translations.write_text(listed, encoding="utf-8")


@pytest.fixture(scope="module")
def docs_in_progress(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project's docs/ with the English page in progress."""
    docs = tmp_path_factory.mktemp("project") / "docs"
    shutil.copytree(PROJECT_DOCS, docs)
    add_english_page_in_progress(docs, PAGE, SOURCE)
    return docs


def test_the_checker_and_the_pages_agree_on_the_page_in_progress(
    docs_in_progress: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["check", "--strict", "--docs", str(docs_in_progress)]
    assert translation_checker(arguments) == 0, capsys.readouterr().out
    states = {page.name: page.state for page in check(docs_in_progress).pages}
    pages = guide_pages(docs_in_progress)
    assert PAGE in pages.in_progress["ko"]
    in_progress = {name for name, state in states.items() if state == "in progress"}
    assert in_progress == {*pages.in_progress["ko"], *pages.in_progress["en"]}
    assert PAGE in pages.on_site("ko")
    assert PAGE not in pages.written["ko"]
    assert PAGE not in pages.in_every_language()


def test_the_page_walking_tests_pass_with_a_page_in_progress(
    docs_in_progress: Path,
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *("-v", "-n0", "-p", "no:cacheprovider"),
            *("-m", "not site and not slow"),
            *(str(TESTS / module) for module in PAGE_WALKING),
        ],
        cwd=REPO,
        env={**os.environ, DOCS_VARIABLE: str(docs_in_progress)},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-4000:]
    # The tests read the copy: the page's summary is checked, in English only.
    summary = "test_page_ends_with_summary_and_exercises_with_a_hidden_solution"
    assert f"{summary}[{PAGE}-en] PASSED" in done.stdout
    assert f"{summary}[{PAGE}-ko]" not in done.stdout


def test_every_module_that_walks_the_pages_is_run_over_the_copy() -> None:
    """A new module that takes the pages from GUIDE_PAGES is listed above."""
    walking = {path.name for path in TESTS.glob("test_*.py") if _walks_pages(path)}
    assert walking <= set(PAGE_WALKING)
    assert all((TESTS / module).is_file() for module in PAGE_WALKING)


def _walks_pages(module: Path) -> bool:
    """Whether the test module imports the page lists of tests/helpers.py."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "helpers"
        and {alias.name for alias in node.names} & PAGE_LISTS
        for node in ast.walk(tree)
    )


def test_the_page_is_listed_beside_a_page_already_in_progress(tmp_path: Path) -> None:
    """A contributor's clone may already have a page in progress: the test
    lists its own page beside it instead of failing."""
    for folder in ("en", "_data"):
        (tmp_path / folder).mkdir()
    (tmp_path / "en" / "index.md").write_text("least-squares\n", encoding="utf-8")
    translations = tmp_path / "_data" / "translations.toml"
    translations.write_text('[in_progress]\nko = ["where"]\nen = []\n', "utf-8")
    add_english_page_in_progress(tmp_path, PAGE, SOURCE)
    listed = tomllib.loads(translations.read_text(encoding="utf-8"))
    assert listed["in_progress"] == {"ko": ["where", PAGE], "en": []}
