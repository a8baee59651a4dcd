"""What every page loads, on the sample project built with the site's conf.py:
no Font Awesome script and no Sphinx search scripts outside search, icon fonts
cut to the icons the pages show, interface elements named by what they show,
valid markup around a solution's toggle (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from jaxguide_site.icon_fonts import FONTS, icon_codepoints, used_icon_classes
from korean_pages import build_korean_pages
from site_checkers import SEARCH_SCRIPTS

LANGS = ("ko", "en")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/korean-pages built in both languages."""
    return build_korean_pages(tmp_path_factory.mktemp("page-assets"))


def scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)


@pytest.mark.parametrize("lang", LANGS)
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


@pytest.mark.parametrize("lang", LANGS)
def test_icon_fonts_hold_every_icon_the_pages_show_and_little_else(
    sample: Path, lang: str
) -> None:
    html = sample / lang / "html"
    css = "\n".join(
        p.read_text(encoding="utf-8") for p in html.glob("_static/**/*.css")
    )
    by_class, other = icon_codepoints(css)
    shown = used_icon_classes(
        [p.read_text(encoding="utf-8") for p in html.glob("*.html")]
    )
    assert {"fa-magnifying-glass", "fa-github", "fa-moon"} <= shown
    needed = other | {code for name in shown for code in by_class[name]}
    fonts = sorted((html / FONTS).glob("*.woff2"))
    assert len(fonts) == 3
    held: set[int] = set()
    for font in fonts:
        with TTFont(font) as loaded:
            held |= set(loaded.getBestCmap())
        assert font.stat().st_size < 10_000, f"{font.name} was not cut"
    assert sorted(map(hex, needed - held)) == []


def test_icon_classes_are_told_from_style_classes() -> None:
    used = used_icon_classes(['<i class="fa-solid fa-lg fa-fw fa-rocket fa-2x">'])
    assert used == {"fa-rocket"}


@pytest.mark.parametrize("lang", LANGS)
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
