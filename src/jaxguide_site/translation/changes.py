"""What changed in a page's prose, and where its translation changes with it.

:func:`changes` lists the word-by-word changes between two versions of a
page's prose (what a stamp covers: :func:`.stamps.counted`), each with its
line in both; :func:`word_diff` shows them. For ``diff``, :func:`where_to_edit`
follows each change of the source with the section and line of the
translation to edit (:mod:`.sections`) and the glossary's terms in the changed
words. For ``stamp``, :func:`misplaced_edits` warns where the translation's
edits since its source changed are in none of the sections the source's
changes are in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from ..languages import LANGUAGES
from .command import COMMAND
from .glossary import Term, load_glossary
from .parity import Source, parse_source, read_source
from .report import NAMES
from .sections import Outline, Place, align, counterpart
from .stamps import Pair, before_change, counted


@dataclass(frozen=True)
class Change:
    old_line: int  # where it is in the old version
    new_line: int  # and in the new one
    words: str  # the removed and added words
    shown: str  # with the words around it: [-removed-] {+added+}
    # Words added on lines of their own: the line of the old word before them
    # (old_line is the old word after them).
    after: int | None = None


Words = list[tuple[str, int]]  # each word and its line


def _lines(a: Words, b: Words, op: str, i: int, j: int) -> tuple[int, int, int | None]:
    """old_line, new_line and after of a change starting at words ``i``, ``j``."""

    def at(words: Words, k: int) -> int:
        return words[max(0, min(k, len(words) - 1))][1] if words else 1

    if op == "delete":  # where the words were: after the word before them
        return at(a, i), at(b, j - 1), None
    if op == "insert" and i and j and b[j][1] == b[j - 1][1]:
        return at(a, i - 1), at(b, j), None  # they go on the line before
    return at(a, i), at(b, j), at(a, i - 1) if op == "insert" and i else None


def changes(old: Source, new: Source, context: int = 8) -> list[Change]:
    """The changes between the prose of ``old`` and ``new``, each with
    ``context`` words around it; changes closer than that are one."""
    a, b = (
        [(w, n) for n, line in counted(s) for w in line.split()] for s in (old, new)
    )
    words = [w for w, _ in a], [w for w, _ in b]
    matcher = SequenceMatcher(None, *words, autojunk=False)
    found = []
    for group in matcher.get_grouped_opcodes(context):
        parts: list[str] = []
        changed: list[str] = []
        lines: tuple[int, int, int | None] | None = None
        for op, i1, i2, j1, j2 in group:
            removed, added = " ".join(words[0][i1:i2]), " ".join(words[1][j1:j2])
            if op == "equal":
                parts.append(added)
                continue
            lines = lines or _lines(a, b, op, i1, j1)
            changed += [w for w in (removed, added) if w]
            parts += [f"[-{removed}-]"] if removed else []
            parts += [f"{{+{added}+}}"] if added else []
        if lines is not None:
            old_line, new_line, after = lines
            shown = " ".join(parts)
            found.append(Change(old_line, new_line, " ".join(changed), shown, after))
    return found


def word_diff(old: Source, new: Source, path: str, context: int = 8) -> list[str]:
    """``path:line: ... [-removed-] {+added+} ...`` for each change, at its
    line in ``path`` (the new version)."""
    return [f"{path}:{c.new_line}: {c.shown}" for c in changes(old, new, context)]


def glossary_of(page: Path) -> list[Term]:
    """The glossary of the docs folder holding ``page``; none if it has none."""
    folder = next((p for p in page.parents if p.name in LANGUAGES), page.parent)
    try:
        return load_glossary(folder.parent / "_data" / "glossary.toml")
    except ValueError:
        return []  # the check reports what is wrong with it


def terms_in(words: str, glossary: list[Term], lang: str) -> list[str]:
    """``gradient → 기울기`` for each term of ``glossary`` in ``words`` (in
    ``lang``), in order, a term within a longer one left out."""
    found: list[tuple[int, int, str]] = []
    for term in glossary:
        name, other = (term.en, term.ko) if lang == "en" else (term.ko, term.en)
        escaped = r"\s+".join(map(re.escape, name.split()))
        pattern = (
            rf"(?<![\w-]){escaped}(?:e?s)?(?![\w-])"
            if lang == "en"
            else rf"(?<!\w){escaped}"  # a particle may follow
        )
        found += [
            (m.start(), m.end(), f"{name} → {other}")
            for m in re.finditer(pattern, words, re.IGNORECASE)
        ]
    kept = [
        shown
        for start, end, shown in sorted(found)
        if not any(
            s <= start and end <= e and (s, e) != (start, end) for s, e, _ in found
        )
    ]
    return list(dict.fromkeys(kept))


def where_to_edit(pair: Pair, old: Source, new: Source) -> list[str]:
    """Each change from ``old`` to ``new`` (the source), then where the
    translation says what ``old`` said and the glossary's terms changed."""
    source, translation = Outline(old), Outline(read_source(pair.translation))
    glossary = glossary_of(pair.source)
    lines = []
    for change in changes(old, new):
        lines.append(f"{pair.source}:{change.new_line}: {change.shown}")
        place = source.place(change.old_line)
        if change.after is not None:
            before = source.place(change.after)
            if before.section != place.section:  # added at the end of a section
                ends = len(source.sections[before.section].paragraphs) + 1
                place = Place(before.section, ends)
        there = counterpart(source, translation, place)
        if there is None:
            missing = source.sections[place.section].name
            lines.append(
                f"  → {pair.translation}: no section here stands for {missing} of "
                f"{pair.source}: '{COMMAND} --strict' names where its heading goes"
            )
        else:
            at = translation.line(there)
            lines.append(f"  → {pair.translation}:{at} ({translation.describe(there)})")
        if terms := terms_in(change.words, glossary, pair.lang):
            lines.append(f"  glossary: {', '.join(terms)}")
    return lines


def _sections(outline: Outline, found: list[Change]) -> dict[int, int]:
    """Section -> the first changed line in it."""
    sections: dict[int, int] = {}
    for change in found:
        sections.setdefault(outline.section_of(change.new_line), change.new_line)
    return sections


def misplaced_edits(pair: Pair, sha: str) -> str | None:
    """A warning where the translation's edits since its source's prose left
    ``sha`` are in none of the sections matching the source's changes."""
    found = before_change(pair, sha)
    if found is None or found[1] is None:
        return None
    source, translation = read_source(pair.source), read_source(pair.translation)
    outlines = Outline(source), Outline(translation)
    changed = _sections(outlines[0], changes(parse_source(found[0]), source, 0))
    edited = _sections(outlines[1], changes(parse_source(found[1]), translation, 0))
    pairs = align(*outlines)
    if not changed or not edited or any(pairs.get(s) in edited for s in changed):
        return None
    where = " and ".join(
        f"{outlines[0].sections[s].name} ({pair.source}:{line})"
        for s, line in changed.items()
    )
    edits = " and ".join(
        f"{outlines[1].sections[s].name} (line {line})" for s, line in edited.items()
    )
    return (
        f"{pair.translation}: warning: the {NAMES[pair.lang]} changes are in "
        f"{where}, but this page's edits are in {edits}: check that the change "
        "was translated where it belongs"
    )
