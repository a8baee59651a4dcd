"""Do ``docs/ko`` and ``docs/en`` still say the same? :func:`check` answers.

Each page is compared with the page of the same name in the other language
(code cells, kernelspec and figures: :func:`.parity.compare`; headings:
:mod:`.headings`; the structure and markup of each stretch:
:func:`.markup.drift`; labels: :mod:`.labels`; the labels of measured code:
:mod:`.output_labels`), the toctrees of the two
languages list the same pages, and each page's prose is checked on its own
(:mod:`.prose`). A translation whose source's prose
changed since it was stamped (:mod:`.stamps`) is *stale*: a warning, which
the strict check (``--strict``, the tests, CI) fails on.

A page that exists in one language only is an error, unless it is being
translated: listed under ``[in_progress]`` in ``docs/_data/translations.toml``
in the language it is missing in. Such a page is named in the report; the
other language must not list it in a toctree or link to it (the strict build
fails on both), and the site shows a page pointing to the original there.
"""

from __future__ import annotations

import subprocess
import tomllib
from itertools import zip_longest
from pathlib import Path

from ..languages import LANGUAGES
from .command import COMMAND
from .glossary import Term, load_glossary
from .headings import compare_headings
from .labels import compare_labels
from .markup import drift
from .output_labels import figure_words, untranslated_labels
from .pages import in_progress_table, written_pages
from .parity import (
    Found,
    compare,
    first_difference,
    read_source,
    targets,
    toctrees,
)
from .prose import Language, check_prose, english_paragraphs
from .report import (
    DATA,
    Page,
    PageState,
    Problem,
    Report,
    did_you_mean,
    plural,
)
from .reviews import reviewed
from .stamps import SHA, text_sha
from .term_pairs import unpaired_terms


