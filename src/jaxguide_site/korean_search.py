"""Korean queries for the site's search: particles and endings stripped.

Pagefind (:mod:`.site_search`) has no Korean stemmer: a search for
``컴파일`` must still find ``컴파일을``, and a query typed ``jit으로`` must
search ``jit``. Pagefind matches words that start with what is searched, so
the search page strips each Korean query word to its stem first, by the rules
here, in the browser: :func:`query_script` writes them as JavaScript
(``_static/korean-query.js`` of the Korean build, which the search page
loads), from the same tables, so Python and the browser cannot disagree.

- Words: runs of Hangul syllables, and runs of other letters, digits and
  ``_`` (``jax.numpy`` is ``jax``, ``numpy``; ``arrays를`` is ``arrays`` and
  ``를``). Hangul words whose stem is a stopword, such as a particle left on
  its own, are dropped.
- Stems: a Hangul word loses trailing particles and endings from
  :data:`SUFFIXES`, the one suffix table, longest first, until none applies:
  ``컴파일하기를`` → ``컴파일하기`` → ``컴파일``. Each rule names the kind of
  syllable it may follow (을/은/이/과/으로 follow a final consonant, 를/는/가/와
  an open syllable, 로 an open one or one ending in ㄹ): ``넘파이`` and ``나이``
  keep their 이. Each rule also names the shortest stem it may leave: two
  syllables (``정의``, ``결과``, ``파일`` and ``경로`` stay whole), but one for
  the particles that no common two-syllable word ends in (을/를/은/는, 으로,
  에, 에서, 와, 입니다 ...), so that one-syllable nouns such as 값, 축, 키, 층 and
  셀 are found (``값을``, ``값으로``, ``셀에`` → ``값``, ``셀``). ``값이`` and
  ``셀의`` stay whole: 이/가/의/도/만/로/과 never leave one syllable (길이, 추가,
  정의, 속도, 백만, 경로, 결과). Only 하다/되다 verbs lose their endings
  (``씁니다`` stays): there is no dictionary of verb stems. Other words are
  searched as typed.
- Spoken endings: a reader types the symptom in the spoken 해요체
  (``첫 호출이 느려요``, ``NaN이 나와요``), which no page writes (the guide is
  in 합니다체), and Pagefind finds only pages with every word.
  :func:`is_spoken_ending` names such a closing word (an open syllable, then
  요, as every 해요체 ending has it: 느려요, 나와요, 되나요, 하세요), and the
  query leaves it out: ``첫 호출이 느려요`` searches ``첫 호출``. The nouns that
  end the same way (:data:`NOUNS_IN_YO`: 주요, 개요) stay.

:func:`query_words` is the whole rule in Python, ``KoreanSearch.query`` in
the browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

from sphinx.application import Sphinx

FIRST, LAST = 0xAC00, 0xD7A3  # the Hangul syllables 가 ... 힣
RIEUL = 8  # index of the final consonant ㄹ in a syllable
EU = "으"  # 로 never follows it: 값으로 is 값 + 으로
_HANGUL = f"{chr(FIRST)}-{chr(LAST)}"
TOKEN_PY: Final = rf"[{_HANGUL}]+|[^\W{_HANGUL}]+"
_TOKEN = re.compile(TOKEN_PY)
# Python's \w is Unicode letters, numbers and "_"; JS needs it spelt out.
TOKEN_JS: Final = rf"[{_HANGUL}]+|(?:(?![{_HANGUL}])[\p{{L}}\p{{N}}_])+"

# What the syllable before a suffix must be: ANY; CLOSED, with a final
# consonant; OPEN, without one; OPEN_OR_L, without one (but not 으) or with ㄹ.
ANY, CLOSED, OPEN, OPEN_OR_L = "", "C", "V", "L"
_PARTICLES = (
    ("을", CLOSED, 1), ("를", OPEN, 1), ("은", CLOSED, 1), ("는", OPEN, 1),
    ("이", CLOSED, 2), ("가", OPEN, 2), ("과", CLOSED, 2),
    ("으로", CLOSED, 1), ("로", OPEN_OR_L, 2), ("으로서", CLOSED, 1),
    ("으로써", CLOSED, 1), ("로서", OPEN_OR_L, 2), ("로써", OPEN_OR_L, 2),
    ("이나", CLOSED, 2), ("나", OPEN, 2), ("이란", CLOSED, 2), ("란", OPEN, 2),
    ("이라는", CLOSED, 2), ("라는", OPEN, 2), ("이라고", CLOSED, 2),
    ("라고", OPEN, 2), ("이라도", CLOSED, 2), ("라도", OPEN, 2),
    ("의", ANY, 2), ("에", ANY, 1), ("에서", ANY, 1), ("에게", ANY, 1),
    ("와", OPEN, 1), ("한테", ANY, 2), ("도", ANY, 2), ("만", ANY, 2),
    ("까지", ANY, 2), ("부터", ANY, 2), ("보다", ANY, 2), ("처럼", ANY, 2),
    ("마다", ANY, 2), ("밖에", ANY, 2), ("대로", ANY, 2), ("들", ANY, 2),
    ("이다", ANY, 2), ("입니다", ANY, 1), ("이며", ANY, 2), ("이고", ANY, 2),
    ("지만", ANY, 1), ("거나", ANY, 1), ("이므로", ANY, 1),
    ("으므로", CLOSED, 1), ("므로", OPEN, 1),
)  # fmt: skip
# Endings of 하다 and 되다 verbs and adjectives: 컴파일하는, 간단한, 정의된.
_ENDINGS = (
    "하다", "합니다", "하는", "하고", "하면", "하며", "하여", "해서", "해야",
    "했다", "했습니다", "하였다", "하였습니다", "하기", "하려면", "하려고",
    "하도록", "하지", "한다", "한", "할", "해", "하세요", "하게", "하므로",
    "하면서", "되다", "됩니다", "되는", "되고", "되면", "되며", "되어", "돼",
    "된다", "된", "될", "되었다", "되었습니다", "됐다", "됐습니다", "되지",
    "되기", "되도록", "되므로", "하는지", "했는지", "하는데", "할지", "했던",
    "하던", "해도", "하거나", "한다면", "되는지", "됐는지", "되었는지", "되는데",
    "된다면", "되거나",
    # spoken (해요체): "매번 다시 컴파일돼요" searches 컴파일
    "해요", "돼요", "했어요", "됐어요", "하나요", "되나요", "할까요", "될까요",
)  # fmt: skip
# The one suffix table: (suffix, syllable before it, shortest stem), longest first.
SUFFIXES: Final[tuple[tuple[str, str, int], ...]] = tuple(
    sorted(
        (*_PARTICLES, *((ending, ANY, 2) for ending in _ENDINGS)),
        key=lambda rule: -len(rule[0]),
    )
)
KOREAN_STOPWORDS: Final = frozenset((
    "것", "수", "등", "및", "이", "그", "저", "때", "더", "또", "위", "각", "두",
    "세", "번", "개", "안", "잘", "못", "좀", "즉", "하", "되", "있", "없",
    "이런", "그런", "저런", "이것", "그것", "저것", "여기", "거기", "있다",
    "있는", "있고", "있으며", "있습니다", "없다", "없는", "없고", "없습니다",
    "경우", "때문", "위해", "통해", "대한", "대해", "따라", "또는", "그리고",
    "하지만", "그러나", "따라서", "그래서", "모든", "어떤", "다른", "같은",
    # what a query says around its subject: "NaN 찾기", "다른 점"
    "찾기", "방법", "점",
    # how a question asks: "왜 jit이 느려요", "어떻게 구하나요"
    "왜", "어떻게", "무엇", "뭐", "뭔가", "무슨", "어디", "어디서", "언제",
    "자꾸", "계속", "너무", "제", "내",
))  # fmt: skip


YO = "요"  # the spoken (해요체) ending's last syllable
NOUNS_IN_YO: Final = frozenset(
    ("주요", "개요", "요요")
)  # 필요, 중요 end in a closed one


def is_hangul(word: str) -> bool:
    """Whether ``word`` (a query word) is Korean: it starts with a Hangul syllable."""
    return word != "" and FIRST <= ord(word[0]) <= LAST


def _follows(syllable: str, after: str) -> bool:
    final = (ord(syllable) - FIRST) % 28
    if after == CLOSED:
        return final != 0
    if after == OPEN:
        return final == 0
    if after == OPEN_OR_L:
        return (final == 0 and syllable != EU) or final == RIEUL
    return True


def stem_hangul(word: str) -> str:
    """``word`` without its particles and endings (see the module docstring)."""
    while True:
        for suffix, after, shortest in SUFFIXES:
            rest = len(word) - len(suffix)
            fits = rest >= shortest and word.endswith(suffix)
            if fits and _follows(word[rest - 1], after):
                word = word[:rest]
                break
        else:
            return word


def is_spoken_ending(word: str) -> bool:
    """Whether a query's ``word`` is a spoken 해요체 ending (see the module
    docstring), which no page of the guide writes.

    >>> [is_spoken_ending(w) for w in ("느려요", "나와요", "되나요", "필요", "중요", "개요", "요")]
    [True, True, True, False, False, False, False]
    """
    if len(word) < 2 or not word.endswith(YO) or not is_hangul(word):
        return False
    return _follows(word[-2], OPEN) and word not in NOUNS_IN_YO


_BASE_STOPWORDS = KOREAN_STOPWORDS | {suffix for suffix, _, _ in SUFFIXES}
# Closed under stemming: a word that is a stopword has a stem that is one too.
STOPWORDS: Final = frozenset(
    _BASE_STOPWORDS | {stem_hangul(word) for word in _BASE_STOPWORDS}
)


def keep_token(word: str) -> bool:
    """False for a Hangul word whose stem is a stopword (``는``, ``것을``)."""
    return not is_hangul(word) or stem_hangul(word) not in STOPWORDS


def _data_json() -> str:
    data = {
        "token": TOKEN_JS,
        "suffixes": SUFFIXES,
        "stopwords": sorted(STOPWORDS),
        "first": FIRST,
        "last": LAST,
        "rieul": RIEUL,
        "eu": EU,
        "yo": YO,
        "nounsInYo": sorted(NOUNS_IN_YO),
        "kinds": {"closed": CLOSED, "open": OPEN, "openOrL": OPEN_OR_L},
    }
    return json.dumps(data, ensure_ascii=True, sort_keys=True)


_KOREAN_JS = """
var KoreanSearch = (function () {
  const data = DATA;
  const stopwords = new Set(data.stopwords);
  const token = new RegExp(data.token, "gu");
  const isHangul = (word) =>
    word.length > 0 && word.charCodeAt(0) >= data.first
    && word.charCodeAt(0) <= data.last;
  const follows = (syllable, after) => {
    const final = (syllable.charCodeAt(0) - data.first) % 28;
    if (after === data.kinds.closed) return final !== 0;
    if (after === data.kinds.open) return final === 0;
    if (after === data.kinds.openOrL)
      return (final === 0 && syllable !== data.eu) || final === data.rieul;
    return true;
  };
  const stemHangul = (word) => {
    for (;;) {
      const rule = data.suffixes.find(([suffix, after, shortest]) => {
        const rest = word.length - suffix.length;
        return rest >= shortest && word.endsWith(suffix)
          && follows(word[rest - 1], after);
      });
      if (rule === undefined) return word;
      word = word.slice(0, word.length - rule[0].length);
    }
  };
  const keep = (word) => !isHangul(word) || !stopwords.has(stemHangul(word));
  const nounsInYo = new Set(data.nounsInYo);
  const isSpokenEnding = (word) =>
    word.length >= 2 && word.endsWith(data.yo) && isHangul(word)
    && follows(word[word.length - 2], data.kinds.open) && !nounsInYo.has(word);
  const splitQuery = (text) => (text.match(token) || []).filter(keep);
  // What the search page searches for a query: see query_words.
  const query = (text) => {
    const words = splitQuery(text);
    const meant = words.filter(
      (word) => !isSpokenEnding(word) || stemHangul(word) !== word);
    return (meant.length ? meant : words).map((word) =>
      isHangul(word) ? stemHangul(word) : word);
  };
  return { isHangul, stemHangul, isSpokenEnding, splitQuery, query };
})();
"""


def query_words(text: str) -> list[str]:
    """The words the search page searches for ``text``: its words less those
    whose stem is a stopword and a spoken ending that is not a 하다/되다
    verb's (unless nothing else is left), Hangul words stemmed, others as
    typed.

    >>> query_words("jit으로 컴파일하기를"), query_words("첫 호출이 느려요")
    (['jit', '컴파일'], ['첫', '호출'])
    >>> query_words("함수가 매번 다시 컴파일돼요")
    ['함수', '매번', '다시', '컴파일']
    """
    words = [word for word in _TOKEN.findall(text) if keep_token(word)]
    meant = [w for w in words if not is_spoken_ending(w) or stem_hangul(w) != w]
    return [stem_hangul(word) if is_hangul(word) else word for word in meant or words]


def query_script() -> str:
    """``KoreanSearch``, the rules above in JavaScript, for the search page."""
    header = "/* Generated by src/jaxguide_site/korean_search.py: do not edit. */"
    return f"{header}{_KOREAN_JS.replace('DATA', _data_json())}"


SCRIPT = Path("_static") / "korean-query.js"  # in the Korean build's output


def write_query_script(app: Sphinx, exception: Exception | None) -> None:
    if (
        exception is None
        and app.builder.format == "html"
        and app.config.language == "ko"
    ):
        (Path(app.outdir) / SCRIPT).write_text(query_script(), encoding="utf-8")
