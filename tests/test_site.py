"""The built site, as `nox -s site` leaves it before pytest: Sphinx's build of
each language (``built``: build/sphinx/<lang>) and the site laid out from them
(``site``: build/html)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jax
import pytest

from browser import GENERATED_PAGES, skip_or_fail
from helpers import GUIDE_PAGES, built_version
from jaxguide_site.languages import LANGUAGES
from links import broken_links
from site_checkers import (
    CheckerUnavailable,
    install_node_tools,
    nu_errors,
    site_html_pages,
)

# Every page of either site (index included), stand-ins for pages in progress too.
PAGES = GUIDE_PAGES.names()
# Interface text that must not appear on the Korean site (theme or Sphinx strings).
ENGLISH_UI = (
    "Skip to main content",
    "Back to top",
    "Link to this heading",
    "Toggle primary sidebar",
    "Color mode",
    "On this page",
    'placeholder="Search',
)


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


def page(built: dict[str, Path], lang: str, name: str) -> str:
    return (built[lang] / f"{name}.html").read_text(encoding="utf-8")


def test_root_page_links_both_languages_without_javascript(site: Path) -> None:
    root = (site / "index.html").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        # stable/ once a release is published, dev/ before (as this repository).
        entry = "stable" if (site / lang / "stable").is_dir() else "dev"
        assert f'<a href="{lang}/{entry}/index.html"' in root
        assert (site / lang / entry / "index.html").is_file()
    assert '<html lang="ko">' in root


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_is_built_in_both_languages_with_the_right_lang(
    built: dict[str, Path], lang: str, name: str
) -> None:
    """In a language it is not written in yet, as its stand-in."""
    html = page(built, lang, name)
    assert f'<html lang="{lang}"' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_site_has_the_guides_pages_and_no_other(
    built: dict[str, Path], lang: str
) -> None:
    """The pages the tests walk (tests/helpers.py's GUIDE_PAGES) are those
    of the site: its own, the stand-ins of pages in progress, Sphinx's."""
    pages = {path.stem for path in built[lang].glob("*.html")}
    assert pages == {*GUIDE_PAGES.on_site(lang), *GENERATED_PAGES}


def test_korean_site_has_korean_interface_text(built: dict[str, Path]) -> None:
    for name in GUIDE_PAGES.on_site("ko"):
        html = page(built, "ko", name)
        leftovers = [text for text in ENGLISH_UI if text in html]
        assert not leftovers, (
            f"ko/{name}.html shows English interface text: {leftovers}"
        )
    intro = page(built, "ko", "intro")
    assert "맨 위로" in intro  # docs/_locale/ko/LC_MESSAGES/sphinx.po
    assert (
        'title="소스 파일 내려받기"' in intro
    )  # our booktheme.po overrides the theme's catalog


def test_english_site_keeps_english_interface_text(built: dict[str, Path]) -> None:
    assert "Skip to main content" in page(built, "en", "intro")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_show_executed_outputs_errors_figures_and_math(
    built: dict[str, Path], lang: str
) -> None:
    for name in ("intro", "setup"):
        html = page(built, lang, name)
        assert "cell_output" in html, f"{lang}/{name}: no executed output"
        assert re.search(r"\\\[|\\\(|class=\"math", html), f"{lang}/{name}: no math"
        parser = _Images()
        parser.feed(html)
        figures = [img for img in parser.images if "_images/" in (img.get("src") or "")]
        assert figures, f"{lang}/{name}: no figure"
        for img in figures:
            assert len(img.get("alt") or "") > 20, (
                f"{lang}/{name}: figure without alt text"
            )
            assert (built[lang] / str(img["src"])).is_file()
    intro = page(built, lang, "intro")
    assert f"JAX {jax.__version__} on" in intro  # executed with the pinned JAX
    assert "TypeError" in intro  # the raises-exception cell shows the real error
    assert "RuntimeError" in page(built, lang, "setup")


@pytest.mark.parametrize("name", PAGES)
def test_figure_alt_text_is_in_the_page_language(
    built: dict[str, Path], name: str
) -> None:
    hangul = re.compile(r"[\uac00-\ud7a3]")
    for lang in LANGUAGES:  # a stand-in has no figure
        parser = _Images()
        parser.feed(page(built, lang, name))
        alts = [
            img.get("alt") or ""
            for img in parser.images
            if "_images/" in (img.get("src") or "")
        ]
        assert all(len(alt) > 20 for alt in alts), f"{lang}/{name}: figure without alt"
        assert all(bool(hangul.search(alt)) == (lang == "ko") for alt in alts), (
            f"{lang}/{name}: alt text not in the page's language"
        )


_PLOT = re.compile(
    r'<a class="reference internal image-reference" href="(_images/[0-9a-f]+\.png)">'
    r'<img [^>]*src="\1"[^>]*>'
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plots_have_twice_their_shown_pixels_and_link_to_their_file(
    built: dict[str, Path], lang: str
) -> None:
    """A phone's screen has 2-3 device pixels to the CSS pixel: plots are
    published at twice the pixels they are shown at (the kernels' "retina"
    format, jaxguide_site.execution.cache_key), so that axis labels stay
    sharp, and a tap opens the file at full size."""
    from sphinx.util.images import get_image_size  # noqa: PLC0415

    seen = 0
    for name in PAGES:
        html = page(built, lang, name)
        plots = list(_PLOT.finditer(html))
        outputs = html.count('src="_images/')
        assert len(plots) == outputs, f"{lang}/{name}: a plot without its link"
        for plot in plots:
            width = re.search(r'width="(\d+)"', plot.group(0))
            assert width is not None, f"{lang}/{name}: a plot without its size"
            shown = int(width.group(1))
            size = get_image_size(built[lang] / plot.group(1))
            assert size is not None
            assert abs(size[0] - 2 * shown) <= 1, f"{lang}/{name}: {size} shown {shown}"
            seen += 1
    assert seen >= 10, "the guide's plots were not found"


def test_status_page_lists_executed_pages_with_headers_in_the_page_language(
    built: dict[str, Path],
) -> None:
    ko, en = page(built, "ko", "status"), page(built, "en", "status")
    assert "실행 시간(초)" in ko
    assert "Run Time (s)" not in ko
    assert "Run Time (s)" in en
    for html in (ko, en):
        assert 'href="numpy-api.html"' in html  # a row links each executed page


def test_every_internal_link_of_the_site_resolves(site: Path) -> None:
    """Links, anchors, canonical/hreflang/OpenGraph URLs, the sitemap and the
    version switcher's entries of build/html, laid out as it is published."""
    manifest = site / "ko" / built_version() / "jaxguide-build.json"
    base_url = json.loads(manifest.read_text(encoding="utf-8"))["base_url"]
    assert broken_links(site, base_url) == []


def test_every_page_is_valid_html(site: Path) -> None:
    """The Nu HTML checker (vnu.jar, pinned in tests/audit) finds no error on
    any page of either language or on the root pages."""
    try:
        install_node_tools()
        pages = site_html_pages(site, built_version())
        errors = nu_errors(pages)
    except CheckerUnavailable as error:
        skip_or_fail(str(error))
    assert len(pages) > 50
    found = [
        f"{e.get('url', '').split(f'{site}/')[-1]}:{e.get('lastLine')}: {e['message']}"
        for e in errors
    ]
    assert found == []
