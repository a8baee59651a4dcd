"""Korean search (src/jaxguide_site/korean_search.py).

One table of Korean and mixed words with the terms each is indexed as. The
Python side is checked against it; the JavaScript Sphinx writes for the
browser, run in Node with Sphinx's own searchtools.js, must give the same
splits, stems and query terms; and tiny real builds show the Korean index
holds stems while the English one is still stemmed by Porter.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sphinx
from sphinx.search import SearchLanguage, languages
from sphinx.search.en import SearchEnglish

from browser import skip_or_fail
from helpers import build_project, sample_project
from jaxguide_site import korean_search
from jaxguide_site.korean_search import (
    STOPWORDS,
    SUFFIXES,
    SearchKorean,
    is_hangul,
    js_stemmer_code,
    stem_hangul,
)
from jaxguide_site.languages import LANGUAGES

KOREAN = SearchKorean({})
SEARCHTOOLS = Path(sphinx.__file__).parent / "themes/basic/static/searchtools.js"

# text -> the terms it is indexed as, which are also what a query for it searches
TABLE: dict[str, list[str]] = {
    "컴파일": ["컴파일"],
    "컴파일을": ["컴파일"],
    "컴파일하기": ["컴파일"],
    "컴파일합니다": ["컴파일"],
    "컴파일된": ["컴파일"],
    "컴파일하는": ["컴파일"],
    "컴파일하기를": ["컴파일"],
    "컴파일러가": ["컴파일러"],
    "함수": ["함수"],
    "함수를": ["함수"],
    "함수가": ["함수"],
    "함수는": ["함수"],
    "함수의": ["함수"],
    "함수에서는": ["함수"],
    "함수들을": ["함수"],
    "함수입니다": ["함수"],
    "정의": ["정의"],  # 의 and 이 never leave one syllable
    "정의를": ["정의"],
    "정의된": ["정의"],
    "결과": ["결과"],  # nor does 과
    "결과를": ["결과"],
    "결과가": ["결과"],
    "배열": ["배열"],
    "배열을": ["배열"],
    "배열로": ["배열"],
    "배열과": ["배열"],
    "난수": ["난수"],
    "난수를": ["난수"],
    "벡터화": ["벡터화"],
    "벡터화하는": ["벡터화"],
    "벡터화된": ["벡터화"],
    "미분": ["미분"],
    "미분하기": ["미분"],
    "미분을": ["미분"],
    "파일": ["파일"],  # and 컴파일 above is never 파일
    "파일을": ["파일"],
    "파일에": ["파일"],
    # One-syllable nouns lose only particles no common two-syllable word ends
    # in: 값이 and 셀의 stay whole, as 길이 and 정의 must.
    "값": ["값"],
    "값을": ["값"],
    "값은": ["값"],
    "값으로": ["값"],
    "값입니다": ["값"],
    "값이": ["값이"],
    "셀에서": ["셀"],
    "셀의": ["셀의"],
    "축을": ["축"],
    "키를": ["키"],
    "키와": ["키"],
    "길이": ["길이"],
    "추가": ["추가"],
    "추가하거나": ["추가"],
    "속도": ["속도"],
    "나이": ["나이"],  # 이 follows a final consonant only
    "나이를": ["나이"],
    "넘파이는": ["넘파이"],
    "길이를": ["길이"],
    "경로를": ["경로"],  # 로 never leaves one syllable
    "속도를": ["속도"],
    "자동으로": ["자동"],
    "간단한": ["간단"],
    "데이터가": ["데이터"],
    "장치에서": ["장치"],
    "처음부터": ["처음"],
    "사용합니다": ["사용"],
    "전문가": ["전문가"],  # 가 follows an open syllable only
    "평가": ["평가"],
    "있습니다": [],
    "것을": [],
    "것입니다": [],
    "있지만": [],
    "수를": [],
    "JAX는": ["jax"],
    "arrays를": ["array"],
    "jax.numpy는": ["jax", "numpi"],
    "jit으로": ["jit"],
    "vmap을": ["vmap"],
    "float32를": ["float32"],
    "x를": [],
    "2차원": ["차원"],
    "함수를 컴파일합니다": ["함수", "컴파일"],
}


def index_terms(language: SearchLanguage, text: str) -> list[str]:
    """The terms Sphinx's IndexBuilder.feed indexes ``text`` under."""
    terms = []
    for word in language.split(text):
        stemmed = language.stem(word).lower()
        if not language.word_filter(stemmed) and language.word_filter(word):
            stemmed = word
        if language.word_filter(stemmed):
            terms.append(stemmed)
    return terms


