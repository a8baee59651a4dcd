"""A page and its translation cut into stretches that stand for each other,
and the paragraphs, list items and admonitions of each.

A stretch is the prose between two anchors that a translation keeps in
place: the headings (paired by :func:`heading_pairs`) and, where both
pages have as many, the code cells (the same in both languages). A stretch
is read into pieces (:func:`pieces`): its blocks (paragraphs, however their
lines are wrapped; list items; admonitions) and the structure around them
(headings, tables, math, images, directives' fences). Labels, directives'
options, comments, rules and what non-prose directives such as ``{toctree}``
hold are left out. :func:`stretch_pairs` pairs the stretches of two pages;
:func:`compare_blocks` finds a block that one of two stretches lost or
gained.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import pairwise

from .parity import (
    DIRECTIVE,
    FENCE,
    HEADING,
    LABEL,
    Found,
    Source,
    _heading_list,
    first_difference,
)

# Directives that are admonitions, counted as blocks; their text is prose.
ADMONITIONS = frozenset(
    [
        "admonition",
        "attention",
        "caution",
        "danger",
        "dropdown",
        "error",
        "exercise",
        "hint",
        "important",
        "note",
        "seealso",
        "solution",
        "tip",
        "topic",
        "warning",
    ]
)
# Other directives holding prose (a caption): their text is read too.
PROSE = ADMONITIONS | {"figure", "glue:figure", "div", "margin", "sidebar"}
BLOCKS = ("paragraph", "item")  # with the admonitions
# A list item: its marker; an ordered one gives its number.
ITEM = re.compile(r"^[ \t]*(?:[-*+]|(?P<number>\d{1,9})[.)])(?:[ \t]|$)")
OPTION = re.compile(r"^[ \t]*:[\w-]+:")  # a directive's option, :alt: text
# Lines that are neither a block's text nor read for markup: comments, HTML,
# link definitions, rules.
SKIPPED = re.compile(
    r"^[ \t]*(?:%|<(?:!--|/?[A-Za-z][\w-]*(?:[\s/>]|$))|\[[^\]]+\]:[ \t]"
    r"|(?:-[ \t]*){3,}$|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$)"
)
IMAGE_LINE = re.compile(r"^[ \t]*!\[[^\]]*\]\([^)]*\)[ \t]*$")


@dataclass
class Piece:
    """Consecutive lines of one kind: a block (``paragraph``, ``item``, an
    admonition's name), or ``heading``, ``table``, ``math`` (a ``$$`` block
    or a ``{math}`` directive), ``image``, ``fence`` (a directive's opening
    line)."""

    kind: str
    lines: list[tuple[int, str]] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.lines[0][0]

    @property
    def block(self) -> bool:
        return self.kind in BLOCKS or self.kind in ADMONITIONS


@dataclass
class _Reader:
    """The state of :func:`pieces` between lines."""

    found: list[Piece] = field(default_factory=list)
    current: Piece | None = None  # the piece the next line may continue
    # The block before the blank lines just read, and the one a display
    # formula interrupted: the text after the formula goes on with it.
    block: Piece | None = None
    resume: Piece | None = None
    directives: list[tuple[str, str]] = field(default_factory=list)  # mark, name
    options: str = ""  # in a directive's options: ":" (:key: lines) or "---"
    math: str = ""  # the closing of the open math block: $$ or a fence

    def start(self, kind: str, number: int, line: str) -> Piece:
        self.current = Piece(kind, [(number, line)])
        self.found.append(self.current)
        self.block = self.current if self.current.block else None
        self.resume = None
        return self.current

    def add(self, number: int, line: str) -> None:
        assert self.current is not None
        self.current.lines.append((number, line))

    def in_code(self) -> bool:
        """Inside a directive whose content is not prose, a toctree's."""
        return any(name not in PROSE for _, name in self.directives)


def _fence(reader: _Reader, number: int, line: str) -> bool:
    """Read a directive's fence; whether ``line`` was one."""
    if not (fence := FENCE.match(line)):
        return False
    mark, info = fence["mark"], fence["info"].strip()
    top = reader.directives[-1][0] if reader.directives else "?"
    if not info and mark[0] == top[0] and len(mark) >= len(top):
        reader.directives.pop()
        reader.current = reader.block = reader.resume = None
        reader.options = ""
        return True
    if not info:  # a stray fence, which parity's reading leaves in the prose
        return False
    name = found["name"] if (found := DIRECTIVE.match(info)) else ""
    reader.directives.append((mark, name))
    reader.options = ":"
    reader.start(name if name in ADMONITIONS else "fence", number, line)
    reader.current = reader.block = None
    if name == "math":
        reader.math = mark
        reader.start("math", number, "")
    return True


