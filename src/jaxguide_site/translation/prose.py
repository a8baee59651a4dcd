"""Checks of one page's prose (code is never looked at), in either language.

- ``{doc}`` links and ``{ref}``/``{numref}`` targets missing in the page's
  language, with the closest name; a link to a page still being translated
  into it (the strict build fails on it).
- Korean pages: a variant the glossary avoids, matched as a word (where a word
  starts, any particle after it); an English one case-insensitively as a whole
  word, except in parentheses or quotes, where it glosses the Korean term
  (``기울기(gradient)``). Also a spelling one syllable away from an avoided
  variant of four syllables or more (그레디언트 beside 그래디언트).
- Korean pages: a page or a paragraph still in English, and a term the
  glossary has Korean for written in English (:mod:`.korean_prose`).
- English pages: Hangul.
- Both: a paragraph (:mod:`.blocks`) that ends without a sentence's final
  punctuation, followed by another paragraph: a stray blank line split a
  sentence.

The glossary pages quote both languages and are exempt from the checks of
terms and of Hangul.
A page allows a variant where it means something else, in its front matter,
with the reason::

    glossary_allow:
      중간값: intermediate values, not the median
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

from .blocks import pieces
from .glossary import Term
from .korean_prose import GLOSS, HANGUL, english_terms, untranslated
from .marks import INLINE, TITLED
from .reading import Language
from .report import Page, Problem, did_you_mean

EXEMPT = {"glossary"}  # pages that quote both languages on purpose
# Code spans and roles, inline math, link targets and addresses: not prose.
NOT_PROSE = re.compile(
    r"(?:\{[^}\s]+\})?(`+)[^`].*?\1|\$[^$\s][^$]*\$|\]\([^)]*\)|<[a-z]+://[^>]*>"
    r"|\b[a-z]+://\S+"
)
WORD = re.compile(r"(?<!\w)[\uac00-\ud7a3]+")
# A line that is structure, not a paragraph's text: list item, heading,
# table, label, directive option, comment, HTML, math, quote, link definition,
# figure, fence or rule.
STRUCTURE = re.compile(
    r"^\s*(?:[-*+][ \t]|\d+[.)][ \t]|#|\||\(\S+\)=|:|%|<|\$\$|>|\[[^\]]*\]:|!\["
    r"|`{3}|~{3}|-{3}|\*{3})"
)
# Where a sentence may end: its punctuation, before closing marks.
SENTENCE_END = re.compile(r"(?:[.!?:;…。]|\$\$)[*_\"'”\u2019)\]»]*[ \t]*$")


def _masked(line: str) -> str:
    """``line`` with what is not prose blanked, columns kept."""
    return NOT_PROSE.sub(lambda m: " " * len(m[0]), line)


def _text_lines(page: Page) -> Iterator[tuple[int, str]]:
    """The prose lines that are text: not in math, toctrees or labels."""
    structure = page.text.structure
    skipped = {number for number, _ in structure.labels}
    skipped.update(number for lines in structure.math for number in lines)
    for directive in structure.directives:
        if directive.name in {"toctree", "math"}:
            skipped.update(range(directive.line, directive.end + 1))
    for number, line in page.text.prose:
        if number not in skipped:
            yield number, _masked(line)


def _targets(line: str, *roles: str) -> Iterator[str]:
    """The target of each of ``roles`` on ``line`` (``title <target>`` too)."""
    for inline in INLINE.finditer(line):
        if inline["role"] in roles:
            body = inline["body"].strip()
            titled = TITLED.fullmatch(body)
            yield (titled["target"] if titled else body).strip()


def _links(page: Page, here: Language) -> Iterator[Problem]:
    """``{doc}`` links and ``{ref}`` targets that the page's language lacks."""
    folder = page.twin(page.lang, "{}")
    for number, line in page.text.prose:
        for link in _targets(line, "doc"):
            target = link.removesuffix(".md")
            name = posixpath.normpath(posixpath.join(page.name, "..", target))
            name = name.lstrip("/")  # {doc}`/jit` starts at the root
            missing = page.twin(page.lang, name)
            if name in here.progress:
                message = (
                    f"{{doc}} link to {target!r}: {missing} is being translated "
                    "(listed under [in_progress]), and the strict build fails on a "
                    "link to it: leave the link out until the translation is in"
                )
            elif name not in here.names:
                hint = did_you_mean(name, here.names, folder)
                message = f"{{doc}} link to {target!r}: {missing} does not exist{hint}"
            else:
                continue
            yield Problem(page.rel, number, message)
        for target in _targets(line, "ref", "numref"):
            if ":" not in target and target not in here.labels | here.paired:
                hint = did_you_mean(target, here.labels)
                message = (
                    f"{{ref}} target {target!r} is not a label on any page of "
                    f"{folder.rsplit('/', 1)[0]}/{hint}"
                )
                yield Problem(page.rel, number, message)


