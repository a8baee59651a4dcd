"""The structure check: a block a translation lost or gained, stretch by stretch.

In each pair of stretches (:func:`.sections.stretch_pairs`: the prose between
the same headings and code cells) the translation keeps the source's blocks
(:mod:`.blocks`): as many paragraphs and list items, the same admonitions in
the same order. :func:`compare_blocks` finds the first that differs, with
where the source has it.
"""

from __future__ import annotations

from ..page_structure import CODE_DIRECTIVES
from .blocks import ADMONITIONS, PROSE, Piece
from .parity import Found, first_difference
from .report import plural
from .sections import Stretch

# Directives a page may hold besides the admonitions.
KNOWN = PROSE | CODE_DIRECTIVES | {"toctree", "math", "code-cell", "glue:figure"}


def _admonitions(mine: Stretch, theirs: Stretch) -> Found | None:
    """The first admonition that one stretch lacks, or of another kind."""
    here, there = (
        [b for b in s.blocks if b.kind in ADMONITIONS] for s in (mine, theirs)
    )
    if (k := first_difference([b.kind for b in here], [b.kind for b in there])) is None:
        return _options(mine, here, theirs, there)
    renamed = [
        piece
        for piece in mine.pieces
        if piece.directive is not None
        and piece.directive.name not in {None, *ADMONITIONS, *KNOWN}
    ]
    if len(here) < len(there) and renamed:
        name = renamed[0].directive.name if renamed[0].directive else ""
        message = (
            f"{{{name}}} is not a directive: directive names stay as in the "
            f"source, here {{{there[k].kind}}} ({theirs.path}:{there[k].line})"
        )
        return (mine.path, renamed[0].line, message)
    if len(here) < len(there):
        message = (
            f"{mine} has {plural(len(here), 'admonition')}, {theirs.path} has "
            f"{len(there)} there: its {{{there[k].kind}}} at line {there[k].line} "
            "is missing here: translate it"
        )
        return (mine.path, here[k].line if k < len(here) else mine.line, message)
    if len(here) > len(there):
        message = (
            f"{mine}: this {{{here[k].kind}}} has no counterpart in {theirs.path} "
            f"({theirs}, from line {theirs.line}): remove it, or add it to the "
            "source first"
        )
        return (mine.path, here[k].line, message)
    message = (
        f"{mine}: this {{{here[k].kind}}} is a {{{there[k].kind}}} in "
        f"{theirs.path}:{there[k].line}: use the source's directive"
    )
    return (mine.path, here[k].line, message)


def _options(
    mine: Stretch, here: list[Piece], theirs: Stretch, there: list[Piece]
) -> Found | None:
    """The first option of an admonition that differs from its source's: an
    option is markup (``:class: from-the-notes``), not prose to translate."""
    for ours, source in zip(here, there, strict=True):
        if ours.directive is None or source.directive is None:
            continue
        for key in sorted(ours.directive.options.keys() | source.directive.options):
            value = ours.directive.options.get(key)
            wanted = source.directive.options.get(key)
            if value != wanted:
                message = (
                    f"{mine}: this {{{ours.kind}}}'s option :{key}: is {value!r}, "
                    f"{wanted!r} in {theirs.path}:{source.line}: options stay as "
                    "in the source (only the title and the text are translated)"
                )
                return (mine.path, ours.line, message)
    return None


def _starts(stretch: Stretch, kind: str) -> str:
    """The first words of each block of ``kind`` in ``stretch``, quoted,
    with its line: which one the translation lacks, a reader tells at once."""
    return ", ".join(
        f"{' '.join(' '.join(line for _, line in b.lines).split()[:5])!r} "
        f"(line {b.line})"
        for b in stretch.blocks
        if b.kind == kind
    )


def _counts(mine: Stretch, theirs: Stretch) -> Found | None:
    """A different number of list items or paragraphs in the two stretches."""
    for kind, name in (("item", "list item"), ("paragraph", "paragraph")):
        n, m = (sum(b.kind == kind for b in s.blocks) for s in (mine, theirs))
        if n == m:
            continue
        if n < m:
            why = (
                f"a {name} is missing or two were merged: translate the missing "
                f"one, or split them as the source does. The source's {name}s "
                f"there start: {_starts(theirs, kind)}"
            )
        else:
            why = (
                f"a {name} was added or one was split: keep the source's "
                f"{name}s (a blank line separates two)"
            )
        message = (
            f"{mine} has {plural(n, name)}, {theirs.path} has {m} there "
            f"(from line {theirs.line}): {why}"
        )
        return (mine.path, mine.line, message)
    return None


def compare_blocks(mine: Stretch, theirs: Stretch) -> Found | None:
    """The first admonition, list item or paragraph that ``mine`` (of the
    translation) lost or gained against ``theirs`` (of its source)."""
    return _admonitions(mine, theirs) or _counts(mine, theirs)
