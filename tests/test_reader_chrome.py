"""The reader's chrome in a real browser: the article header, the sidebar, the
keyboard focus, the run buttons of a notebook page and the 404 page.

Chromium through Playwright (tests/browser.py), on a phone (390 px) and a
desktop (1440 px), light and dark, over the site as published (build/html,
or the published site that JAXGUIDE_TEST_SITE names, such as a helper's own
build: ``JAXGUIDE_TEST_SITE=build/h-header/html pytest tests/test_reader_chrome.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from browser import serve_directory, site_page
from helpers import SITE
from jaxguide_site.languages import LANGUAGES
from site_checkers import PHONE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SITE_VARIABLE = "JAXGUIDE_TEST_SITE"
DESKTOP = {"width": 1440, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
SCHEMES = ("light", "dark")
RUN_LABELS = {
    "ko": ("Colab에서 열기", "이 노트북 내려받기"),
    "en": ("Open in Colab", "Download this notebook"),
}


@pytest.fixture(scope="module")
def published() -> Path:
    root = Path(os.environ.get(SITE_VARIABLE) or SITE).resolve()
    if not (root / "index.html").is_file():
        pytest.fail(f"no published site at {root}: run `nox -s docs` first")
    return root


@pytest.fixture(scope="module")
def served_site(published: Path) -> Iterator[str]:
    """The published site on localhost, gzipped as GitHub Pages serves it."""
    with serve_directory(published, gzipped=True) as url:
        yield url


@pytest.fixture(scope="module")
def version(published: Path) -> str:
    """The version folder to read: dev where there is one, else the newest."""
    built = {
        json.loads(path.read_text(encoding="utf-8"))["version"]
        for path in (published / "en").glob("*/jaxguide-build.json")
        if path.parent.name != "stable"
    }
    assert built, f"no version folder under {published / 'en'}"
    return "dev" if "dev" in built else max(built)


def _open(
    browser: Browser, served_site: str, size: str, scheme: str
) -> AbstractContextManager[Page]:
    options: dict[str, Any] = {"viewport": SIZES[size], "color_scheme": scheme}
    if size == "phone":
        options |= {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    return site_page(browser, served_site, **options)


# Every font asked for has loaded: the icons, and so the header's width, are
# final.
_SETTLED_JS = """async () => {
  await document.fonts.ready;
  return [...document.fonts].every((font) => font.status !== "loading");
}"""


def _goto(page: Page, address: str) -> None:
    page.goto(address)
    page.wait_for_function(_SETTLED_JS)


# -- The article header ----------------------------------------------------------

# The header's box, its background, each visible control's box, and the title's.
_HEADER_JS = """() => {
  const header = document.querySelector(".bd-header-article");
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const controls = [...header.querySelectorAll("a[href], button")]
    .filter((element) => element.checkVisibility({visibilityProperty: true}))
    .map((element) => ({name: element.getAttribute("aria-label")
                          || element.getAttribute("title") || element.textContent.trim(),
                        box: box(element)}));
  const r = header.getBoundingClientRect();
  // What a reader sees along the bar's middle line: the header, not the page.
  const y = r.top + r.height / 2;
  const covered = [];
  for (let x = r.left + 4; x < r.right - 4; x += 8) {
    const seen = document.elementFromPoint(x, y);
    if (seen !== null && !header.contains(seen)) covered.push(Math.round(x));
  }
  return {header: box(header), controls, covered,
          background: getComputedStyle(header).backgroundColor,
          title: box(document.querySelector("article.bd-article h1")),
          theme: document.documentElement.dataset.theme};
}"""


def _alpha(colour: str) -> float:
    parts = re.findall(r"[\d.]+", colour)
    return float(parts[3]) if colour.startswith("rgba") and len(parts) == 4 else 1.0


def _outside(state: dict[str, Any]) -> list[str]:
    """The controls drawn outside the header's box (its background)."""
    header = state["header"]
    return [
        f"{control['name']}: {control['box']} not in {header}"
        for control in state["controls"]
        if control["box"]["top"] < header["top"] - 0.5
        or control["box"]["bottom"] > header["bottom"] + 0.5
        or control["box"]["right"] > header["right"] + 0.5
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES)
def test_header_fits_its_bar_and_never_covers_the_page(
    browser: Browser,
    served_site: str,
    version: str,
    lang: str,
    scheme: str,
    size: str,
) -> None:
    with _open(browser, served_site, size, scheme) as page:
        _goto(page, f"{served_site}/{lang}/{version}/parallelism.html")
        state = page.evaluate(_HEADER_JS)
        assert state["theme"] == scheme
        assert len(state["controls"]) >= 4
        assert _outside(state) == [], "controls overflow the header's bar"
        assert state["title"]["top"] >= state["header"]["bottom"] - 0.5, (
            f"the header {state['header']} overlaps the title {state['title']}"
        )
        if size == "phone":  # nothing above it: no empty strip
            assert state["header"]["top"] == 0
            assert page.locator(".btn-fullscreen-button").count() == 0
        # Scrolled into the code cells, the header stays on top, opaque.
        page.evaluate("window.scrollTo({top: 2500, behavior: 'instant'})")
        page.wait_for_function(
            "document.querySelector('.bd-header-article')"
            ".getBoundingClientRect().top === 0 && window.scrollY > 2000"
        )
        state = page.evaluate(_HEADER_JS)
        assert _alpha(state["background"]) == 1.0, state["background"]
        assert _outside(state) == [], "controls overflow the scrolled header"
        assert state["covered"] == [], "the page shows through the header"


