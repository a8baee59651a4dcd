"""A page's structure, read once, as the build reads it: :func:`read`.

The site's pages are MyST text notebooks. Sphinx reads them with myst-parser's
markdown-it (the extensions docs/conf.py enables) and myst-nb splits them
into cells from the same tokens; so does :func:`read`, once per page text,
and every tool that needs a page's structure (the translation checker, the
section anchors, the failure reporter) takes it from here rather than from
its own regular expressions, which disagreed with the build on edge cases (an
indented fence, a code cell inside a ``:::`` directive, a label indented by a
space).

What a page has, each with its line in the file (counted from 1): its front
matter (YAML), its cells (myst-nb's split: a code cell's options and source),
its directives (fenced with backticks, tildes or colons, also inside lists
and inside directives that hold text), its headings, its ``(label)=``
targets, its math blocks, its images, its blocks (paragraphs, list items,
headings, tables, definition terms, inside directives too), and its prose
lines: the markdown cells' lines outside code blocks and code directives.

Importing this module imports no Sphinx.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from typing import Any, ClassVar, Literal

import yaml
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.directives import parse_directive_text
from myst_parser.parsers.mdit import create_md_parser

# The MyST extensions the site enables: docs/conf.py's myst_enable_extensions
# is this set, so the build and every tool read pages alike.
SITE_EXTENSIONS = frozenset({"amsmath", "colon_fence", "deflist", "dollarmath"})
# Directives whose content is code, not prose; a plain ``` block is code too.
CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "eval-rst", "doctest"})
CELLS = {"{code-cell}": "code", "{raw-cell}": "raw"}  # myst-nb's cell directives
MATH_BLOCKS = frozenset({"math_block", "math_block_label"})  # $$, and amsmath
# Inline tokens whose text a section title's text (docutils' astext) keeps.
TEXT_TOKENS = frozenset({"text", "code_inline", "math_inline", "myst_role"})

Lines = list[tuple[int, str]]  # (line in the file, its text)


class PageError(ValueError):
    """A page the build cannot read either: a cell whose options are not
    YAML, a ``+++`` break whose metadata is not a JSON object."""


@cache
def parser(extensions: frozenset[str] = SITE_EXTENSIONS) -> MarkdownIt:
    """myst-parser's markdown-it with ``extensions``, as Sphinx reads a page."""
    return create_md_parser(
        MdParserConfig(enable_extensions=set(extensions)), RendererHTML
    )


@dataclass(frozen=True)
class Cell:
    """A cell of a page, and where it is in the page's file.

    ``line`` is a code cell's opening fence, a markdown cell's first line of
    text; ``source_line`` is the line of the source's first line. A raw cell
    is read as markdown, as the translation checker has always read it.
    """

    kind: Literal["markdown", "code"]
    line: int
    source_line: int
    source: str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.metadata.get("tags", ()))

    def line_of(self, index: int) -> int:
        """The file's line of the source's line ``index`` (from 0)."""
        return self.source_line + index


@dataclass(frozen=True)
class FrontMatter:
    data: dict[str, Any] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key: line
    error: str | None = None
    end: int = 0  # the lines it takes, with its two ``---``
    error_line: int | None = None  # the page's line the YAML error is at


@dataclass(frozen=True)
class Unclosed:
    """A fence that lacks its closing line: it takes in what follows it, to
    the end of the page or of the fence holding it (``inside``), or, a code
    fence, up to the closing line of the next one, whose opening (``swallows``)
    it holds as code."""

    line: int  # its opening fence
    fence: str  # that line
    inside: int | None = None  # the line of the fence holding it
    swallows: int | None = None  # the line of a fence opening it took in


@dataclass(frozen=True)
class Directive:
    """A fenced directive (or a plain code block: ``name`` None), with its
    ``options`` ({} where they are not YAML) and the lines of its body."""

    name: str | None
    argument: str
    line: int  # its opening fence
    end: int  # its last line (its closing fence, where it has one)
    options: dict[str, Any]
    body: Lines
    option_lines: Lines = field(default_factory=list)  # between fence and body

    @property
    def code(self) -> bool:
        """Whether its content is code, not prose."""
        return self.name is None or self.name in CODE_DIRECTIVES


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # as docutils' astext gives the title
    line: int


