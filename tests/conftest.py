"""Fixtures shared by the tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import pytest
from hypothesis import settings

from helpers import SITE

mpl.use("Agg")


@pytest.fixture(scope="session")
def site() -> Path:
    """The site that `nox -s tests` builds before running pytest."""
    if not (SITE / "index.html").is_file():
        pytest.fail(
            f"no built site at {SITE}: run `nox -s docs` (or `nox -s tests`) first"
        )
    return SITE


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Tests draw with matplotlib's Agg backend and never leak figures."""
    yield
    plt.close("all")


# JAX compiles anew for each new shape, so a first example can take a while;
# a deadline would turn that into flaky failures.
settings.register_profile("jaxguide", deadline=None, max_examples=25)
settings.load_profile("jaxguide")