def _one_edit(a: str, b: str) -> bool:
    """Whether one syllable replaced, added or removed turns ``a`` into ``b``."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return len(long) - len(short) == 1 and any(
        long[:i] + long[i + 1 :] == short for i in range(len(long))
    )


@cache
def _variants(glossary: tuple[Term, ...]) -> list[tuple[re.Pattern[str], Term, str]]:
    """A pattern for each avoided variant, with its term and the variant
    (compiled once for every page)."""
    found = []
    for term in glossary:
        for variant in term.avoid:
            words = r"\s+".join(map(re.escape, variant.split()))
            if HANGUL.search(variant):
                pattern = re.compile(rf"(?<!\w){words}")
            else:
                # A Korean particle may follow it: its edges are Latin's.
                pattern = re.compile(
                    rf"(?<![A-Za-z0-9-]){words}(?:e?s)?(?![A-Za-z0-9-])", re.IGNORECASE
                )
            found.append((pattern, term, variant))
    return found


Variants = dict[str, list[tuple[str, Term]]]  # by first syllable: long_variants


@cache
def long_variants(glossary: tuple[Term, ...]) -> Variants:
    """The Korean variants of four syllables or more, by their first syllable."""
    found: dict[str, list[tuple[str, Term]]] = {}
    for term in glossary:
        for variant in term.avoid:
            if len(variant) >= 4 and WORD.fullmatch(variant):
                found.setdefault(variant[0], []).append((variant, term))
    return found


def near_variant(word: str, variants: Variants) -> tuple[str, str, Term] | None:
    """(spelling, variant, term) where ``word`` starts with a spelling one
    syllable away from a Korean variant of four syllables or more (not the
    variant cut short, which is another word: 야코비, 야코비안). ``variants``:
    :func:`long_variants` of the glossary."""
    for variant, term in variants.get(word[:1], []):
        if word.startswith(variant):
            return None  # the variant itself: found as a variant
        for size in (len(variant), len(variant) - 1, len(variant) + 1):
            spelling = word[:size]
            if (
                len(spelling) == size
                and spelling != variant[:-1]
                and _one_edit(spelling, variant)
            ):
                return spelling, variant, term
    return None


@cache
def _approved(glossary: tuple[Term, ...]) -> re.Pattern[str]:
    """Any of the glossary's Korean terms, spacing aside."""
    terms = (r"\s*".join(map(re.escape, t.ko.split())) for t in glossary)
    return re.compile("|".join(sorted(terms, key=len, reverse=True)))


def _glossary(page: Page, glossary: list[Term]) -> Iterator[tuple[int, str, str]]:
    """(line, text found, message) for each avoided variant on a Korean page."""
    variants = _variants(tuple(glossary))
    approved = _approved(tuple(glossary))
    longs = long_variants(tuple(glossary))
    for number, line in _text_lines(page):
        glosses = [m.span() for m in GLOSS.finditer(line)]
        for pattern, term, variant in variants:
            for match in pattern.finditer(line):
                english = not HANGUL.search(variant)
                if english and any(a < match.start() < b for a, b in glosses):
                    continue
                message = (
                    f"{match[0]!r}: the glossary's Korean for {term.en!r} is "
                    f"{term.ko!r}"
                )
                yield number, match[0], message
        for word in WORD.finditer(line):
            if approved.match(line, word.start()):
                continue  # the glossary's own Korean, or the start of it
            if near := near_variant(word[0], longs):
                spelling, variant, term = near
                message = (
                    f"{spelling!r}: a spelling of {variant!r}, which the glossary "
                    f"avoids; its Korean for {term.en!r} is {term.ko!r}"
                )
                yield number, spelling, message


