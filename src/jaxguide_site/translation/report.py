"""What the translation checker reports: problems where they are, page states.

Shared by the check's stages (:mod:`.consistency` runs them) and the
checker's command (:mod:`.checker`). Imports no Sphinx.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import TYPE_CHECKING

from ..languages import PROJECT_DOCS, read_languages

if TYPE_CHECKING:  # the command imports this module before the toolchain
    from .parity import Source

# Where each message is explained: each language's contributing page, section.
EXPLAINED = {
    "en": ("docs/en/contributing.md", "Checking both languages"),
    "ko": ("docs/ko/contributing.md", "두 언어 맞춰 보기"),
}
# Where the work to pick up is explained: each contributing page, section.
HOW_TO_HELP = {
    "en": ("docs/en/contributing.md", "How to help"),
    "ko": ("docs/ko/contributing.md", "도울 수 있는 일"),
}
DATA = "_data/translations.toml"  # [in_progress] ko = [...], en = [...]
STATES = (
    "translated",
    "stale",
    "unstamped",
    "draft",
    "in progress",
    "missing",
    "broken",  # its front matter or a fence does not read: see the error
)
# Each language, in messages.
NAMES = {
    language.code: language.english_name for language in read_languages(PROJECT_DOCS)
}


@dataclass(frozen=True)
class Problem:
    path: str  # relative to the repository root: docs/ko/jit.md
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class PageState:
    name: str
    state: str  # one of STATES
    languages: tuple[str, ...]  # the languages the page exists in
    last_update: str | None  # YYYY-MM-DD of the last commit touching its files
    review: str | None = None  # a translated page's: its translation's path,
    # where it waits for a review (:mod:`.reviews`); None where it does not


@dataclass(frozen=True)
class Findings:
    """What the check found: one stage's findings, or the sum of them."""

    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()  # stale translations: --strict fails
    notes: tuple[Problem, ...] = ()  # pages in progress, drafts

    def __add__(self, other: Findings) -> Findings:
        return Findings(
            self.errors + other.errors,
            self.warnings + other.warnings,
            self.notes + other.notes,
        )


@dataclass
class Report:
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # pages in progress, drafts
    pages: list[PageState] = field(default_factory=list)


@dataclass(frozen=True)
class Page:
    rel: str  # docs/ko/jit.md
    lang: str
    name: str  # jit
    text: Source

    def twin(self, lang: str, name: str = "") -> str:
        """The path of this page (or ``name``) in ``lang``, from the repository root."""
        folder = self.rel.removesuffix(f"{self.lang}/{self.name}.md")
        return f"{folder}{lang}/{name or self.name}.md"


def did_you_mean(wrong: str, choices: Iterable[str], shown: str = "'{}'") -> str:
    """``: did you mean X?`` for the closest of ``choices``, or nothing.

    >>> did_you_mean("jti", ["jit", "vmap"], "docs/ko/{}.md")
    ': did you mean docs/ko/jit.md?'
    """
    close = get_close_matches(wrong, sorted(choices), n=1, cutoff=0.6)
    return f": did you mean {shown.format(close[0])}?" if close else ""


def plural(count: int, name: str) -> str:
    """``1 code cell``, ``2 code cells``."""
    return f"{count} {name}{'' if count == 1 else 's'}"