# -- The sidebar -------------------------------------------------------------------

# Where the sidebar is scrolled, and where its current page's link and the
# logo are, relative to the part of the sidebar on screen.
_SIDEBAR_JS = """() => {
  const sidebar = document.querySelector("div.bd-sidebar-primary");
  const links = sidebar.querySelectorAll(".bd-docs-nav .active > a");
  const link = links[links.length - 1].getBoundingClientRect();
  const box = sidebar.getBoundingClientRect();
  const shownTop = Math.max(box.top, 0);
  const shownBottom = Math.min(box.top + sidebar.clientHeight, window.innerHeight);
  return {scrollTop: sidebar.scrollTop, shownTop, shownBottom,
          linkTop: link.top, linkBottom: link.bottom,
          // Where the link's bottom would be with the sidebar at its top.
          linkBottomAtTop: link.bottom + sidebar.scrollTop,
          logoTop: sidebar.querySelector(".navbar-brand").getBoundingClientRect().top};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(
    ("lang", "name"),
    [("ko", "jit"), ("en", "parallelism"), ("ko", "glossary"), ("en", "api")],
)
def test_sidebar_opens_at_the_top_with_the_current_page_shown(
    browser: Browser,
    served_site: str,
    version: str,
    lang: str,
    name: str,
    scheme: str,
) -> None:
    with _open(browser, served_site, "desktop", scheme) as page:
        # A reader who scrolled the sidebar to its end on the last page: the
        # theme keeps that position and brought it back on the next.
        _goto(page, f"{served_site}/{lang}/{version}/index.html")
        page.evaluate(
            "const s = document.querySelector('div.bd-sidebar-primary');"
            "s.scrollTop = s.scrollHeight;"
        )
        _goto(page, f"{served_site}/{lang}/{version}/{name}.html")
        state = page.evaluate(_SIDEBAR_JS)
        assert state["linkTop"] >= state["shownTop"] - 0.5, state
        assert state["linkBottom"] <= state["shownBottom"] + 0.5, state
        fits_at_top = state["linkBottomAtTop"] <= state["shownBottom"]
        if fits_at_top:
            assert state["scrollTop"] == 0, state
            assert state["logoTop"] >= state["shownTop"], state
        else:  # just far enough to show the link, no further
            assert state["linkBottom"] >= state["shownBottom"] - 48, state


GUIDE_NAMES = {"ko": "JAX 가이드", "en": "JAX Guide"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", [360, 390])
def test_a_phone_header_names_the_guide_in_one_row(
    browser: Browser, served_site: str, version: str, lang: str, width: int
) -> None:
    """The sidebar (and its logo) is hidden on a phone: the header names the
    guide, a link home, beside the menu button, and its controls still share
    one row of the bar."""
    viewport = {"width": width, "height": 800}
    options = {"viewport": viewport, "device_scale_factor": 2, "is_mobile": True}
    with site_page(browser, served_site, **options) as page:
        _goto(page, f"{served_site}/{lang}/{version}/vmap.html")
        state = page.evaluate(_HEADER_JS)
        name = page.locator(".bd-header-article .jaxguide-header-title")
        assert name.is_visible()
        assert name.text_content() == GUIDE_NAMES[lang]
        assert name.get_attribute("href") == "index.html"
        assert _outside(state) == [], "controls overflow the header's bar"
        middles = [
            (control["box"]["top"] + control["box"]["bottom"]) / 2
            for control in state["controls"]
        ]
        assert max(middles) - min(middles) < 12, state["controls"]  # one row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_menu_opens_with_the_current_page_shown(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    """debugging is the sidebar's last lesson: on a phone its link is below
    the drawer's fold until the drawer scrolls to it."""
    with _open(browser, served_site, "phone", "light") as page:
        _goto(page, f"{served_site}/{lang}/{version}/debugging.html")
        page.locator(".bd-header-article .primary-toggle").click()
        drawer = page.locator("dialog#pst-primary-sidebar-modal")
        drawer.wait_for(state="visible")
        current = drawer.locator(".bd-docs-nav .active > a").last
        box = current.bounding_box()
        assert box is not None
        assert box["y"] >= 0, box
        assert box["y"] + box["height"] <= PHONE["height"], box


