"""An incremental build writes what a clean build of the same sources writes.

Two differences, both upstream:

- **The search index.** On an incremental build Sphinx loads the previous ``searchindex.js`` and
removes the pages it re-reads from each term's set of pages, but keeps the
terms whose set is now empty, and writes them out as ``"term": []``. A word
removed from a page so stays in the index for ever, and the index grows with
every edit (254 KB against 141 KB clean, after a few edits). At the end of
each HTML build this drops those empty terms, so the file equals the one a
clean build writes, and the next incremental build loads no stale terms.
- **Index entries** (the API reference's ``benchmark() (in module ...)``).
  Sphinx keeps them in the environment, which it saves before the pages
  are written and so before they are collected: an incremental build loses
  those of every page it does not rewrite. They are restored from the
  previous ``searchindex.js`` before the pages are written.
- **myst-nb's stylesheet.** Sphinx adds ``?v=<checksum>`` to a stylesheet's
  link when the file is in ``_static`` as it writes a page. myst-nb copies
  ``mystnb.<hash>.css`` there only when the build finishes, so a clean build
  links it without the checksum and every later build with it. It is copied
  before the pages are written instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from myst_nb.sphinx_ext import add_global_html_resources
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.search import js_index

TERM_TABLES = ("terms", "titleterms")


def drop_empty_terms(index: dict[str, object]) -> int:
    """Remove terms that point at no page; return how many were removed."""
    removed = 0
    for table in TERM_TABLES:
        terms = index.get(table)
        if not isinstance(terms, dict):
            continue
        empty = [term for term, pages in terms.items() if pages == []]
        for term in empty:
            del terms[term]
        removed += len(empty)
    return removed


def _clean_index(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    name = getattr(app.builder, "searchindex_filename", "")
    path = Path(app.outdir) / name
    if not name or not path.is_file():
        return
    index = js_index.loads(path.read_text(encoding="utf-8"))
    if drop_empty_terms(index):
        path.write_text(js_index.dumps(index), encoding="utf-8")


def restore_index_entries(
    index: dict[str, Any], entries: dict[str, list[tuple[str, str, str]]]
) -> None:
    """Add to ``entries`` (docname -> index entries, as Sphinx collects them)
    those of ``index`` (a frozen search index) for pages it lacks."""
    docnames = index.get("docnames", [])
    restored: dict[str, list[tuple[str, str, str]]] = {}
    for entry, places in index.get("indexentries", {}).items():
        for doc, target, main in places:
            restored.setdefault(docnames[doc], []).append(
                (entry, target, "main" if main else "")
            )
    for docname, found in restored.items():
        entries.setdefault(docname, found)


def _before_writing(app: Sphinx, env: BuildEnvironment) -> None:
    if app.builder.format != "html":
        return
    previous = Path(app.outdir) / getattr(app.builder, "searchindex_filename", "")
    if previous.is_file():
        try:
            index = js_index.loads(previous.read_text(encoding="utf-8"))
        except ValueError:
            index = {}
        entries = env._search_index_index_entries
        restore_index_entries(index, entries)
        for removed in set(entries) - set(env.all_docs):
            del entries[removed]
    _copy_stylesheet_first(app)


def _copy_stylesheet_first(app: Sphinx) -> None:
    if app.builder.format == "html":
        (Path(app.outdir) / "_static").mkdir(parents=True, exist_ok=True)
        add_global_html_resources(app, None)


def setup(app: Sphinx) -> None:
    app.connect("env-updated", _before_writing)
    app.connect("build-finished", _clean_index)
