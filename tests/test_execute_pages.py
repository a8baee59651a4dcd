"""tests/benchmarks/execute_pages.py (python -m tests.benchmarks.execute_pages) runs a page's cells the way the notebook does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import REPO
from jaxguide_site.notebooks.downloads import SETUP_TAG

PAGE = """# T

```{code-cell} ipython3
from jaxguide import glue
x = 6 * 7
glue("answer", x, display=False)
x
```

```{code-cell} ipython3
:tags: [raises-exception]

1 / 0
```
"""


def run(page: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.execute_pages", str(page)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_shows_last_expression_glue_and_expected_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    result = run(page)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[glue answer: 42]\n42\n" in result.stdout
    assert "ZeroDivisionError: division by zero" in result.stdout
    assert "0 cell(s) misbehaved" in result.stdout


def test_fails_on_an_unexpected_error_and_on_a_missing_one(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        PAGE.replace("x = 6 * 7", "x = 6 * 7\nraise ValueError('boom')").replace(
            "1 / 0", "1 / 1"
        ),
        encoding="utf-8",
    )
    result = run(page)
    assert result.returncode == 1
    assert "ValueError: boom" in result.stdout
    assert "expected an exception, none raised" in result.stdout
    assert "2 cell(s) misbehaved" in result.stdout


def test_runs_a_downloaded_notebook_without_its_colab_setup(tmp_path: Path) -> None:
    cells = [
        ("%pip install jaxguide", [SETUP_TAG]),  # as the runner knows it
        ("x = 6 * 7\nx", []),
        ("1 / 0", ["raises-exception"]),
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "source": source, "metadata": {"tags": tags}}
            for source, tags in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    result = run(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "--- cell 1\n42\n" in result.stdout
    assert "ZeroDivisionError" in result.stdout