def _math(reader: _Reader, number: int, line: str) -> bool:
    """Read a line of math; whether ``line`` was one (or opened a block).

    A display formula is most often part of a sentence, and a translation
    may move the sentence's words from one side of it to the other: the text
    after it goes on with the block before it, one paragraph either way."""
    stripped = line.strip()
    if reader.math == "$$":
        reader.add(number, line)
        if stripped.endswith("$$"):
            reader.math, reader.current = "", None
        return True
    if reader.math:  # a {math} directive, until its closing fence
        if FENCE.fullmatch(stripped) and stripped.startswith(reader.math):
            reader.math = ""
            return _fence(reader, number, line)
        if not OPTION.match(line):
            reader.add(number, line)
        return True
    if not stripped.startswith("$$"):
        return False
    before = reader.block
    reader.start("math", number, line)
    reader.resume = before
    if len(stripped) > 3 and stripped.endswith("$$"):
        reader.current = None
    else:
        reader.math = "$$"
    return True


def _options(reader: _Reader, line: str) -> bool:
    """Whether ``line`` is one of a directive's options, just after its fence."""
    stripped = line.strip()
    if reader.options == "---":
        reader.options = "" if stripped == "---" else "---"
        return True
    if reader.options == ":" and stripped == "---":
        reader.options = "---"
        return True
    if reader.options == ":" and OPTION.match(line):
        return True
    reader.options = ""
    return False


def _text(reader: _Reader, number: int, line: str) -> None:
    """A line of text: it continues a paragraph or an item, or starts one."""
    current = reader.current.kind if reader.current else None
    item = ITEM.match(line)
    # Only an ordered list starting at 1 interrupts a paragraph: "2022. The"
    # is a wrapped sentence.
    wrapped = item and item["number"] not in {None, "1"} and current == "paragraph"
    if item and not wrapped:
        reader.start("item", number, line)
    elif current in BLOCKS:
        reader.add(number, line)
    elif reader.resume:  # after a formula in the middle of a block
        reader.current, reader.resume = reader.resume, None
        reader.add(number, line)
    else:
        reader.start("paragraph", number, line)


def pieces(page: Source) -> list[Piece]:
    """The pieces of the page's prose, in order."""
    reader, last = _Reader(), 0
    for number, line in page.prose:
        if number != last + 1:  # code between: a block cannot go on
            reader.current = reader.block = reader.resume = None
        last = number
        if _math(reader, number, line) or _fence(reader, number, line):
            continue
        if reader.in_code() or (reader.options and _options(reader, line)):
            continue
        stripped = line.strip()
        if not stripped or LABEL.match(line) or SKIPPED.match(line):
            reader.current = None
        elif HEADING.match(line) or IMAGE_LINE.match(line):
            reader.start("heading" if HEADING.match(line) else "image", number, line)
            reader.current = None
        elif stripped.startswith("|"):
            if not reader.current or reader.current.kind != "table":
                reader.start("table", number, line)
            else:
                reader.add(number, line)
        else:
            _text(reader, number, line)
    return reader.found


@dataclass
class Stretch:
    """The prose of a page between two anchors: a heading or a code cell."""

    path: str  # the page's: docs/ko/jit.md
    heading: int | None  # the line of its section's heading; None: before any
    title: str | None  # that heading: "## The cache"
    cells: int  # the code cells before it (0 where the pages differ in cells)
    start: int  # the line where it starts: its heading, or after a code cell
    section: tuple[int, int]  # the code cells before its section and its end
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
        where = f"section {self.title!r}" if self.title else "the page's opening"
        first, last = self.section
        if first == last:
            return where
        if self.cells == first:
            return f"{where} before code cell {first + 1}"
        if self.cells == last:
            return f"{where} after code cell {last}"
        return f"{where} between code cells {self.cells} and {self.cells + 1}"


def _cell_ends(page: Source) -> list[int]:
    """The line of each code cell's closing fence."""
    return [cell.source_line + len(cell.source.splitlines()) for cell in page.cells]


def _stretches(
    path: str, page: Source, by_cells: bool
) -> dict[tuple[int | None, int], Stretch]:
    """The page's stretches (empty ones too), by heading and cells before."""
    ends = _cell_ends(page) if by_cells else []
    headings = dict(page.find(HEADING))
    titles = dict(page.prose)
    bounds = [(None, 0), *((n, sum(e < n for e in ends)) for n in headings)]
    stretches: dict[tuple[int | None, int], Stretch] = {}
    for (heading, first), (_, last) in pairwise([*bounds, (None, len(ends))]):
        title = titles[heading].strip() if heading else None
        for cells in range(first, last + 1):
            begins = (heading or 1) if cells == first else ends[cells - 1] + 1
            stretch = Stretch(path, heading, title, cells, begins, (first, last))
            stretches[heading, cells] = stretch
    for piece in pieces(page):
        heading = max((n for n in headings if n <= piece.line), default=None)
        cells = sum(end < piece.line for end in ends)
        stretches[heading, cells].pieces.append(piece)
    return stretches


