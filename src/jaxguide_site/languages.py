"""The languages the guide is written in: ``_data/languages.toml`` beside the
pages, read here and nowhere else.

The project's list (``docs/_data/languages.toml``) is :data:`LANGUAGES`, the
site's default first. A build of another folder of pages (a sample project in
the tests) takes that folder's own list where it has one, and the project's
where it has none, as it takes the project's conf.py (:func:`languages_of`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGES_FILE",
    "PROJECT_DOCS",
    "Language",
    "languages_of",
    "read_languages",
]

LANGUAGES_FILE = "_data/languages.toml"
PROJECT_DOCS = Path(__file__).resolve().parents[2] / "docs"


@dataclass(frozen=True)
class Language:
    """One entry of ``_data/languages.toml``."""

    code: str  # docs/<code>/, Sphinx's language, <html lang>, /<code>/ on the site
    name: str  # in itself, for the language switcher
    english_name: str  # in the translation checker's messages
    locale: str  # OpenGraph's og:locale


@cache
def read_languages(docs: Path) -> tuple[Language, ...]:
    """The languages of the pages in ``docs`` (the folder holding ``<code>/``
    and ``_data/``), in the order of its ``_data/languages.toml``.

    >>> [language.code for language in read_languages(PROJECT_DOCS)]
    ['ko', 'en']
    """
    path = docs / LANGUAGES_FILE
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        msg = f"{path} is missing: it lists the languages of the pages in {docs}"
        raise ValueError(msg) from None
    except tomllib.TOMLDecodeError as error:
        msg = f"{path}: not valid TOML: {error}"
        raise ValueError(msg) from None
    entries = table.get("language")
    if not isinstance(entries, list) or not entries:
        msg = f"{path}: no [[language]] entries: add one per language"
        raise ValueError(msg)
    wanted = [field.name for field in fields(Language)]
    languages = []
    for number, entry in enumerate(entries, start=1):
        missing = [name for name in wanted if not isinstance(entry.get(name), str)]
        unknown = sorted(set(entry) - set(wanted))
        if missing or unknown:
            problem = f"missing {', '.join(missing)}" if missing else ""
            problem += "; " if missing and unknown else ""
            problem += f"unknown {', '.join(unknown)}" if unknown else ""
            msg = f"{path}: language {number}: {problem} (each has {', '.join(wanted)})"
            raise ValueError(msg)
        languages.append(Language(**entry))
    codes = [language.code for language in languages]
    if len(set(codes)) != len(codes):
        msg = f"{path}: a language is listed twice: {', '.join(codes)}"
        raise ValueError(msg)
    return tuple(languages)


def languages_of(docs: Path) -> tuple[Language, ...]:
    """The languages of the pages in ``docs``: its own list, else the project's."""
    own = (docs / LANGUAGES_FILE).is_file()
    return read_languages(docs if own else PROJECT_DOCS)


LANGUAGES = tuple(language.code for language in read_languages(PROJECT_DOCS))
DEFAULT_LANGUAGE = LANGUAGES[0]
