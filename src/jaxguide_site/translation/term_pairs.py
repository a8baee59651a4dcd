"""Where the source says a glossary term, the Korean translation says the
glossary's Korean for it: :func:`unpaired_terms`.

The avoid lists (:mod:`.prose`) catch the wrong words someone thought of;
this catches the rest (분할 or 추적자 for *sharding* or *tracer*, or a term
left out), without listing them. Each stretch of the translation (its prose
between two headings or code cells, :mod:`.sections`) is held to the same
stretch of its English source: every term the English uses (the longest
first, so that *gradient descent* is one term, not also *gradient*) must
appear there in Korean, spacing aside.

Not held: a term whose Korean is a verb (it conjugates: 돌려주다, 돌려줍니다),
whose Korean is its English (``XLA``, written as code as often), or that the
glossary marks ``everyday = true`` (its English is also an everyday word:
*step*, *state*, *return*). A translation may leave a term out where its
source's word means something else there, in its front matter, with the
reason::

    glossary_omit:
      Python: "numerical Python" is said as "수치 계산 코드"
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from .glossary import Term
from .korean_prose import HANGUL, QUOTED, in_english
from .prose import NOT_PROSE, WORD, long_variants, near_variant, reasons
from .report import Page
from .sections import Stretch, stretch_pairs

KEY = "glossary_omit"


def _text(stretch: Stretch) -> str:
    """The stretch's prose, without code, math, links and quotations."""
    lines = (line for piece in stretch.blocks for _, line in piece.lines)
    return QUOTED.sub(" ", NOT_PROSE.sub(" ", " ".join(lines)))


@cache
def _held(
    glossary: tuple[Term, ...],
) -> list[tuple[re.Pattern[str], re.Pattern[str], Term]]:
    """(English pattern, Korean pattern, term) for each term held, the
    longest English first. The Korean pattern also finds what other checks
    report: the term in English, or a variant the glossary avoids."""
    found = []
    for term in sorted(glossary, key=lambda term: -len(term.en)):
        if term.everyday or term.ko.endswith("다") or not HANGUL.search(term.ko):
            continue
        words = r"\s+".join(map(re.escape, term.en.split()))
        english = re.compile(rf"(?<![\w.-]){words}(?:e?s)?(?![\w-])", re.IGNORECASE)
        said = [_spaced(term.ko), words, *map(re.escape, term.avoid)]
        korean = re.compile("|".join(said), re.IGNORECASE)
        found.append((english, korean, term))
    return found


def _in_english(stretch: Stretch) -> bool:
    """Whether a block of the translation's stretch is still in English
    (reported as such by :mod:`.korean_prose`)."""
    return any(
        in_english(NOT_PROSE.sub(" ", " ".join(line for _, line in piece.lines)))
        for piece in stretch.blocks
    )


def _spaced(korean: str) -> str:
    """A pattern for ``korean`` with any spacing, its last syllable also with
    the ㅅ that joins it to a following noun (도함수, 도함숫값).

    >>> re.fullmatch(_spaced("도함수"), "도함숫")[0]
    '도함숫'
    """
    words = r"\s*".join(map(re.escape, korean.split()))
    last = korean[-1]
    if "가" <= last <= "힣" and (ord(last) - ord("가")) % 28 == 0:
        joined = chr(ord(last) + 19)  # the final consonant ㅅ
        words = f"{words[:-1]}[{last}{joined}]"
    return words


def _line_of(stretch: Stretch, pattern: re.Pattern[str]) -> int:
    """The first line of ``stretch`` where ``pattern`` is found (its first
    line where a line break splits what it finds)."""
    for piece in stretch.blocks:
        for number, line in piece.lines:
            if pattern.search(NOT_PROSE.sub(" ", line)):
                return number
    return stretch.line


def _unpaired(
    translation: Page, source: Page, glossary: list[Term]
) -> Iterator[tuple[Stretch, int, Term]]:
    held = _held(tuple(glossary))
    pairs = stretch_pairs(translation.rel, translation.text, source.rel, source.text)
    for mine, theirs in pairs:
        if _in_english(mine) or len(mine.blocks) != len(theirs.blocks):
            continue  # reported as English, or as a block left out or added
        english, korean = _text(theirs), _text(mine)
        for said_in_english, said_in_korean, term in held:
            if not said_in_english.search(english):
                continue
            english = said_in_english.sub(lambda m: " " * len(m[0]), english)
            if not said_in_korean.search(korean) and not any(
                near_variant(word, long_variants((term,)))
                for word in WORD.findall(korean)
            ):
                yield mine, _line_of(theirs, said_in_english), term


def unpaired_terms(
    translation: Page, source: Page, glossary: list[Term]
) -> list[tuple[str, int | None, str]]:
    """(path, line, message) for each term the Korean ``translation`` does not
    say where its English ``source`` does; and what is wrong with its
    ``glossary_omit``."""
    if translation.lang != "ko" or translation.name == "glossary":
        return []
    omitted, problems = reasons(
        translation,
        KEY,
        "English term to the reason it is left out, e.g. 'Python: \"numerical "
        'Python" is said as "수치 계산 코드"\'',
    )
    omit = {term.lower(): term for term in omitted}  # English: any case
    found = [(p.path, p.line, p.message) for p in problems]
    used = set()
    for mine, line, term in _unpaired(translation, source, glossary):
        if term.en.lower() in omit:
            used.add(omit[term.en.lower()])
            continue
        message = (
            f"{mine}: {term.en!r} in {source.rel}:{line} is not said here as "
            f"the glossary's {term.ko!r}: use it (or, where the word means "
            f"something else, list it under {KEY} with the reason)"
        )
        found.append((translation.rel, mine.line, message))
    at = translation.text.meta_lines.get(KEY)
    for term_en in sorted(set(omit.values()) - used):
        message = f"{KEY}: {term_en!r} leaves out nothing on this page: remove it"
        found.append((translation.rel, at, message))
    return found
