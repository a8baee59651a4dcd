"""Fixtures shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import SITE


@pytest.fixture(scope="session")
def site() -> Path:
    """The site that `nox -s tests` builds before running pytest."""
    if not (SITE / "index.html").is_file():
        pytest.fail(
            f"no built site at {SITE}: run `nox -s docs` (or `nox -s tests`) first"
        )
    return SITE
