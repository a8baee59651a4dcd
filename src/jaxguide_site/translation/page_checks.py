"""The check's middle stages, each given a pair and its state, each
returning what it found: :func:`structure` (what the two languages share:
code cells, headings, the structure and markup of each stretch, labels,
toctrees), :func:`each_prose` (each page's prose on its own) and :func:`terms`
(the glossary's terms and the labels of measured code, across the pair).

What a translation lacks of its source's prose is an error, or, where the
source changed since the translation was stamped, part of its stale warning
(:func:`_in_prose`): the new words are expected to be missing.
"""

from __future__ import annotations

from itertools import zip_longest

from .headings import compare_headings
from .labels import compare_labels
from .markup import drift
from .output_labels import figure_words, untranslated_labels
from .parity import Found, compare, first_difference, toctrees
from .prose import check_prose
from .reading import PagePair, Site
from .report import Findings, Page, Problem, did_you_mean
from .states import Stamped
from .term_pairs import unpaired_terms


def structure(pair: PagePair, stamped: Stamped, site: Site) -> Findings:
    """What the two languages must share, and the toctree entries of each page."""
    found = [problem for page in pair.pages for problem in _entries(page, site)]
    tr, src = stamped.translation, stamped.source
    if tr is None or src is None:
        return Findings(tuple(found))
    found += [Problem(*f) for f in compare(tr.rel, tr.text, src.rel, src.text)]
    ko, en = pair.pages
    found += _toctrees(ko, en, site)
    in_prose = [
        *compare_headings(tr.rel, tr.text, src.rel, src.text),
        *drift(tr, src, site.pages[tr.lang]),
        *compare_labels(tr.rel, tr.text, src.rel, src.text),
    ]
    return Findings(tuple(found)) + _in_prose(in_prose, stamped)


def each_prose(pair: PagePair, site: Site) -> Findings:
    """Each page's prose on its own (:mod:`.prose`)."""
    assert site.glossary is not None
    found = tuple(
        problem
        for page in pair.pages
        for problem in check_prose(
            page, site.languages[page.lang], site.glossary, page is pair.draft
        )
    )
    return Findings(found)


def terms(pair: PagePair, stamped: Stamped, site: Site) -> Findings:
    """The glossary's terms a translation leaves unpaired; the labels of
    measured code left untranslated, or figure words in English."""
    assert site.glossary is not None
    tr, src = stamped.translation, stamped.source
    if tr is None or src is None:
        return Findings()
    ko, en = pair.pages
    found = (
        []
        if pair.draft
        else [
            *unpaired_terms(tr, src, site.glossary),
            *untranslated_labels(ko.rel, ko.text),
        ]
    )
    return _in_prose([*found, *figure_words(en.rel, en.text)], stamped)


def _in_prose(found: list[Found], stamped: Stamped) -> Findings:
    """Errors, or, once the source changed since the stamp, warnings."""
    if not stamped.source_changed:
        return Findings(tuple(Problem(*f) for f in found))
    return Findings(
        warnings=tuple(
            Problem(path, line, f"{message} (the source changed since the stamp)")
            for path, line, message in found
        )
    )


def _toctrees(ko: Page, en: Page, site: Site) -> list[Problem]:
    """Both pages' toctrees list the same pages, but those being translated
    into one language, which only the other lists."""
    found = []
    pending = site.progress["ko"] | site.progress["en"]  # named by _entries
    trees = zip_longest(toctrees(ko.text), toctrees(en.text))
    for number, (mine, theirs) in enumerate(trees, 1):
        if mine is None or theirs is None:
            page, other, tree = (ko, en, mine) if theirs is None else (en, ko, theirs)
            assert tree is not None
            message = f"toctree {number} has no counterpart in {other.rel}"
            found.append(Problem(page.rel, tree.line, message))
            continue
        here = [(n, name) for n, name in mine.entries if name not in pending]
        there = [name for _, name in theirs.entries if name not in pending]
        if (k := first_difference([name for _, name in here], there)) is None:
            continue
        line = here[k][0] if k < len(here) else mine.line
        listed = repr(here[k][1]) if k < len(here) else "nothing"
        wanted = repr(there[k]) if k < len(there) else "nothing"
        message = (
            f"toctree {number}, entry {k + 1}: {listed} here, {wanted} in {en.rel} "
            "(both languages list the same pages in the same order)"
        )
        found.append(Problem(ko.rel, line, message))
    return found


def _entries(page: Page, site: Site) -> list[Problem]:
    """Toctree entries naming a page the language does not have."""
    pages, progress = site.pages[page.lang], site.progress[page.lang]
    found = []
    for tree in toctrees(page.text):
        for line, name in tree.entries:
            if name in pages:
                continue
            if name in progress:
                message = (
                    f"toctree lists {name!r}, which is being translated (listed under "
                    f"[in_progress] {page.lang}): the strict build fails on a toctree "
                    f"entry with no page, so leave it out of {page.rel} until "
                    f"{page.twin(page.lang, name)} is in"
                )
            else:
                hint = did_you_mean(name, pages)
                message = (
                    f"toctree lists {name!r}: {page.twin(page.lang, name)} does not "
                    f"exist{hint}"
                )
            found.append(Problem(page.rel, line, message))
    return found
