"""Fixtures shared by the tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import pytest
from hypothesis import settings

from browser import (
    CHROMIUM_ARGS,
    BrowserUnavailable,
    find_chromium,
    serve_directory,
    site_page,
    skip_or_fail,
)
from helpers import BUILT, SITE
from jaxguide_site.languages import LANGUAGES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

mpl.use("Agg")

# Run by `nox -s notebooks`, in an environment without the Sphinx toolchain.
collect_ignore = ["reader"]


@pytest.fixture(scope="session")
def site() -> Path:
    """The site that `nox -s site` builds before running pytest."""
    if not (SITE / "index.html").is_file():
        pytest.fail(
            f"no built site at {SITE}: run `nox -s docs` (or `nox -s site`) first"
        )
    return SITE


@pytest.fixture(scope="session")
def built(site: Path) -> dict[str, Path]:
    """Sphinx's build of each language: ``built["ko"] / "jit.html"`` (the
    pages of build/html/ko/<version>/, which ``site`` checks exists)."""
    del site
    return {lang: BUILT / lang / "html" for lang in LANGUAGES}


@pytest.fixture(scope="session")
def served_site(site: Path) -> Iterator[str]:
    """Base URL of build/html served on localhost, gzipped as GitHub Pages
    serves it: ``{served_site}/ko/dev/jit.html``."""
    with serve_directory(site, gzipped=True) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any],
) -> dict[str, Any]:
    """pytest-playwright's ``browser`` is Debian's Chromium, never a browser
    Playwright downloads; headless unless pytest runs with ``--headed``.

    Skips, with how to install it, where Chromium is missing; fails instead
    where JAXGUIDE_REQUIRE_BROWSER=1 (as .ci/run sets).
    """
    try:
        executable = find_chromium()
    except BrowserUnavailable as error:
        skip_or_fail(str(error))
    return {
        **browser_type_launch_args,
        "executable_path": str(executable),
        "args": list(CHROMIUM_ARGS),
    }


@pytest.fixture
def page(browser: Browser, served_site: str) -> Iterator[Page]:
    """A fresh browser context and page (no shared storage between tests);
    requests that leave the served site are aborted."""
    with site_page(browser, served_site) as new_page:
        yield new_page


# What needs the built site or a browser runs in `nox -s site`, after the
# build; the rest also in `nox -s tests`, which builds no site.
SITE_FIXTURES = {"site", "built", "served_site"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if fixtures & SITE_FIXTURES or "browser" in fixtures:
            item.add_marker(pytest.mark.site)


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Tests draw with matplotlib's Agg backend and never leak figures."""
    yield
    plt.close("all")


# JAX compiles anew for each new shape, so a first example can take a while;
# a deadline would turn that into flaky failures.
settings.register_profile("jaxguide", deadline=None, max_examples=25)
settings.load_profile("jaxguide")