_COLLAPSED_JS = """() => {
  const sidebar = document.getElementById("pst-primary-sidebar");
  return {hidden: getComputedStyle(sidebar).visibility === "hidden",
          name: getComputedStyle(document.querySelector(".jaxguide-header-title")).display};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_collapsed_sidebar_stays_collapsed_on_the_next_page(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    with _open(browser, served_site, "desktop", "light") as page:
        _goto(page, f"{served_site}/{lang}/{version}/jit.html")
        assert page.evaluate(_COLLAPSED_JS) == {"hidden": False, "name": "none"}
        page.locator(".bd-header-article .primary-toggle").click()
        page.wait_for_function(f"({_COLLAPSED_JS})().hidden")
        _goto(page, f"{served_site}/{lang}/{version}/vmap.html")
        # Collapsed from the first paint, the guide's name in the header.
        assert page.evaluate(_COLLAPSED_JS) == {"hidden": True, "name": "block"}
        page.locator(".bd-header-article .primary-toggle").click()
        page.wait_for_function(f"!({_COLLAPSED_JS})().hidden")
        _goto(page, f"{served_site}/{lang}/{version}/jit.html")
        assert page.evaluate(_COLLAPSED_JS) == {"hidden": False, "name": "none"}


_NEXT_FRAME_JS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(done)))"""
_BACK_TO_TOP_JS = """() => {
  const button = document.getElementById("pst-back-to-top");
  return button === null ? null
    : {shown: button.checkVisibility(), position: getComputedStyle(button).position};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_back_to_top_shows_when_scrolling_up_and_goes_to_the_top(
    browser: Browser, served_site: str, version: str, lang: str
) -> None:
    """The theme's button, shown by docs/_static/back-to-top.js instead of
    its own script (which laid out the whole page as it loaded)."""
    with _open(browser, served_site, "phone", "light") as page:
        _goto(page, f"{served_site}/{lang}/{version}/compilation.html")
        assert page.evaluate(_BACK_TO_TOP_JS) == {"shown": False, "position": "fixed"}
        page.evaluate("window.scrollTo({top: 3000, behavior: 'instant'})")
        # The page hears of a scroll at its next frame: both scrolls within
        # one frame would be one scroll event, from 0 to 2400, going down.
        page.evaluate(_NEXT_FRAME_JS)
        assert page.evaluate(_BACK_TO_TOP_JS)["shown"] is False  # going down
        page.evaluate("window.scrollTo({top: 2400, behavior: 'instant'})")
        page.wait_for_function(f"({_BACK_TO_TOP_JS})().shown")
        page.locator("#pst-back-to-top").click()
        page.wait_for_function("window.scrollY === 0")


# -- Keyboard focus ------------------------------------------------------------------

# Every visible control of the header and of the run buttons, numbered, with
# its style unfocused.
_CONTROLS_JS = """() => {
  const controls = [...document.querySelectorAll(
      ".bd-header-article a[href], .bd-header-article button, "
      + ".jaxguide-run-buttons a[href]")]
    .filter((element) => element.checkVisibility({visibilityProperty: true}));
  return controls.map((element, index) => {
    element.dataset.chromeControl = String(index);
    const style = getComputedStyle(element);
    return {name: element.getAttribute("aria-label") || element.getAttribute("title")
                  || element.textContent.trim(),
            outline: [style.outlineStyle, style.outlineWidth, style.outlineColor],
            shadow: style.boxShadow};
  });
}"""
_FOCUSED_JS = """() => {
  const element = document.activeElement;
  if (element === null || element.dataset.chromeControl === undefined) return null;
  const style = getComputedStyle(element);
  return {index: Number(element.dataset.chromeControl),
          visible: element.matches(":focus-visible"),
          outline: [style.outlineStyle, style.outlineWidth, style.outlineColor],
          shadow: style.boxShadow,
          background: getComputedStyle(
            document.querySelector(".bd-header-article")).backgroundColor};
}"""


def _luminance(colour: str) -> float:
    channels = [float(c) / 255 for c in re.findall(r"[\d.]+", colour)[:3]]
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS colours.

    >>> round(contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1)
    21.0
    """
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _indicator_problem(unfocused: dict[str, Any], focused: dict[str, Any]) -> str:
    """Why the focused style shows no focus indicator ("" if it does)."""
    style, width, colour = focused["outline"]
    if not focused["visible"]:
        return "not :focus-visible"
    if style != "none" and float(width.removesuffix("px")) >= 2:
        if focused["outline"] == unfocused["outline"]:
            return f"outline {focused['outline']} as unfocused"
        ratio = contrast(colour, focused["background"])
        return "" if ratio >= 3 else f"outline contrast {ratio:.2f} < 3"
    if focused["shadow"] not in ("none", unfocused["shadow"]):
        shadow = re.search(r"rgba?\([^)]*\)", focused["shadow"])
        ratio = contrast(shadow.group(0), focused["background"]) if shadow else 0.0
        return "" if ratio >= 3 else f"focus shadow contrast {ratio:.2f} < 3"
    return f"no outline or shadow: {focused['outline']}, {focused['shadow']}"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_colour_scheme_is_resolved_before_the_theme_script_runs(
    browser: Browser, served_site: str, version: str, scheme: str
) -> None:
    """A first visit reads the page in the system's scheme from the start:
    without the theme's main script (blocked here), ``data-theme`` is already
    ``light`` or ``dark``, never ``auto``, which the theme's script would
    resolve only after the page is read, restyling every element of it."""
    with site_page(browser, served_site, color_scheme=scheme) as page:
        page.route("**/pydata-sphinx-theme.js*", lambda route: route.abort())
        page.goto(f"{served_site}/en/{version}/autodiff.html")
        html = page.locator("html")
        assert html.get_attribute("data-mode") == "auto"
        assert html.get_attribute("data-theme") == scheme


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES)
def test_every_header_control_shows_keyboard_focus(
    browser: Browser,
    served_site: str,
    version: str,
    lang: str,
    scheme: str,
    size: str,
) -> None:
    with _open(browser, served_site, size, scheme) as page:
        _goto(page, f"{served_site}/{lang}/{version}/jit.html")
        controls = page.evaluate(_CONTROLS_JS)
        # The contents toggle, the repository and download menus, the
        # language, the colour theme and, on a notebook page, its two buttons.
        assert len(controls) >= 7, controls
        seen: dict[int, str] = {}
        # As a reader does: the skip link, then Tab through the header.
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.skip-link a')"):
            page.keyboard.press("Enter")
        for _ in range(400):
            page.keyboard.press("Tab")
            focused = page.evaluate(_FOCUSED_JS)
            if focused is None:
                continue
            index = focused["index"]
            seen[index] = _indicator_problem(controls[index], focused)
            if len(seen) == len(controls):
                break
        unreached = [c["name"] for i, c in enumerate(controls) if i not in seen]
        assert unreached == [], "controls Tab never reaches"
        problems = {controls[i]["name"]: why for i, why in seen.items() if why}
        assert problems == {}