@dataclass(frozen=True)
class Block:
    """A block of Markdown as markdown-it opens it: ``paragraph``, ``item``
    (a list item), ``heading``, ``table``, ``term`` (a definition list's),
    with the lines it spans;
    ``parent`` is the index in :attr:`PageStructure.blocks` of the item a
    paragraph stands in (None elsewhere)."""

    kind: str
    first: int
    last: int
    parent: int | None = None


BLOCK_TOKENS = {
    "paragraph_open": "paragraph",
    "list_item_open": "item",
    "heading_open": "heading",
    "table_open": "table",
    "dt_open": "term",  # a definition list's term: its map is one line short
}


@dataclass
class PageStructure:
    """What :func:`read` found; ``tokens`` are the top level's."""

    tokens: list[Token]
    front_matter: FrontMatter
    cells: list[Cell]
    directives: list[Directive] = field(default_factory=list)
    labels: Lines = field(default_factory=list)  # (line, name) of ``(name)=``
    math: list[range] = field(default_factory=list)  # the lines of math blocks
    images: list[int] = field(default_factory=list)  # the line of each ![]()
    blocks: list[Block] = field(default_factory=list)  # also in directives' text
    kept: Lines = field(default_factory=list)  # the markdown cells' lines
    prose: Lines = field(default_factory=list)  # those outside code
    unclosed: list[Unclosed] = field(default_factory=list)

    @cached_property
    def tree(self) -> SyntaxTreeNode:
        return SyntaxTreeNode(self.tokens)

    @cached_property
    def headings(self) -> list[Heading]:
        """The page's section titles, in order (not those inside directives)."""
        return [
            Heading(int(node.tag[1]), heading_title(node), (node.map or (0, 0))[0] + 1)
            for node in self.tree.walk()
            if node.type == "heading"
        ]


def heading_title(heading: SyntaxTreeNode) -> str:
    """The text of a heading's title, as docutils' ``astext`` gives it."""
    parts = []
    for token in heading.children[0].walk():
        if token.type in TEXT_TOKENS:
            parts.append(token.content)
        elif token.type in {"softbreak", "hardbreak"}:
            parts.append(" ")
    return "".join(parts)


def read(text: str, extensions: frozenset[str] = SITE_EXTENSIONS) -> PageStructure:
    """The structure of the page ``text`` (cached: each text is read once).

    The result is shared between callers: treat it as read-only."""
    # One cache key for read(text) and read(text, SITE_EXTENSIONS): lru_cache
    # tells them apart, and the build asked both ways (three parses a page).
    return _read(text, frozenset(extensions))


@lru_cache(maxsize=256)  # a build's pages, both languages
def _read(text: str, extensions: frozenset[str]) -> PageStructure:
    tokens = parser(extensions).parse(text + "\n")
    lines = text.splitlines()
    front = FrontMatter()
    if tokens and tokens[0].type == "front_matter":
        front = _front_matter(tokens[0])
    page = PageStructure(tokens, front, _cells(tokens, lines, front.end))
    _walk(page, tokens, 0, extensions, lines, len(lines))  # held by no fence
    code = {n for d in page.directives if d.code for n in range(d.line, d.end + 1)}
    for cell in page.cells:
        if cell.kind == "markdown":
            numbered = enumerate(cell.source.splitlines(), cell.line)
            for number, line in numbered:
                page.kept.append((number, line))
                if number not in code:
                    page.prose.append((number, line))
    return page


def _front_matter(token: Token) -> FrontMatter:
    """The front matter's YAML, and the line of each top-level key."""
    end = (token.map or (0, 0))[1]
    loader = yaml.SafeLoader(token.content)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        error = f"front matter is not valid YAML: {problem}"
        line = mark.line + 2 if mark is not None else None  # after ---
        return FrontMatter(error=error, end=end, error_line=line)
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        return FrontMatter(end=end)
    keys: dict[str, int] = {}
    for key, _value in node.value:
        keys.setdefault(str(key.value), key.start_mark.line + 2)  # after ---
    return FrontMatter(data, keys, None, end)


