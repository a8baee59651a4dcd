"""The check's first stage: read the docs folder into pairs of pages.

:func:`read` reads every page of each language (:func:`.pages.written_pages`,
:func:`.parity.read_source`), ``[in_progress]`` of
``docs/_data/translations.toml`` and, unless only the pages' states are
wanted, the glossary. What it cannot read is a problem it keeps (:class:`Site`
``.problems``); the later stages take the :class:`Site` and its
:class:`PagePair`\\ s and never read a file again.

A page whose front matter is not YAML, or with a fence never closed, is
*broken*: every other check would blame text that is fine, so its pair is
only reported, not compared.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..languages import LANGUAGES
from .glossary import Term, load_glossary
from .pages import in_progress_table, written_pages
from .parity import read_source, targets
from .report import DATA, Page, Problem, did_you_mean

GLOSSARY = "_data/glossary.toml"


@dataclass(frozen=True)
class Language:
    """What a page's language has: its pages, those being translated into
    it (not there yet) and the ``{ref}`` targets of its pages; and the labels
    of the pages its pages translate (``paired``): a ``{ref}`` to one of
    those that it lacks is reported once, at the translation that lacks the
    label (:mod:`.labels`), not at each link."""

    names: frozenset[str]
    progress: frozenset[str]
    labels: frozenset[str]
    paired: frozenset[str] = frozenset()


@dataclass(frozen=True)
class PagePair:
    """A page by name, in the languages it is written in (one or both)."""

    name: str
    pages: tuple[Page, ...]  # in the order of LANGUAGES
    broken: tuple[Problem, ...]  # why it does not read: not compared
    draft: Page | None  # the page, if one is listed as partly translated


@dataclass(frozen=True)
class Site:
    """Everything the later stages check, read once."""

    docs: Path
    pages: dict[str, dict[str, Page]]  # by language, by name
    progress: dict[str, frozenset[str]]  # by language: missing while translated
    drafts: dict[str, frozenset[str]]  # by language: written, partly
    languages: dict[str, Language]  # by language: what its prose may link to
    glossary: list[Term] | None  # None: only the states are wanted
    problems: tuple[Problem, ...]  # translations.toml or glossary.toml unread

    def pairs(self) -> list[PagePair]:
        """Every page, by name, with what keeps it from being compared."""
        found = []
        for name in sorted(self.pages["ko"].keys() | self.pages["en"].keys()):
            written = tuple(
                self.pages[lang][name] for lang in LANGUAGES if name in self.pages[lang]
            )
            broken = tuple(problem for page in written for problem in _broken(page))
            draft = next(
                (page for page in written if name in self.drafts[page.lang]), None
            )
            found.append(PagePair(name, written, broken, draft))
        return found


def read(docs: Path, *, glossary: bool = True) -> Site:
    """Read ``docs`` (the folder holding ko/, en/ and _data/); without
    ``glossary``, the glossary is not read (only the states are wanted)."""
    pages = _pages(docs)
    problems: list[Problem] = []
    progress, drafts = _in_progress(docs, pages, problems)
    terms = _glossary(docs, problems) if glossary else None
    languages = {
        lang: Language(
            frozenset(pages[lang]),
            progress[lang],
            frozenset(t for page in pages[lang].values() for t in targets(page.text)),
            _paired_labels(pages, lang),
        )
        for lang in LANGUAGES
    }
    return Site(docs, pages, progress, drafts, languages, terms, tuple(problems))


def _pages(docs: Path) -> dict[str, dict[str, Page]]:
    """Every page of each language, by name."""
    pages: dict[str, dict[str, Page]] = {lang: {} for lang in LANGUAGES}
    for lang in LANGUAGES:
        for name in written_pages(docs / lang):
            path = docs / lang / f"{name}.md"
            rel = path.relative_to(docs.parent).as_posix()
            pages[lang][name] = Page(rel, lang, name, read_source(path))
    return pages


def _in_progress(
    docs: Path, pages: dict[str, dict[str, Page]], problems: list[Problem]
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """``[in_progress]``: the pages missing in each language while translated,
    and the drafts: those listed that are written, partly."""
    where = f"{docs.name}/{DATA}"
    progress: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    drafts: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    try:
        table = in_progress_table(docs)
    except tomllib.TOMLDecodeError as exc:
        problems.append(Problem(where, None, f"not valid TOML: {exc}"))
        table = {}
    for lang, names in table.items() if isinstance(table, dict) else ():
        if lang not in LANGUAGES or not isinstance(names, list):
            message = (
                f"[in_progress] {lang} = {names!r}: expected a list of page names "
                f"under one of {', '.join(LANGUAGES)}"
            )
            problems.append(Problem(where, None, message))
            continue
        other = next(code for code in LANGUAGES if code != lang)
        for name in map(str, names):
            if name in pages[lang]:
                drafts[lang].add(name)  # written, partly: a draft
                continue
            if name not in pages[other]:
                hint = did_you_mean(name, pages[other].keys() - pages[lang].keys())
                message = (
                    f"[in_progress] {lang} lists {name!r}, but there is no "
                    f"{docs.name}/{other}/{name}.md to translate{hint}"
                )
                problems.append(Problem(where, None, message))
            progress[lang].add(name)
    return (
        {lang: frozenset(names) for lang, names in progress.items()},
        {lang: frozenset(names) for lang, names in drafts.items()},
    )


def _glossary(docs: Path, problems: list[Problem]) -> list[Term]:
    try:
        return load_glossary(docs / GLOSSARY)
    except ValueError as exc:
        problems.append(Problem(f"{docs.name}/{GLOSSARY}", None, str(exc)))
        return []


def _paired_labels(pages: dict[str, dict[str, Page]], lang: str) -> frozenset[str]:
    """The labels of the pages that ``lang``'s pages translate. A page that
    declares ``translated_from`` counts as the translation here, before
    :mod:`.states` decides it (both pages declaring, or a stamp that does not
    read, is an error there, so the labels only need to be right for the rest)."""
    other = next(code for code in LANGUAGES if code != lang)
    return frozenset(
        label
        for name, page in pages[other].items()
        if name in pages[lang] and "translated_from" in pages[lang][name].text.meta
        for _, label in page.text.structure.labels
    )


def _broken(page: Page) -> list[Problem]:
    """What makes the page's other checks wrong until it is fixed: front
    matter that is not YAML (its stamp and labels unread), an unclosed fence."""
    found = _unclosed_fences(page)
    if page.text.meta_error:
        message = (
            f"{page.text.meta_error}. This page's other checks wait until its "
            "front matter is valid YAML (a value with a colon, or one starting "
            "with a quote, goes in single quotes)"
        )
        found.insert(0, Problem(page.rel, page.text.meta_error_line or 1, message))
    return found


def _unclosed_fences(page: Page) -> list[Problem]:
    """A fence never closed takes the rest of the page (or of the directive
    holding it) into itself: reported alone, at the fence's line."""
    problems = []
    for found in page.text.structure.unclosed:
        fence = found.fence
        marker = fence[: len(fence) - len(fence.lstrip(fence[0]))]
        if found.swallows:
            what = (
                f"has no closing line before line {found.swallows}, whose fence "
                "it takes in as code (the next closing line closes this one)"
            )
        else:
            what = "is never closed, so it takes in everything after it"
            if found.inside:
                what += (
                    f"; it sits inside the fence opened at line {found.inside}, "
                    "which may be the one missing its closing line (the closing "
                    "line meant for this one then closes that one)"
                )
        message = (
            f"the fence {fence!r} opened here {what}: close each fence with a "
            f"line of {marker} (or more) where it ends. This page's other checks "
            "wait until it is closed"
        )
        problems.append(Problem(page.rel, found.line, message))
    return problems
