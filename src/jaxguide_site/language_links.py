"""Links between the Korean and the English site: switcher, hreflang, stand-in pages.

Each language is its own Sphinx project whose source folder is
``docs/<lang>``; its siblings are the other languages' folders, as
``docs/_data/languages.toml`` lists them (:mod:`jaxguide_site.languages`). For every page this extension gives the template
``language-switcher.html`` one link per language:

- the same page in the other language when that page exists there (same file
  name), computed at build time, so the plain link needs no JavaScript;
- that language's home page otherwise, instead of a 404.

It also adds ``<link rel="alternate" hreflang=...>`` for each language and
``x-default`` (the root page that picks a language), and, for a page that is
still being translated (``docs/_data/translations.toml``, ``[in_progress]``),
writes a stand-in page at its name in the language that lacks it: a banner
that points to the original. A draft (listed there, and written in part)
gets a banner above it that says so, with the same link.

Where the sites live relative to each other is one setting,
``jaxguide_site_url``: the URL of a language's site root relative to this
language's site root, with ``{lang}`` and ``{version}`` in it
(``"../../{lang}/{version}/"`` for the published ``/<lang>/<version>/``, so
the link keeps the version). In the browser, docs/_static/language-switcher.js
then gives each link the version folder, query and anchor of the page being
read (a ``stable/`` copy links to ``stable/``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from myst_parser.config.main import MdParserConfig
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE
from .interface_text.catalog import _
from .languages import languages_of
from .publishing.site_address import STABLE
from .section_anchors import page_title
from .translation.pages import guide_pages

# {title}: the original page's title, in its language; {label}: this site's
# language, as the switcher names it.
MISSING_TITLE = _("{title} (not translated into {label} yet)")
BANNER = _(
    "This page, “{title}”, has not been translated into {label} yet. "
    "Until it is, please read the original."
)
READ_ORIGINAL = _("Read the original")
# Above a draft: a page partly translated ([in_progress] lists it, and it
# has a source in this language).
DRAFT_BANNER = _(
    "This translation is a draft: parts of this page are still in the "
    "original's language, and no reviewer has read it yet."
)


@dataclass(frozen=True)
class LanguageLink:
    code: str
    label: str
    url: str
    current: bool
    same_page: bool  # the link opens the same page (or its stand-in)
    translated: bool  # the same page really exists in that language


def has_source(srcdir: Path, lang: str, pagename: str) -> bool:
    """Whether ``lang``'s source folder has the page ``pagename``."""
    source = srcdir.parent / lang / pagename
    return any(
        source.with_suffix(suffix).exists() for suffix in (".md", ".rst", ".ipynb")
    )


def page_exists(srcdir: Path, lang: str, pagename: str) -> bool:
    """Whether ``pagename`` is a page (or a stand-in page) of ``lang``'s site."""
    stand_ins = guide_pages(srcdir.parent).in_progress.get(lang, ())
    return has_source(srcdir, lang, pagename) or pagename in stand_ins


def site_languages(app: Sphinx) -> dict[str, str]:
    """Each language of the project by code, named in itself, in order."""
    languages = languages_of(Path(app.srcdir).parent)
    return {language.code: language.name for language in languages}


def site_url(app: Sphinx, lang: str) -> str:
    """The root of ``lang``'s site, same version, relative to this site's root."""
    return str(app.config.jaxguide_site_url).format(
        lang=lang, version=app.config.release
    )


def _site_root(app: Sphinx, pagename: str) -> str:
    """Relative URL from ``pagename`` to this language's site root."""
    to_index = app.builder.get_relative_uri(pagename, app.config.root_doc)
    return to_index.rsplit("/", 1)[0] + "/" if "/" in to_index else ""