class _CellOptions:
    """How myst-nb reads a cell's options (its mock directive): as YAML."""

    option_spec: ClassVar = {"options": True}
    required_arguments = 0
    optional_arguments = 1
    has_content = True


def _text(value: str | None) -> str:
    return value or ""


class _AnyKey(dict[str, Callable[[str | None], str]]):
    def __missing__(self, _key: str) -> Callable[[str | None], str]:
        return _text


class _AnyOptions:
    """How docutils reads a directive's options: ``:key: value`` lines, as
    text (any key: the directive's own option spec is Sphinx's business)."""

    option_spec: ClassVar = _AnyKey(name=_text)
    required_arguments = 0
    optional_arguments = 1
    has_content = True


def _cells(tokens: list[Token], lines: list[str], start: int) -> list[Cell]:
    """myst-nb's cells (:func:`myst_nb.core.read.read_myst_markdown_notebook`):
    each top-level ``{code-cell}`` (``{raw-cell}``) fence is a cell, the text
    between them, split at ``+++`` breaks, a markdown cell."""
    cells: list[Cell] = []
    metadata: dict[str, Any] = {}

    def markdown(end: int) -> None:
        text = "\n".join(lines[start:end]).rstrip()
        first = start + len(text) - len(text.lstrip("\n"))  # leading empty lines
        if text := text.lstrip("\n"):
            cells.append(Cell("markdown", first + 1, first + 1, text, metadata))

    level = 0
    for token in tokens:
        level += token.nesting
        if level or token.map is None:
            continue  # a fence inside a list is not a cell
        kind = _cell_kind(token)
        if kind:
            markdown(token.map[0])
            options, body = _cell_options(token)
            source_line = _find(lines, body, token.map[0] + 1) + 1
            cell_kind: Literal["markdown", "code"] = (
                "code" if kind == "code" else "markdown"
            )
            cells.append(
                Cell(cell_kind, token.map[0] + 1, source_line, "\n".join(body), options)
            )
        elif token.type == "myst_block_break":
            markdown(token.map[0])
            metadata = _break_metadata(token)
        else:
            continue
        start = token.map[1]
        metadata = metadata if token.type == "myst_block_break" else {}
    markdown(len(lines))
    return cells


def _cell_options(token: Token) -> tuple[dict[str, Any], list[str]]:
    result = parse_directive_text(
        _AnyOptions, "", token.content, validate_options=False
    )
    if result.warnings:
        line = (token.map or (0, 0))[0] + 1
        message = (
            f"line {line}: the code cell's options could not be read "
            f"({result.warnings[0].msg}): write them as ':key: value' lines or "
            "a YAML block between '---' lines"
        )
        raise PageError(message)
    return dict(result.options), result.body


def _break_metadata(token: Token) -> dict[str, Any]:
    if not token.content.strip():
        return {}
    try:
        metadata = json.loads(token.content.strip())
    except ValueError:
        metadata = None
    if not isinstance(metadata, dict):
        line = (token.map or (0, 0))[0] + 1
        message = (
            f"line {line}: the '+++' break's metadata is not a JSON object: "
            'write it as +++ {"key": "value"}'
        )
        raise PageError(message)
    return metadata


def _cell_kind(token: Token) -> str | None:
    """``code`` or ``raw`` for a cell's fence, as myst-nb tells them."""
    if token.type != "fence":
        return None
    return next((k for d, k in CELLS.items() if token.info.startswith(d)), None)


def _find(lines: list[str], wanted: list[str], start: int) -> int:
    """The first index from ``start`` where ``wanted`` stands in ``lines``."""
    for index in range(start, len(lines) - len(wanted) + 1):
        if lines[index : index + len(wanted)] == wanted:
            return index
    return start


