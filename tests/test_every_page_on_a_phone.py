"""Every page of the built site, opened once on a phone as a reader's first visit.

Each page opens in a fresh browser context (nothing cached) on a phone. That
one visit per page serves four checks, each its own test: the page loads
without errors, never scrolls sideways (while it loads too), cuts nothing off
unseen, and its first view fits the byte budget (build/page-weight.json).

The page's width is read after every change to the document and at every
frame, so a layout that a change to the document makes and a script undoes is
seen however fast this machine is: a 600 px box the parser inserts and an
inline script removes, and a 700 px article a script narrows on ``load``,
were both reported. A widening that no change to the document makes (a
stylesheet or font arriving late) is seen only if a frame is drawn while it
lasts. (The fourfold CPU throttle this check once had doubled its time; the
loading layout it was added for, the header's buttons before their icons were
drawn, no longer occurs since the icons are fonts.)
"""

from __future__ import annotations

import json
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser import GENERATED_PAGES, site_page
from helpers import GUIDE_PAGES, REPO, built_version
from jaxguide_site.languages import LANGUAGES
from site_checkers import (
    FIRST_VIEW_BUDGET_KB,
    PHONE,
    PHONE_OPTIONS,
    Transfers,
    waiting_for_search,
)
from site_visit import Problems, url, wait_until_settled

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser, Page

PAGE_WEIGHT = REPO / "build" / "page-weight.json"
# The pages of each language's site (stand-ins included, which test_site.py
# checks are all the site has), and those Sphinx generates.
ALL_PAGES = {
    lang: sorted({*GUIDE_PAGES.on_site(lang), *GENERATED_PAGES}) for lang in LANGUAGES
}

# The page's widest moment while it loads: checked at every layout change
# and every frame from the first byte on, not only once it has settled.
_WIDEST_JS = """(() => {
  window.__jaxguideWidest = 0;
  const measure = () => {
    const width = document.documentElement ? document.documentElement.scrollWidth : 0;
    window.__jaxguideWidest = Math.max(window.__jaxguideWidest, width);
  };
  new MutationObserver(measure).observe(document, { subtree: true, childList: true, attributes: true });
  const everyFrame = () => { measure(); requestAnimationFrame(everyFrame); };
  requestAnimationFrame(everyFrame);
})();"""

# Boxes in the article cut sideways, and those without the cue of
# docs/_static/scroll-cues.js (a fade at the edge that hides more).
_CUT_JS = """() => [...document.querySelectorAll('.bd-article *')]
  .filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
    && getComputedStyle(e).display !== 'inline')
  .map((e) => ({
    box: e.tagName.toLowerCase() + '.' + [...e.classList].join('.'),
    scrolls: ['auto', 'scroll'].includes(getComputedStyle(e).overflowX),
    cue: e.scrollLeft === 0 ? e.classList.contains('jaxguide-more-right') : true,
  }))
  .filter((box) => !box.scrolls || !box.cue)"""


@dataclass(frozen=True)
class Visit:
    """What one page showed on its first visit from a phone."""

    problems: list[str]
    widest_while_loading: int
    widest_settled: int
    cut_unseen: list[dict[str, Any]]
    traceback_heights: list[float]
    transferred: dict[str, Any]  # Transfers.first_view


# Pages opened at once: they load side by side in the browser while the test
# reads the first (most of a visit is waiting, not computing).
AT_ONCE = 4


@dataclass(frozen=True)
class _Loading:
    """A page on its way, with what watches it."""

    page: Page
    problems: Problems
    transfers: Transfers

    @classmethod
    def start(
        cls, stack: ExitStack, browser: Browser, base: str, address: str
    ) -> _Loading:
        page = stack.enter_context(site_page(browser, base, **PHONE_OPTIONS))
        problems = Problems(base)
        problems.watch(page)
        page.add_init_script(_WIDEST_JS)
        transfers = Transfers(page)
        page.goto(address, wait_until="commit")
        return cls(page, problems, transfers)

    def visit(self) -> Visit:
        page = self.page
        try:
            wait_until_settled(page, network_idle=True)
        except PlaywrightError as error:  # reported; the other checks still look
            self.problems.console.append(f"never settled: {error}")
        transferred = self.transfers.first_view()
        # The cues come a frame or more late; a box still cut after this is
        # reported (waiting longer only delays that failure, never a pass).
        with suppress(PlaywrightTimeout):
            page.wait_for_function(f"({_CUT_JS})().length === 0", timeout=15_000)
        return Visit(
            problems=self.problems.found(),
            widest_while_loading=page.evaluate("window.__jaxguideWidest"),
            widest_settled=page.evaluate("document.documentElement.scrollWidth"),
            cut_unseen=page.evaluate(_CUT_JS),
            traceback_heights=page.locator("details.jaxguide-traceback").evaluate_all(
                "folds => folds.map((fold) => fold.getBoundingClientRect().height)"
            ),
            transferred=transferred,
        )


