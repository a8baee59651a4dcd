"""What a page and its translation must share, read from their MyST source.

:func:`read_source` splits a page into its front matter (parsed as YAML), its
code cells (myst-nb's reading: options and source, with their lines), the
text outside code cells and the prose lines outside any code (code cells, code blocks, code
directives such as ``{eval-rst}``; the lines of directives that hold text,
such as ``{note}`` or a ``{glue:figure}`` caption, are prose), each with its
line in the file. :func:`compare` lists what differs between two versions:
kernelspec, code cells, figures, heading levels and ``(label)=`` targets.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ..myst_notebook import Cell, read_cells

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<body>(?:.*\n)*?)---[ \t]*(?:\n|\Z)")
FENCE = re.compile(r"^(?P<mark>`{3,}|~{3,}|:{3,})[ \t]*(?P<info>.*)$")
DIRECTIVE = re.compile(r"\{(?P<name>[^}\s]+)\}")
# Directives whose content is code, not prose; a plain ``` block is code too.
CODE = {"code-block", "code", "sourcecode", "eval-rst", "doctest"}
HEADING = re.compile(r"^#{1,6}(?=[ \t]|$)")
LABEL = re.compile(r"^\([^()\s]+\)(?==[ \t]*$)")
FIGURE = re.compile(r"^(?:`{3,}|~{3,}|:{3,})[ \t]*\{(?:glue:figure|figure|image)\}")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")


@dataclass
class Source:
    meta: dict[str, Any] = field(default_factory=dict)  # the front matter
    meta_lines: dict[str, int] = field(default_factory=dict)  # top key: line
    meta_error: str | None = None
    kept: list[str] = field(default_factory=list)  # body without code cells
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
    """Read ``path``; a front matter that is not YAML is noted in meta_error.

    The cells are myst-nb's reading of the page (:mod:`..myst_notebook`); the
    markdown cells are read line by line for prose, code blocks and
    directives."""
    source, text = Source(), path.read_text(encoding="utf-8")
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
            closing = re.compile(rf"{re.escape(mark[0])}{{{len(mark)},}}[ \t]*")
            end = next(
                (i for i in range(index, len(lines)) if closing.fullmatch(lines[i])),
                len(lines),
            )
            source.kept.extend(lines[index - 1 : end + 1])
            index = end + 1
            continue
        source.kept.append(line)
        source.prose.append((number, line))


Found = tuple[str, int | None, str]  # path, line, message


def _first_difference(a: list[Any], b: list[Any]) -> int | None:
    pairs = enumerate(zip(a, b, strict=False))
    default = None if a == b else min(len(a), len(b))
    return next((i for i, (x, y) in pairs if x != y), default)


def _cell_lines(cell: Cell) -> list[tuple[int, str]]:
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
        mine, theirs = _cell_lines(cell), _cell_lines(other_cell)
        texts, other_texts = [t for _, t in mine], [t for _, t in theirs]
        if (k := _first_difference(texts, other_texts)) is None:
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
            f"{here} here, {there} there"
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
    k = _first_difference(*kinds) or 0
    message = (
        f"{what}: {len(items)} here, {n} in {other_path}; "
        f"{what[:-1]} {k + 1} has no counterpart"
    )
    return [(path, items[k][0], message)]


def _cell_items(page: Source) -> list[tuple[int, str]]:
    return [
        (cell.line, "\n".join(t for _, t in _cell_lines(cell))) for cell in page.cells
    ]


def _figure_items(page: Source) -> list[tuple[int, str]]:
    """(line, kind) of each figure: its directive, or ![] for an image."""
    found = page.find(FIGURE, IMAGE)
    return [
        (n, "![]" if text[0] == "!" else text.lstrip("`~: \t")) for n, text in found
    ]


def _headings(path: str, page: Source, other_path: str, other: Source) -> list[Found]:
    heads = [(line, len(marks)) for line, marks in page.find(HEADING)]
    levels = [level for _, level in heads]
    other_levels = [len(marks) for _, marks in other.find(HEADING)]
    if (k := _first_difference(levels, other_levels)) is None:
        return []
    mine, theirs = (
        f"level {lv[k]}" if k < len(lv) else "missing" for lv in (levels, other_levels)
    )
    line = heads[min(k, len(heads) - 1)][0] if heads else None
    message = (
        f"heading {k + 1} is {mine} here, {theirs} in {other_path} "
        f"({len(levels)} headings here, {len(other_levels)} there)"
    )
    return [(path, line, message)]


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
    found += _headings(path, page, other_path, other)
    labels, other_labels = (
        {label: n for n, label in s.find(LABEL)} for s in (page, other)
    )
    found += [
        (path, n, f"label {label}= is not in {other_path}")
        for label, n in labels.items()
        if label not in other_labels
    ]
    found += [
        (other_path, n, f"label {label}= is not in {path}")
        for label, n in other_labels.items()
        if label not in labels
    ]
    return found