# -- A notebook page's run buttons -----------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_notebook_page_has_labelled_colab_and_download_buttons(
    browser: Browser, served_site: str, version: str, lang: str, size: str
) -> None:
    with _open(browser, served_site, size, "light") as page:
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        _goto(page, f"{served_site}/{lang}/{version}/jit.html")
        colab_label, download_label = RUN_LABELS[lang]
        buttons = page.locator("article .jaxguide-run-buttons a")
        assert buttons.all_inner_texts() == [colab_label, download_label]
        colab, download = buttons.nth(0), buttons.nth(1)
        # Under the title, on the first screen.
        for button in (colab, download):
            box = button.bounding_box()
            assert box is not None
            assert box["y"] + box["height"] <= SIZES[size]["height"]
        assert (colab.get_attribute("href") or "").startswith(
            "https://colab.research.google.com/github/"
        )
        assert (colab.get_attribute("href") or "").endswith("/jit.ipynb")
        assert download.get_attribute("href") == "jit.ipynb"
        assert download.get_attribute("download") == "jit.ipynb"
        assert download.get_attribute("target") is None
        with page.expect_download() as saved:
            download.click()
        assert saved.value.suggested_filename == "jit.ipynb"
        notebook = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
        assert notebook["cells"]
        # No launch menu in the header, and no Colab logo loaded for it.
        assert page.locator(".dropdown-launch-buttons").count() == 0
        assert [url for url in requested if "logo_colab" in url] == []


