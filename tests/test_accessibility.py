"""No serious accessibility problem, in a real browser, on a sample of pages.

axe-core (its current release, pinned in tests/audit) on a sample of pages,
light (``AXE_PAGES``) and dark (``DARK_PAGES``); on the desktop, where the
phone's visit of every page (test_every_page_on_a_phone.py) does not look,
no console error either. ``nox -s benchmark -- audit`` runs axe on every page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from browser import site_page, skip_or_fail
from helpers import built_version
from jaxguide_site.languages import LANGUAGES
from site_checkers import CheckerUnavailable, axe_violations, install_node_tools
from site_visit import Problems, open_page, url

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# A sample for axe (nox -s benchmark -- audit checks every page in both
# languages): the home page, teaching pages with figures, tables, errors and
# coloured sharding diagrams, the reference pages, and the generated search
# page. The languages share every template and stylesheet, so a teaching or
# reference page is checked in one of them (half the runs, the slowest of the
# site's tests); the home and search pages, whose interface text the
# translations change most, in both.
AXE_PAGES = [
    *((lang, name) for lang in LANGUAGES for name in ("index", "search")),
    *(("ko", name) for name in ("jit", "parallelism", "glossary")),
    *(("en", name) for name in ("least-squares", "api", "status")),
]
# Dark mode recolours code, outputs, figures, tables and the sharding
# diagrams: the pages that show them, each in one language.
DARK_PAGES = [
    ("en", "search"),  # the header, sidebar and search box
    ("ko", "least-squares"),
    ("ko", "api"),
    ("en", "jit"),
    ("en", "parallelism"),
]


@pytest.fixture
def version() -> str:
    return built_version()


def _axe_blocking(page: Page) -> list[str]:
    """axe-core's serious and critical violations (its current release, from
    tests/audit: the axe-core that axe-playwright-python bundled, 4.12, lacked WCAG 2.5.3)."""
    try:
        install_node_tools()
    except CheckerUnavailable as error:
        skip_or_fail(str(error))
    return [
        f"{v['id']} ({v['impact']}): {v['help']} - {v['targets']}"
        for v in axe_violations(page)
    ]


@pytest.mark.parametrize(("lang", "name"), AXE_PAGES)
def test_no_serious_accessibility_violations(
    page: Page, served_site: str, version: str, lang: str, name: str
) -> None:
    """On a desktop (the phone's visit of every page is
    test_every_page_on_a_phone.py): no console error either, on the same
    sample."""
    problems = Problems(served_site)
    problems.watch(page)
    open_page(page, url(served_site, lang, version, name))
    assert problems.found() == []
    assert _axe_blocking(page) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["genindex", "py-modindex"])
def test_pages_with_no_current_link_load_without_errors_on_a_desktop(
    page: Page, served_site: str, version: str, lang: str, name: str
) -> None:
    """The sidebar's script looks for the current page's link on a desktop
    only (sidebar-toggles.js); these generated pages have none."""
    problems = Problems(served_site)
    problems.watch(page)
    open_page(page, url(served_site, lang, version, name))
    assert problems.found() == []


@pytest.mark.parametrize(("lang", "name"), DARK_PAGES)
def test_no_serious_accessibility_violations_in_dark_mode(
    browser: Browser, served_site: str, version: str, lang: str, name: str
) -> None:
    """Dark mode recolours code, outputs and tables: axe checks them again."""
    with site_page(browser, served_site, color_scheme="dark") as page:
        open_page(page, url(served_site, lang, version, name))
        assert page.locator("html").get_attribute("data-theme") == "dark"
        assert _axe_blocking(page) == []
