"""What a page and its translation must share, read from their MyST source.

:func:`read_source` (:func:`parse_source` for a text) gives a page's
structure as the build reads it (:mod:`..page_structure`): its front matter,
its code cells (options and source, with their lines), the text outside code
cells and the prose lines outside any code (code cells, code blocks, code
directives such as ``{eval-rst}``; the lines of directives that hold text,
such as ``{note}``, a ``{toctree}`` or a ``{glue:figure}`` caption, are
prose), each with its line in the file. :func:`compare` lists what differs
between two versions: kernelspec, code cells (:func:`cell_lines`: as
compared) and figures; the headings are compared in :mod:`.headings`, the
``(label)=`` targets in :mod:`.labels`. :func:`toctrees` and :func:`targets`
read the toctree entries and the ``{ref}`` targets a page defines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..page_structure import Cell, Directive, PageStructure, read
from .command import COMMAND

# The two line patterns the tools that edit a page's text use to find what
# they rewrite (page_structure has read the page): its front matter
# (.stamps), a code cell's fences (.copy_code).
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<body>(?:.*\n)*?)---[ \t]*(?:\n|\Z)")
FENCE = re.compile(r"^[ \t]*(?P<mark>`{3,}|~{3,}|:{3,})[ \t]*(?P<info>.*)$")
FIGURES = frozenset({"glue:figure", "figure", "image"})  # directives counted


@dataclass
class Source:
    meta: dict[str, Any] = field(default_factory=dict)  # the front matter
    meta_lines: dict[str, int] = field(default_factory=dict)  # top key: line
    meta_error: str | None = None
    meta_error_line: int | None = None  # where the YAML error is, if known
    kept: list[tuple[int, str]] = field(default_factory=list)  # no code cells
    prose: list[tuple[int, str]] = field(default_factory=list)  # outside code
    cells: list[Cell] = field(default_factory=list)  # the code cells
    structure: PageStructure = field(default_factory=lambda: read(""))

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
    """Read a page's text; a front matter that is not YAML is noted in meta_error."""
    page = read(text)
    front = page.front_matter
    return Source(
        meta=dict(front.data),
        meta_lines=dict(front.key_lines),
        meta_error=front.error,
        meta_error_line=front.error_line,
        kept=list(page.kept),
        prose=list(page.prose),
        cells=[cell for cell in page.cells if cell.kind == "code"],
        structure=page,
    )


@dataclass(frozen=True)
class Toctree:
    line: int  # its opening fence
    entries: tuple[tuple[int, str], ...]  # (line, page name) of each entry


def toctrees(page: Source) -> list[Toctree]:
    """The page's ``{toctree}`` directives and the pages each lists, in order.

    An entry ``Title <name>`` lists ``name``; options, ``self`` and URLs are
    not pages."""
    found: list[Toctree] = []
    for directive in page.structure.directives:
        if directive.name != "toctree":
            continue
        entries: list[tuple[int, str]] = []
        for number, text in directive.body:
            entry = text.strip()
            titled = re.search(r"<([^<>]+)>$", entry)  # within the entry's line
            entry = titled[1] if titled else entry
            if entry and entry != "self" and not re.match(r"[:#]|\w+://", entry):
                entries.append((number, entry.removesuffix(".md").lstrip("/")))
        found.append(Toctree(directive.line, tuple(entries)))
    return found


def _option_line(directive: Directive, key: str) -> int:
    """The line of a directive's option ``key`` (``:key:`` or YAML ``key:``)."""
    lines = directive.option_lines
    marks = (f":{key}:", f"{key}:")
    return next((n for n, t in lines if t.lstrip().startswith(marks)), directive.line)


def targets(page: Source) -> dict[str, int]:
    """The ``{ref}`` targets the page defines (``(label)=``, ``:name:``): line."""
    named = [
        (_option_line(directive, "name"), str(directive.options["name"]))
        for directive in page.structure.directives
        if directive.name and "name" in directive.options
    ]
    found: dict[str, int] = {}
    for number, name in sorted([*page.structure.labels, *named]):
        found.setdefault(name, number)
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
    structure = page.structure
    return sorted(
        [(n, "![]") for n in structure.images]
        + [(d.line, f"{{{d.name}}}") for d in structure.directives if d.name in FIGURES]
    )


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
