"""A page's prose read as a reader sees it: :func:`pieces`.

The pieces are its blocks (paragraphs, however their lines are wrapped;
list items; admonitions) and the structure around them (headings, tables,
math, images, directives' fences), from the blocks markdown-it finds
(:mod:`jaxguide_site.page_structure`), also inside directives that hold
text. A display formula does not end the paragraph it stands in: the text
after it goes on with the block before it. A definition list's term and its
definition are one paragraph. Labels, directives' options, comments, rules
and what non-prose directives such as ``{toctree}`` hold are left out. The structure check counts the
blocks (:mod:`.structure`), ``diff`` numbers them (:mod:`.sections`), the
markup check reads their markup (:mod:`.marks`) and the prose check finds a
paragraph that a stray blank line split (:mod:`.prose`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..page_structure import Block, Directive
from .parity import Source

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
OPTION = re.compile(r"^[ \t]*:[\w-]+:")  # a directive's option, :alt: text
IMAGE_LINE = re.compile(r"^[ \t]*!\[[^\]]*\]\([^)]*\)[ \t]*$")


@dataclass
class Piece:
    """Consecutive lines of one kind: a block (``paragraph``, ``item``, an
    admonition's name), or ``heading``, ``table``, ``math`` (a ``$$`` block
    or a ``{math}`` directive), ``image``, ``fence`` (a directive's opening
    line)."""

    kind: str
    lines: list[tuple[int, str]] = field(default_factory=list)
    directive: Directive | None = None  # a fence's (or an admonition's)

    @property
    def line(self) -> int:
        return self.lines[0][0]

    @property
    def block(self) -> bool:
        return self.kind in BLOCKS or self.kind in ADMONITIONS


@dataclass
class _Reading:
    """:func:`pieces` between blocks."""

    text: dict[int, str]  # the page's prose lines
    found: list[Piece] = field(default_factory=list)
    # The last block read, while a display formula after it may continue it,
    # and the block a formula interrupted: the next paragraph goes on with it.
    block: Piece | None = None
    resume: Piece | None = None
    term: Piece | None = None  # a definition list's term, until its definition

    def lines(self, first: int, last: int) -> list[tuple[int, str]]:
        return [(n, self.text[n]) for n in range(first, last + 1) if n in self.text]

    def prose_between(self, first: int, last: int) -> bool:
        """Whether every line from ``first`` to ``last`` is prose (no code)."""
        return all(n in self.text for n in range(first, last + 1))

    def add(self, piece: Piece) -> Piece:
        self.found.append(piece)
        self.block = piece if piece.block else None
        self.resume = self.term = None
        return piece


def _directive(reading: _Reading, directive: Directive) -> None:
    name = directive.name or ""
    kind = name if name in ADMONITIONS else "fence"
    reading.add(Piece(kind, reading.lines(directive.line, directive.line), directive))
    if name == "math":
        body = [(n, line) for n, line in directive.body if n in reading.text]
        formula = [(n, line) for n, line in body if not OPTION.match(line)]
        reading.add(Piece("math", [(directive.line, ""), *formula]))


def _math(reading: _Reading, lines: range) -> None:
    before = reading.block
    reading.add(Piece("math", reading.lines(lines.start, lines.stop - 1)))
    if before and reading.prose_between(before.lines[-1][0], lines.start):
        reading.resume = before


def _block(reading: _Reading, block: Block, kind: str) -> None:
    lines = reading.lines(block.first, block.last)
    last = reading.found[-1].lines[-1][0] if reading.found else 0
    if kind == "term":
        reading.add(Piece("paragraph", lines))
        reading.term = reading.found[-1]
    elif kind == "paragraph" and reading.term and last == block.first - 1:
        reading.term.lines += lines  # its definition
        reading.term = None
    elif (
        kind == "paragraph"
        and reading.resume
        and reading.prose_between(last, block.first)
    ):
        reading.resume.lines += lines
        reading.resume = reading.block = None  # a later formula ends it
    elif kind == "paragraph" and len(lines) == 1 and IMAGE_LINE.match(lines[0][1]):
        reading.add(Piece("image", lines))
    elif kind == "heading":
        reading.add(Piece("heading", lines[:1]))
    else:
        reading.add(Piece(kind, lines))


def pieces(page: Source) -> list[Piece]:
    """The pieces of the page's prose, in order."""
    structure = page.structure
    reading = _Reading(dict(page.prose))
    hidden: set[int] = set()  # non-prose directives' content, options
    for directive in structure.directives:
        if not directive.code and directive.name not in PROSE:
            hidden.update(range(directive.line + 1, directive.end + 1))
        hidden.update(n for n, _ in directive.option_lines)
    shown = reading.text.keys() - hidden
    # (line, order at that line, what): directives, then math, then blocks.
    found: list[tuple[int, int, Directive | range | tuple[Block, str]]] = [
        (d.line, 0, d) for d in structure.directives if not d.code
    ]
    found += [(lines.start, 1, lines) for lines in structure.math]
    for block in structure.blocks:
        if block.kind == "item":
            continue  # its first paragraph is the item
        kind = block.kind
        parent = structure.blocks[block.parent] if block.parent is not None else None
        if kind == "paragraph" and parent and parent.first == block.first:
            kind = "item"
        found.append((block.first, 2, (block, kind)))
    for line, _, what in sorted(found, key=lambda each: each[:2]):
        if line not in shown:
            continue
        if isinstance(what, Directive):
            _directive(reading, what)
        elif isinstance(what, range):
            _math(reading, what)
        else:
            _block(reading, *what)
    return reading.found
