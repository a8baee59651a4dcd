"""Korean sections carry the anchors of the English page's sections
(src/jaxguide_site/section_anchors.py): no numbered ``#id3`` that changes when
a section is added, and the same ``#anchor`` in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from myst_parser.config.main import MdParserConfig

from helpers import GUIDE_PAGES, ROOTS, build_project
from jaxguide_site.section_anchors import source_anchors
from korean_pages import build_korean_pages, section_ids

NUMBERED = re.compile(r"id\d+")
LABEL = re.compile(r"^\((?P<label>[^()\s]+)\)=", re.MULTILINE)
# A stand-in for a page in progress has no sections to compare.
PAGES = GUIDE_PAGES.in_every_language()


def anchors(ids: list[str]) -> list[str]:
    """A section's ids less the numbered ones docutils gives a title it
    cannot spell in ASCII (or one another id has taken)."""
    return [name for name in ids if not NUMBERED.fullmatch(name)]


def assert_same_anchors(ko: list[list[str]], en: list[list[str]]) -> None:
    """Each Korean section has its English section's anchors, the first one
    first (the tables of contents and the headings' links use that one), and
    no numbered id."""
    assert len(ko) == len(en)
    for korean, english in zip(ko, en, strict=True):
        assert not [name for name in korean if NUMBERED.fullmatch(name)], korean
        assert [name for name in korean if name in english] == anchors(english)
        assert korean[0] == anchors(english)[0]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/korean-pages built in both languages."""
    return build_korean_pages(tmp_path_factory.mktemp("korean-pages"))


def html(out: Path, lang: str, page: str) -> str:
    return (out / lang / "html" / f"{page}.html").read_text(encoding="utf-8")


def test_korean_sections_have_the_english_anchors(sample: Path) -> None:
    ko, en = (section_ids(html(sample, lang, "page")) for lang in ("ko", "en"))
    assert_same_anchors(ko, en)
    # Labels stay; MyST's slugs of the Korean titles stay, after the English.
    assert ko == [
        ["page", "페이지"],
        ["why-it-matters", "왜-중요한가"],
        ["page-call", "calling-jax-jit", "calling-jaxjit", "jaxjit-호출하기"],
        ["the-jit-cache", "jit-캐시"],
        ["exercises", "연습-문제"],
        ["the-jit-cache-1", "jit-캐시-1"],  # English: id2, the-jit-cache-1
    ]


def test_links_to_korean_sections_use_their_new_anchors(sample: Path) -> None:
    page = html(sample, "ko", "page")
    assert not re.search(r'href="[^"]*#id\d+"', page)  # e.g. the page's contents
    # [다음 절](#jaxjit-호출하기): a MyST slug, on the same page.
    assert '<a class="reference internal" href="#page-call">다음 절</a>' in page
    # [왜 중요한가](page.md#왜-중요한가): a slug on another page; the toctree.
    index = html(sample, "ko", "index")
    link = '<a class="reference internal" href="page.html#why-it-matters">'
    assert f"{link}<span" in index
    assert f"{link}왜 중요한가</a></li>" in index


def test_source_anchors_are_the_english_builds_ids_less_labels(sample: Path) -> None:
    text = (ROOTS / "korean-pages" / "en" / "page.md").read_text(encoding="utf-8")
    labels = {match["label"] for match in LABEL.finditer(text)}
    config = MdParserConfig(enable_extensions={"colon_fence"}, heading_anchors=3)
    assert source_anchors(text, config) == [
        [name for name in anchors(ids) if name not in labels]
        for ids in section_ids(html(sample, "en", "page"))
    ]


def test_a_korean_page_follows_its_english_page_in_an_incremental_build(
    tmp_path: Path,
) -> None:
    out = build_korean_pages(tmp_path)
    english = tmp_path / "src" / "en" / "page.md"
    text = english.read_text(encoding="utf-8")
    english.write_text(text.replace("## Why it matters", "## Why this matters"))
    korean = tmp_path / "src" / "ko"  # unchanged: read again all the same
    result = build_project(
        korean, out / "ko", lang="ko", cache=tmp_path / "cache", execute=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert section_ids(html(out, "ko", "page"))[1] == [
        "why-this-matters",
        "왜-중요한가",
    ]


@pytest.mark.parametrize("name", PAGES)
def test_korean_pages_of_the_site_have_the_english_anchors(
    built: dict[str, Path], name: str
) -> None:
    ko, en = (
        section_ids((built[lang] / f"{name}.html").read_text(encoding="utf-8"))
        for lang in ("ko", "en")
    )
    assert_same_anchors(ko, en)
