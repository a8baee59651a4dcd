"""What a page and its translation must share, read from their MyST source.

:func:`read_source` (:func:`parse_source` for a text) splits a page into its
front matter (parsed as YAML), its code cells (myst-nb's reading: options and
source, with their lines), the text outside code cells and the prose lines
outside any code (code cells, code blocks, code directives such as
``{eval-rst}``; the lines of directives that hold text, such as ``{note}``,
a ``{toctree}`` or a ``{glue:figure}`` caption, are prose), each with its line
in the file. :func:`compare` lists what differs between two versions:
kernelspec, code cells (:func:`cell_lines`: as compared) and figures; the
headings are compared in :mod:`.headings`, the ``(label)=`` targets in
:mod:`.labels`. :func:`toctrees` and
:func:`targets` read the toctree entries and the ``{ref}`` targets a page
defines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ..myst_notebook import Cell, read_cells
from .report import COMMAND

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<body>(?:.*\n)*?)---[ \t]*(?:\n|\Z)")
# Indented in a list item too.
FENCE = re.compile(r"^[ \t]*(?P<mark>`{3,}|~{3,}|:{3,})[ \t]*(?P<info>.*)$")
DIRECTIVE = re.compile(r"\{(?P<name>[^}\s]+)\}")
# Directives whose content is code, not prose; a plain ``` block is code too.
CODE = {"code-block", "code", "sourcecode", "eval-rst", "doctest"}
HEADING = re.compile(r"^#{1,6}(?=[ \t]|$)")
LABEL = re.compile(r"^\([^()\s]+\)(?==[ \t]*$)")
FIGURE = re.compile(r"^(?:`{3,}|~{3,}|:{3,})[ \t]*\{(?:glue:figure|figure|image)\}")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
NAME = re.compile(r"^[ \t]*:name:[ \t]*(?P<name>\S+)[ \t]*$")  # a directive's target


@dataclass
class Source:
    meta: dict[str, Any] = field(default_factory=dict)  # the front matter
    meta_lines: dict[str, int] = field(default_factory=dict)  # top key: line
    meta_error: str | None = None
    kept: list[tuple[int, str]] = field(default_factory=list)  # no code cells
    prose: list[tuple[int, str]] = field(default_factory=list)  # outside code
    cells: list[Cell] = field(default_factory=list)  # the code cells

    def find(self, *patterns: re.Pattern[str]) -> list[tuple[int, str]]:
        """(line, matched text) for each match of ``patterns`` in the prose."""
        return sorted(
            (number, match[0])
            for number, line in self.prose
            for pattern in patterns
            for match in pattern.finditer(line)
        )


def read_source(path: Path) -> Source:
    """Read ``path``: :func:`parse_source` of its text."""
    return parse_source(path.read_text(encoding="utf-8"))


def parse_source(text: str) -> Source:
    """Read a page's text; a front matter that is not YAML is noted in meta_error.

    The cells are myst-nb's reading of the page (:mod:`..myst_notebook`); the
    markdown cells are read line by line for prose, code blocks and
    directives."""
    source = Source()
    lines, match = text.splitlines(), FRONT_MATTER.match(text)
    index = match["body"].count("\n") + 2 if match else 0
    if match:
        for number, line in enumerate(lines[1 : index - 1], 2):
            if key := re.match(r"([\w-]+)[ \t]*:", line):
                source.meta_lines.setdefault(key[1], number)
        try:
            meta = yaml.safe_load(match["body"])
        except yaml.YAMLError as exc:
            meta, source.meta_error = {}, f"front matter is not valid YAML: {exc}"
        source.meta = meta if isinstance(meta, dict) else {}
    body = "\n".join(lines[index:]) + "\n"  # the cells do not need the metadata
    for read in read_cells(body):
        cell = replace(
            read, line=read.line + index, source_line=read.source_line + index
        )
        if cell.kind == "code":
            source.cells.append(cell)
        else:
            _read_markdown(source, cell.source.splitlines(), cell.line)
    return source


def _read_markdown(source: Source, lines: list[str], first: int) -> None:
    """Add a markdown cell's prose (and its code blocks, to ``kept``)."""
    directives: list[str] = []  # the fences of open directives holding prose
    index = 0
    while index < len(lines):
        line, number = lines[index], first + index
        index += 1
        fence = FENCE.match(line)
        mark, info = (fence["mark"], fence["info"].strip()) if fence else ("", "")
        kind = found["name"] if (found := DIRECTIVE.match(info)) else None
        top = directives[-1] if directives else "?"
        if fence and not info and mark[0] == top[0] and len(mark) >= len(top):
            directives.pop()
        elif fence and (mark[0] == ":" or (kind and kind not in CODE)):
            directives.append(mark)
        elif fence:  # a code block: its lines are not prose
            closing = re.compile(rf"[ \t]*{re.escape(mark[0])}{{{len(mark)},}}[ \t]*")
            end = next(
                (i for i in range(index, len(lines)) if closing.fullmatch(lines[i])),
                len(lines),
            )
            block = range(index - 1, min(end + 1, len(lines)))
            source.kept.extend((first + i, lines[i]) for i in block)
            index = end + 1
            continue
        source.kept.append((number, line))
        source.prose.append((number, line))


