"""Korean queries for the site's search (src/jaxguide_site/korean_search.py).

One table of Korean and mixed queries with what the search page searches for
each. The Python rule is checked against it; the browser's, the
korean-query.js the Korean build writes, run in Node, must give the same; and
a real build of both languages shows which one loads it (and that neither
writes Sphinx's own search index).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from browser import skip_or_fail
from helpers import build_project, sample_project
from jaxguide_site import korean_search
from jaxguide_site.korean_search import (
    SCRIPT,
    STOPWORDS,
    SUFFIXES,
    TOKEN_PY,
    is_hangul,
    query_script,
    query_words,
    stem_hangul,
)
from jaxguide_site.languages import LANGUAGES

# text -> what the search page searches when a reader types it
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
    "JAX는": ["JAX"],
    "arrays를": ["arrays"],
    "jax.numpy는": ["jax", "numpy"],
    "jit으로": ["jit"],
    "vmap을": ["vmap"],
    "float32를": ["float32"],
    "x를": ["x"],
    "2차원": ["2", "차원"],
    "함수를 컴파일합니다": ["함수", "컴파일"],
    "첫 호출이 느려요": ["첫", "호출"],
    "느려요": ["느려요"],  # nothing else typed: kept
}


def test_the_table_is_large_enough() -> None:
    assert len(TABLE) >= 50


@pytest.mark.parametrize(("text", "expected"), TABLE.items())
def test_python_query_words(text: str, expected: list[str]) -> None:
    assert query_words(text) == expected


def test_suffix_table_is_longest_first_and_stems_are_stable() -> None:
    lengths = [len(suffix) for suffix, _, _ in SUFFIXES]
    assert lengths == sorted(lengths, reverse=True)
    for word in [*TABLE, *STOPWORDS]:
        for token in re.findall(TOKEN_PY, word):
            if is_hangul(token):
                assert stem_hangul(stem_hangul(token)) == stem_hangul(token)
    # a stopword's stem is one too, so checking the typed word and checking
    # its stem agree
    assert all(stem_hangul(word) in STOPWORDS for word in STOPWORDS)


def in_node(tmp_path: Path, call: str, values: list[str]) -> list[object]:
    """``call`` (a JS function of one word or query) applied to ``values`` in
    Node, after the script the Korean search page loads."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found: install nodejs to check the browser's side")
    script = tmp_path / "run.js"
    script.write_text(
        f"{query_script()}\nconst values = {json.dumps(values)};\n"
        f"process.stdout.write(JSON.stringify(values.map({call})));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [node, str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    found: list[object] = json.loads(result.stdout)
    return found


def test_the_browser_searches_what_python_searches(tmp_path: Path) -> None:
    found = in_node(tmp_path, "(text) => KoreanSearch.query(text)", list(TABLE))
    assert dict(zip(TABLE, found, strict=True)) == TABLE


SPOKEN = {
    # 해요체 endings a reader types: left out of the query
    "느려요": True, "나와요": True, "되나요": True, "하세요": True, "달라요": True,
    # nouns that end in 요, and words that are no ending: kept
    "필요": False, "중요": False, "주요": False, "개요": False, "요": False,
    "jit": False, "컴파일": False,
}  # fmt: skip


def test_spoken_endings_alike_in_python_and_javascript(tmp_path: Path) -> None:
    """The search page drops a query's spoken ending ("첫 호출이 느려요"
    searches "첫 호출"): KoreanSearch.isSpokenEnding agrees with Python."""
    assert {word: korean_search.is_spoken_ending(word) for word in SPOKEN} == SPOKEN
    found = in_node(
        tmp_path, "(word) => KoreanSearch.isSpokenEnding(word)", list(SPOKEN)
    )
    assert dict(zip(SPOKEN, found, strict=True)) == SPOKEN


def test_only_the_korean_search_page_loads_the_query_script(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = sample_project("korean-search", tmp_path_factory.mktemp("search") / "src")
    out = root.parent / "out"
    for lang in LANGUAGES:
        result = build_project(
            root / lang, out / lang, lang=lang, cache=root.parent / "cache"
        )
        assert result.returncode == 0, result.stdout + result.stderr
    for lang in LANGUAGES:  # the search page, without Sphinx's own search
        assert (out / lang / "html" / "search.html").is_file()
        assert not (out / lang / "html" / "searchindex.js").exists()
    korean = out / "ko" / "html"
    assert (korean / SCRIPT).read_text(encoding="utf-8") == query_script()
    assert "_static/korean-query.js" in (korean / "search.html").read_text("utf-8")
    english = out / "en" / "html"
    assert not (english / SCRIPT).exists()
    assert "korean-query.js" not in (english / "search.html").read_text("utf-8")
