"""``copy-code``: copy the source's code cells into its translation.

The two languages share their code cells (options and source, as
:func:`.parity.cell_lines` compares them); after the source's code changed,
the translation's cells are replaced by the source's, paired by order, each
from its opening fence to its closing one. The prose is left byte for byte.
Pairing by order needs as many cells on both pages: where the counts differ,
the command names the first section whose cells differ in number and copies
nothing.
"""

from __future__ import annotations

import re
from collections import Counter

from ..myst_notebook import Cell
from .command import COMMAND
from .parity import FENCE, Source, cell_lines, read_source
from .report import plural
from .sections import Outline, align
from .stamps import Pair


def _span(lines: list[str], cell: Cell) -> range:
    """The indexes in ``lines`` of ``cell``: its fences and what they hold."""
    opening = lines[cell.line - 1]
    fence = FENCE.match(opening)
    mark = fence["mark"] if fence else "```"
    closing = re.compile(rf"[ \t]*{re.escape(mark[0])}{{{len(mark)},}}[ \t]*")
    after = max(cell.line, cell.source_line - 1 + len(cell.source.splitlines()))
    end = next(
        (i for i in range(after, len(lines)) if closing.fullmatch(lines[i].rstrip())),
        len(lines) - 1,
    )
    return range(cell.line - 1, end + 1)


def _compared(cell: Cell) -> list[str]:
    return [text for _, text in cell_lines(cell)]


def _uneven(pair: Pair, source: Source, translation: Source) -> str:
    """Why the cells cannot be paired: the first section with more or fewer."""
    outlines = Outline(source), Outline(translation)
    counts = [
        Counter(outline.section_of(cell.line) for cell in page.cells)
        for outline, page in zip(outlines, (source, translation), strict=True)
    ]
    total = (
        f"{pair.translation} has {plural(len(translation.cells), 'code cell')} "
        f"and {pair.source} has {len(source.cells)}"
    )
    fix = (
        "copy-code pairs the cells by order: add or remove cells there to match, "
        "then run it again"
    )
    for mine, theirs in sorted(align(*outlines).items()):
        if counts[0][mine] != counts[1][theirs]:
            here, there = outlines[1].sections[theirs], outlines[0].sections[mine]
            return (
                f"{total}: {here.name} (line {max(here.start, 1)}) has "
                f"{counts[1][theirs]}, {there.name} ({pair.source}:"
                f"{max(there.start, 1)}) has {counts[0][mine]}; {fix}"
            )
    return f"{total}; '{COMMAND} --strict' names the first cell without a pair; {fix}"


def copy_code(pair: Pair) -> str:
    """Copy the code cells of ``pair.source`` into ``pair.translation``; what
    was done. :class:`ValueError` where the pages' cells cannot be paired."""
    source, translation = read_source(pair.source), read_source(pair.translation)
    if len(source.cells) != len(translation.cells):
        raise ValueError(_uneven(pair, source, translation))
    changed = [
        number
        for number, (theirs, mine) in enumerate(
            zip(source.cells, translation.cells, strict=True), 1
        )
        if _compared(theirs) != _compared(mine)
    ]
    count = len(source.cells)
    if not changed:
        match = "matches" if count == 1 else "match"
        return (
            f"{pair.translation}: its {plural(count, 'code cell')} {match} "
            f"{pair.source}'s"
        )
    text = pair.translation.read_bytes().decode("utf-8")
    lines = text.splitlines(keepends=True)
    other = pair.source.read_bytes().decode("utf-8").splitlines(keepends=True)
    for number in reversed(changed):
        mine, theirs = (
            _span(page, cells[number - 1])
            for page, cells in ((lines, translation.cells), (other, source.cells))
        )
        copied = [other[i] for i in theirs]
        if mine.stop == len(lines) and not lines[-1].endswith("\n"):
            copied[-1] = copied[-1].rstrip("\n")  # the file ended without one
        elif not copied[-1].endswith("\n"):
            copied[-1] += "\n"
        lines[mine.start : mine.stop] = copied
    pair.translation.write_bytes("".join(lines).encode("utf-8"))
    after = read_source(pair.translation).cells
    shown = [f"{n} (line {after[n - 1].line})" for n in changed]
    cells = (
        f"cells {', '.join(shown[:-1])} and {shown[-1]}"
        if changed[1:]
        else f"cell {shown[0]}"
    )
    return (
        f"{pair.translation}: copied {len(changed)} of "
        f"{plural(count, 'code cell')} from {pair.source}, the prose untouched: "
        f"{cells}"
    )
