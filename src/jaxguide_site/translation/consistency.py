"""Do ``docs/ko`` and ``docs/en`` still say the same? :func:`check` answers.

The check is a pipeline: each stage takes what the one before it produced,
and no stage reads a page again or changes what another found.

1. **Read** (:mod:`.reading`): every page of both languages, paired by name,
   ``[in_progress]`` and the glossary. A page that does not read (front
   matter that is not YAML, a fence never closed) is *broken*: reported, not
   compared.
2. **State** (:mod:`.states`): which page of a pair is the translation,
   whether its stamp (:mod:`.stamps`) still matches its source's prose, and
   so its state. A translation whose source's prose changed since it was
   stamped is *stale*: a warning, which the strict check (``--strict``, the
   tests, CI) fails on.
3. **Structure**, **prose**, **terms** (:mod:`.page_checks`): what the two
   languages share (code cells, headings, each stretch's structure and
   markup, labels, toctrees), each page's prose on its own, the glossary's
   terms and measured code's labels across the pair.
4. **Report**: the findings, in the order of the files, and each page's state.

A page that exists in one language only is an error, unless it is being
translated: listed under ``[in_progress]`` in ``docs/_data/translations.toml``
in the language it is missing in. Such a page is named in the report; the
other language must not list it in a toctree or link to it (the strict build
fails on both), and the site shows a page pointing to the original there.
"""

from __future__ import annotations

from pathlib import Path

from ..languages import LANGUAGES
from . import page_checks
from .reading import read
from .report import Findings, PageState, Problem, Report
from .states import page_state, state_of


def check(docs: Path, *, states_only: bool = False) -> Report:
    """Check the pages of ``docs`` (the folder holding ko/, en/ and _data/).
    ``states_only``: find each page's state (the status table's), not what is
    wrong with its prose, in a fraction of the time."""
    site = read(docs, glossary=not states_only)
    findings = Findings(site.problems)
    states: list[PageState] = []
    for pair in site.pairs():
        stamped = state_of(pair, site)
        findings += Findings(pair.broken) + stamped.findings
        if not states_only and not pair.broken:
            findings += page_checks.structure(pair, stamped, site)
            findings += page_checks.each_prose(pair, site)
            findings += page_checks.terms(pair, stamped, site)
        states.append(page_state(pair, stamped, docs.parent))
    return Report(
        _in_order(findings.errors),
        _in_order(findings.warnings),
        _in_order(findings.notes),
        states,
    )


def _in_order(problems: tuple[Problem, ...]) -> list[Problem]:
    """``problems`` as a translator fixes them: the data files first, then
    each language's pages (in the order of LANGUAGES), file by file, what
    concerns a whole page before its lines, top to bottom."""

    def place(problem: Problem) -> tuple[int, str, int]:
        folder = Path(problem.path).parts[1]  # docs/<lang>/... or docs/_data/...
        rank = LANGUAGES.index(folder) + 1 if folder in LANGUAGES else 0
        return rank, problem.path, problem.line or 0

    return sorted(problems, key=place)
