"""The ``(label)=`` targets of a page and its translation, where they differ.

A label stands before a heading (the heading it names: headings are aligned
by :mod:`.headings`) or before a paragraph of a section (:mod:`.sections`).
A label of the source missing from the translation is reported once, at the
translation's line where it belongs; where the translation has another label
there, the label was renamed on one side, and the finding says to rename it
to match.
The ``{ref}`` links to a label the translation lacks are its consequence, left
to this finding (:mod:`.prose`).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ..languages import LANGUAGES
from .parity import Found, Source
from .report import NAMES
from .sections import HEADING_PARAGRAPH, Outline, Place, counterpart


def _spots(outline: Outline) -> dict[str, tuple[int, Place]]:
    """Each label: its line, and its place (the heading it precedes, or the
    paragraph after it)."""
    headings = {
        h.place[1]: index
        for index, h in enumerate(outline.headings, 1)
        if h.place[1] is not None
    }
    spots: dict[str, tuple[int, Place]] = {}
    for line, name in outline.page.structure.labels:
        section = headings.get(name)
        place = (
            outline.place(line)
            if section is None
            else Place(section, HEADING_PARAGRAPH)
        )
        spots.setdefault(name, (line, place))
    return spots


def _page(path: str) -> str:
    """``the English page`` for docs/en/x.md."""
    lang = next((p for p in PurePosixPath(path).parts[::-1] if p in LANGUAGES), None)
    return f"the {NAMES[lang]} page" if lang else path


def compare_labels(
    path: str, page: Source, other_path: str, other: Source
) -> list[Found]:
    """Labels of ``page`` (the translation) and ``other`` (its source) that
    differ: renamed, missing or extra, where to fix each."""
    mine, theirs = Outline(page), Outline(other)
    here, there = _spots(mine), _spots(theirs)
    extra = [name for name in here if name not in there]
    at_spot: dict[Place, str] = {}
    for name in extra:
        at_spot.setdefault(here[name][1], name)
    found: list[Found] = []
    for name, (line, spot) in there.items():
        if name in here:
            continue
        where = counterpart(theirs, mine, spot)
        has = f"{_page(other_path)} has ({name})= at {other_path}:{line}"
        if where is not None and (renamed := at_spot.pop(where, None)):
            extra.remove(renamed)
            message = f"label ({renamed})= here, {has}: rename it to match"
            found.append((path, here[renamed][0], message))
        elif where is not None:
            if where.paragraph == HEADING_PARAGRAPH:
                heading = mine.sections[where.section].heading
                spot_text = f"before heading {heading!r}"
            else:
                spot_text = f"here ({mine.describe(where)})"
            message = f"label ({name})= is missing {spot_text}: {has}: add it"
            found.append((path, mine.line(where), message))
        else:
            found.append((other_path, line, f"label ({name})= is not in {path}"))
    found += [
        (path, here[name][0], f"label ({name})= is not in {other_path}")
        for name in extra
    ]
    return sorted(found, key=lambda f: (f[0] != path, f[1] or 0))
