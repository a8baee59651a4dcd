"""Markup that a translation keeps as it is, compared stretch by stretch.

A translation changes the words, never what the page computes or points
to: the ``{glue}`` values (``{glue:text}`` and the others, and the
``{glue:figure}`` directive's name), the targets of the Python roles
(``{func}``, ``{class}``...), of ``{doc}``, ``{ref}`` and ``{numref}``, the
links' addresses, the formulas (display and inline) and the code spans. In
each pair of stretches (:func:`.structure.stretch_pairs`: the prose between
the same headings and code cells) both languages hold the same of each, as
many times, but for what a translation words its own way (:func:`_differences`):
it may name code or a variable where its grammar wants it, repeat a formula,
leave out a repeated variable, translate the words of ``\\text{...}`` in a
formula, and quote its own words as code (a Korean heading, `## 정리`) in
place of the source's. The first difference is reported where it is, with
what the other language has. :func:`drift` runs these and
:func:`.structure.compare_blocks` over a page and its translation.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .parity import DIRECTIVE, FENCE, Found, targets
from .report import Page
from .structure import (
    Piece,
    Stretch,
    compare_blocks,
    stretch_pairs,
)

# A role or a code span, in the order they come: `{doc}` alone is code.
INLINE = re.compile(
    r"(?:\{(?P<role>[^}\s]+)\})?(?P<ticks>`+)(?P<body>.+?)(?P=ticks)", re.DOTALL
)
TITLED = re.compile(r"[^<]*<(?P<target>[^<>]+)>", re.DOTALL)  # "title <target>"
GLUE = {"glue", "glue:text", "glue:md", "glue:figure", "glue:any"}
PYTHON = {"func", "class", "mod", "meth", "attr", "data", "obj", "exc", "const"}
CROSS_REFERENCES = {"doc", "ref", "numref", "eq"}
# dollarmath's inline math: no space inside the dollars, no digit after.
INLINE_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])(?P<body>[^$]+?)(?<![\s\\])\$(?!\d)")
# [text](address); <scheme://address>. Not an image's ![alt](address):
# parity.py counts the figures, and a translation may show its own image
# (its labels in its language).
LINK = re.compile(
    r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\((?P<url>[^)\s]+)(?:\s+\"[^\"]*\")?\)"
    r"|<(?P<auto>[a-z][a-z0-9+.-]*://[^>\s]+)>"
)
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
# Code that is a name (Python's names may be Hangul): `셀루_jit`, `손실.grad`.
IDENTIFIER = re.compile(r"[\w.]+")
WORDS = re.compile(r"\\(?:text|textrm|textit|textbf|mbox)\{[^{}]*\}")
# A variable: a letter or a command (\beta), words, a subscript, primes.
NAME = re.compile(r"(?:\\?[A-Za-z]+|\\text\{\})(?:_(?:\w|\{[^{}]*\}|\\text\{\}))?'*")
# The punctuation of the sentence a display formula ends: the languages'
# sentences around a formula differ (where a Korean one puts its verb).
END_PUNCTUATION = re.compile(r"(?:\s|\\[,;:!]|[.,;:])+$")


@dataclass(frozen=True)
class Mark:
    """One piece of markup: what it is (``{func}``, ``link``, ``math``,
    ``code``), its value as written, and where it is (line, and the block of
    its stretch it belongs to: -1 before the first). ``figure``: the name of
    a ``{glue:figure}`` directive."""

    kind: str
    text: str
    line: int
    block: int
    figure: bool = False

    @property
    def key(self) -> tuple[str, str]:
        """What is compared: a formula's ``\\text{...}`` words are the
        language's own (``\\text{constant}``, ``\\text{상수}``)."""
        if self.kind == "math":
            return self.kind, WORDS.sub(r"\\text{}", self.text)
        return self.kind, self.text

    @property
    def name(self) -> bool:
        """A formula that only names a variable: ``$x$``, ``$\\beta$``."""
        return self.kind == "math" and bool(NAME.fullmatch(self.key[1]))

    @property
    def markup(self) -> str:
        """The markup to write: {glue:text}`name`, `code`, $x$."""
        if self.kind == "code":
            return f"`{self.text}`"
        if self.kind == "math":
            return f"${self.text}$"
        return self.text if self.kind == "link" else f"{self.kind}`{self.text}`"

    def __str__(self) -> str:
        if self.kind == "code":
            return f"inline code `{self.text}`"
        if self.kind == "math":
            shown = self.text if len(self.text) <= 60 else f"{self.text[:57]}..."
            return f"formula ${shown}$"
        return f"{self.kind} {self.text!r}"


def _kind(role: str | None) -> str | None:
    """What a role's target is compared as; None: a role whose text is the
    language's own."""
    if role is None:
        return "code"
    if role == "math":
        return "math"
    if (
        role in GLUE
        or role in PYTHON
        or role in CROSS_REFERENCES
        or role.startswith("py:")
    ):
        return f"{{{role}}}"
    return None