def reasons(page: Page, key: str, example: str) -> tuple[dict[str, str], list[Problem]]:
    """The front matter table ``key`` of ``page`` (a word: the reason), or
    what is wrong with it, with an ``example`` entry."""
    table = page.text.meta.get(key, {})
    if isinstance(table, dict) and all(
        isinstance(k, str) and isinstance(v, str) and v.strip()
        for k, v in table.items()
    ):
        return table, []
    message = f"{key} must map each {example}"
    return {}, [Problem(page.rel, page.text.meta_lines.get(key), message)]


def _korean(page: Page, glossary: list[Term]) -> Iterator[Problem]:
    allowed, problems = reasons(
        page,
        "glossary_allow",
        "allowed variant to the reason, e.g. '중간값: intermediate values, not "
        "the median'",
    )
    yield from problems
    allow = {variant.lower(): variant for variant in allowed}  # English: any case
    used = set()
    english = english_terms(list(_text_lines(page)), glossary)
    for number, found, message in [*_glossary(page, glossary), *english]:
        if found.lower() in allow:
            used.add(allow[found.lower()])
        else:
            hint = (
                "; where it means something else, list it under glossary_allow "
                "in the front matter, with the reason"
            )
            yield Problem(page.rel, number, message + hint)
    for variant in sorted(allowed.keys() - used):
        message = f"glossary_allow: {variant!r} allows nothing on this page: remove it"
        yield Problem(page.rel, page.text.meta_lines.get("glossary_allow"), message)


def _hangul(page: Page) -> Iterator[Problem]:
    for number, line in _text_lines(page):
        if found := HANGUL.findall(line):
            message = (
                f"Hangul in English prose: {' '.join(found)!r}: translate it "
                "(Korean quoted on purpose goes in code: `...`)"
            )
            yield Problem(page.rel, number, message)


def _broken(page: Page) -> Iterator[Problem]:
    """Paragraphs (:mod:`.blocks`) that end mid-sentence and go on after a
    blank line."""
    blank = {number for number, line in page.text.prose if not line.strip()}
    paragraphs = [piece for piece in pieces(page.text) if piece.kind == "paragraph"]
    for paragraph, following in pairwise(paragraphs):
        (_, first), (number, last) = paragraph.lines[0], paragraph.lines[-1]
        next_number, start = following.lines[0]
        if not blank.issuperset(range(number + 1, next_number)):
            continue  # something else between them: code, a label, a formula
        if any(STRUCTURE.match(text) for text in (first, last, start)):
            continue
        if SENTENCE_END.search(_masked(last)):
            continue
        message = (
            f"this paragraph ends mid-sentence ({last.strip()[-20:]!r}) and the "
            f"next one, at line {next_number}, goes on with it "
            f"({start.strip()[:20]!r}): remove the blank line between them, or "
            "end the sentence"
        )
        yield Problem(page.rel, number, message)


def english_paragraphs(page: Page) -> Iterator[int]:
    """The first line of each paragraph of a Korean page still in English."""
    for problem in untranslated(page, list(_text_lines(page))):
        if problem.line is not None:
            yield problem.line


def check_prose(
    page: Page, here: Language, glossary: list[Term], draft: bool = False
) -> list[Problem]:
    """What is wrong in the prose of ``page``, in its language ``here``. A
    ``draft`` (partly translated) may still be in the other language: that is
    not checked."""
    found = list(_links(page, here))  # bad front matter: reading._broken
    if page.lang == "ko" and not draft:
        found += untranslated(page, list(_text_lines(page)))
    if page.name not in EXEMPT and page.lang == "ko":
        found += _korean(page, glossary)  # English paragraphs left are skipped
    elif page.name not in EXEMPT and not draft:
        found += _hangul(page)
    found += _broken(page)
    return sorted(found, key=lambda p: p.line or 0)