def heading_pairs(page: Source, other: Source) -> dict[int | None, int | None]:
    """Each heading of ``page`` (its line) that stands for one of ``other``:
    that one's line (None for None: the text before the first heading).
    Aligned as :func:`.parity.compare` aligns them (level, label and code
    cells before); it reports the others."""
    mine, theirs = _heading_list(page), _heading_list(other)
    places = [h.place for h in mine], [h.place for h in theirs]
    pairs: dict[int | None, int | None] = {None: None}
    for op, i1, i2, j1, j2 in SequenceMatcher(None, *places).get_opcodes():
        if op == "equal" or i2 - i1 == j2 - j1:  # the same, or moved: paired
            pairs |= {
                here.line: there.line
                for here, there in zip(mine[i1:i2], theirs[j1:j2], strict=True)
            }
    return pairs


def _sections(page: Source, other: Source) -> dict[int | None, int | None]:
    """The sections of ``page`` (by heading) that stand for one of ``other``:
    its heading and the next one (or the page's end) stand for a heading and
    the next one there. Next to a heading that one page lacks, its text is in
    the section before: the heading check reports it, not this one."""
    pairs = heading_pairs(page, other)
    end = 0  # no heading is on line 0
    mine, theirs = (
        [None, *(number for number, _ in side.find(HEADING)), end]
        for side in (page, other)
    )
    following = dict(pairwise(theirs))
    return {
        heading: pairs[heading]
        for heading, after in pairwise(mine)
        if heading in pairs
        and (after == end or after in pairs)
        and following[pairs[heading]] == (end if after == end else pairs[after])
    }


def stretch_pairs(
    path: str, page: Source, other_path: str, other: Source
) -> list[tuple[Stretch, Stretch]]:
    """The stretches of ``page`` and those of ``other`` that stand for them:
    in sections that stand for each other (:func:`_sections`), after as many
    code cells where both pages have as many."""
    by_cells = len(page.cells) == len(other.cells)
    mine = _stretches(path, page, by_cells)
    theirs = _stretches(other_path, other, by_cells)
    sections = _sections(page, other)
    return [
        (stretch, theirs[key])
        for (heading, cells), stretch in mine.items()
        if heading in sections and (key := (sections[heading], cells)) in theirs
    ]


def _plural(n: int, name: str) -> str:
    return f"{n} {name}{'' if n == 1 else 's'}"


def _admonitions(mine: Stretch, theirs: Stretch) -> Found | None:
    """The first admonition that one stretch lacks, or of another kind."""
    here, there = (
        [b for b in s.blocks if b.kind in ADMONITIONS] for s in (mine, theirs)
    )
    if (k := first_difference([b.kind for b in here], [b.kind for b in there])) is None:
        return None
    if len(here) < len(there):
        message = (
            f"{mine} has {_plural(len(here), 'admonition')}, {theirs.path} has "
            f"{len(there)} there: its {{{there[k].kind}}} at line {there[k].line} "
            "is missing here: translate it"
        )
        return (mine.path, here[k].line if k < len(here) else mine.line, message)
    if len(here) > len(there):
        message = (
            f"{mine}: this {{{here[k].kind}}} has no counterpart in {theirs.path} "
            f"({theirs}, from line {theirs.line}): remove it, or add it to the "
            "source first"
        )
        return (mine.path, here[k].line, message)
    message = (
        f"{mine}: this {{{here[k].kind}}} is a {{{there[k].kind}}} in "
        f"{theirs.path}:{there[k].line}: use the source's directive"
    )
    return (mine.path, here[k].line, message)


def _counts(mine: Stretch, theirs: Stretch) -> Found | None:
    """A different number of list items or paragraphs in the two stretches."""
    for kind, name in (("item", "list item"), ("paragraph", "paragraph")):
        n, m = (sum(b.kind == kind for b in s.blocks) for s in (mine, theirs))
        if n == m:
            continue
        if n < m:
            why = (
                f"a {name} is missing or two were merged: translate the missing "
                f"one, or split them as the source does"
            )
        else:
            why = (
                f"a {name} was added or one was split: keep the source's "
                f"{name}s (a blank line separates two)"
            )
        message = (
            f"{mine} has {_plural(n, name)}, {theirs.path} has {m} there "
            f"(from line {theirs.line}): {why}"
        )
        return (mine.path, mine.line, message)
    return None


def compare_blocks(mine: Stretch, theirs: Stretch) -> Found | None:
    """The first admonition, list item or paragraph that ``mine`` (of the
    translation) lost or gained against ``theirs`` (of its source)."""
    return _admonitions(mine, theirs) or _counts(mine, theirs)
