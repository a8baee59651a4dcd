"""What every page loads, on the sample project built with the site's conf.py:
no Font Awesome script and no Sphinx search scripts outside search, icon fonts
cut to the icons the pages show, interface elements named by what they show,
valid markup around a solution's toggle (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import pydata_sphinx_theme
import pytest
from fontTools.ttLib import TTFont

from helpers import DOCS
from jaxguide_site.icon_fonts import FONTS, IconStyles, used_fa_classes
from jaxguide_site.languages import LANGUAGES
from korean_pages import build_korean_pages
from site_checkers import SEARCH_SCRIPTS


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/korean-pages built in both languages."""
    return build_korean_pages(tmp_path_factory.mktemp("page-assets"))


def scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_load_no_icon_script_and_search_scripts_only_on_search(
    sample: Path, lang: str
) -> None:
    html = sample / lang / "html"
    for name in ("index", "page"):
        loaded = scripts((html / f"{name}.html").read_text(encoding="utf-8"))
        assert any("bootstrap.js" in src for src in loaded), loaded  # the theme's own
        assert not [src for src in loaded if "fontawesome.js" in src]
        assert not [src for src in loaded if any(s in src for s in SEARCH_SCRIPTS)]
    search = scripts((html / "search.html").read_text(encoding="utf-8"))
    assert [src for src in search if "pagefind-ui.js" in src]
    assert not [src for src in search if "fontawesome.js" in src]
    # Nor are Sphinx's search scripts published: no page loads them.
    static = {path.name for path in (html / "_static").iterdir()}
    assert "doctools.js" in static
    assert not {n for n in static if n.startswith(SEARCH_SCRIPTS) or "stemmer" in n}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_icon_fonts_are_cut_to_the_icons_the_pages_name(
    sample: Path, lang: str
) -> None:
    """The fonts keep the characters of the icons the pages name and of the
    stylesheets' own icons, and little else (test_reader_browser.py checks
    every icon the browser draws against the fonts)."""
    html = sample / lang / "html"
    css = "\n".join(
        p.read_text(encoding="utf-8") for p in html.glob("_static/**/*.css")
    )
    styles = IconStyles(css)
    named = used_fa_classes(
        [p.read_text(encoding="utf-8") for p in html.glob("*.html")]
    )
    icons = named & styles.icons.keys()
    assert {"fa-magnifying-glass", "fa-github", "fa-moon"} <= icons
    needed = {ord(character) for name in icons for character in styles.icons[name]}
    needed.add(0xF0F3)  # the admonitions' bell, which the stylesheet alone names
    fonts = sorted((html / FONTS).glob("*.woff2"))
    assert len(fonts) == 3
    held: set[int] = set()
    for font in fonts:
        with TTFont(font) as loaded:
            held |= set(loaded.getBestCmap())
        assert font.stat().st_size < 10_000, f"{font.name} was not cut"
    assert sorted(map(hex, needed - held)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stylesheets_name_only_the_icons_the_pages_show(
    sample: Path, lang: str
) -> None:
    """The theme's stylesheet loses the rules of the icons the cut fonts do
    not draw (icon_fonts.py): about 2,000 of Font Awesome's."""
    html = sample / lang / "html"
    css = "\n".join(
        p.read_text(encoding="utf-8") for p in html.glob("_static/**/*.css")
    )
    named = used_fa_classes(
        [p.read_text(encoding="utf-8") for p in html.glob("*.html")]
        + [p.read_text(encoding="utf-8") for p in html.glob("_static/**/*.js")]
    )
    icons = IconStyles(css).icons
    assert {"fa-github", "fa-moon"} <= icons.keys()
    assert "fa-twitter" not in icons
    assert len(icons.keys() - named) < 20  # aliases sharing a kept rule


def test_icon_styles_read_every_way_css_writes_an_icon() -> None:
    styles = IconStyles(
        r'.fa-plus{--fa:"\+"}.fa-0{--fa:"\30 "}.fa-a{--fa:"A"}.fa-2xs{font-size:.6em}'
        r'.fa-solid,.fas{--fa-style:900}:root{--pst-icon-bell:"\f0f3"}'
    )
    assert styles.icons == {"fa-plus": "+", "fa-0": "0", "fa-a": "A"}
    assert {"fa-2xs", "fa-solid"} <= styles.classes
    assert "\uf0f3" in styles.other


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_field_and_version_button_are_named_by_what_they_show(
    sample: Path, lang: str
) -> None:
    page = (sample / lang / "html" / "page.html").read_text(encoding="utf-8")
    field = re.search(r'<button class="btn search-button-field[^>]*>', page)
    assert field is not None
    assert "aria-label" not in field.group(0)
    button = re.search(
        r'<button id="pst-version-switcher-button[^>]*>', page, re.DOTALL
    )
    assert button is not None
    assert "aria-label" not in button.group(0)
    described = re.search(r'aria-describedby="([^"]+)"', button.group(0))
    assert described is not None
    description = re.search(
        rf'<span id="{described.group(1)}"[^>]*>([^<]+)</span>', page
    )
    assert description is not None
    expected = {"ko": "가이드 버전 선택", "en": "Choose a version of the guide"}[lang]
    assert description.group(1) == expected


def test_a_solution_toggle_holds_no_paragraphs(sample: Path) -> None:
    page = (sample / "ko" / "html" / "page.html").read_text(encoding="utf-8")
    summaries = re.findall(r"<summary>(.*?)</summary>", page, re.DOTALL)
    assert summaries
    assert [s for s in summaries if "<p" in s] == []
    assert '<span class="collapsed admonition-title">풀이 보기</span>' in summaries[0]


THEME = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
TEMPLATES = DOCS / "_templates"


def test_the_theme_still_needs_the_override_that_drops_its_icon_script() -> None:
    """docs/_templates/static/webpack-macros.html leaves fontawesome.js out of
    pydata-sphinx-theme's macros; a theme that no longer loads it (0.24 does
    not) makes the override pointless."""
    theirs = (THEME / "static" / "webpack-macros.html").read_text(encoding="utf-8")
    assert "fontawesome.js" in theirs, (
        "pydata-sphinx-theme no longer loads fontawesome.js: drop that part "
        "of docs/_templates/static/webpack-macros.html and this test"
    )


def _without_names_and_comments(template: str) -> str:
    template = re.sub(r"\{#.*?#\}", "", template, flags=re.DOTALL)
    template = re.sub(r'\s(aria-label="[^"]*"|aria-hidden="true")', "", template)
    return " ".join(template.split())


def test_search_field_is_the_themes_but_for_its_name() -> None:
    """docs/_templates/search-button-field.html is the theme's, less the
    aria-label that left out the shortcut it shows: a theme upgrade that
    changes the field must be copied into it."""
    theirs = (THEME / "components" / "search-button-field.html").read_text(
        encoding="utf-8"
    )
    ours = (TEMPLATES / "search-button-field.html").read_text(encoding="utf-8")
    assert _without_names_and_comments(ours) == _without_names_and_comments(theirs)
