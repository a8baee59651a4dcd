"""The check's second stage: each pair's state, from the stamp it carries.

A translation declares ``translated_from`` (its source's language and
``prose_sha``, :mod:`.stamps`); its source does not. :func:`state_of` reads
which page of a pair is the translation, whether its stamp still matches its
source's prose, and so the page's state (one of :data:`.report.STATES`). A
translation whose source's prose changed since it was stamped is *stale*: a
warning, and what it lacks of the new prose is expected, so the stages after
this one report it as part of that warning (:attr:`Stamped.source_changed`).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..languages import LANGUAGES
from .command import COMMAND
from .prose import english_paragraphs
from .reading import PagePair, Site
from .report import DATA, Findings, Page, PageState, Problem, plural
from .reviews import reviewed
from .stamps import SHA, text_sha


@dataclass(frozen=True)
class Stamped:
    """A pair's state, what its stamps say is wrong, and which page is which."""

    state: str
    findings: Findings
    translation: Page | None = None  # of a pair written in both languages
    source: Page | None = None
    source_changed: bool = False  # since the translation's stamp


def state_of(pair: PagePair, site: Site) -> Stamped:
    """The state of ``pair``, and the problems of its stamps."""
    if pair.broken:
        return Stamped("broken", Findings())  # not compared until it reads
    if len(pair.pages) == 2:
        return _translated(pair, site)
    page = pair.pages[0]
    missing = next(lang for lang in LANGUAGES if lang != page.lang)
    origin = _origin(page, site)
    errors = (origin,) if isinstance(origin, Problem) else ()
    listed = f"[in_progress] {missing} in {site.docs.name}/{DATA}"
    if pair.name in site.progress[missing]:
        message = (
            f"in progress: {page.twin(missing)} is being translated "
            f"(listed under {listed})"
        )
        return Stamped(
            "in progress", Findings(errors, notes=(Problem(page.rel, None, message),))
        )
    message = (
        f"{page.twin(missing)} is missing: translate the page, or list it "
        f"under {listed}"
    )
    return Stamped("missing", Findings((*errors, Problem(page.rel, None, message))))


def page_state(pair: PagePair, stamped: Stamped, root: Path) -> PageState:
    """The row of the status table for ``pair``."""
    date = _last_update(root, [root / page.rel for page in pair.pages])
    waiting = [
        page.rel
        for page in pair.pages
        if stamped.state == "translated"
        and "translated_from" in page.text.meta
        and not reviewed(page.text)
    ]
    written_in = tuple(page.lang for page in pair.pages)
    return PageState(
        pair.name, stamped.state, written_in, date, waiting[0] if waiting else None
    )


def _translated(pair: PagePair, site: Site) -> Stamped:
    """The state of a page written in both languages. A draft needs no stamp
    yet."""
    ko, en = pair.pages
    origins = {page.lang: _origin(page, site) for page in (ko, en)}
    errors = [o for o in origins.values() if isinstance(o, Problem)]
    declaring = [page for page in (ko, en) if origins[page.lang] is not None]
    tr, src = (ko, en) if declaring != [en] else (en, ko)
    recorded = origins[tr.lang] if len(declaring) == 1 else None
    current = text_sha(src.text)
    changed = isinstance(recorded, str) and recorded != current

    notes = () if pair.draft is None else (_draft_note(pair.draft, site),)

    def stamped(
        state: str, *problems: Problem, warning: Problem | None = None
    ) -> Stamped:
        warnings = (warning,) if warning else ()
        findings = Findings((*errors, *problems), warnings, notes)
        return Stamped(state, findings, tr, src, changed)

    if pair.draft is not None and len(declaring) < 2:
        return stamped("draft")
    if not declaring:
        message = (
            f"neither this page nor {en.rel} declares translated_from: the "
            "translation must, its source must not. Once the translation says "
            f"what its source says, stamp it: '{COMMAND} stamp {ko.rel}'"
        )
        return stamped("unstamped", Problem(ko.rel, None, message))  # never stale
    if len(declaring) == 2:
        message = (
            f"both this page and {en.rel} declare translated_from: the "
            "translation must, its source must not: remove it from the source"
        )
        return stamped("stale", Problem(ko.rel, None, message))
    if not isinstance(recorded, str):
        return stamped("stale")  # the stamp does not read: an error above
    if not changed:
        return stamped("translated")
    message = (
        f"stale translation of {src.rel}: its prose changed since this page was "
        f"stamped (prose_sha {recorded}, now {current}). If this page is "
        f"updated, stamp it: '{COMMAND} stamp {tr.rel}'; if not, see what "
        f"changed: '{COMMAND} diff {tr.rel}'"
    )
    line = tr.text.meta_lines.get("translated_from")
    return stamped("stale", warning=Problem(tr.rel, line, message))


def _origin(page: Page, site: Site) -> str | Problem | None:
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
    elif page.name not in site.pages[lang]:
        message = f"translated_from names {page.twin(lang)}, which does not exist"
    else:
        return sha
    return Problem(page.rel, page.text.meta_lines.get("translated_from"), message)


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


def _draft_note(page: Page, site: Site) -> Problem:
    """What is left of a draft, and how it stops being one."""
    left = list(english_paragraphs(page)) if page.lang == "ko" else []
    listed = f"[in_progress] {page.lang} in {site.docs.name}/{DATA}"
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
