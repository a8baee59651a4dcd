"""A page's headings, and which of its translation's stand for them.

Each heading is placed by what both languages share around it
(:func:`heading_list`: its level, the label before it, the code cells before
it); two pages' headings are aligned on their places (:func:`heading_runs`),
so that a missing one is found where it was. The sections of :mod:`.sections`
are aligned by their headings; :func:`compare_headings` reports the headings
that differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from .parity import Found, Source


@dataclass(frozen=True)
class Heading:
    line: int
    text: str  # "## Title"
    place: tuple[int, str | None, int]  # level, label before it, code cells before

    def __str__(self) -> str:
        return f"{self.text.strip()!r} (line {self.line})"


def heading_list(page: Source) -> list[Heading]:
    """The headings, each placed by what both languages share around it."""
    cells = [cell.line for cell in page.cells]
    labels = dict(page.structure.labels)
    prose = dict(page.prose)
    found = []
    for heading in page.structure.headings:
        number = heading.line
        before = number - 1
        while before in prose and not prose[before].strip():
            before -= 1  # a blank line between the label and its heading
        cells_before = sum(line < number for line in cells)
        place = (heading.level, labels.get(before), cells_before)
        found.append(Heading(number, prose[number], place))
    return found


def heading_runs(
    mine: list[Heading], theirs: list[Heading]
) -> list[tuple[range, range]]:
    """Two pages' headings aligned on their places, as runs of indexes in
    ``mine`` and in ``theirs``, in order: two runs as long stand for each
    other one by one (the same headings, maybe placed apart); otherwise
    ``mine``'s have no counterpart and ``theirs``' are missing."""
    places = [h.place for h in mine], [h.place for h in theirs]
    return [
        (range(i1, i2), range(j1, j2))
        for _, i1, i2, j1, j2 in SequenceMatcher(None, *places).get_opcodes()
    ]


def _moved(
    path: str, pair: tuple[Heading, Heading], other_path: str, *, cells: bool
) -> Found | None:
    """What differs between two headings that stand for each other: level, or
    (where both pages have as many code cells, ``cells``) the cells before."""
    here, there = pair
    if here.place == there.place:
        return None
    if here.place[0] != there.place[0]:
        message = (
            f"heading {here} is level {here.place[0]} here, "
            f"level {there.place[0]} in {other_path}: {there}"
        )
    elif here.place[1] == there.place[1] and cells:  # labels: their own check
        message = (
            f"heading {here} follows {here.place[2]} code cell(s) here; its "
            f"counterpart {there} in {other_path} follows {there.place[2]}"
        )
    else:
        return None
    return (path, here.line, message)


def compare_headings(
    path: str, page: Source, other_path: str, other: Source
) -> list[Found]:
    """Headings that differ, aligned on level, label and the code cells before."""
    mine, theirs = heading_list(page), heading_list(other)
    cells = len(page.cells) == len(other.cells)  # else: their own check
    found: list[Found] = []
    for here, there in heading_runs(mine, theirs):
        if len(here) == len(there):
            pairs = [(mine[i], theirs[j]) for i, j in zip(here, there, strict=True)]
            found += [
                moved
                for pair in pairs
                if (moved := _moved(path, pair, other_path, cells=cells))
            ]
            continue
        found += [
            (
                path,
                mine[i].line,
                f"heading {mine[i]} has no counterpart in {other_path}",
            )
            for i in here
        ]
        line: int | None = None
        where = "(this page has no heading)"
        if here.stop < len(mine):
            line, where = mine[here.stop].line, "before this heading"
        elif mine:
            line, where = mine[-1].line, "after this heading"
        found += [
            (path, line, f"heading {theirs[j]} of {other_path} is missing here {where}")
            for j in there
        ]
    return found
