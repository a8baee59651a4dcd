"""The glossary (용어집) as data: ``docs/_data/glossary.toml``, read and checked.

One file holds every English term with the one Korean term the guide uses,
optional Korean variants to avoid, a definition in each language, the page
that teaches it, and whether its English is also an everyday word (``step``,
``state``), which a translation need not render as the term. The translation checker reads it (no Sphinx needed);
:mod:`.glossary_table` renders it on the glossary pages.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

REQUIRED = ("en", "ko", "en_def", "ko_def")
OPTIONAL = ("avoid", "page", "everyday")


def _fail(message: str) -> NoReturn:
    raise ValueError(message)


@dataclass(frozen=True)
class Term:
    en: str
    ko: str
    en_def: str
    ko_def: str
    avoid: tuple[str, ...] = ()
    page: str | None = None
    everyday: bool = False  # its English is also an everyday word (term_pairs)


def load_glossary(path: Path) -> list[Term]:
    """The terms of ``path``, checked; :class:`ValueError` names what is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _fail(f"glossary file not found: {path}")
    except tomllib.TOMLDecodeError as error:
        _fail(f"{path}: not valid TOML: {error}")
    entries = data.get("term")
    if not isinstance(entries, list) or not entries:
        _fail(f"{path}: expected a list of [[term]] tables")
    terms: list[Term] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        where = f"{path}: term {number} ({entry.get('en', '?')!r})"
        missing = [
            key
            for key in REQUIRED
            if not isinstance(entry.get(key), str) or not entry[key]
        ]
        if missing:
            _fail(f"{where}: missing or empty {', '.join(missing)}")
        unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
        if unknown:
            _fail(f"{where}: unknown key(s) {', '.join(unknown)}")
        avoid = entry.get("avoid", [])
        if not isinstance(avoid, list) or not all(
            isinstance(v, str) and v for v in avoid
        ):
            _fail(f"{where}: 'avoid' must be a list of non-empty strings")
        if entry["en"].lower() in seen:
            _fail(f"{where}: duplicate term")
        seen.add(entry["en"].lower())
        page = entry.get("page")
        if page is not None and not isinstance(page, str):
            _fail(f"{where}: 'page' must be a page name")
        everyday = entry.get("everyday", False)
        if not isinstance(everyday, bool):
            _fail(f"{where}: 'everyday' must be true or false")
        terms.append(
            Term(
                entry["en"],
                entry["ko"],
                entry["en_def"],
                entry["ko_def"],
                tuple(avoid),
                page,
                everyday,
            )
        )
    return terms
