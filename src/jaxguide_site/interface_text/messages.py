"""The site's own interface text: one gettext domain, ``jaxguide``.

The English text is the message; the Korean is in
``src/jaxguide_site/locale/ko/LC_MESSAGES/jaxguide.po``. ``nox -s messages``
(:func:`update_catalogs`) extracts the messages with babel into
``locale/jaxguide.pot`` and merges them into each catalog, where a translator
fills in the new ones; a build compiles the catalogs when it starts.

Python code in the Sphinx extensions marks a message with
:data:`.catalog._`; templates call ``jaxguide_text("...")``; the publishing
step, which runs without Sphinx, uses :func:`translations`. Importing this
module imports no Sphinx.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

DOMAIN = "jaxguide"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
# Where the messages are, and how each kind of file marks them: _() and N_()
# in Python, jaxguide_text() in the templates (whose _() is Sphinx's domain).
SOURCES = {
    "src/jaxguide_site": ("python", "**.py", ("_", "N_")),
    "docs": ("python", "conf.py", ("_", "N_")),
    "docs/_templates": ("jinja2", "*.html", ("jaxguide_text",)),
}


def N_(message: str) -> str:
    """Mark ``message`` for extraction, to be translated where it is used."""
    return message


def catalogs(locale_dir: Path = LOCALE_DIR) -> dict[str, Path]:
    """Each language's catalog (``.po``), by language."""
    found = locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    return {po.parents[1].name: po for po in sorted(found)}


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> None:
    """Compile each catalog whose ``.mo`` is missing or older than it."""
    for language, po in catalogs(locale_dir).items():
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=language, domain=DOMAIN)
        # Whole or not at all: parallel readers may compile and read at once.
        partial = mo.with_suffix(f".{os.getpid()}.partial")
        with partial.open("wb") as target:
            write_mo(target, catalog)
        partial.replace(mo)


def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (for English, the messages as they are)."""
    compile_catalogs()
    return gettext.translation(
        DOMAIN, str(LOCALE_DIR), languages=[language], fallback=True
    )


def extract(root: Path) -> Catalog:
    """Every message of the repository at ``root``, with where it is used."""
    template = Catalog(project="jaxguide", domain=DOMAIN)
    for folder, (method, pattern, keywords) in SOURCES.items():
        found = extract_from_dir(
            root / folder,
            method_map=[(pattern, method)],
            keywords=dict.fromkeys(keywords),
            directory_filter=lambda path: not Path(path).name.startswith("."),
        )
        for filename, line, message, comments, _context in found:
            template.add(
                message,
                locations=[(f"{folder}/{filename}", line)],
                auto_comments=comments,
            )
    return template


def update_catalogs(root: Path) -> None:
    """Write the template (``.pot``) and merge it into each catalog."""
    template = extract(root)
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as target:  # no dated header
        write_po(target, template, width=0, sort_by_file=True, omit_header=True)
    for language, po in catalogs().items():
        with po.open("rb") as source:
            catalog = read_po(source, locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        with po.open("wb") as target:
            write_po(target, catalog, width=0, sort_by_file=True, ignore_obsolete=True)
        untranslated = [m.id for m in catalog if m.id and not m.string]
        for message in untranslated:
            print(f"{po}: to translate: {message!r}")


if __name__ == "__main__":
    update_catalogs(Path.cwd())
