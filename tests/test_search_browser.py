"""Search on the built site, in a real browser (issues 8, 10 and 23).

The site's search is Pagefind (src/jaxguide_site/site_search.py). The
relevance test runs the relevance benchmark (tests/benchmarks/
search_relevance.py: every query of search_queries.toml typed into the
search page) and holds each language to issue 23's targets. The others go
through the search page as the theme's search box opens it
(``search.html?q=...``) and read what it shows.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from browser import SitePage, result_page
from helpers import GUIDE_PAGES, REPO, built_version

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Page

TOP = 3
QUERIES = REPO / "tests" / "benchmarks" / "search_queries.toml"


@pytest.fixture
def site_page(page: Page, served_site: str) -> SitePage:
    return SitePage(page, served_site, version=built_version())


def test_expected_pages_exist(built: dict[str, Path]) -> None:
    """The benchmark's expectations name real pages (a rename must update them)."""
    import tomllib  # noqa: PLC0415

    queries = tomllib.loads(QUERIES.read_text(encoding="utf-8"))
    for lang, entries in queries.items():
        for entry in entries:
            for name in entry["pages"]:
                assert (built[lang] / f"{name}.html").is_file(), (lang, name)


@pytest.mark.usefixtures("browser")
def test_relevance_meets_the_targets(site: Path, tmp_path: Path) -> None:
    """Issue 23: the right page first for at least 90 % of the benchmark's
    queries and among the first three for every query of either language;
    results without Enter. Each query is pasted into one open search page
    (seconds; typing them takes minutes). How fast results come while typing
    (the 100 ms target) depends on the machine's load: `nox -s benchmark --
    search_relevance` types and reports it."""
    output = tmp_path / "relevance.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.benchmarks.search_relevance",
            *("--ranks-only", "--site", str(site), "--output", str(output)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(output.read_text(encoding="utf-8"))
    targets, found = report["targets"], report["summary"]
    misses = json.dumps(found["all"]["misses"], ensure_ascii=False, indent=1)
    assert report["as_you_type"], f"{report['engine']}: no results until Enter"
    assert found["all"]["top1"] >= targets["top1"], misses
    for lang in ("ko", "en"):
        assert found[lang]["top3"] >= targets["top3"], (lang, misses)


def test_file_does_not_match_compile(site_page: SitePage) -> None:
    """파일 (file) is not 컴파일 (compile): a page whose only 파일 is inside 컴파일
    must not come up, so the results cannot cover every page that says 컴파일."""
    texts = site_page.page_texts("ko", GUIDE_PAGES.on_site("ko"))
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
    ("lang", "query", "word"),
    [
        pytest.param("en", "vectorization", "vectoriz", id="en"),
        pytest.param("ko", "벡터화를", "벡터화", id="ko"),
    ],
)
def test_excerpts_come_from_the_article(
    site_page: SitePage, lang: str, query: str, word: str
) -> None:
    """Each result's excerpt is prose of its page's article: not the header,
    the sidebar, the theme's menus (issue 23) or the hidden words that rank
    the page (site_search.py); the first shows the query."""
    outcome = site_page.search(lang, query)
    assert outcome.excerpts, outcome.describe()
    assert word in outcome.excerpts[0].lower(), outcome.excerpts[0]
    texts = site_page.page_texts(lang, GUIDE_PAGES.on_site(lang))
    flat = {
        name: " ".join(text.split()).replace("#", "") for name, text in texts.items()
    }
    for page, excerpt in zip(outcome.pages, outcome.excerpts, strict=True):
        assert "\u2e31" not in excerpt, (page, excerpt)
        # Pagefind ends a heading with ". " before the text that follows.
        for part in re.split(r"\.\s", excerpt):
            piece = part.strip(" .\u2026")  # "…": where the excerpt cuts a sentence
            assert piece in flat[page], (page, piece, excerpt)
    assert not site_page.errors, site_page.errors


# A page's prose as Pagefind indexes it (site_search.py): the article without
# code cells, code blocks, the other language's hidden words and the "#" of
# heading links, a line break after each block; and what was left out.
_PROSE_JS = """async (url) => {
  const html = await (await fetch(url)).text();
  const article = new DOMParser().parseFromString(html, "text/html")
    .querySelector("article.bd-article");
  const code = "div.cell, div[class^='highlight-']";
  const left = (selector) =>
    [...article.querySelectorAll(selector)].map((e) => e.textContent);
  const out = { code: left(code).join("\\n"), hidden: left("[lang][hidden]") };
  for (const e of article.querySelectorAll(`${code}, [hidden], a.headerlink`))
    e.remove();
  const blocks = "h1, h2, h3, h4, h5, h6, p, li, dt, dd, th, td, caption, figcaption";
  for (const e of article.querySelectorAll(blocks)) e.append("\\n");
  return { ...out, prose: article.textContent };
}"""
SENTENCE_ENDS = ".!?:\n"