def language_links(
    app: Sphinx, pagename: str, *, is_source: bool
) -> list[LanguageLink]:
    srcdir = Path(app.srcdir)
    root = _site_root(app, pagename)
    links = []
    for code, label in site_languages(app).items():
        current = code == app.config.language
        same = current or not is_source or page_exists(srcdir, code, pagename)
        translated = current or (is_source and has_source(srcdir, code, pagename))
        target = pagename if same else app.config.root_doc
        site = "" if current else site_url(app, code)
        url = f"{root}{site}{target}.html"
        links.append(LanguageLink(code, label, url, current, same, translated))
    return links


def _alternate(base: str, link: LanguageLink, pagename: str) -> str:
    return f"{base}{link.code}/{STABLE}/{pagename}.html" if base else link.url


def _add_links(
    app: Sphinx,
    pagename: str,
    _templatename: str,
    context: dict[str, Any],
    doctree: Any,
) -> None:
    links = language_links(app, pagename, is_source=doctree is not None)
    context["jaxguide_languages"] = links
    context["jaxguide_draft"] = _draft(app, pagename, links)
    top = _site_root(app, pagename) + app.config.jaxguide_top_url
    # Search engines want absolute hreflang URLs, and the canonical copies:
    # the stable one of each language (as html_baseurl is for this language).
    base = app.config.html_context.get("jaxguide_base_url", "")
    alternates = [
        f'<link rel="alternate" hreflang="{link.code}" href="{_alternate(base, link, pagename)}" />'
        for link in links
        if link.translated
    ]
    x_default = base or f"{top}index.html"
    alternates.append(
        f'<link rel="alternate" hreflang="x-default" href="{x_default}" />'
    )
    context["metatags"] = context.get("metatags", "") + "\n".join(alternates)


def _draft(
    app: Sphinx, pagename: str, links: list[LanguageLink]
) -> dict[str, str] | None:
    """The banner of a draft: its text and the link to the original."""
    lang = app.config.language
    if pagename not in guide_pages(Path(app.srcdir).parent).drafts.get(lang, ()):
        return None
    original = next(link for link in links if not link.current and link.translated)
    return {
        "text": str(DRAFT_BANNER),
        "url": original.url,
        "lang": original.code,
        "label": f"{READ_ORIGINAL} ({original.label})",
    }


def _original_title(app: Sphinx, source: Path, lang: str) -> str:
    """The title of the original page ``source`` (in ``lang``) as HTML, in
    its language; its file name where it has no heading."""
    config = MdParserConfig(enable_extensions=set(app.config.myst_enable_extensions))
    title = page_title(source.read_text(encoding="utf-8"), config) or source.stem
    return f'<span lang="{lang}">{escape(title)}</span>'


def _stand_in_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """A banner page for each page that exists only in the other language,
    named by the original's title."""
    lang = app.config.language
    pages = guide_pages(Path(app.srcdir).parent)
    languages = site_languages(app)
    for pagename in pages.in_progress.get(lang, ()):
        originals = [
            (code, label)
            for code, label in languages.items()
            if code != lang and pagename in pages.written.get(code, ())
        ]
        if not originals:
            continue
        code, label = originals[0]
        root = _site_root(app, pagename)
        site = site_url(app, code)
        this_language = languages[lang]
        title = _original_title(app, pages.source(code, pagename), code)
        context = {
            "title": str(MISSING_TITLE).format(title=title, label=this_language),
            "jaxguide_banner": str(BANNER).format(title=title, label=this_language),
            "jaxguide_original_url": f"{root}{site}{pagename}.html",
            "jaxguide_original_label": f"{READ_ORIGINAL} ({label})",
            "jaxguide_original_lang": code,
        }
        yield pagename, context, "untranslated.html"


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxguide_site_url", "../../{lang}/{version}/", "html", str)
    app.add_config_value("jaxguide_top_url", "../../", "html", str)
    app.connect("html-page-context", _add_links)
    app.connect("html-collect-pages", _stand_in_pages)
    # docs/_static/language-switcher.js: the links keep the copy the reader
    # is in (stable/), the anchor and the query.
    app.add_js_file("language-switcher.js", loading_method="defer")
    return PARALLEL_SAFE
