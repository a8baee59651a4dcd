"""Search on the built site, in a real browser (issue 8's and issue 10's checks).

Each query goes through Sphinx's own search page (``search.html?q=...``, what
the search box submits) on the site served on localhost, and the test waits
until Sphinx has finished the search (shown every result of
``#search-results ul.search li`` and its summary) before reading them. A query must bring up the page that
teaches it among the first three results. Where two pages both teach a word,
either counts; the reasons are next to each expectation.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from browser import SitePage
from helpers import REPO, built_version

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Page

TOP = 3

# (query, test id, the pages that teach it). The ids gloss the Korean, with
# the particle or ending romanized: pytest would print Hangul as \uXXXX.
Case = tuple[str, str, set[str]]
KOREAN: list[Case] = [
    # The jit page ("`jit`: JIT 컴파일") teaches compilation; control-flow and
    # sharp-bits only say "compile" in passing headings.
    ("컴파일", "compile", {"jit"}),
    ("컴파일하기", "compile-hagi", {"jit"}),
    # "순수 함수란" (pure-functions) defines a pure function; intro's "대가:
    # 순수 함수와 불변 배열" section gives the same definition, in short.
    ("함수", "function", {"pure-functions", "intro"}),
    ("난수", "random-number", {"random"}),  # "난수"
    ("벡터화", "vectorization", {"vmap"}),  # "`vmap`: 자동 벡터화"
    ("미분", "derivative", {"autodiff"}),  # "자동 미분"
    # "JAX란 무엇인가" (intro); the home page's first paragraph says what JAX is.
    ("JAX는", "JAX-neun", {"intro", "index"}),
]
# Forms that occur nowhere in the text as typed: only a search that strips
# particles and endings (을/를, 은/는, 하기) from the query finds their page.
KOREAN_INFLECTED: list[Case] = [
    ("미분을", "derivative-eul", {"autodiff"}),
    ("난수는", "random-number-neun", {"random"}),
    ("벡터화하기", "vectorization-hagi", {"vmap"}),
    ("함수를", "function-reul", {"pure-functions", "intro"}),
]
ENGLISH: list[Case] = [
    ("vectorization", "vectorization", {"vmap"}),  # "`vmap`: automatic vectorization"
    (
        "random keys",
        "random-keys",
        {"random"},
    ),  # "Random numbers", "JAX: explicit keys"
]


def cases(table: list[Case]) -> list[Any]:
    return [pytest.param(query, pages, id=name) for query, name, pages in table]


@pytest.fixture
def site_page(page: Page, served_site: str) -> SitePage:
    return SitePage(page, served_site, version=built_version())


def assert_found(site_page: SitePage, lang: str, query: str, pages: set[str]) -> None:
    outcome = site_page.search(lang, query)
    assert pages & set(outcome.top(TOP)), (
        f"none of {sorted(pages)} among the first {TOP} results of "
        f"{outcome.describe()}; summary: {outcome.summary!r}"
    )
    assert not site_page.errors, site_page.errors


def test_expected_pages_exist(built: dict[str, Path]) -> None:
    """The expectations name real pages (a rename must update them)."""
    for lang, table in (("ko", KOREAN + KOREAN_INFLECTED), ("en", ENGLISH)):
        for _, _, pages in table:
            for name in pages:
                assert (built[lang] / f"{name}.html").is_file(), (lang, name)


@pytest.mark.parametrize(("query", "pages"), cases(KOREAN))
def test_korean_query_finds_its_page(
    site_page: SitePage, query: str, pages: set[str]
) -> None:
    assert_found(site_page, "ko", query, pages)


@pytest.mark.parametrize(("query", "pages"), cases(KOREAN_INFLECTED))
def test_korean_inflected_query_finds_its_page(
    site_page: SitePage, query: str, pages: set[str]
) -> None:
    assert_found(site_page, "ko", query, pages)


@pytest.mark.parametrize(("query", "pages"), cases(ENGLISH))
def test_english_query_finds_its_page(
    site_page: SitePage, query: str, pages: set[str]
) -> None:
    assert_found(site_page, "en", query, pages)


def test_file_does_not_match_compile(
    site_page: SitePage, built: dict[str, Path]
) -> None:
    """파일 (file) is not 컴파일 (compile): a page whose only 파일 is inside 컴파일
    must not come up, so the results cannot cover every page that says 컴파일."""
    texts = site_page.page_texts(built, "ko")
    compile_pages = {name for name, text in texts.items() if "컴파일" in text}
    # 파일 at the start of a word: "파일을", "데이터 파일", not "컴파일", "프로파일".
    file_word = re.compile(r"(?<![가-힣])파일")
    only_in_compile = {
        name for name in compile_pages if not file_word.search(texts[name])
    }
    assert only_in_compile, "no page says 컴파일 without 파일: the check checks nothing"

    outcome = site_page.search("ko", "파일")
    found = set(outcome.pages)
    assert len(found & compile_pages) < len(compile_pages), (
        f"파일 matched all {len(compile_pages)} pages that say 컴파일: {outcome.describe()}"
    )
    wrong = sorted(found & only_in_compile)
    assert not wrong, (
        f"파일 found pages whose only 파일 is inside 컴파일: {wrong}; {outcome.describe()}"
    )
    assert not site_page.errors, site_page.errors


@pytest.mark.parametrize(
    ("lang", "query"),
    [pytest.param("en", "random", id="en"), pytest.param("ko", "난수", id="ko")],
)
def test_search_summary_says_how_many(
    site_page: SitePage, lang: str, query: str
) -> None:
    """Under the results the reader is told how many pages matched
    ("Search finished, found 4 pages matching the search query.")."""
    outcome = site_page.search(lang, query)
    assert outcome.pages, outcome.describe()
    assert str(len(outcome.pages)) in outcome.summary, (
        f"summary {outcome.summary!r} does not give the number of results; "
        f"{outcome.describe()}"
    )


@pytest.mark.parametrize(
    ("lang", "query", "page_name"),
    [
        pytest.param("en", "vectorization", "vmap", id="en"),
        pytest.param("ko", "벡터화", "vmap", id="ko"),
    ],
)
def test_search_box(site_page: SitePage, lang: str, query: str, page_name: str) -> None:
    """The reader's way: Ctrl+K on a page, type the query, Enter, click the result."""
    outcome = site_page.type_search(lang, query, start="jit")
    assert page_name in outcome.top(TOP), outcome.describe()
    first = outcome.pages.index(page_name)
    link = site_page.page.locator("#search-results ul.search > li > a").nth(first)
    with site_page.page.expect_navigation():
        link.click()
    assert site_page.page.url.split("#")[0] == site_page.url(lang, page_name)
    assert not site_page.errors, site_page.errors


@pytest.mark.usefixtures("browser")
def test_search_report_script(built: dict[str, Path], tmp_path: Path) -> None:
    """tests/benchmarks/search_report.py measures both sites and writes its JSON."""
    output = tmp_path / "search-report.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.benchmarks.search_report",
            *("--rounds", "1", "--output", str(output)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(output.read_text(encoding="utf-8"))
    for lang in ("ko", "en"):
        entry = report["sites"][lang]
        assert (
            entry["searchindex_bytes"]
            == (built[lang] / "searchindex.js").stat().st_size
        )
        assert len(entry["queries"]) == 5
        assert entry["median_finished_ms"] > 0
    assert "| ko |" in result.stdout