def _last_update(root: Path, files: list[Path]) -> str | None:
    """Date of the last commit touching ``files``; None without git or commit."""
    command = ["git", "log", "-1", "--format=%cs", "--", *map(str, files)]
    try:
        done = subprocess.run(
            command, cwd=root, capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def _origin(page: Page, pages: dict[str, dict[str, Page]]) -> str | Problem | None:
    """The prose_sha ``page`` records, or what is wrong with its translated_from."""
    if "translated_from" not in page.text.meta:
        return None
    origin = page.text.meta["translated_from"]
    fields = origin if isinstance(origin, dict) else {}
    lang, sha = fields.get("lang"), fields.get("prose_sha")
    if lang not in LANGUAGES or lang == page.lang:
        message = f"translated_from: lang must be the other language, not {lang!r}"
    elif not isinstance(sha, str) or not SHA.fullmatch(sha):
        message = "translated_from: prose_sha must be a string of 12 hex digits"
    elif page.name not in pages[lang]:
        message = f"translated_from names {page.twin(lang)}, which does not exist"
    else:
        return sha
    return Problem(page.rel, page.text.meta_lines.get("translated_from"), message)


def _in_prose(
    ko: Page,
    en: Page,
    tr: Page,
    src: Page,
    pages: dict[str, dict[str, Page]],
    glossary: list[Term],
    draft: bool,
) -> list[Found]:
    """Where the translation ``tr``'s prose differs from its source ``src``'s."""
    return [
        *compare_headings(tr.rel, tr.text, src.rel, src.text),
        *drift(tr, src, pages[tr.lang]),
        *compare_labels(tr.rel, tr.text, src.rel, src.text),
        *([] if draft else unpaired_terms(tr, src, glossary)),
        *([] if draft else untranslated_labels(ko.rel, ko.text)),
        *figure_words(en.rel, en.text),
    ]


def _pair(
    ko: Page,
    en: Page,
    pages: dict[str, dict[str, Page]],
    report: Report,
    glossary: list[Term] | None,
    draft: bool,
) -> str:
    """Check a page that exists in both languages; its state. A ``draft`` is
    checked for structure only: its English left in is expected, and it
    needs no stamp yet. Without a ``glossary``, only the state is found."""
    origins = {page.lang: _origin(page, pages) for page in (ko, en)}
    report.errors += [o for o in origins.values() if isinstance(o, Problem)]
    declaring = [page for page in (ko, en) if origins[page.lang] is not None]
    tr, src = (ko, en) if declaring != [en] else (en, ko)
    if glossary is None:
        in_prose = []
    else:
        report.errors += [
            Problem(*f) for f in compare(tr.rel, tr.text, src.rel, src.text)
        ]
        in_prose = _in_prose(ko, en, tr, src, pages, glossary, draft)
    recorded = origins[tr.lang] if len(declaring) == 1 else None
    if isinstance(recorded, str) and recorded != text_sha(src.text):
        # The source's prose changed since the stamp, so its new words are
        # expected to be missing here: part of the stale warning, not errors.
        report.warnings += [
            Problem(path, line, f"{message} (the source changed since the stamp)")
            for path, line, message in in_prose
        ]
    else:
        report.errors += [Problem(*f) for f in in_prose]
    if draft and len(declaring) < 2:
        return "draft"
    if not declaring:
        message = (
            f"neither this page nor {en.rel} declares translated_from: the "
            "translation must, its source must not. Once the translation says "
            f"what its source says, stamp it: '{COMMAND} stamp {ko.rel}'"
        )
        report.errors.append(Problem(ko.rel, None, message))
        return "unstamped"  # never stamped: not stale
    if len(declaring) == 2:
        message = (
            f"both this page and {en.rel} declare translated_from: the "
            "translation must, its source must not: remove it from the source"
        )
        report.errors.append(Problem(ko.rel, None, message))
        return "stale"
    if not isinstance(recorded := origins[tr.lang], str):
        return "stale"
    if recorded == (current := text_sha(src.text)):
        return "translated"
    message = (
        f"stale translation of {src.rel}: its prose changed since this page was "
        f"stamped (prose_sha {recorded}, now {current}). If this page is "
        f"updated, stamp it: '{COMMAND} stamp {tr.rel}'; if not, see what "
        f"changed: '{COMMAND} diff {tr.rel}'"
    )
    line = tr.text.meta_lines.get("translated_from")
    report.warnings.append(Problem(tr.rel, line, message))
    return "stale"


def _in_progress(
    docs: Path, pages: dict[str, dict[str, Page]], report: Report
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``[in_progress]``: the pages missing in each language while translated,
    and the drafts: those listed that are written, partly."""
    where = f"{docs.name}/{DATA}"
    progress: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    drafts: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    try:
        table = in_progress_table(docs)
    except tomllib.TOMLDecodeError as exc:
        report.errors.append(Problem(where, None, f"not valid TOML: {exc}"))
        return progress, drafts
    for lang, names in table.items() if isinstance(table, dict) else ():
        if lang not in LANGUAGES or not isinstance(names, list):
            message = (
                f"[in_progress] {lang} = {names!r}: expected a list of page names "
                f"under one of {', '.join(LANGUAGES)}"
            )
            report.errors.append(Problem(where, None, message))
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
                report.errors.append(Problem(where, None, message))
            progress[lang].add(name)
    return progress, drafts


def _toctrees(ko: Page, en: Page, progress: dict[str, set[str]]) -> list[Problem]:
    """Both pages' toctrees list the same pages, but those being translated
    into one language, which only the other lists."""
    found = []
    trees = zip_longest(toctrees(ko.text), toctrees(en.text))
    for number, (mine, theirs) in enumerate(trees, 1):
        if mine is None or theirs is None:
            page, other, tree = (ko, en, mine) if theirs is None else (en, ko, theirs)
            assert tree is not None
            message = f"toctree {number} has no counterpart in {other.rel}"
            found.append(Problem(page.rel, tree.line, message))
            continue
        pending = progress["ko"] | progress["en"]  # named by _entries if listed
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


def _entries(page: Page, pages: dict[str, Page], progress: set[str]) -> list[Problem]:
    """Toctree entries naming a page the language does not have."""
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


def _unclosed_fences(page: Page) -> list[Problem]:
    """A fence never closed takes the rest of the page (or of the directive
    holding it) into itself: every other check would then blame text that is
    fine, so this is reported alone, at the fence's line."""
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


def _draft_note(page: Page, docs: Path) -> Problem:
    """What is left of a draft, and how it stops being one."""
    left = list(english_paragraphs(page)) if page.lang == "ko" else []
    listed = f"[in_progress] {page.lang} in {docs.name}/{DATA}"
    if left:
        what = (
            f"{plural(len(left), 'paragraph')} still in English, the first at "
            f"line {left[0]}; the site shows the page with a banner saying it "
            "is partly translated"
        )
    else:
        what = "no paragraph is left in English"
    message = (
        f"draft ({what}). Once it is translated, remove {page.name!r} from "
        f"{listed} and stamp it: '{COMMAND} stamp {page.rel}'"
    )
    return Problem(page.rel, None, message)


def _structural(page: Page) -> list[Problem]:
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


def _read(docs: Path) -> dict[str, dict[str, Page]]:
    """Every page of each language, by name (:func:`.pages.written_pages`)."""
    pages: dict[str, dict[str, Page]] = {lang: {} for lang in LANGUAGES}
    for lang in LANGUAGES:
        for name in written_pages(docs / lang):
            path = docs / lang / f"{name}.md"
            rel = path.relative_to(docs.parent).as_posix()
            pages[lang][name] = Page(rel, lang, name, read_source(path))
    return pages


def _paired_labels(pages: dict[str, dict[str, Page]], lang: str) -> frozenset[str]:
    """The labels of the pages that ``lang``'s pages translate."""
    other = next(code for code in LANGUAGES if code != lang)
    return frozenset(
        label
        for name, page in pages[other].items()
        if name in pages[lang] and "translated_from" in pages[lang][name].text.meta
        for _, label in page.text.structure.labels
    )


def _glossary(docs: Path, report: Report) -> list[Term]:
    try:
        return load_glossary(docs / "_data" / "glossary.toml")
    except ValueError as exc:
        report.errors.append(
            Problem(f"{docs.name}/_data/glossary.toml", None, str(exc))
        )
        return []


def check(docs: Path, *, states_only: bool = False) -> Report:
    """Check the pages of ``docs`` (the folder holding ko/, en/ and _data/).
    ``states_only``: find each page's state (the status table's), not what is
    wrong with its prose, in a fraction of the time."""
    root, report = docs.parent, Report()
    pages = _read(docs)
    progress, drafts = _in_progress(docs, pages, report)
    glossary = None if states_only else _glossary(docs, report)
    languages = {
        lang: Language(
            frozenset(pages[lang]),
            frozenset(progress[lang]),
            frozenset(t for page in pages[lang].values() for t in targets(page.text)),
            _paired_labels(pages, lang),
        )
        for lang in LANGUAGES
    }
    for name in sorted(pages["ko"].keys() | pages["en"].keys()):
        found = [pages[lang][name] for lang in LANGUAGES if name in pages[lang]]
        broken = [problem for page in found for problem in _structural(page)]
        report.errors += broken
        draft = next((page for page in found if name in drafts[page.lang]), None)
        for page in [] if broken else found:
            if glossary is not None:  # not states_only
                here = languages[page.lang]
                report.errors += check_prose(page, here, glossary, page is draft)
                report.errors += _entries(page, pages[page.lang], progress[page.lang])
        if broken:
            state = "broken"  # not compared until it reads
        elif len(found) == 2:
            state = _pair(
                found[0], found[1], pages, report, glossary, draft is not None
            )
            if glossary is not None:
                report.errors += _toctrees(found[0], found[1], progress)
            if draft is not None:
                report.notes.append(_draft_note(draft, docs))
        else:
            page = found[0]
            missing = next(lang for lang in LANGUAGES if lang != page.lang)
            if isinstance(origin := _origin(page, pages), Problem):
                report.errors.append(origin)
            state = "in progress" if name in progress[missing] else "missing"
            if state == "in progress":
                message = (
                    f"in progress: {page.twin(missing)} is being translated "
                    f"(listed under [in_progress] {missing} in {docs.name}/{DATA})"
                )
                report.notes.append(Problem(page.rel, None, message))
            else:
                message = (
                    f"{page.twin(missing)} is missing: translate the page, or list "
                    f"it under [in_progress] {missing} in {docs.name}/{DATA}"
                )
                report.errors.append(Problem(page.rel, None, message))
        date = _last_update(root, [root / page.rel for page in found])
        waiting = [
            page.rel
            for page in found
            if state == "translated"
            and "translated_from" in page.text.meta
            and not reviewed(page.text)
        ]
        written_in = tuple(p.lang for p in found)
        review = waiting[0] if waiting else None
        report.pages.append(PageState(name, state, written_in, date, review))
    return report