def test_the_table_is_large_enough() -> None:
    assert len(TABLE) >= 50


@pytest.mark.parametrize(("text", "expected"), TABLE.items())
def test_python_terms(text: str, expected: list[str]) -> None:
    assert index_terms(KOREAN, text) == expected


def test_suffix_table_is_longest_first_and_stems_are_stable() -> None:
    lengths = [len(suffix) for suffix, _, _ in SUFFIXES]
    assert lengths == sorted(lengths, reverse=True)
    for word in [*TABLE, *STOPWORDS]:
        for token in KOREAN.split(word):
            if is_hangul(token):  # Porter is not idempotent, nor need it be
                assert stem_hangul(stem_hangul(token)) == stem_hangul(token)
    # a stopword's stem is one too, so the browser's check of the raw query
    # word can never keep a word whose stem the index dropped
    assert all(stem_hangul(word) in STOPWORDS for word in STOPWORDS)


def test_only_korean_uses_the_new_language() -> None:
    registered: list[type[SearchLanguage]] = []
    korean_search.setup(SimpleNamespace(add_search_language=registered.append))  # type: ignore[arg-type]
    assert registered == [SearchKorean]
    assert SearchKorean.lang == "ko"
    assert languages["en"] is SearchEnglish
    assert index_terms(SearchEnglish({}), "JAX compiles arrays") == [
        "jax",
        "compil",
        "array",
    ]


NODE_HARNESS = """
const fs = require("fs");
const vm = require("vm");
const [scripts, texts] = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const context = vm.createContext({
  _: (text) => text,
  _ready: () => {},
  SPHINX_HIGHLIGHT_ENABLED: false,
  document: { getElementById: () => null },
});
vm.runInContext("var window = globalThis;", context);
for (const script of scripts)
  vm.runInContext(fs.readFileSync(script, "utf8"), context, { filename: script });
const run = vm.runInContext(`(texts, queries) => {
  const stemmer = new Stemmer();
  const terms = texts.map((text) => {
    const split = splitQuery(text);
    return {
      split,
      stems: split.map((word) => stemmer.stemWord(word.toLowerCase())),
      query: [...Search._parseQuery(text)[1]],
    };
  });
  const found = queries.map((query) => {
    if (!Search.hasIndex()) return [];
    const [q, search, excluded, highlight, objects] = Search._parseQuery(query);
    // displayed last to first (searchtools pops them): best first here
    return Search._performSearch(q, search, excluded, highlight, objects)
      .map((result) => result[0]).reverse();
  });
  return JSON.stringify({ terms, found });
}`, context);
process.stdout.write(run(texts, JSON.parse(process.argv[3] || "[]")));
"""


def run_in_node(
    tmp_path: Path, scripts: list[Path], texts: list[str], queries: list[str]
) -> dict[str, Any]:
    """Load ``scripts`` in Node as a browser would, then split, stem and query."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found: install nodejs to check the browser's side")
    harness = tmp_path / "harness.js"
    harness.write_text(NODE_HARNESS, encoding="utf-8")
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps([[str(s) for s in scripts], texts]), "utf-8")
    result = subprocess.run(
        [node, str(harness), str(payload), json.dumps(queries)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_javascript_splits_and_stems_like_python(tmp_path: Path) -> None:
    # language_data.js as Sphinx renders it: stopwords, stemmer, splitter
    language_data = tmp_path / "language_data.js"
    language_data.write_text(
        f"const stopwords = new Set({json.dumps(sorted(KOREAN.stopwords))});\n"
        f"{js_stemmer_code()}\n{KOREAN.js_splitter_code}\n",
        encoding="utf-8",
    )
    texts = list(TABLE)
    data = run_in_node(tmp_path, [SEARCHTOOLS, language_data], texts, [])
    for text, js in zip(texts, data["terms"], strict=True):
        split = KOREAN.split(text)
        assert js["split"] == split, text
        assert js["stems"] == [KOREAN.stem(word).lower() for word in split], text
        assert sorted(js["query"]) == sorted(set(TABLE[text])), text


@pytest.fixture(scope="module")
def tiny_sites(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/roots/korean-search built, each language into out/<lang>."""
    root = sample_project("korean-search", tmp_path_factory.mktemp("search") / "src")
    out = root.parent / "out"
    for lang in LANGUAGES:
        result = build_project(
            root / lang, out / lang, lang=lang, cache=root.parent / "cache"
        )
        assert result.returncode == 0, result.stdout + result.stderr
    return out


