"""Local Sphinx extensions of the jaxguide site.

- :mod:`.execution_cache`: which folder the shared execution cache is, and
  its database created before the parallel readers start.
- :mod:`.execution_report`: after each build, log how many notebooks were
  executed and how many came from the shared cache.
- :mod:`.execution_failures`: one short warning per failed cell, naming the
  page, the line of the cell and the error.
- :mod:`.interface_text`: our corrections to sphinx-book-theme's Korean
  interface text.
- :mod:`.api_signatures`: JAX's type aliases kept short in the API reference.
- :mod:`.glossary`: the glossary file rendered as a table (``glossary-table``).
- :mod:`.tables`: the docutils table pieces those directives share.
- :mod:`.language_links`: the language switcher, hreflang links and stand-in
  pages for pages not translated yet.
- :mod:`.exec_table_text`: Korean headers for myst-nb's execution table.
- :mod:`.translation_status`: the state of each page's translation as a table
  (``translation-status``), from the translation checker
  (:mod:`.translation`, ``nox -s i18n``).
- :mod:`.build_info`: ``jaxguide-build.json`` (language, version, JAX) at the
  root of each build, for :mod:`.publish`, which lays builds out as the
  published site (``/<lang>/<version>/``, ``stable/``, versions.json, ...);
  :mod:`.site_address` holds what both need to know about versions and URLs.
- :mod:`.notebooks`: each notebook page as an executed ``.ipynb`` beside its
  HTML, in the download menu, with an Open-in-Colab button and a note on
  where it ran.
- :mod:`.incremental`: an incremental build writes what a clean build
  writes (no stale search terms, every page's index entries, the same
  stylesheet links).
- :mod:`.korean_search`: the search language for ``ko`` (particles and endings
  stripped, in the index and in the browser's query).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from . import (
    api_signatures,
    build_info,
    exec_table_text,
    execution_cache,
    execution_failures,
    execution_report,
    glossary,
    incremental,
    interface_text,
    korean_search,
    language_links,
    notebooks,
    translation_status,
)


def setup(app: Sphinx) -> dict[str, Any]:
    interface_text.setup(app)
    execution_cache.setup(app)
    execution_failures.setup(app)
    execution_report.setup(app)
    api_signatures.setup(app)
    glossary.setup(app)
    incremental.setup(app)
    language_links.setup(app)
    exec_table_text.setup(app)
    translation_status.setup(app)
    korean_search.setup(app)
    notebooks.setup(app)
    build_info.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "0.1"}
