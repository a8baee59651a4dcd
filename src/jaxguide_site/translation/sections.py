"""A page's sections and stretches, and which of its translation's stand for them.

A page's sections start at its headings (the text before the first heading is
a section too). Two pages' headings are paired as the heading check pairs
them (:func:`.headings.heading_runs`: on level, the label before and the code
cells before; those that differ only in place paired by order), and so are
their sections (:func:`align`). Within a section, the paragraphs are the
blocks the structure check counts (:mod:`.blocks`: a display formula does not
split one; list items and admonitions are blocks of their own), with the
tables and images, paired by order: the translation keeps the source's. So a
line of the source is placed (section, paragraph) and found in the
translation (:meth:`Outline.line`): ``diff`` and ``stamp`` point there, the
label check (:mod:`.labels`) too.

A stretch is a section's prose between two code cells (where both pages have
as many): :func:`stretch_pairs` pairs the stretches of two pages, in the
sections that stand for each other with the section after them, for the
structure and markup checks.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import pairwise

from .blocks import Piece, pieces
from .headings import heading_list, heading_runs
from .parity import Source

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


def _numbered(piece: Piece) -> bool:
    """Whether ``diff`` counts ``piece`` as a paragraph: a formula belongs to
    the sentence around it, a heading or a directive's fence to what follows."""
    return piece.block or piece.kind in {"table", "image"}


class Outline:
    """A page's sections, each with its paragraphs."""

    def __init__(self, page: Source) -> None:
        self.page = page
        self.headings = heading_list(page)
        self.pieces = pieces(page)
        self.starts = [0, *(h.line for h in self.headings)]
        paragraphs: list[list[tuple[int, int]]] = [[] for _ in self.starts]
        for piece in filter(_numbered, self.pieces):
            paragraphs[self.section_of(piece.line)].append(
                (piece.line, piece.lines[-1][0])
            )
        titles = [None, *(h.text.strip() for h in self.headings)]
        self.sections = [
            Section(title, start, tuple(found))
            for title, start, found in zip(titles, self.starts, paragraphs, strict=True)
        ]

    def section_of(self, line: int) -> int:
        """The index of the section holding ``line``."""
        return bisect_right(self.starts, line) - 1

    def place(self, line: int) -> Place:
        """The section holding ``line``, and its paragraph (or the next one)."""
        index = self.section_of(line)
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
    pairs = {0: 0}  # the openings; section k + 1 starts at heading k
    for here, there in heading_runs(page.headings, other.headings):
        if len(here) == len(there):  # the same headings, maybe placed apart
            pairs |= {i + 1: j + 1 for i, j in zip(here, there, strict=True)}
    return pairs


def counterpart(page: Outline, other: Outline, place: Place) -> Place | None:
    """Where ``place`` of ``page`` is in ``other``; None where its section has
    no counterpart."""
    section = align(page, other).get(place.section)
    return None if section is None else Place(section, place.paragraph)


def _bounded(page: Outline, other: Outline) -> dict[int, int]:
    """The sections of :func:`align` whose next section (or the page's end)
    stands for the next one there too. Next to a heading that one page lacks,
    its text is in the section before: the heading check reports it, not the
    structure and markup checks."""
    pairs = align(page, other)
    following = {**pairs, len(page.sections): len(other.sections)}
    return {
        mine: theirs
        for mine, theirs in pairs.items()
        if following.get(mine + 1) == theirs + 1
    }


@dataclass
class Stretch:
    """The prose of a page between two anchors: a heading or a code cell."""

    path: str  # the page's: docs/ko/jit.md
    section: Section
    cells: int  # the code cells before it (0 where the pages differ in cells)
    start: int  # the line where it starts: its heading, or after a code cell
    around: tuple[int, int]  # the code cells before its section and its end
    pieces: list[Piece] = field(default_factory=list)

    @property
    def blocks(self) -> list[Piece]:
        return [piece for piece in self.pieces if piece.block]

    @property
    def line(self) -> int:
        """Where a message about it points: its first block, or its start."""
        return self.blocks[0].line if self.blocks else self.start

    def __str__(self) -> str:
        """``section '## Title'``, with the code cells around it if its
        section has any."""
        where = self.section.name
        first, last = self.around
        if first == last:
            return where
        if self.cells == first:
            return f"{where} before code cell {first + 1}"
        if self.cells == last:
            return f"{where} after code cell {last}"
        return f"{where} between code cells {self.cells} and {self.cells + 1}"


def _stretches(
    path: str, outline: Outline, by_cells: bool
) -> dict[tuple[int, int], Stretch]:
    """The page's stretches (empty ones too), by section and cells before."""
    code = outline.page.cells if by_cells else []
    # The line of each code cell's closing fence.
    ends = [cell.source_line + len(cell.source.splitlines()) for cell in code]
    bounds = [sum(end < start for end in ends) for start in outline.starts]
    stretches: dict[tuple[int, int], Stretch] = {}
    for index, (first, last) in enumerate(pairwise([*bounds, len(ends)])):
        section = outline.sections[index]
        for cells in range(first, last + 1):
            begins = max(section.start, 1) if cells == first else ends[cells - 1] + 1
            stretch = Stretch(path, section, cells, begins, (first, last))
            stretches[index, cells] = stretch
    for piece in outline.pieces:
        cells = sum(end < piece.line for end in ends)
        stretches[outline.section_of(piece.line), cells].pieces.append(piece)
    return stretches


def stretch_pairs(
    path: str, page: Source, other_path: str, other: Source
) -> list[tuple[Stretch, Stretch]]:
    """The stretches of ``page`` and those of ``other`` that stand for them:
    in sections that stand for each other, bounded by sections that do too,
    after as many code cells where both pages have as many."""
    by_cells = len(page.cells) == len(other.cells)
    outlines = Outline(page), Outline(other)
    mine = _stretches(path, outlines[0], by_cells)
    theirs = _stretches(other_path, outlines[1], by_cells)
    sections = _bounded(*outlines)
    return [
        (stretch, theirs[key])
        for (section, cells), stretch in mine.items()
        if section in sections and (key := (sections[section], cells)) in theirs
    ]
