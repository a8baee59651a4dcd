"""The site's search: Pagefind's index and UI, one index per language.

Chosen over Sphinx's own search by tests/benchmarks/search_relevance.py
(issue 23): Sphinx scores a page by whether it contains a word, not how much,
and breaks ties by title; Pagefind ranks by BM25 with headings weighted,
shows a result per heading with an excerpt of the article, and searches as
you type. The pieces:

- :func:`index_pages`, a step of :mod:`jaxguide_site.post_build`: after an
  HTML build, Pagefind (the ``pagefind``
  package's binary, no Node) indexes the pages written from the sources (not
  genindex or search), only their article, into ``pagefind/`` of the output.
  Each language is its own build, so each has its own index.
- ``doctree-resolved``: a page that the glossary names as teaching a term, or
  that ``search_synonyms.toml`` beside the glossary lists, gets the words a reader types
  for it that its text may lack, hidden at the end of its article, where
  Pagefind weighs them above a title (the synonyms as a subheading): on Korean pages the Korean term, the
  variants the glossary avoids (그래디언트, 자코비안) and the English term
  (``pytree``); on English pages the English term. The glossary table's
  "not used" column is left out of the index, so that the glossary page does
  not come before the page that teaches the term.
- docs/_templates/search.html: the search page shows Pagefind's UI. Pagefind
  has no Korean stemmer; on the Korean site the query loses its particles
  and endings first (``jit으로`` → ``jit``) with :mod:`.korean_search`'s rules
  (``KoreanSearch`` in korean-query.js), and Pagefind matches words that
  start with it (``jit`` finds ``jit을``, ``jit으로``).
- ``builder-inited``: Sphinx writes no search index of its own
  (``searchindex.js``, 316 kB on the Korean site, and its stemmers), which
  no page loads; its search page is still written, from our template, as a
  page of this extension's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from html import escape
from pathlib import Path
from typing import Any, Final

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE
from .interface_text.catalog import _
from .interface_text.messages import N_
from .translation.glossary import load_glossary

logger = logging.getLogger(__name__)

BUNDLE: Final = "pagefind"  # the index and UI, in each language's output
ARTICLE: Final = "article.bd-article"  # the theme's article: what is indexed
# Left out of the index: the "#" of heading links, the note on how the page
# ran (the same on every page), the note that a GPU record is missing (the
# same on several), the glossary's avoided variants; code: a notebook cell
# (its code, outputs and show/hide labels) and any other code block (a page
# is found by its prose, which names what the code uses, and an excerpt is
# never code: issue 33); the other language's words that a page carries
# hidden (a timing table's labels, a glued verdict: the renderer marks them
# data-pagefind-ignore too); a glued measurement's clause, whose record
# parenthesis ("10 runs on a 2-core CPU, idle and busy") repeats on 17
# pages and put them above parallelism for "cores".
EXCLUDED: Final = (
    "a.headerlink",
    "aside.jaxguide-run-note",
    ".jaxguide-verdict",
    ".jaxguide-gpu-record-missing",
    "table.jaxguide-glossary td:nth-child(4)",
    "div.cell",
    "div[class^='highlight-']",
    "[lang][hidden]",
)
KEYWORD_WEIGHT: Final = 10  # the glossary's: Pagefind's highest (an <h1> weighs 7)
# Before and between the words: a character no page writes, by which
# site-search.js knows where the prose ends (it cuts no excerpt from them).
JOINER: Final = " \u2e31 "
SYNONYM_WEIGHT: Final = 5  # below: 그래디언트 is first autodiff's, a glossary variant
SYNONYMS: Final = "search_synonyms.toml"  # beside the glossary
# The same words as metadata fields too, which Pagefind 1.5 matches after
# its BM25 over the text and adds to the score (its ranking's metaWeights),
# with the title's boost lowered from 5 to 1: the page that teaches
# "gradient" then comes before the one whose title uses it ("Gradient
# descent"), and a page found by its synonyms ("out of memory": sharp-bits)
# before a long page that says "memory" often (pallas). On the benchmark
# (tests/benchmarks/search_queries.toml), first results: English 43 of 51
# without the fields, 49 with them, 51 with the title at 1 (and autodiff's
# synonym "nan gradient"); Korean 74 of 77, then 75. Terms at 10 put
# "timing" and "out of memory" lower again.
META_FIELDS: Final = {KEYWORD_WEIGHT: "terms", SYNONYM_WEIGHT: "keywords"}
RANKING: Final = {"metaWeights": {"title": 1.0, "terms": 5.0, "keywords": 5.0}}
# Pagefind UI's own words (its `translations` option), in the site's words:
# its Korean said "검색어" where the header's box says "검색...", and
# "[SEARCH_TERM]에 대한 결과 [COUNT]건".
UI_TEXT: Final = {
    "placeholder": N_("Search..."),
    "search_label": N_("Search this site"),
    "clear_search": N_("Clear"),
    "load_more": N_("Show more results"),
    "searching": N_("Searching for [SEARCH_TERM]..."),
    "zero_results": N_("Nothing found for [SEARCH_TERM]"),
    "one_result": N_("[COUNT] result for [SEARCH_TERM]"),
    "many_results": N_("[COUNT] results for [SEARCH_TERM]"),
    "alt_search": N_(
        "Nothing found for [SEARCH_TERM]. Showing results for [DIFFERENT_TERM]"
    ),
    "search_suggestion": N_(
        "Nothing found for [SEARCH_TERM]. Try one of these searches:"
    ),
    "results_label": N_("Search results"),
}


@cache
def keywords(glossary: Path, lang: str) -> dict[str, list[tuple[int, str]]]:
    """Page name -> (weight, words) a reader may type for it on the ``lang``
    site: the glossary's words at :data:`KEYWORD_WEIGHT`, then the synonyms
    of ``search_synonyms.toml`` beside it at :data:`SYNONYM_WEIGHT`.

    >>> data = Path(__file__).parents[2] / "docs" / "_data"
    >>> ko = keywords(data / "glossary.toml", "ko")
    >>> ko["autodiff"][0][0], {"기울기", "그래디언트", "gradient"} <= set(ko["autodiff"][0][1].split(JOINER))
    (10, True)
    >>> weight, words = ko["jit"][1]
    >>> weight, words.split(JOINER)[0]
    (5, '재컴파일')
    """
    found: dict[str, list[str]] = {}
    for term in load_glossary(glossary):
        if term.page is not None:
            own = [term.ko, *term.avoid, term.en] if lang == "ko" else [term.en]
            found.setdefault(term.page, []).extend(own)
    synonyms = glossary.with_name(SYNONYMS).read_text(encoding="utf-8")
    extra: dict[str, list[str]] = tomllib.loads(synonyms).get(lang, {})
    blocks: dict[str, list[tuple[int, str]]] = {}
    for weight, words in ((KEYWORD_WEIGHT, found), (SYNONYM_WEIGHT, extra)):
        for page, more in words.items():
            text = JOINER.join(dict.fromkeys(more))
            blocks.setdefault(page, []).append((weight, text))
    return blocks


def _add_keywords(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html":
        return
    lang = app.config.language
    for weight, words in keywords(Path(app.config.jaxguide_glossary), lang).get(
        docname, []
    ):
        # Each block starts with the joiner: site-search.js cuts no excerpt
        # from the first one onwards.
        text = escape(JOINER.lstrip() + words)
        field = META_FIELDS[weight]
        html = (
            f'<p hidden data-pagefind-weight="{weight}"'
            f' data-pagefind-meta="{field}">{text}</p>'
        )
        doctree.append(nodes.raw("", html, format="html"))


def _depend_on_the_words(app: Sphinx, docname: str, _source: list[str]) -> None:
    """Every page is read again when the glossary or the synonyms change: any
    page may gain or lose words."""
    glossary = Path(app.config.jaxguide_glossary)
    for path in (glossary, glossary.with_name(SYNONYMS)):
        app.env.note_dependency(str(path), docname=docname)


def pagefind_command(outdir: Path, pages: list[str]) -> list[str]:
    """The Pagefind run that indexes ``pages`` (names without .html) of ``outdir``."""
    return [
        *(sys.executable, "-m", "pagefind", "--site", str(outdir)),
        *("--output-subdir", BUNDLE, "--root-selector", ARTICLE),
        *(arg for selector in EXCLUDED for arg in ("--exclude-selectors", selector)),
        *("--glob", "{" + ",".join(pages) + "}.html"),
    ]


# What the theme copies for Sphinx's search, which no page loads (layout.html
# filters the scripts out of every page's <head>).
SPHINX_SEARCH_FILES = ("searchtools.js", "language_data.js", "*-stemmer.js")


def _drop_sphinx_search_files(static: Path) -> None:
    for pattern in SPHINX_SEARCH_FILES:
        for path in static.glob(pattern):
            path.unlink()


def index_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    _drop_sphinx_search_files(outdir / "_static")
    shutil.rmtree(outdir / BUNDLE, ignore_errors=True)
    pages = sorted(app.env.found_docs)
    result = subprocess.run(
        pagefind_command(outdir, pages),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        msg = f"Pagefind failed to index {outdir}:\n{result.stdout}{result.stderr}"
        raise ExtensionError(msg)
    logger.info("Pagefind indexed %d pages into %s", len(pages), outdir / BUNDLE)


def _without_sphinx_index(app: Sphinx) -> None:
    """Sphinx's own search off: no index is fed or written (``search`` is the
    switch Sphinx's builders for help files turn it off by), and with it no
    search page, which :func:`_search_page` writes instead."""
    if isinstance(app.builder, StandaloneHTMLBuilder):
        app.builder.search = False


def _search_page(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    if isinstance(app.builder, StandaloneHTMLBuilder):
        # Translated here, in this build's language (see tracebacks.py).
        text = {key: str(_(message)) for key, message in UI_TEXT.items()}
        context = {
            "jaxguide_search_text": json.dumps(text),
            "jaxguide_search_ranking": json.dumps(RANKING),
        }
        yield "search", context, "search.html"


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", _without_sphinx_index)
    app.connect("html-collect-pages", _search_page)
    app.connect("source-read", _depend_on_the_words)
    app.connect("doctree-resolved", _add_keywords)
    return PARALLEL_SAFE
