"""The translation-status table (src/jaxguide_site/translation/status.py) on a
tiny real site: each language lists the pages in the order of its own titles.

The sample project (tests/roots/translation-status) has pages whose Korean
titles, English titles and names each sort differently, one Korean title
starting with Latin letters, and Korean pages stamped against no real source
prose, so every page is stale.
"""

from __future__ import annotations

import re

import pytest

from helpers import build_project, sample_project
from jaxguide_site.languages import LANGUAGES

TABLE = re.compile(r'<table class="[^"]*jaxguide-translations.*?</table>', re.DOTALL)
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.DOTALL)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")

EXPECTED = {
    # Latin letters first, then Hangul syllables in 가나다 order.
    "ko": [
        "JAX 둘러보기",
        "기울기",
        "기초",
        "배열 다루기",
        "번역 현황",
        "자동 벡터화",
        "홈",
    ],
    "en": [
        "A tour of JAX",
        "Automatic vectorization",
        "Basics",
        "Gradients",
        "Home",
        "Translation status",
        "Working with arrays",
    ],
}
STALE = {"ko": "뒤처짐", "en": "Stale"}


@pytest.fixture(scope="module")
def status_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """tests/roots/translation-status built; each language's status page."""
    root = sample_project(
        "translation-status", tmp_path_factory.mktemp("status") / "src"
    )
    pages = {}
    for lang in LANGUAGES:
        out = root.parent / "out" / lang
        result = build_project(root / lang, out, lang=lang, cache=root.parent / "c")
        assert result.returncode == 0, result.stdout + result.stderr
        pages[lang] = (out / "html" / "status.html").read_text(encoding="utf-8")
    return pages


def rows(page: str) -> list[list[str]]:
    """The text of each cell of the status table's body rows."""
    table = TABLE.search(page)
    assert table is not None
    body = table[0].split("<tbody>", 1)[1]
    return [
        [TAG.sub("", cell).strip() for cell in CELL.findall(row)]
        for row in ROW.findall(body)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rows_are_in_the_order_of_the_titles_in_the_pages_language(
    status_pages: dict[str, str], lang: str
) -> None:
    assert [row[0] for row in rows(status_pages[lang])] == EXPECTED[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_stale_translation_is_named_with_the_languages_one_word(
    status_pages: dict[str, str], lang: str
) -> None:
    assert {row[1] for row in rows(status_pages[lang])} == {STALE[lang]}