def search_index(site: Path, lang: str) -> dict[str, Any]:
    text = (site / lang / "html" / "searchindex.js").read_text(encoding="utf-8")
    index: dict[str, Any] = json.loads(text.removeprefix("Search.setIndex(")[:-1])
    return index


def pages_with(index: dict[str, Any], term: str) -> set[str]:
    docs: set[str] = set()
    for terms in (index["terms"], index["titleterms"]):
        found = terms.get(term, [])
        for doc in [found] if isinstance(found, int) else found:
            docs.add(index["docnames"][doc])
    return docs


def test_korean_index_holds_stems(tiny_sites: Path) -> None:
    index = search_index(tiny_sites, "ko")
    assert pages_with(index, "컴파일") == {"jit"}
    assert pages_with(index, "함수") == {"jit"}
    assert pages_with(index, "array") == {"jit"}
    assert pages_with(index, "파일") == {"files"}
    assert pages_with(index, "값") == {"random"}
    terms = {*index["terms"], *index["titleterms"]}
    assert not terms & {"컴파일을", "컴파일합니다", "함수를", "arrays", "는", "으로"}
    static = tiny_sites / "ko" / "html" / "_static"
    language_data = (static / "language_data.js").read_text(encoding="utf-8")
    assert "var splitQuery" in language_data
    assert "KoreanStemmer" not in language_data


def test_english_index_is_still_porter(tiny_sites: Path) -> None:
    index = search_index(tiny_sites, "en")
    assert pages_with(index, "array") == {"jit", "files"}
    assert pages_with(index, "compil") == {"jit"}
    assert "arrays" not in index["terms"]
    static = tiny_sites / "en" / "html" / "_static"
    language_data = (static / "language_data.js").read_text(encoding="utf-8")
    assert "window.Stemmer = EnglishStemmer" in language_data
    assert "KoreanSearch" not in language_data


def test_korean_queries_find_their_page(tiny_sites: Path, tmp_path: Path) -> None:
    html = tiny_sites / "ko" / "html"
    scripts = [
        html / "_static" / "searchtools.js",
        html / "_static" / "language_data.js",
        html / "searchindex.js",
    ]
    expected = {
        "컴파일": "jit",
        "컴파일하기": "jit",
        "함수": "jit",
        "JAX는": "jit",
        "arrays를": "jit",
        "난수": "random",
        "벡터화": "random",
        "미분": "random",
        "값": "random",
        "파일": "files",
    }
    data = run_in_node(tmp_path, scripts, [], list(expected))
    for (query, page), found in zip(expected.items(), data["found"], strict=True):
        assert found[:1] == [page], query
    assert "jit" not in data["found"][list(expected).index("파일")]


SPOKEN = {
    # 해요체 endings a reader types: left out of the query
    "느려요": True, "나와요": True, "되나요": True, "하세요": True, "달라요": True,
    # nouns that end in 요, and words that are no ending: kept
    "필요": False, "중요": False, "주요": False, "개요": False, "요": False,
    "jit": False, "컴파일": False,
}  # fmt: skip


def test_spoken_endings_leave_the_query_alike_in_python_and_javascript(
    tmp_path: Path,
) -> None:
    """site-search.js drops a query's spoken ending ("첫 호출이 느려요" searches
    "첫 호출"): KoreanSearch.isSpokenEnding must agree with the Python rule."""
    assert {word: korean_search.is_spoken_ending(word) for word in SPOKEN} == SPOKEN
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found: install nodejs to check the browser's side")
    script = tmp_path / "spoken.js"
    script.write_text(
        f"{js_stemmer_code()}\nconst words = {json.dumps(list(SPOKEN))};\n"
        "process.stdout.write(JSON.stringify("
        "words.map((w) => KoreanSearch.isSpokenEnding(w))));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [node, str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert dict(zip(SPOKEN, json.loads(result.stdout), strict=True)) == SPOKEN