def _walk(
    page: PageStructure,
    tokens: list[Token],
    offset: int,
    extensions: frozenset[str],
    lines: list[str],
    limit: int,
) -> None:
    """Note the directives, labels, math and images of ``tokens`` (the page's,
    or those of a directive's content, whose first line is ``offset``), and
    read the content of each directive that holds text as Markdown. The
    tokens come from ``lines[offset:limit]``, the page's lines."""
    items: list[int] = []  # the open list items, innermost last
    for token in tokens:
        if token.type == "list_item_close":
            items.pop()
        if token.map is None:
            continue
        start, end = token.map[0] + offset, token.map[1] + offset
        if token.type in BLOCK_TOKENS:
            parent = items[-1] if items and token.type == "paragraph_open" else None
            kind = BLOCK_TOKENS[token.type]
            last = start + 1 if kind == "term" else end
            page.blocks.append(Block(kind, start + 1, last, parent))
            if token.type == "list_item_open":
                items.append(len(page.blocks) - 1)
        elif token.type == "myst_target":
            page.labels.append((start + 1, token.content))
        elif token.type == "amsmath":  # its map ends a line short (mdit-py-plugins)
            page.math.append(
                range(start + 1, start + 1 + len(token.content.splitlines()))
            )
        elif token.type in MATH_BLOCKS:
            page.math.append(range(start + 1, end + 1))
        elif token.type == "inline":
            page.images.extend(start + 1 + n for n in _image_lines(token))
        elif token.type in {"fence", "colon_fence", "code_block"}:
            closed = token.type == "code_block" or (
                end <= limit and _closes(token, lines[end - 1])
            )
            fence = lines[start].strip()
            if not closed:
                holder = offset or None  # the holding fence's line
                page.unclosed.append(Unclosed(start + 1, fence, inside=holder))
            elif token.type == "fence" and (swallowed := _opening_in(token)):
                page.unclosed.append(
                    Unclosed(start + 1, fence, swallows=start + 1 + swallowed)
                )
            if _cell_kind(token):
                continue  # a cell: its own record
            directive = _directive(token, start, end)
            page.directives.append(directive)
            if not directive.code:
                inner = parser(extensions).parse(token.content + "\n")
                content_end = end - 1 if closed else min(end, limit)
                _walk(page, inner, start + 1, extensions, lines, content_end)


def _closes(fence: Token, last: str) -> bool:
    """Whether ``last``, the fence's last line, closes it: its character, at
    least as many times as it was opened with, alone on the line. markdown-it
    runs a fence that is never closed to the end of what holds it."""
    marker = last.strip()
    return len(marker) >= len(fence.markup) and set(marker) == {fence.markup[0]}


def _opening_in(fence: Token) -> int | None:
    """Where a code fence's content opens a directive with the fence's own
    marker (the next cell's "```{code-cell}"), counted from the fence's
    line: the fence's closing line is missing, and the next one's closes it."""
    for number, line in enumerate(fence.content.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(fence.markup) and stripped.lstrip(
            fence.markup[0]
        ).startswith("{"):
            return number
    return None


def _directive(token: Token, start: int, end: int) -> Directive:
    info = token.info.strip() if token.type != "code_block" else ""
    name, argument = None, info
    if info.startswith("{") and "}" in info:
        name, _, argument = info[1:].partition("}")
    elif token.type == "colon_fence":
        name = ""  # a ::: block holds text, whatever it is
    content = [
        (start + 2 + i, line) for i, line in enumerate(token.content.splitlines())
    ]
    options: dict[str, Any] = {}
    body, option_lines = content, []
    if name is not None:
        result = parse_directive_text(_AnyOptions, "", token.content)
        if not result.warnings:
            options, offset = dict(result.options), max(result.body_offset, 0)
            option_lines = content[:offset]
            body = [
                (start + 2 + offset + i, line) for i, line in enumerate(result.body)
            ]
    return Directive(
        name, argument.strip(), start + 1, end, options, body, option_lines
    )


def _image_lines(token: Token) -> Iterator[int]:
    """For each image in an inline token, its line within the token."""
    line = 0
    for child in token.children or []:
        if child.type in {"softbreak", "hardbreak"}:
            line += 1
        elif child.type == "image":
            yield line