def _formula(text: str) -> str:
    return " ".join(END_PUNCTUATION.sub("", text).split())


def _line_at(lines: list[tuple[int, str]], offset: int) -> int:
    """The line of ``offset`` in the lines joined with newlines."""
    for number, text in lines:
        if offset <= len(text):
            return number
        offset -= len(text) + 1
    return lines[-1][0]


def _inline(lines: list[tuple[int, str]], block: int) -> Iterator[Mark]:
    """The roles, code spans, inline math and links of a piece's text."""
    text = "\n".join(line for _, line in lines)
    for found in INLINE.finditer(text):
        kind = _kind(found["role"])
        if kind is None:
            continue
        body = " ".join(found["body"].split()) if kind == "code" else found["body"]
        if kind.startswith("{") and (titled := TITLED.fullmatch(body)):
            body = titled["target"]
        if kind.startswith("{"):
            body = body.strip().lstrip("~!")  # ~ and ! change how it is shown
        value = _formula(body) if kind == "math" else body.strip()
        yield Mark(kind, value, _line_at(lines, found.start()), block)
    masked = INLINE.sub(lambda m: " " * len(m[0]), text)
    for found in INLINE_MATH.finditer(masked):
        line = _line_at(lines, found.start())
        yield Mark("math", _formula(found["body"]), line, block)
    for found in LINK.finditer(masked):
        line = _line_at(lines, found.start())
        yield Mark("link", found["url"] or found["auto"], line, block)


def _piece_marks(piece: Piece, block: int) -> Iterator[Mark]:
    """The marks of a piece: a formula, a directive's argument (the name of
    a ``{glue:figure}``, an admonition's title) or inline markup."""
    if piece.kind == "math":
        text = "\n".join(line for _, line in piece.lines).strip()
        text = text.removeprefix("$$").removesuffix("$$")
        yield Mark("math", _formula(text), piece.line, block)
        return
    fence = FENCE.match(piece.lines[0][1])
    directive = DIRECTIVE.match(fence["info"].strip()) if fence else None
    if not fence or not directive:
        yield from _inline(piece.lines, block)
        return
    argument = fence["info"].strip()[directive.end() :].strip()
    if directive["name"] == "glue:figure":
        yield Mark("{glue:figure}", argument, piece.line, block, figure=True)
    elif piece.block:  # an admonition: its title
        yield from _inline([(piece.line, argument)], block)


def marks(stretch: Stretch) -> list[Mark]:
    """The markup of a stretch, in order."""
    found: list[Mark] = []
    block = -1
    for piece in stretch.pieces:
        block += piece.block
        found += _piece_marks(piece, block)
    return sorted(found, key=lambda mark: mark.line)


def _minus(marks: list[Mark], others: list[Mark]) -> list[Mark]:
    """The marks of ``marks`` beyond as many of each as ``others`` has."""
    left = Counter(mark.key for mark in others)
    beyond = []
    for mark in marks:
        if left[mark.key]:
            left[mark.key] -= 1
        else:
            beyond.append(mark)
    return beyond


def _quoted(mark: Mark) -> bool:
    """Code quoting the language's own words (`## 정리`, `[-단어-]`), not a name."""
    return bool(HANGUL.search(mark.text)) and not IDENTIFIER.fullmatch(mark.text)


def _differences(mine: list[Mark], theirs: list[Mark]) -> tuple[list[Mark], list[Mark]]:
    """(extra, missing): the translation's marks that the source lacks, and
    the source's that the translation lacks, but for what a translation
    words in its own way."""
    extra, missing = _minus(mine, theirs), _minus(theirs, mine)
    here, there = {m.key for m in mine}, {m.key for m in theirs}
    kept = []
    for mark in extra:
        if mark.kind == "code" and _quoted(mark):
            # Its own words in place of the source's: the first code missing.
            codes = [m for m in missing if m.kind == "code"]
            missing = [m for m in missing if not codes or m is not codes[0]]
        elif mark.kind == "code" and not HANGUL.search(mark.text):
            continue  # names a function where English says "jitted": `jit`
        elif mark.name or (mark.kind == "math" and mark.key in there):
            continue  # a variable the grammar names ($x$가), a formula repeated
        else:
            kept.append(mark)
    missing = [
        mark
        for mark in missing
        # A repeated variable may be left out; Korean quoted in a Korean source.
        if not (mark.name and mark.key in here) and not _quoted(mark)
    ]
    return kept, missing


@dataclass
class Targets:
    """The pages and labels of the translation's language, for ``{doc}`` and
    ``{ref}``: a link to one it lacks is :mod:`.prose`'s to report (or to
    allow, to a page being translated), not a difference between the pages."""

    page: Page  # the translation
    pages: dict[str, Page]  # its language's, by name
    labels: set[str] | None = field(default=None, init=False)  # once asked

    def exist(self, mark: Mark) -> bool:
        """Whether the language has what ``mark`` links to (if it links)."""
        if mark.kind == "{doc}":
            target = mark.text.removesuffix(".md")
            name = posixpath.normpath(posixpath.join(self.page.name, "..", target))
            return name.lstrip("/") in self.pages
        if mark.kind not in {"{ref}", "{numref}"} or ":" in mark.text:
            return True
        if self.labels is None:
            self.labels = {t for p in self.pages.values() for t in targets(p.text)}
        return mark.text in self.labels


