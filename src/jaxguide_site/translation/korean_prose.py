"""Korean prose still in English: a page or a paragraph left untranslated, and
a glossary term written in English where the glossary has Korean for it.

Each check reads a Korean page's text lines as :mod:`.prose` gives them (code,
math and link targets blanked), so code and identifiers are never looked at.

- A page: under :data:`SHARE` of the letters of its prose are Hangul. The
  translated pages have 80 % or more, an English page 0 %: a copy of the
  English page, stamped, is not a translation.
- A paragraph (a list item, a table row): :data:`WORDS` English words or more
  and no Hangul. Quoted text is English on purpose and not counted; the real
  pages' Hangul-free paragraphs have two words at most.
- A term: the ``en`` of a glossary term (or its plural) as a word, where its
  ``ko`` is Korean (``jaxpr``, ``scan``, ``XLA`` are their own Korean), except
  in parentheses or quotes, where it glosses the Korean term
  (``기울기(gradient)``), and in a dotted name (``jax.random.split``); not in
  what is reported as English already, a page or a paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache

from .glossary import Term
from .report import DATA, Page, Problem

HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]+")
# Parentheses and quotes (also typographic: \u2018...\u2019, \u201c...\u201d).
GLOSS = re.compile(r"\([^()]*\)|\"[^\"]*\"|“[^”]*”|'[^']*'|\u2018[^\u2019]*\u2019")
LETTER = re.compile(r"[^\W\d_]")
ENGLISH_WORD = re.compile(r"[A-Za-z]+(?:['\u2019-][A-Za-z]+)*")
# Quoted text: English on purpose (a quoted term, a title).
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|\u2018[^\u2019]*\u2019")
# Where a paragraph's line starts a block of its own: list item, heading, table.
BLOCK = re.compile(r"^\s*(?:[-*+][ \t]|\d+[.)][ \t]|#|\|)")
SHARE = 0.5  # the least Hangul share of a Korean page's letters
WORDS = 6  # the fewest English words of a paragraph left in English

Lines = Sequence[tuple[int, str]]  # (line number, text): prose._text_lines


def _blocks(lines: Lines) -> Iterator[list[tuple[int, str]]]:
    """The paragraphs of ``lines``; a list item or a table row is one too."""
    block: list[tuple[int, str]] = []
    last = 0
    for number, line in lines:
        if number != last + 1 or not line.strip() or BLOCK.match(line):
            yield from [block] if block else []
            block = []
        if line.strip():
            block.append((number, line))
        last = number
    yield from [block] if block else []


def _share(lines: Lines) -> float:
    """The share of Hangul among the letters of ``lines`` (1 without letters)."""
    letters = LETTER.findall("".join(line for _, line in lines))
    hangul = sum(1 for letter in letters if HANGUL.match(letter))
    return hangul / len(letters) if letters else 1.0


def in_english(text: str) -> bool:
    """Whether a paragraph's ``text`` (what is not prose blanked) is still in
    English: :data:`WORDS` English words or more outside quotes, no Hangul."""
    words = ENGLISH_WORD.findall(QUOTED.sub(" ", text))
    return len(words) >= WORDS and not HANGUL.search(text)


def _english(lines: Lines) -> Iterator[tuple[list[tuple[int, str]], str]]:
    """Each paragraph still in English, with its first words."""
    for block in _blocks(lines):
        text = " ".join(line.strip() for _, line in block)
        if in_english(text):
            yield block, " ".join(BLOCK.sub("", text).split()[:5])


def untranslated(page: Page, lines: Lines) -> Iterator[Problem]:
    """A Korean page, or its paragraphs, still in English."""
    data = page.rel.removesuffix(f"{page.lang}/{page.name}.md") + DATA
    draft = f"list it under [in_progress] {page.lang} in {data}"
    if (share := _share(lines)) < SHARE:
        message = (
            f"this page is not translated: {share:.0%} of the letters of its "
            f"prose are Hangul (a Korean page has {SHARE:.0%} or more): translate "
            f"it, or {draft} to share it as a draft until it is"
        )
        yield Problem(page.rel, None, message)
    for block, start in _english(lines):
        message = (
            f"this paragraph is still in English ({start!r}...): translate it "
            "(English quoted on purpose goes in quotes or code), or, to share the "
            f"page unfinished, {draft} as a draft"
        )
        yield Problem(page.rel, block[0][0], message)


@cache
def _terms(glossary: tuple[Term, ...]) -> list[tuple[re.Pattern[str], Term]]:
    """A pattern for each term's English that the Korean prose must not use:
    the longest first, so that 'gradient descent' is one term, not two."""
    found = []
    for term in sorted(glossary, key=lambda term: -len(term.en)):
        avoided = {variant.lower() for variant in term.avoid}  # found as a variant
        if not HANGUL.search(term.ko) or term.en.lower() in avoided:
            continue
        words = r"\s+".join(map(re.escape, term.en.split()))
        # A Korean particle may follow it; a dotted name is an identifier.
        pattern = rf"(?<![\w.-]){words}(?:e?s)?(?![A-Za-z0-9_-]|\.\w)"
        found.append((re.compile(pattern, re.IGNORECASE | re.ASCII), term))
    return found


def english_terms(lines: Lines, glossary: list[Term]) -> Iterator[tuple[int, str, str]]:
    """(line, the term's English, message) for each term written in English
    where the glossary has Korean for it."""
    if _share(lines) < SHARE:
        return  # the page is reported as English
    skipped = {number for block, _ in _english(lines) for number, _ in block}
    patterns = _terms(tuple(glossary))
    for number, line in lines:
        if number in skipped:
            continue
        glosses = [m.span() for m in GLOSS.finditer(line)]
        taken: list[tuple[int, int, str, str]] = []
        for pattern, term in patterns:
            for match in pattern.finditer(line):
                start, end = match.span()
                if any(a < start < b for a, b in glosses) or any(
                    a < end and start < b for a, b, _, _ in taken
                ):
                    continue
                message = (
                    f"{match[0]!r}: the glossary's Korean for {term.en!r} is "
                    f"{term.ko!r} (the English may follow it in parentheses: "
                    f"'{term.ko}({term.en})')"
                )
                taken.append((start, end, term.en, message))
        for _, _, english, message in sorted(taken):
            yield number, english, message
