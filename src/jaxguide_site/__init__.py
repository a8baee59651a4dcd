"""The jaxguide site's tooling: Sphinx extensions and the commands around them.

Each feature is a Sphinx extension that docs/conf.py names in ``extensions``:

- :mod:`.execution`: the shared execution cache, failed cells reported by
  page and line, the execution report, incremental builds equal to clean ones.
- :mod:`.translation`: the translation checker (``jaxguide-i18n``), the
  glossary and translation-status tables.
- :mod:`.notebooks`: each page's executed notebook to download or open in
  Colab, without the build's own cells.
- :mod:`.language_links`: the language switcher, hreflang links and stand-in
  pages for pages not translated yet.
- :mod:`.korean_search`: the search language for ``ko``.
- :mod:`.interface_text`: Korean interface text the themes lack.
- :mod:`.publishing`: what a build is, and ``jaxguide-publish``, which lays
  builds out as the published site.
- :mod:`.api_signatures`: JAX's type aliases kept short in the API reference.
- :mod:`.reader_conveniences`: translator credit and "suggest a translation"
  under translated pages, last-updated dates without git history, the
  announcement banner.

Beside them: :mod:`.languages` (the languages, defined once),
:mod:`.site_build` (``jaxguide-build``, the strict build of both languages)
and :mod:`.brand` (the logo, favicon and OpenGraph image, written once).
"""