def _rule(mark: Mark, instead: Mark) -> str:
    """Why ``instead`` may not stand for ``mark``: what stays as it is."""
    if mark.kind.startswith("{glue"):
        return "glue the value the source glues"
    if mark.kind == "code":
        named = "a translated name? " if HANGUL.search(instead.text) else ""
        return f"{named}code stays as in the source"
    if mark.kind == "math":
        return "formulas stay as in the source (but for the words in \\text{})"
    return f"{'addresses' if mark.kind == 'link' else 'targets'} stay as in the source"


def _span(
    lost: Mark, here: list[Mark], there: list[Mark], mine: Stretch, theirs: Stretch
) -> tuple[int, int]:
    """The first and last line of the translation's stretch ``mine`` between
    which ``lost`` (one of the source's marks ``there``) belongs: after the
    marks before it that both have, before those after it; within its block
    where both stretches have the same blocks."""
    kinds = [[block.kind for block in s.blocks] for s in (mine, theirs)]
    same = kinds[0] == kinds[1] and lost.block >= 0
    lines = [n for piece in mine.pieces for n, _ in piece.lines] or [mine.start]
    first, last = lines[0], lines[-1]
    if same:
        block = mine.blocks[lost.block]
        first, last = block.line, block.lines[-1][0]
    elif lost.block < 0:  # in the heading
        first = last = mine.start
    index = there.index(lost)
    keys = [mark.key for mark in here], [mark.key for mark in there]
    matcher = SequenceMatcher(None, *keys, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            mark = here[a + k]
            if same and mark.block != lost.block:
                continue
            if b + k < index:
                first = max(first, mark.line)
            elif b + k > index:
                last = min(last, mark.line)
    return first, max(first, last)


def _elsewhere(
    extra: list[Mark], missing: list[Mark], exist: Targets
) -> tuple[list[Mark], list[Mark]]:
    """``extra`` and ``missing`` without the links that :mod:`.prose` reports:
    to a page or label the translation's language lacks, and the source's
    link that such a link (misspelt) stands for."""
    broken = [mark for mark in extra if not exist.exist(mark)]
    kept = []
    for lost in missing:
        stand_in = next((m for m in broken if m.kind == lost.kind), None)
        if stand_in:
            broken.remove(stand_in)
        elif exist.exist(lost):
            kept.append(lost)
    return [mark for mark in extra if exist.exist(mark)], kept


def compare_markup(mine: Stretch, theirs: Stretch, exist: Targets) -> Found | None:
    """The first markup that differs between ``mine`` (of the translation)
    and ``theirs`` (of its source)."""
    here, there = marks(mine), marks(theirs)
    extra, missing = _elsewhere(*_differences(here, there), exist)
    found: list[Found] = []
    for lost in missing:
        instead = next((m for m in extra if m.kind == lost.kind), None)
        if lost.figure and not instead:
            continue  # a figure missing: parity.py counts the figures
        if instead:
            extra.remove(instead)
            message = (
                f"{instead} here, where {theirs.path}:{lost.line} has "
                f"{lost.markup}: {_rule(lost, instead)}"
            )
            found.append((mine.path, instead.line, message))
            continue
        first, last = _span(lost, here, there, mine, theirs)
        where = f"between here and line {last}" if last > first else "here"
        typed = "a typed value in its place? " if lost.kind.startswith("{glue") else ""
        message = (
            f"{lost} of {theirs.path}:{lost.line} is missing {where} ({typed}"
            f"{'glue' if typed else 'copy'} it: {lost.markup})"
        )
        found.append((mine.path, first, message))
    for added in extra:
        if added.figure:
            continue  # a figure added: parity.py counts the figures
        fix = (
            "a translated name? code stays as in the source"
            if added.kind == "code"
            else "remove it, or add it to the source first"
        )
        message = (
            f"{added} here has no counterpart in {theirs.path} ({theirs}, from "
            f"line {theirs.line}): {fix}"
        )
        found.append((mine.path, added.line, message))
    return min(found, key=lambda f: f[1] or 0, default=None)


def drift(translation: Page, source: Page, pages: dict[str, Page]) -> list[Found]:
    """Where ``translation`` drifted from ``source``: a block lost or gained,
    markup changed; one finding a stretch. ``pages``: the translation's
    language's."""
    exist = Targets(translation, pages)
    pairs = stretch_pairs(translation.rel, translation.text, source.rel, source.text)
    return [
        found
        for mine, theirs in pairs
        if (
            found := compare_blocks(mine, theirs) or compare_markup(mine, theirs, exist)
        )
    ]
