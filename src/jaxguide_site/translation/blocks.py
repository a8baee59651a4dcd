"""A page's prose read as a reader sees it: :func:`pieces`.

The pieces are its blocks (paragraphs, however their lines are wrapped;
list items; admonitions) and the structure around them (headings, tables,
math, images, directives' fences). A display formula does not end the
paragraph it stands in: the text after it goes on with the block before it.
Labels, directives' options, comments, rules and what non-prose directives
such as ``{toctree}`` hold are left out. The structure check counts the
blocks (:mod:`.structure`), ``diff`` numbers them (:mod:`.sections`), the
markup check reads their markup (:mod:`.marks`) and the prose check finds a
paragraph that a stray blank line split (:mod:`.prose`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .parity import DIRECTIVE, FENCE, HEADING, LABEL, Source

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
            reader.math = ""  # nor a formula whose $$ was left open
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
