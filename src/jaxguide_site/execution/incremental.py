"""An incremental build writes what a clean build of the same sources writes.

Three differences, all upstream:

- **Stale search terms.** On an incremental build Sphinx loads the previous
  ``searchindex.js`` and removes the pages it re-reads from each term's set
  of pages, but keeps the terms whose set is now empty and writes them out as
  ``"term": []``. A word removed from a page so stays in the index for ever,
  and the index grows with every edit (254 KB against 141 KB clean). They are
  dropped at the end of each HTML build.
- **Index entries** (the API reference's ``benchmark() (in module ...)``).
  Sphinx keeps them in the environment, which it saves before the pages are
  written and so before they are collected: an incremental build loses
  those of every page it does not rewrite. When writing starts they are
  taken from the previous ``searchindex.js``, which has them all; the pages
  written then replace their own. Each entry's pages are put in the order a
  clean build writes them.
- **myst-nb's stylesheet.** Sphinx adds ``?v=<checksum>`` to a stylesheet's
  link when the file is in ``_static`` as it writes a page. myst-nb copies
  ``mystnb.<hash>.css`` there only when the build finishes, so a clean build
  linked it without the checksum and every later build with it. It is
  copied when writing starts instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from myst_nb.sphinx_ext import add_global_html_resources
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.search import js_index

TERM_TABLES = ("terms", "titleterms")
IndexEntries = dict[str, list[tuple[str, str, str]]]


def tidy(index: dict[str, Any]) -> bool:
    """Drop terms that point at no page and put each index entry's pages in
    page order, as a clean build has them; True if anything changed."""
    changed = False
    for table in TERM_TABLES:
        terms = index.get(table, {})
        for term in [term for term, pages in terms.items() if pages == []]:
            del terms[term]
            changed = True
    for entry, places in index.get("indexentries", {}).items():
        ordered = sorted(places, key=lambda place: place[0])
        if ordered != places:
            index["indexentries"][entry] = ordered
            changed = True
    return changed


def index_entries(index: dict[str, Any]) -> IndexEntries:
    """The index entries of a frozen search index, per page, as Sphinx
    collects them (docname -> [(entry, target, "main" or "")])."""
    docnames = index.get("docnames", [])
    entries: IndexEntries = {}
    for entry, places in index.get("indexentries", {}).items():
        for doc, target, main in places:
            entries.setdefault(docnames[doc], []).append(
                (entry, target, "main" if main else "")
            )
    return entries


def _previous_index(app: Sphinx) -> tuple[Path, dict[str, Any]] | None:
    name = getattr(app.builder, "searchindex_filename", "")
    path = Path(app.outdir) / name
    if not name or not path.is_file():
        return None
    try:
        return path, js_index.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None


def _before_writing(app: Sphinx, builder: Builder) -> None:
    if builder.format != "html":
        return
    previous = _previous_index(app)
    entries: IndexEntries | None = getattr(app.env, "_search_index_index_entries", None)
    if previous is not None and entries is not None:
        restored = index_entries(previous[1])
        entries.clear()
        entries.update(
            (docname, found)
            for docname, found in sorted(restored.items())
            if docname in app.env.all_docs
        )
    (Path(app.outdir) / "_static").mkdir(parents=True, exist_ok=True)
    add_global_html_resources(app, None)


def _tidy_index(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    previous = _previous_index(app)
    if previous is not None and tidy(previous[1]):
        path, index = previous
        path.write_text(js_index.dumps(index), encoding="utf-8")


def setup(app: Sphinx) -> None:
    app.connect("write-started", _before_writing)
    app.connect("build-finished", _tidy_index)
