"""The language switcher, hreflang links and stand-in pages, on a tiny real site.

Two Sphinx builds (Korean and English) with the site's real configuration:
a page in both languages, a page being translated into each language (listed
in translations.toml), a Korean draft (listed there, and written) and an
English-only page that is not listed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser import GENERATED_PAGES
from helpers import (
    ROOTS,
    build_each_language,
    built_page,
    sample_project,
)
from jaxguide_site.languages import LANGUAGES
from jaxguide_site.translation.pages import guide_pages

# A release, so that the links show they keep the version.
ENV = {"JAXGUIDE_VERSION": "0.3", "JAXGUIDE_BASE_URL": "https://example.org/g/"}


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/language-links built, each language into out/<lang>."""
    root = sample_project("language-links", tmp_path_factory.mktemp("site") / "src")
    return build_each_language(root, LANGUAGES, ENV)


def test_switcher_links_the_same_page_in_the_other_language(tiny_site: Path) -> None:
    ko = built_page(tiny_site, "ko", "both")
    assert (
        '<a class="jaxguide-language" href="../../en/0.3/both.html" hreflang="en" lang="en">English</a>'
        in ko
    )
    assert 'aria-current="page">한국어</span>' in ko
    en = built_page(tiny_site, "en", "both")
    assert 'href="../../ko/0.3/both.html" hreflang="ko"' in en


def test_every_page_has_hreflang_alternates_and_x_default(tiny_site: Path) -> None:
    ko = built_page(tiny_site, "ko", "both")
    # Absolute, and at the canonical (stable) copies.
    base = ENV["JAXGUIDE_BASE_URL"]
    assert (
        f'<link rel="alternate" hreflang="ko" href="{base}ko/stable/both.html" />' in ko
    )
    assert (
        f'<link rel="alternate" hreflang="en" href="{base}en/stable/both.html" />' in ko
    )
    assert f'<link rel="alternate" hreflang="x-default" href="{base}" />' in ko
    assert f'<link rel="canonical" href="{base}ko/stable/both.html" />' in ko
    assert '<html lang="ko"' in ko


def test_page_missing_in_the_other_language_falls_back_to_its_home(
    tiny_site: Path,
) -> None:
    en = built_page(tiny_site, "en", "english-only")
    assert (
        'href="../../ko/0.3/index.html" hreflang="ko" lang="ko" data-fallback="home">한국어</a>'
        in en
    )
    assert (
        'hreflang="ko" href=' not in en
    )  # no alternate for a page that does not exist
    assert not (tiny_site / "ko" / "html" / "english-only.html").exists()


def test_page_being_translated_gets_a_banner_pointing_to_the_original(
    tiny_site: Path,
) -> None:
    stand_in = built_page(tiny_site, "ko", "in-progress")
    # Named by the original's title (`# Being translated: `jit` & friends`),
    # as Sphinx would title it, in its language.
    original = '<span lang="en">Being translated: jit &amp; friends</span>'
    assert f"<h1>{original} (아직 한국어로 번역되지 않음)</h1>" in stand_in
    assert (
        f"<p>이 페이지(“{original}”)는 아직 한국어로 번역되지 않았습니다. "
        "번역되기 전까지는 원문을 읽어 주세요.</p>"
    ) in stand_in
    assert (
        "<title>Being translated: jit &amp; friends (아직 한국어로 번역되지 않음)"
        in stand_in
    )
    assert (
        'href="../../en/0.3/in-progress.html" hreflang="en" lang="en">원문 읽기 (English)</a>'
        in stand_in
    )
    assert '<html lang="ko"' in stand_in
    en = built_page(tiny_site, "en", "in-progress")
    assert (
        'href="../../ko/0.3/in-progress.html" hreflang="ko"' in en
    )  # the switcher reaches the banner


def test_page_written_in_korean_first_gets_an_english_stand_in(
    tiny_site: Path,
) -> None:
    stand_in = built_page(tiny_site, "en", "korean-first")
    original = '<span lang="ko">한국어로 먼저 쓴 페이지</span>'
    assert f"<h1>{original} (not translated into English yet)</h1>" in stand_in
    assert (
        f"<p>This page, “{original}”, has not been translated into English yet. "
        "Until it is, please read the original.</p>"
    ) in stand_in
    assert (
        'href="../../ko/0.3/korean-first.html" hreflang="ko" lang="ko">Read the '
        "original (한국어)</a>"
    ) in stand_in
    assert '<html lang="en"' in stand_in


def test_a_draft_says_so_above_its_text_and_links_the_original(
    tiny_site: Path,
) -> None:
    draft = built_page(tiny_site, "ko", "draft")
    banner = draft.index('<div class="admonition warning jaxguide-draft"')
    assert banner < draft.index("<p>This paragraph is still in English.</p>")
    assert (
        "<p>이 번역은 초안입니다. 아직 원문 언어로 남은 부분이 있고, "
        "검토도 받지 않았습니다.</p>"
    ) in draft
    assert (
        'href="../../en/0.3/draft.html" hreflang="en" lang="en">원문 읽기 (English)</a>'
        in draft
    )
    for finished in (
        built_page(tiny_site, "ko", "both"),
        built_page(tiny_site, "en", "draft"),
    ):
        assert "jaxguide-draft" not in finished


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_the_tests_walk_are_those_built(tiny_site: Path, lang: str) -> None:
    """The pages the tests walk (tests/helpers.py's GUIDE_PAGES, as the site
    tests take them) are those a build has: a stand-in where a page is in
    progress, nothing where a page is missing and not in progress."""
    pages = guide_pages(ROOTS / "language-links")
    built = {path.stem for path in (tiny_site / lang / "html").glob("*.html")}
    assert built - GENERATED_PAGES == set(pages.on_site(lang))
    assert (
        set(pages.in_progress[lang])
        == {"ko": {"in-progress"}, "en": {"korean-first"}}[lang]
    )
    assert set(pages.drafts[lang]) == {"ko": {"draft"}, "en": set()}[lang]
