"""Markup that a translation keeps as it is, compared stretch by stretch.

In each pair of stretches (:func:`.sections.stretch_pairs`: the prose between
the same headings and code cells) both languages hold the same marks
(:mod:`.marks`: glued values, role targets, link addresses, formulas, code
spans), as many times, but for what a translation words its own way
(:func:`_differences`): it may name code or a variable where its grammar
wants it, repeat a formula, leave out a repeated variable, translate the
words of ``\\text{...}`` in a formula, and quote its own words as code (a
Korean heading, `## 정리`) in place of the source's. The first difference
is reported where it is, with what the other language has. :func:`drift`
runs these and :func:`.structure.compare_blocks` over a page and its
translation.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .korean_prose import HANGUL
from .marks import Mark, marks
from .parity import Found, targets
from .report import Page
from .sections import Stretch, stretch_pairs
from .structure import compare_blocks

# Code that is a name (Python's names may be Hangul): `셀루_jit`, `손실.grad`.
IDENTIFIER = re.compile(r"[\w.]+")


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


def _against(mark: Mark, source: Mark) -> str:
    """``mark`` as a message names it; a long formula (cut short there) with
    the part where it first differs from the ``source``'s, which the cut
    would hide."""
    text, other = mark.text, source.text
    if mark.kind != "math" or len(text) <= 60:
        return str(mark)
    at = next(
        (i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b),
        min(len(text), len(other)),
    )
    if at < 55:
        return str(mark)  # the difference is in what it shows
    end = "" if at + 25 >= len(text) else "…"
    return f"formula ${text[:40]}…{text[at - 15 : at + 25]}{end}$"


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
                f"{_against(instead, lost)} here, where {theirs.path}:{lost.line} "
                f"has {lost.markup}: {_rule(lost, instead)}"
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
