"""Where a line of one language's page is in the other: sections and paragraphs.

A page's sections start at its headings (the text before the first heading is
a section too); a page's headings and its translation's are aligned as the
parity check aligns them (:func:`.parity._heading_list`: on level, the label
before and the code cells before; those that differ only in place paired by
order). Within a section, the paragraphs (runs of non-blank lines of text
outside code cells, but headings and labels) are paired by order: the
translation keeps the source's paragraphs. So a line of the source is placed
(section, paragraph) and found in the translation (:meth:`Outline.line`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from difflib import SequenceMatcher

from .parity import LABEL, Source, _heading_list

HEADING_PARAGRAPH = 0  # the place of a heading's own line


@dataclass(frozen=True)
class Section:
    heading: str | None  # "## The cache"; None before the first heading
    start: int  # its heading's line (0 before the first heading)
    paragraphs: tuple[tuple[int, int], ...]  # first and last line of each

    @property
    def name(self) -> str:
        """``section '## The cache'``, or the text before the first heading."""
        return f"section {self.heading!r}" if self.heading else "the page's opening"

    @property
    def end(self) -> int:
        """The line after its last paragraph (after its heading if none)."""
        return self.paragraphs[-1][1] + 1 if self.paragraphs else self.start + 1


@dataclass(frozen=True)
class Place:
    section: int  # index in Outline.sections
    paragraph: int  # 0: the heading; 1..n: a paragraph; n + 1: after the last


class Outline:
    """A page's sections, each with its paragraphs."""

    def __init__(self, page: Source) -> None:
        self.page = page
        headings = _heading_list(page)
        starts = [0, *(h.line for h in headings)]
        texts: list[str | None] = [None, *(h.text.strip() for h in headings)]
        skipped = {*starts, *(n for n, _ in page.find(LABEL))}
        runs: list[list[int]] = []
        for n, text in page.kept:
            if not text.strip() or n in skipped:
                continue
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        ends = [*starts[1:], sys.maxsize]
        self.sections = [
            Section(
                text, start, tuple((r[0], r[-1]) for r in runs if start < r[0] < end)
            )
            for text, start, end in zip(texts, starts, ends, strict=True)
        ]
        self.headings = headings

    def place(self, line: int) -> Place:
        """The section holding ``line``, and its paragraph (or the next one)."""
        index = max(i for i, s in enumerate(self.sections) if s.start <= line)
        section = self.sections[index]
        if line == section.start and section.heading:
            return Place(index, HEADING_PARAGRAPH)
        paragraph = next(
            (k for k, (_, last) in enumerate(section.paragraphs, 1) if last >= line),
            len(section.paragraphs) + 1,
        )
        return Place(index, paragraph)

    def line(self, place: Place) -> int:
        """The line of ``place`` (after the last paragraph, past the end)."""
        section = self.sections[place.section]
        if place.paragraph == HEADING_PARAGRAPH:
            return max(section.start, 1)
        if place.paragraph <= len(section.paragraphs):
            return section.paragraphs[place.paragraph - 1][0]
        return section.end

    def describe(self, place: Place) -> str:
        """``section '## The cache', paragraph 2`` (or heading, after its last)."""
        section = self.sections[place.section]
        count = len(section.paragraphs)
        if place.paragraph == HEADING_PARAGRAPH:
            where = "its heading"
        elif place.paragraph <= count:
            where = f"paragraph {place.paragraph}"
        else:
            where = f"after its last paragraph ({count})" if count else "its end"
        return f"{section.name}, {where}"


def align(page: Outline, other: Outline) -> dict[int, int]:
    """Section of ``page`` -> the section of ``other`` that stands for it."""
    places = [h.place for h in page.headings], [h.place for h in other.headings]
    pairs = {0: 0}  # the openings
    for op, i1, i2, j1, j2 in SequenceMatcher(None, *places).get_opcodes():
        if op == "equal" or i2 - i1 == j2 - j1:  # the same, maybe placed apart
            pairs.update(zip(range(i1 + 1, i2 + 1), range(j1 + 1, j2 + 1), strict=True))
    return pairs


def counterpart(page: Outline, other: Outline, place: Place) -> Place | None:
    """Where ``place`` of ``page`` is in ``other``; None where its section has
    no counterpart."""
    section = align(page, other).get(place.section)
    return None if section is None else Place(section, place.paragraph)
