"""What a reader clicks, in a real browser on the site as published (build/html).

Debian's Chromium through Playwright (tests/browser.py); requests that leave
the served site are aborted, as there is no internet here, and a page that
makes one fails: nothing the site shows may come from another host (math is
MathML, drawn by the browser). Every page's visit from a phone has its own
file (test_every_page_on_a_phone.py), search too (test_search_browser.py),
and the version switcher's behaviour across several versions
(test_publish.py).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from browser import site_page
from helpers import BUILT, REPO, SITE, built_version
from jaxguide_site.languages import LANGUAGES
from site_checkers import PHONE, PHONE_OPTIONS
from site_visit import open_page, url

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SCREENSHOTS = REPO / "build" / "screenshots"


@pytest.fixture
def version() -> str:
    return built_version()


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


@pytest.fixture
def mobile(browser: Browser, served_site: str) -> Iterator[Page]:
    with site_page(browser, served_site, **PHONE_OPTIONS) as page:
        yield page


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
    for size, suffix in (
        ((1300, 900), "desktop"),
        ((PHONE["width"], PHONE["height"]), "mobile"),
    ):
        viewport = {"width": size[0], "height": size[1]}
        with site_page(browser, served_site, viewport=viewport) as page:
            open_page(page, url(served_site, lang, version, "least-squares"))
            path = SCREENSHOTS / f"{lang}-least-squares-{suffix}.png"
            page.screenshot(path=path, full_page=False)
            assert path.stat().st_size > 10_000