@dataclass(frozen=True)
class Toctree:
    line: int  # its opening fence
    entries: tuple[tuple[int, str], ...]  # (line, page name) of each entry


def toctrees(page: Source) -> list[Toctree]:
    """The page's ``{toctree}`` directives and the pages each lists, in order.

    An entry ``Title <name>`` lists ``name``; options (``:caption:`` or a
    ``---`` block), ``self`` and URLs are not pages."""
    found: list[Toctree] = []
    lines = iter(page.prose)
    for number, line in lines:
        fence = FENCE.match(line)
        if not fence or not re.match(r"\{toctree\}", fence["info"].strip()):
            continue
        entries: list[tuple[int, str]] = []
        options = False  # inside a --- block of options
        for inner, text in lines:
            entry = text.strip()
            if FENCE.fullmatch(entry) and entry == fence["mark"]:
                break
            if entry == "---" and (options or not entries):
                options = not options
            titled = re.search(r"<([^<>]+)>$", entry)
            entry = titled[1] if titled else entry
            if options or not entry or entry in {"---", "self"}:
                continue
            if not re.match(r"[:#]|\w+://", entry):
                entries.append((inner, entry.removesuffix(".md").lstrip("/")))
        found.append(Toctree(number, tuple(entries)))
    return found


def targets(page: Source) -> dict[str, int]:
    """The ``{ref}`` targets the page defines (``(label)=``, ``:name:``): line."""
    found: dict[str, int] = {}
    for number, line in page.prose:
        if label := LABEL.match(line):
            found.setdefault(label[0][1:-1], number)
        elif name := NAME.match(line):
            found.setdefault(name["name"], number)
    return found


Found = tuple[str, int | None, str]  # path, line, message


def first_difference(a: list[Any], b: list[Any]) -> int | None:
    pairs = enumerate(zip(a, b, strict=False))
    default = None if a == b else min(len(a), len(b))
    return next((i for i, (x, y) in pairs if x != y), default)


def cell_lines(cell: Cell) -> list[tuple[int, str]]:
    """(line, text) of a code cell as compared: its options, then its source."""
    options = json.dumps(cell.metadata, sort_keys=True, ensure_ascii=False)
    source = enumerate(cell.source.splitlines())
    return [
        (cell.line, f"options {options}"),
        *((cell.line_of(i), t) for i, t in source),
    ]


def _cells(path: str, page: Source, other_path: str, other: Source) -> list[Found]:
    found: list[Found] = []
    pairs = zip(page.cells, other.cells, strict=False)
    for number, (cell, other_cell) in enumerate(pairs, 1):
        mine, theirs = cell_lines(cell), cell_lines(other_cell)
        texts, other_texts = [t for _, t in mine], [t for _, t in theirs]
        if (k := first_difference(texts, other_texts)) is None:
            continue
        here, there = (
            repr(t[k]) if k < len(t) else "end of cell" for t in (texts, other_texts)
        )
        line, other_line = (
            side[min(k, len(side) - 1)][0] + max(0, k - len(side) + 1)
            for side in (mine, theirs)
        )
        message = (
            f"code cell {number} differs from {other_path}:{other_line}: "
            f"{here} here, {there} there: copy the source's code cells with "
            f"'{COMMAND} copy-code {path}'"
        )
        found.append((path, line, message))
        if len(page.cells) != len(other.cells):
            break  # the cells after it are shifted: the count tells the rest
    return found


Items = tuple[str, list[tuple[int, str]]]  # path, (line, kind) of each item


def _count(what: str, mine: Items, theirs: Items) -> list[Found]:
    """A different number of ``what``, found at the first item without a match."""
    (path, items), (other_path, other_items) = sorted(
        (mine, theirs), key=lambda side: -len(side[1])
    )
    if (n := len(other_items)) == len(items):
        return []
    kinds = [kind for _, kind in items], [kind for _, kind in other_items]
    k = first_difference(*kinds) or 0
    message = (
        f"{what}: {len(items)} here, {n} in {other_path}; "
        f"{what[:-1]} {k + 1} has no counterpart"
    )
    return [(path, items[k][0], message)]


def _cell_items(page: Source) -> list[tuple[int, str]]:
    return [
        (cell.line, "\n".join(t for _, t in cell_lines(cell))) for cell in page.cells
    ]


def _figure_items(page: Source) -> list[tuple[int, str]]:
    """(line, kind) of each figure: its directive, or ![] for an image."""
    found = page.find(FIGURE, IMAGE)
    return [
        (n, "![]" if text[0] == "!" else text.lstrip("`~: \t")) for n, text in found
    ]


def compare(path: str, page: Source, other_path: str, other: Source) -> list[Found]:
    """What differs between ``page`` (at ``path``) and ``other``, where it is."""
    found: list[Found] = []
    spec, other_spec = page.meta.get("kernelspec"), other.meta.get("kernelspec")
    if spec != other_spec:
        message = f"kernelspec {spec} here, {other_spec} in {other_path}"
        found.append((path, page.meta_lines.get("kernelspec"), message))
    found += _cells(path, page, other_path, other)
    for what, get in (("code cells", _cell_items), ("figures", _figure_items)):
        found += _count(what, (path, get(page)), (other_path, get(other)))
    return found  # the headings: .headings; the labels: .labels