# -- The 404 page -----------------------------------------------------------------------

_ORDER_JS = """() => ({
  lang: document.documentElement.lang,
  title: document.title,
  sections: [...document.querySelectorAll("main > section")].map((s) => s.lang),
  koreanBreaks: [...document.querySelectorAll("section[lang=ko] :is(h1, p, a, label)")]
    .map((element) => getComputedStyle(element).wordBreak),
})"""


@pytest.mark.parametrize(
    ("address", "first"),
    [
        ("en/dev/no-such-page.html", "en"),
        ("en/no-such-version/jit.html", "en"),
        ("ko/dev/no-such-page.html", "ko"),
        ("no-such-page.html", "ko"),
    ],
)
def test_404_page_reads_first_in_the_addresss_language(
    browser: Browser, served_site: str, address: str, first: str
) -> None:
    with _open(browser, served_site, "phone", "light") as page:
        response = page.goto(f"{served_site}/{address}")
        assert response is not None
        assert response.status == 404
        state = page.evaluate(_ORDER_JS)
        assert state["sections"][0] == first
        assert sorted(state["sections"]) == sorted(LANGUAGES)
        assert state["lang"] == first
        assert state["title"].startswith(
            "Page not found" if first == "en" else "페이지를 찾을 수 없습니다"
        )
        assert state["koreanBreaks"]
        assert set(state["koreanBreaks"]) == {"keep-all"}


def test_404_page_without_scripts_reads_korean_first(
    browser: Browser, served_site: str
) -> None:
    with site_page(browser, served_site, java_script_enabled=False) as page:
        page.goto(f"{served_site}/en/dev/no-such-page.html")
        languages = page.locator("main > section").evaluate_all(
            "(sections) => sections.map((s) => s.lang)"
        )
        assert languages == ["ko", "en"]