def visit_all(browser: Browser, base: str, addresses: list[str]) -> list[Visit]:
    """Each address visited in a fresh context, ``AT_ONCE`` of them loading
    side by side."""
    visits: list[Visit] = []
    for start in range(0, len(addresses), AT_ONCE):
        with ExitStack() as stack:
            pages = [
                _Loading.start(stack, browser, base, address)
                for address in addresses[start : start + AT_ONCE]
            ]
            visits += [loading.visit() for loading in pages]
    return visits


@pytest.fixture(scope="module")
def visits(browser: Browser, served_site: str) -> Callable[[str], dict[str, Visit]]:
    """Every page of a language, visited once for all the tests here (they
    run in one process: the site's tests are spread by module)."""
    version = built_version()
    done: dict[str, dict[str, Visit]] = {}

    def of(lang: str) -> dict[str, Visit]:
        if lang not in done:
            addresses = [url(served_site, lang, version, n) for n in ALL_PAGES[lang]]
            done[lang] = dict(
                zip(
                    ALL_PAGES[lang],
                    visit_all(browser, served_site, addresses),
                    strict=True,
                )
            )
        return done[lang]

    return of


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_loads_without_errors(
    visits: Callable[[str], dict[str, Visit]], lang: str
) -> None:
    found = {name: v.problems for name, v in visits(lang).items() if v.problems}
    assert found == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_on_a_phone(
    visits: Callable[[str], dict[str, Visit]], lang: str
) -> None:
    """Not once the page has settled, and not while it loads either."""
    wide = {
        name: {"while loading": v.widest_while_loading, "settled": v.widest_settled}
        for name, v in visits(lang).items()
        if max(v.widest_while_loading, v.widest_settled) > PHONE["width"]
    }
    assert wide == {}, f"pages wider than the {PHONE['width']} px viewport"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_phone_nothing_is_cut_unseen_and_no_traceback_fills_the_screen(
    visits: Callable[[str], dict[str, Visit]], lang: str
) -> None:
    """What is wider than a phone scrolls, and says so; a folded traceback
    (src/jaxguide_site/tracebacks.py) is shorter than one screen."""
    pages = visits(lang)
    cut = {name: v.cut_unseen for name, v in pages.items() if v.cut_unseen}
    tall = {
        name: v.traceback_heights
        for name, v in pages.items()
        if any(height > PHONE["height"] for height in v.traceback_heights)
    }
    assert cut == {}, "cut off with no cue that it scrolls"
    assert tall == {}, "folded tracebacks taller than the phone's screen"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_first_view_of_every_page_fits_the_budget(
    visits: Callable[[str], dict[str, Visit]], lang: str
) -> None:
    """What crosses the network on a first visit (recorded in
    build/page-weight.json) is at most the budget, and no page but search
    makes the reader wait for search scripts."""
    weights = {name: v.transferred for name, v in visits(lang).items()}
    report = (
        json.loads(PAGE_WEIGHT.read_text(encoding="utf-8"))
        if PAGE_WEIGHT.is_file()
        else {}
    )
    report[lang] = weights
    PAGE_WEIGHT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    heaviest = max(weights, key=lambda name: weights[name]["gzipped_kb"])
    print(f"{lang}: heaviest first view {heaviest}", weights[heaviest])
    assert weights[heaviest]["gzipped_kb"] <= FIRST_VIEW_BUDGET_KB, weights[heaviest]
    assert waiting_for_search(weights) == {}
