"""What a reader clicks, in a real browser on the site as published (build/html).

Debian's Chromium through Playwright (tests/browser.py); requests that leave
the served site are aborted, as there is no internet here, and a page that
makes one fails: nothing the site shows may come from another host (math is
MathML, drawn by the browser). Search has its own
file (test_search_browser.py), the version switcher's behaviour across
several versions too (test_publish.py).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
from fontTools.ttLib import TTFont
from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser import GENERATED_PAGES, site_page, skip_or_fail
from helpers import BUILT, GUIDE_PAGES, REPO, SITE, built_version
from jaxguide_site.languages import LANGUAGES
from site_checkers import (
    FIRST_VIEW_BUDGET_KB,
    CheckerUnavailable,
    axe_violations,
    first_view,
    install_node_tools,
    waiting_for_search,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, Response

SCREENSHOTS = REPO / "build" / "screenshots"
# The pages of each language's site (stand-ins included, which
# test_site.py checks are all the site has), and those Sphinx generates.
ALL_PAGES = {
    lang: sorted({*GUIDE_PAGES.on_site(lang), *GENERATED_PAGES}) for lang in LANGUAGES
}
# A sample for axe (nox -s benchmark -- audit checks every page): the home page, teaching
# pages with figures, tables, errors and coloured sharding diagrams, the
# reference pages, and the generated search page.
AXE_PAGES = (
    "index",
    "jit",
    "least-squares",
    "parallelism",
    "api",
    "glossary",
    "status",
    "search",
)


@dataclass
class Problems:
    """Console errors, failed requests for the site's own files, and any
    request for another host's."""

    base_url: str
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("request", self._request)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console.append(f"uncaught: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _own(self, url: str) -> bool:
        return url.startswith(self.base_url)

    def _console(self, message: object) -> None:
        kind = getattr(message, "type", "")
        location = getattr(message, "location", {}) or {}
        # A blocked CDN request logs "Failed to load resource" at its own URL.
        if kind == "error" and self._own(str(location.get("url", self.base_url))):
            self.console.append(
                f"{getattr(message, 'text', '')} ({location.get('url')})"
            )

    def _request(self, request: Request) -> None:
        if not self._own(request.url) and not request.url.startswith("data:"):
            self.requests.append(f"{request.url}: another host (third party)")

    def _failed(self, request: Request) -> None:
        # net::ERR_ABORTED is the browser cancelling a request because the
        # test went on to the next page while a late file (on a busy machine,
        # the logo) still loaded: no fault of the site's, which shows as an
        # HTTP status or another net:: error.
        if self._own(request.url) and request.failure != "net::ERR_ABORTED":
            self.requests.append(f"{request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if self._own(response.url) and response.status >= 400:
            self.requests.append(f"{response.url}: HTTP {response.status}")

    def clear(self) -> None:
        self.console.clear()
        self.requests.clear()


@pytest.fixture
def version() -> str:
    return built_version()


# The icons are glyphs of the icon fonts, which load on their own schedule:
# every font the page has asked for has loaded (or failed), and none is loading.
_SETTLED_JS = """async () => {
  await document.fonts.ready;
  return [...document.fonts].every((font) => font.status !== "loading");
}"""


def open_page(page: Page, address: str) -> None:
    """Go to ``address`` and wait until the page has settled: the version
    switcher has filled itself from versions.json, the fonts have loaded and
    every icon is drawn. On a busy machine each can come well after ``load``."""
    page.goto(address)
    page.locator(".version-switcher__menu a").first.wait_for(state="attached")
    page.wait_for_function(_SETTLED_JS)


def url(base: str, lang: str, version: str, page: str) -> str:
    return f"{base}/{lang}/{version}/{page}.html"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_loads_without_errors(
    page: Page, served_site: str, version: str, lang: str
) -> None:
    problems = Problems(served_site)
    problems.watch(page)
    found = {}
    for name in ALL_PAGES[lang]:
        open_page(page, url(served_site, lang, version, name))
        if problems.console or problems.requests:
            found[name] = [*problems.console, *problems.requests]
            problems.clear()
    assert found == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sidebar_and_next_previous_links_navigate(
    page: Page, served_site: str, version: str, lang: str
) -> None:
    page.goto(url(served_site, lang, version, "index"))
    sidebar = page.locator("nav.bd-docs-nav")
    sidebar.get_by_role("link", name="jit", exact=False).first.click()
    page.wait_for_url(url(served_site, lang, version, "jit"))
    next_link = page.locator("a.right-next")
    target = next_link.get_attribute("href")
    next_link.click()
    page.wait_for_url(f"{served_site}/{lang}/{version}/{target}")
    page.locator("a.left-prev").click()
    page.wait_for_url(url(served_site, lang, version, "jit"))


@pytest.mark.parametrize(("lang", "other"), [("ko", "en"), ("en", "ko")])
def test_language_switcher_opens_the_same_page_and_version(
    page: Page, served_site: str, version: str, lang: str, other: str
) -> None:
    # A section's anchor is the same in both languages (section_anchors.py).
    page.goto(url(served_site, lang, version, "vmap"))
    anchor = page.locator("article section[id]").nth(1).get_attribute("id")
    page.goto(url(served_site, lang, version, "vmap") + f"#{anchor}")
    page.locator(f".jaxguide-language-switcher a[hreflang='{other}']").click()
    page.wait_for_url(url(served_site, other, version, "vmap") + f"#{anchor}")
    assert page.locator("html").get_attribute("lang") == other
    assert page.locator(f"section[id='{anchor}']").count() == 1


# A section far enough from the next one's start that, scrolled to the top
# of the window, it is the only one started above a third of it.
_LONE_SECTION_JS = """() => {
  const starts = [...document.querySelectorAll('article.bd-article section[id]')]
    .slice(1).map((s) => [s.id, s.getBoundingClientRect().top + window.scrollY]);
  const lone = starts.filter(([, top], i) =>
    i + 1 < starts.length && starts[i + 1][1] - top > window.innerHeight / 2);
  return lone.length > 1 ? lone[1][0] : null;
}"""


@pytest.mark.parametrize(("lang", "other"), [("ko", "en"), ("en", "ko")])
def test_language_switcher_keeps_the_section_scrolled_to(
    page: Page, served_site: str, version: str, lang: str, other: str
) -> None:
    """Scrolled there, no heading clicked: the other language opens there."""
    page.goto(url(served_site, lang, version, "jit"))
    anchor = page.evaluate(_LONE_SECTION_JS)
    assert anchor is not None
    page.evaluate(f"document.getElementById('{anchor}').scrollIntoView()")
    link = page.locator(f".jaxguide-language-switcher a[hreflang='{other}']")
    # The section is measured when the reader reaches for the link: pointed
    # at (its address then shows, for a new tab too) or clicked.
    link.dispatch_event("pointerdown")
    assert str(link.get_attribute("href")).endswith(f"#{anchor}")
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.evaluate(f"document.getElementById('{anchor}').scrollIntoView()")
    # Clicked where it is, in the sticky header: Playwright's click would
    # first scroll the page to the header's place at the top.
    link.evaluate("link => link.click()")
    page.wait_for_url(url(served_site, other, version, "jit") + "*")
    assert page.url == url(served_site, other, version, "jit") + f"#{anchor}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_version_switcher_shows_this_version_and_jax_once_there_are_two(
    page: Page, served_site: str, version: str, lang: str
) -> None:
    open_page(page, url(served_site, lang, version, "jit"))
    button = page.locator(".version-switcher__button").first
    versions = SITE / lang / "versions.json"
    entries = json.loads(versions.read_text(encoding="utf-8"))
    assert page.locator(".version-switcher__menu a").count() == len(entries)
    # With one version there is nothing to switch to: the switcher is hidden.
    assert button.is_visible() == (len(entries) > 1)
    assert button.inner_text().startswith(version)
    line = page.locator(".jaxguide-version-line").first.inner_text()
    assert version in line
    assert "JAX " in line


def test_copy_button_copies_code_without_prompts_or_output(
    browser: Browser, served_site: str, version: str
) -> None:
    clipboard = ["clipboard-read", "clipboard-write"]
    with site_page(browser, served_site, permissions=clipboard) as page:
        # A doctest in the API reference: ">>> " prompts and printed output.
        page.goto(url(served_site, "en", version, "api"))
        block = page.locator("div.highlight:has(span.gp)").first
        block.hover()
        block.locator("xpath=..").locator("button.copybtn").first.click()
        copied = page.evaluate("navigator.clipboard.readText()")
        shown = block.inner_text()
        assert ">>>" in shown
        assert ">>>" not in copied
        assert copied.strip()
        outputs = block.locator("span.go").all_inner_texts()
        assert outputs, "the sample block has no output lines"
        assert all(line.strip() not in copied for line in outputs if line.strip())
        # A code cell of a page: copied exactly, without its output.
        page.goto(url(served_site, "en", version, "jit"))
        cell = page.locator("div.cell").nth(1)
        cell.locator("div.cell_input").hover()
        cell.locator("div.cell_input button.copybtn").click()
        copied = page.evaluate("navigator.clipboard.readText()")
        source = cell.locator("div.cell_input pre").inner_text()
        assert copied.strip() == source.strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_executed_outputs_are_shown(
    page: Page, served_site: str, version: str, lang: str
) -> None:
    page.goto(url(served_site, lang, version, "least-squares"))
    outputs = page.locator("div.cell_output")
    assert outputs.count() > 3
    assert "JAX " in outputs.first.inner_text()  # the environment line
    figure = page.locator("img[src*='_images/']").first
    figure.scroll_into_view_if_needed()
    assert page.evaluate(
        "(img) => img.complete && img.naturalWidth > 100", figure.element_handle()
    )
    page.goto(url(served_site, lang, version, "jit"))
    # A traceback shows its exception; its frames open on a click.
    fold = page.locator("div.cell_output details.jaxguide-traceback").first
    assert "Error" in fold.locator("code.jaxguide-exception").inner_text()
    frames = fold.locator(".output.traceback")
    assert not frames.is_visible()
    fold.locator("summary").click()
    assert "Traceback" in frames.inner_text()


def _light_fraction(png: bytes) -> float:
    histogram = Image.open(io.BytesIO(png)).convert("L").histogram()
    return sum(histogram[201:]) / sum(histogram)


# Every character drawn in a Font Awesome font, with the font's family and
# weight (the webfonts: brands, solid 900, regular 400), hidden menus included.
_DRAWN_ICONS_JS = r"""() => {
  const drawn = [];
  for (const element of document.querySelectorAll("*")) {
    for (const pseudo of ["::before", "::after"]) {
      const style = getComputedStyle(element, pseudo);
      const content = style.content;
      if (!/Font Awesome/.test(style.fontFamily) || !content.startsWith('"')) continue;
      // The drawn text, before any alternative text ('"\\f09b" / ""').
      const text = JSON.parse(content.match(/^"(?:[^"\\]|\\.)*"/)[0]);
      drawn.push({text, family: style.fontFamily,
                  weight: style.fontWeight, classes: String(element.className)});
    }
  }
  return drawn;
}"""


def _icon_font(family: str, weight: str) -> str:
    if "Brands" in family:
        return "fa-brands-400.woff2"
    return "fa-solid-900.woff2" if weight == "900" else "fa-regular-400.woff2"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_icon_drawn_is_in_the_cut_fonts(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    """The icon fonts are cut to the icons the build found (icon_fonts.py):
    each character the browser draws in them, on a phone and a desktop, is
    one the font still has."""
    fonts = BUILT / lang / "html" / "_static" / "vendor" / "fontawesome" / "webfonts"
    held = {}
    for path in fonts.glob("*.woff2"):
        with TTFont(path) as font:
            held[path.name] = set(font.getBestCmap())
    missing: set[str] = set()
    drawn = 0
    for viewport in ({"width": 1300, "height": 900}, {"width": 390, "height": 844}):
        with site_page(browser, served_site, viewport=viewport) as page:
            for name in ("index", "jit", "search", "api"):
                open_page(page, url(served_site, lang, version, name))
                for icon in page.evaluate(_DRAWN_ICONS_JS):
                    font = _icon_font(icon["family"], icon["weight"])
                    drawn += 1
                    missing |= {
                        f"{name}: {icon['classes']} {hex(ord(c))} not in {font}"
                        for c in icon["text"]
                        if ord(c) not in held[font]
                    }
    assert drawn > 20
    assert sorted(missing) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dark_mode_toggle_keeps_figures_legible(
    page: Page, served_site: str, version: str, lang: str
) -> None:
    page.goto(url(served_site, lang, version, "least-squares"))
    html = page.locator("html")
    assert html.get_attribute("data-theme") == "light"  # headless: light by default
    page.locator("button.theme-switch-button:visible").first.click()
    page.locator(".theme-change-button[data-mode='dark']:visible").first.click()
    assert html.get_attribute("data-theme") == "dark"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background not in {"rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"}
    figure = page.locator("img[src*='_images/']").first
    figure.scroll_into_view_if_needed()
    # Figures below the introduction load lazily: screenshot the figure itself.
    figure.evaluate("img => img.decode()")
    # Matplotlib draws dark lines and text: they stay legible on the figure's
    # own light background, which must not turn dark or transparent.
    assert _light_fraction(figure.screenshot()) > 0.5


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


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", AXE_PAGES)
def test_no_serious_accessibility_violations(
    page: Page, served_site: str, version: str, lang: str, name: str
) -> None:
    open_page(page, url(served_site, lang, version, name))
    assert _axe_blocking(page) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", AXE_PAGES)
def test_no_serious_accessibility_violations_in_dark_mode(
    browser: Browser, served_site: str, version: str, lang: str, name: str
) -> None:
    """Dark mode recolours code, outputs and tables: axe checks them again."""
    with site_page(browser, served_site, color_scheme="dark") as page:
        open_page(page, url(served_site, lang, version, name))
        assert page.locator("html").get_attribute("data-theme") == "dark"
        assert _axe_blocking(page) == []


@pytest.fixture
def mobile(browser: Browser, served_site: str) -> Iterator[Page]:
    phone = {"width": 390, "height": 844}
    options = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    with site_page(browser, served_site, viewport=phone, **options) as page:
        yield page


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_on_a_phone(
    mobile: Page, served_site: str, version: str, lang: str
) -> None:
    """Not once the page has settled, and not while it loads either: a
    reader's phone is slower than this machine, so the CPU is throttled
    fourfold, which makes the loading layouts last long enough to be seen."""
    mobile.add_init_script(_WIDEST_JS)
    cdp = mobile.context.new_cdp_session(mobile)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    wide = {}
    for name in ALL_PAGES[lang]:
        open_page(mobile, url(served_site, lang, version, name))
        settled = mobile.evaluate("document.documentElement.scrollWidth")
        widest = mobile.evaluate("window.__jaxguideWidest")
        if max(settled, widest) > 390:
            wide[name] = {"while loading": widest, "settled": settled}
    assert wide == {}, "pages wider than the 390 px viewport"


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_a_phone_nothing_is_cut_unseen_and_no_traceback_fills_the_screen(
    mobile: Page, served_site: str, version: str, lang: str
) -> None:
    """What is wider than a phone scrolls, and says so; a folded traceback
    (src/jaxguide_site/tracebacks.py) is shorter than one screen."""
    cut, tall = {}, {}
    for name in ALL_PAGES[lang]:
        open_page(mobile, url(served_site, lang, version, name))
        with contextlib.suppress(PlaywrightTimeout):  # the cues come a frame late
            mobile.wait_for_function(f"({_CUT_JS})().length === 0", timeout=5000)
        if found := mobile.evaluate(_CUT_JS):
            cut[name] = found
        heights = mobile.locator("details.jaxguide-traceback").evaluate_all(
            "folds => folds.map((fold) => fold.getBoundingClientRect().height)"
        )
        if [height for height in heights if height > 844]:
            tall[name] = heights
    assert cut == {}, "cut off with no cue that it scrolls"
    assert tall == {}, "folded tracebacks taller than the phone's screen"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mobile_navigation_opens(
    mobile: Page, served_site: str, version: str, lang: str
) -> None:
    mobile.goto(url(served_site, lang, version, "jit"))
    mobile.locator("button.primary-toggle:visible").click()
    dialog = mobile.locator("dialog#pst-primary-sidebar-modal")
    dialog.wait_for(state="visible")
    link = dialog.get_by_role("link").filter(has_text="vmap").first
    link.click()
    mobile.wait_for_url(url(served_site, lang, version, "vmap"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screenshots_for_review(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    """A desktop and a phone screenshot of one page per language, under
    build/screenshots (not compared: they are for a person to look at)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, suffix in (((1300, 900), "desktop"), ((390, 844), "mobile")):
        viewport = {"width": size[0], "height": size[1]}
        with site_page(browser, served_site, viewport=viewport) as page:
            open_page(page, url(served_site, lang, version, "least-squares"))
            path = SCREENSHOTS / f"{lang}-least-squares-{suffix}.png"
            page.screenshot(path=path, full_page=False)
            assert path.stat().st_size > 10_000


PAGE_WEIGHT = REPO / "build" / "page-weight.json"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_first_view_of_every_page_fits_the_budget(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    """Every page opened with an empty cache on a phone: what crosses the
    network (recorded in build/page-weight.json) is at most the budget, and no
    page but search makes the reader wait for search scripts."""
    weights = {
        name: first_view(browser, url(served_site, lang, version, name))
        for name in ALL_PAGES[lang]
    }
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
