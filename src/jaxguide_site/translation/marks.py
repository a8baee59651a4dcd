"""The markup of a stretch that a translation keeps as it is: :func:`marks`.

A translation changes the words, never what the page computes or points
to: the ``{glue}`` values (``{glue:text}`` and the others, and the
``{glue:figure}`` directive's name), the targets of the Python roles
(``{func}``, ``{class}``...), of ``{doc}``, ``{ref}`` and ``{numref}``, the
links' addresses, the formulas (display and inline) and the code spans.
Each is a :class:`Mark`, with its line and the block it is in; what the
two languages' marks may differ in is :mod:`.markup`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .blocks import Piece
from .sections import Stretch

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
    directive = piece.directive
    if directive is None or not directive.name:
        yield from _inline(piece.lines, block)
        return
    if directive.name == "glue:figure":
        yield Mark("{glue:figure}", directive.argument, piece.line, block, figure=True)
    elif piece.block:  # an admonition: its title
        yield from _inline([(piece.line, directive.argument)], block)


def marks(stretch: Stretch) -> list[Mark]:
    """The markup of a stretch, in order."""
    found: list[Mark] = []
    block = -1
    for piece in stretch.pieces:
        block += piece.block
        found += _piece_marks(piece, block)
    return sorted(found, key=lambda mark: mark.line)