def prose_of(site_page: SitePage, lang: str, name: str) -> dict[str, Any]:
    if not site_page.page.url.startswith(site_page.base_url):
        site_page.page.goto(site_page.url(lang, "index"))  # fetch from the site
    texts: dict[str, Any] = site_page.page.evaluate(
        _PROSE_JS, site_page.url(lang, name)
    )
    return texts


@pytest.mark.parametrize(
    ("lang", "query", "page_name"),
    [
        pytest.param("en", "cores", "parallelism", id="en-timing-table"),
        pytest.param("en", "static arguments", "jit", id="en-code"),
        pytest.param("ko", "정적 인자", "jit", id="ko-code"),
        pytest.param("ko", "코어", "parallelism", id="ko-timing-table"),
        # Its sentence follows "`save(step, args=...)`": a code span ending in
        # ".)" does not end a sentence.
        pytest.param("en", "arrive", "checkpointing", id="en-ellipsis-in-code"),
    ],
)
def test_excerpts_are_whole_sentences_of_prose(
    site_page: SitePage, lang: str, query: str, page_name: str
) -> None:
    """Issue 33: an excerpt is cut from the page's prose, never from its code,
    its outputs or the other language's hidden labels (English excerpts showed
    '2 cores코어 2개'), and it starts where a sentence starts unless it says
    it does not ("…")."""
    outcome = site_page.search(lang, query)
    assert page_name in outcome.pages, outcome.describe()
    for page, excerpt in list(zip(outcome.pages, outcome.excerpts, strict=True))[:5]:
        texts = prose_of(site_page, lang, page)
        words = excerpt.strip().removeprefix("\u2026").removesuffix("\u2026").split()
        assert words, (page, excerpt)
        # Pagefind ends a heading with "." where the page has none.
        pattern = r"\s+".join(re.escape(w.rstrip(".")) + r"\.?" for w in words)
        found = re.search(pattern, texts["prose"])
        assert found is not None, (page, excerpt, "not in the prose")
        if not excerpt.startswith("\u2026"):
            before = texts["prose"][: found.start()].rstrip(" \t")
            assert not before or before[-1] in SENTENCE_ENDS, (
                page,
                excerpt,
                before[-60:],
            )
    assert not site_page.errors, site_page.errors


_INDEXED_PAGES_JS = """async (word) => {
  const pagefind = await import("./pagefind/pagefind.js");
  const found = await pagefind.search(word);
  const pages = await Promise.all(found.results.map((result) => result.data()));
  return pages.map((page) => page.url);
}"""


def test_hidden_words_of_the_other_language_are_not_indexed(
    site_page: SitePage,
) -> None:
    """The English parallelism page carries its timing table's Korean labels,
    hidden: Pagefind's English index does not hold them."""
    hidden = prose_of(site_page, "en", "parallelism")["hidden"]
    words = [w for t in hidden for w in t.split() if re.fullmatch("[가-힣]{2,}", w)]
    assert words, "no hidden Korean label on en/parallelism: the test checks nothing"
    shown = prose_of(site_page, "en", "parallelism")["prose"]
    site_page.page.goto(site_page.url("en", "search"))
    for word in dict.fromkeys(w for w in words if w not in shown):
        urls = site_page.page.evaluate(_INDEXED_PAGES_JS, word)
        assert "parallelism" not in map(result_page, urls), (word, urls)
    assert not site_page.errors, site_page.errors


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
    link = site_page.page.locator(
        "#search .pagefind-ui__result-inner > .pagefind-ui__result-title > a"
    ).nth(first)
    with site_page.page.expect_navigation():
        link.click()
    assert site_page.page.url.split("#")[0] == site_page.url(lang, page_name)
    assert not site_page.errors, site_page.errors


def test_query_follows_typing(site_page: SitePage) -> None:
    """Typing on the search page shows results without Enter and keeps the
    query in the address (to share, to keep across the language switch)."""
    outcome = site_page.search_as_you_type("ko", "난수를")
    assert outcome.top(1) == ("random",), outcome.describe()
    assert site_page.page.url.endswith("search.html?q=%EB%82%9C%EC%88%98%EB%A5%BC")
    assert not site_page.errors, site_page.errors


_OVERLAP_JS = """() => {
  const form = document.querySelector("dialog[open] form.bd-search");
  const [icon, box] = ["i.fa-magnifying-glass", "input[name='q']"].map(
    (selector) => form.querySelector(selector).getBoundingClientRect());
  return {icon: [icon.left, icon.right], box: [box.left, box.right]};
}"""


@pytest.mark.parametrize("width", [1300, 390])
def test_search_dialog_icon_sits_beside_the_box(
    site_page: SitePage, width: int
) -> None:
    """The dialog Ctrl+K opens (the phone header's search button opens the
    same): its magnifying glass does not cover the text typed into the box."""
    page = site_page.page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site_page.url("ko", "jit"))
    page.keyboard.press("Control+k")
    page.locator("dialog[open] input[name='q']:focus").wait_for()
    placed = page.evaluate(_OVERLAP_JS)
    assert placed["icon"][1] <= placed["box"][0], placed
