"""The glossary (용어집) as data: ``docs/_data/glossary.toml``, rendered as a table.

One file holds every English term with the one Korean term the guide uses,
optional Korean variants to avoid, a definition in each language and the page
that teaches it. The directive ``glossary-table`` renders it in the page's
language::

    ```{glossary-table}
    ```

The file is read and checked once per build; a malformed entry is reported
with its number and term, never as a traceback.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, NoReturn

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util.docutils import SphinxDirective

from .tables import cell, doc_link, table

REQUIRED = ("en", "ko", "en_def", "ko_def")
OPTIONAL = ("avoid", "page")
HEADERS = {
    "ko": ("영어", "한국어", "뜻", "쓰지 않는 표현"),
    "en": ("English", "Korean", "Meaning", "Not used"),
}


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
        terms.append(
            Term(
                entry["en"],
                entry["ko"],
                entry["en_def"],
                entry["ko_def"],
                tuple(avoid),
                page,
            )
        )
    return terms


class GlossaryTable(SphinxDirective):
    """Render the glossary file as a table in the page's language."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        path = Path(self.config.jaxguide_glossary)
        self.env.note_dependency(str(path))
        try:
            terms = load_glossary(path)
        except ValueError as error:
            return [self.state.document.reporter.error(str(error), line=self.lineno)]
        lang = "ko" if self.config.language == "ko" else "en"
        rows = []
        for term in terms:
            target = nodes.target("", "", ids=[nodes.make_id(f"term-{term.en}")])
            meaning: list[nodes.Node] = [
                nodes.Text(term.ko_def if lang == "ko" else term.en_def)
            ]
            if term.page:
                link = doc_link(term.page, term.page, self.env.docname)
                meaning += [nodes.Text(" → "), link]
            rows.append(
                [
                    cell(target, nodes.strong(text=term.en)),
                    cell(nodes.Text(term.ko)),
                    cell(*meaning),
                    cell(nodes.Text(", ".join(term.avoid))),
                ]
            )
        return [table(HEADERS[lang], (20, 16, 52, 12), rows, "jaxguide-glossary")]


def _check_file(app: Sphinx) -> None:
    try:
        load_glossary(Path(app.config.jaxguide_glossary))
    except ValueError as error:
        raise ConfigError(str(error)) from None


def setup(app: Sphinx) -> None:
    app.add_config_value("jaxguide_glossary", "", "env", str)
    app.add_directive("glossary-table", GlossaryTable)
    app.connect("builder-inited", _check_file)
