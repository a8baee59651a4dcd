"""Which pages each language of the guide has: those written, and those in progress.

A language's pages are the Markdown files of ``docs/<lang>``
(:func:`written_pages`, the translation checker's too: folders and names
starting with ``_`` or ``.`` left out). A page is *in progress* in a language
when it is listed for that language under ``[in_progress]`` in
``docs/_data/translations.toml``, has no source there and has one in another
language: the checker accepts it (a note, not an error), and that language's
site shows a stand-in page at its name, pointing to the original
(:mod:`jaxguide_site.language_links`). A page listed there that has a source
in that language too is a *draft*: partly translated, checked for structure
but not for English left in it, and shown with a banner that says so. The site, the tests that walk the pages
and the checker's tests take the pages from :func:`guide_pages`.

Whether ``[in_progress]`` is well formed is the checker's to report (it
reads the table as written, :func:`in_progress_table`): here a value that is
not a list of names lists nothing. Imports no Sphinx.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..languages import languages_of
from .report import DATA


@dataclass(frozen=True)
class GuidePages:
    """The pages of the guide in ``docs`` (a folder per language and ``_data/``)."""

    docs: Path
    languages: tuple[str, ...]  # the codes of _data/languages.toml, in order
    written: Mapping[str, tuple[str, ...]]  # by language: a source in docs/<lang>
    in_progress: Mapping[str, tuple[str, ...]]  # by language: a stand-in there
    drafts: Mapping[str, tuple[str, ...]]  # by language: partly translated there

    def on_site(self, lang: str) -> tuple[str, ...]:
        """Every page of ``lang``'s site by name: its own and its stand-ins."""
        return tuple(sorted({*self.written[lang], *self.in_progress[lang]}))

    def names(self) -> tuple[str, ...]:
        """Every page written in some language, by name."""
        return tuple(
            sorted({name for lang in self.languages for name in self.written[lang]})
        )

    def in_every_language(self) -> tuple[str, ...]:
        """The pages written in every language (translated, maybe stale)."""
        return tuple(
            name
            for name in self.names()
            if all(name in self.written[lang] for lang in self.languages)
        )

    def source(self, lang: str, name: str) -> Path:
        """The source of the page ``name`` written in ``lang``."""
        return self.docs / lang / f"{name}.md"


def written_pages(folder: Path) -> tuple[str, ...]:
    """The pages of one language's source folder, by name (``sub/page``)."""
    names = (
        path.relative_to(folder).with_suffix("").as_posix()
        for path in folder.rglob("*.md")
    )
    return tuple(
        sorted(
            name
            for name in names
            if not any(part[:1] in {".", "_"} for part in name.split("/"))
        )
    )


def in_progress_table(docs: Path) -> object:
    """``[in_progress]`` of ``docs``' translations.toml as written, not
    checked (empty without the file); :class:`tomllib.TOMLDecodeError` where
    the file is not TOML."""
    path = docs / DATA
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text(encoding="utf-8")).get("in_progress", {})


def _listed_in_progress(docs: Path) -> dict[str, list[str]]:
    """``[in_progress]`` as written, by language: the lists of names."""
    table = in_progress_table(docs)
    if not isinstance(table, dict):
        return {}
    return {
        lang: [str(name) for name in names]
        for lang, names in table.items()
        if isinstance(names, list)
    }


def guide_pages(docs: Path) -> GuidePages:
    """The pages of each language of the guide in ``docs``."""
    languages = tuple(language.code for language in languages_of(docs))
    written = {lang: written_pages(docs / lang) for lang in languages}
    listed = _listed_in_progress(docs)
    in_progress = {
        lang: tuple(
            sorted(
                name
                for name in set(listed.get(lang, []))
                if name not in written[lang]
                and any(name in written[other] for other in languages if other != lang)
            )
        )
        for lang in languages
    }
    drafts = {
        lang: tuple(sorted(set(listed.get(lang, [])) & set(written[lang])))
        for lang in languages
    }
    return GuidePages(docs, languages, written, in_progress, drafts)
