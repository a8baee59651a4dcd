"""Sphinx configuration shared by the Korean and the English site.

Each language is its own Sphinx project with its own source folder
(``docs/ko``, ``docs/en``) and this one configuration::

    sphinx-build -c docs -D language=ko docs/ko build/html/ko

``nox -s docs`` runs exactly that for both languages, then lays the two
builds out as the published site (``build/html/<lang>/<version>/``, see
``src/jaxguide_site/publishing/publish.py``). Both builds point
myst-nb at one execution cache (under ``build/jupyter_cache``): jupyter-cache keys a
notebook by its code cells and kernelspec only, so a page whose code cells are
identical in both languages executes once per build, not twice. The cache
folder is specific to the jaxguide package and the pins (see
``jaxguide_site.execution.cache``), so changing either executes every page
again.
"""

from __future__ import annotations

import os
from importlib.metadata import version as installed_version
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

DOCS_DIR = Path(__file__).resolve().parent
REPO_DIR = DOCS_DIR.parent

# -- Project -----------------------------------------------------------------
project = "jaxguide"
COPYRIGHT_YEAR = 2026
author = "The jaxguide authors"  # _per_language: in the page's language
copyright = f"{COPYRIGHT_YEAR}, {author}"
language = "en"  # overridden per build: -D language=<a code of _data/languages.toml>

# -- Version and address -------------------------------------------------------
# A version of the guide is a release (git tag vX.Y, built once against the JAX
# it pins) or "dev" (any other commit): the installed jaxguide's version, which
# hatch-vcs takes from the tag. JAXGUIDE_VERSION overrides it (the publish
# workflow sets it from the ref it publishes).
from jaxguide_site.publishing.site_address import (
    SiteError,
    check_version,
    site_base_url,
    site_version,
)

# Where the site is published: https://<owner>.github.io/<repo>/ for the
# repository below. Forks need no edit: GitHub Actions sets GITHUB_REPOSITORY,
# and JAXGUIDE_REPOSITORY or JAXGUIDE_BASE_URL (a custom domain) override it.
repository = (
    os.environ.get("JAXGUIDE_REPOSITORY")
    or os.environ.get("GITHUB_REPOSITORY")
    or "jaxguide/jaxguide"
)
try:
    version = release = check_version(
        os.environ.get("JAXGUIDE_VERSION")
        or site_version(installed_version("jaxguide"))
    )
    base_url = site_base_url(repository, os.environ.get("JAXGUIDE_BASE_URL"))
except SiteError as error:  # Sphinx prints a ConfigError without a traceback
    raise ConfigError(str(error)) from None
jax_version = installed_version("jax")
# Colab opens each page's notebook from this repository's gh-pages branch.
jaxguide_repository = repository

# The interface text set here is in the jaxguide messages, translated per
# language (src/jaxguide_site/locale).
from jaxguide_site.execution.prefill import CELL_TIMEOUT_S
from jaxguide_site.interface_text.messages import N_, translations
from jaxguide_site.languages import LANGUAGES, LANGUAGES_FILE, languages_of
from jaxguide_site.page_structure import SITE_EXTENSIONS

TITLE = N_("JAX Guide")
AUTHORS = N_("The jaxguide authors")
SEARCH_PLACEHOLDER = N_("Search...")
# Cells tagged hide-cell are exercise solutions (the only use of that tag).
SOLUTION_TOGGLES = (N_("Show solution"), N_("Hide solution"))
# Sphinx's date format (strftime's codes; %B is the month's name): a catalog
# writes it as its language writes a date in prose, 2026년 11월 22일.
LAST_UPDATED_FORMAT = N_("%B %-d, %Y")

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.napoleon",
    "sphinx_copybutton",
    "sphinx_design",
    "sphinxext.opengraph",
    "sphinx_last_updated_by_git",
    # The site's own features, each set up by jaxguide_site (ARCHITECTURE.md).
    "jaxguide_site",
]

root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute"]
templates_path = [str(DOCS_DIR / "_templates")]
# Interface strings the themes do not translate themselves (pydata-sphinx-theme
# ships no Korean catalog). Sphinx compiles docs/_locale/<lang>/.../sphinx.po.
locale_dirs = [str(DOCS_DIR / "_locale")]
nitpicky = True

# The glossary (용어집): one data file, rendered by jaxguide_site.translation.glossary (glossary-table).
jaxguide_glossary = str(DOCS_DIR / "_data" / "glossary.toml")

# -- MyST and myst-nb ----------------------------------------------------------
# Defined once, with the reader every tool shares (jaxguide_site.page_structure).
myst_enable_extensions = sorted(SITE_EXTENSIONS)
myst_heading_anchors = 3
# Formulas become MathML at build time (src/jaxguide_site/math_mathml.py):
# pages load no MathJax, from a CDN or otherwise.
html_math_renderer = "mathml"

nb_execution_mode = "cache"


# The shared cache folder (build/jupyter_cache/<digest of src/jaxguide and the
# pins>, or JAXGUIDE_NB_CACHE) is chosen by src/jaxguide_site/execution/cache.py;
# a full build fills it before Sphinx runs (execution/prefill.py).
nb_execution_timeout = CELL_TIMEOUT_S  # per cell; the slowest page needs far less
nb_execution_allow_errors = False  # only cells tagged raises-exception may fail
# A failing cell is a warning, which -W turns into a failed build at the end.
# Raising instead would stop at the first broken page and print Sphinx's
# "please report this bug" crash banner; this way every broken page is named.
nb_execution_raise_on_error = False
nb_execution_show_tb = True
nb_merge_streams = True
# Pygments' IPython traceback lexer stops at quotes in multi-line messages
# (JAX's pytree errors print <class 'dict'>), which -W turns into a failed
# build; the plain Python traceback lexer reads every traceback the pages show.
nb_render_error_lexer = "pytb"
nb_execution_excludepatterns: list[str] = []  # every page executes
# Each page runs in a folder of its own, as a downloaded notebook does: no
# page reads or leaves files beside the sources. (`nox -s docs` also runs the
# kernels in a reader's Python: src/jaxguide_site/execution/kernels.py.)
nb_execution_in_temp = True

# -- API reference (autodoc of src/jaxguide, Google-style docstrings) ----------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True  # `activation=jnp.tanh`, not its repr
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_use_ivar = True  # Attributes: sections, without duplicating fields
# -- Links into JAX's, NumPy's, matplotlib's and Python's references -----------
# The build machines have no network, so intersphinx reads inventories kept in
# docs/_inventories (Sphinx's plain-text inventory format, version 1: "name
# type page", the anchor being the name). They list only the names this guide
# refers to; a reference to a name missing there fails the build (nitpicky), so
# add the name, with the page its project documents it on, when a page needs it.
INVENTORIES = DOCS_DIR / "_inventories"
intersphinx_mapping = {
    "jax": ("https://docs.jax.dev/en/latest/", str(INVENTORIES / "jax.inv")),
    "numpy": ("https://numpy.org/doc/stable/", str(INVENTORIES / "numpy.inv")),
    "matplotlib": (
        "https://matplotlib.org/stable/",
        str(INVENTORIES / "matplotlib.inv"),
    ),
    "python": ("https://docs.python.org/3/", str(INVENTORIES / "python.inv")),
}

# -- Doctests in pages (sphinx-build -b doctest) -------------------------------
# Only `{doctest}` directives in pages. The `>>>` examples in the API reference
# come from src/jaxguide docstrings, which pytest runs (--doctest-modules).
doctest_test_doctest_blocks = ""
doctest_global_setup = """
import jax
import jax.numpy as jnp
import numpy as np
"""

# -- HTML ------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_static_path = [str(DOCS_DIR / "_static")]
html_css_files = ["jaxguide.css"]
html_js_files = [
    ("back-to-top.js", {"defer": "defer"}),
    ("sidebar-toggles.js", {"defer": "defer"}),
    ("scroll-cues.js", {"defer": "defer"}),
]
html_copy_source = True
# The mark (src/jaxguide_site/brand.py) as the sidebar's logo and the favicon.
html_logo = html_favicon = str(DOCS_DIR / "_static" / "jaxguide-mark.svg")
# Each page's last change in git (sphinx-last-updated-by-git), in the footer,
# written as the page's language writes dates (html_last_updated_fmt, set per
# language from LAST_UPDATED_FORMAT). A shallow clone lacks some: those pages
# show none (jaxguide_site.reader_conveniences says which).
git_last_updated_timezone = "UTC"
# A page's date is its own file's: not the shared data every page depends on
# (the glossary and search synonyms feed each page's search keywords) nor,
# for a translation, its source (read for the section anchors).
git_exclude_patterns = ["**/_data/*", *(f"**/{code}/*.md" for code in LANGUAGES)]
suppress_warnings = ["git.too_shallow"]
html_theme_options = {
    "show_toc_level": 2,
    # The repository, "suggest edit" (the page's own source, path_to_docs
    # being set per language below) and "open issue" buttons.
    "repository_url": f"https://github.com/{repository}",
    "repository_branch": "main",
    "use_repository_button": True,
    "use_edit_page_button": True,
    "use_issues_button": True,
    # Under each translated page, its translators and "suggest a translation".
    "article_footer_items": ["translation-credit.html"],
    "use_download_button": True,
    # A phone's browser has its own full screen: one button fewer in the header.
    "use_fullscreen_button": False,
    # The sidebar button, then the guide's name (shown where the sidebar is not).
    "article_header_start": [
        "toggle-primary-sidebar.html",
        "jaxguide-header-title.html",
    ],
    # The language switcher first, then the theme's own buttons.
    "article_header_end": ["language-switcher.html", "article-header-buttons.html"],
    # pydata-sphinx-theme's version switcher and its banner on dev and old
    # releases, once a release is published (the newest is "preferred"). The
    # publish step writes one versions.json per language, next to the version
    # folders; a relative json_url is resolved against this version's root (a
    # stable/ copy of 0.2 matches 0.2's entry). No file to check while building.
    "switcher": {"json_url": "../versions.json", "version_match": release},
    "check_switcher": False,
    "show_version_warning_banner": True,
}
# sphinx-book-theme has no navbar: the version (with JAX's) and the switcher
# go at the top of the sidebar.
html_sidebars = {
    "**": [
        # The logo and the version (with JAX's), in one landmark.
        "jaxguide-sidebar-top.html",
        # No search field: the header's search button (every width) is the one.
        "sbt-sidebar-nav.html",
    ]
}
# The languages' sites link each other's pages (jaxguide_site.language_links;
# the languages are docs/_data/languages.toml): jaxguide_site_url is where a
# language's site root is, relative to this language's site root, in the
# published layout /<lang>/<version>/.
jaxguide_site_url = "../../{lang}/{version}/"  # the same version, other language
jaxguide_top_url = "../../"  # the root page that picks a language

# -- Canonical links and OpenGraph ---------------------------------------------
# Every copy of a page (each version, stable) names the stable copy as the
# canonical one; html_baseurl and ogp_site_url are set per language below.
ogp_social_cards = {"enable": False}  # one image (src/jaxguide_site/brand.py)
ogp_image = "_static/jaxguide-social.png"  # relative to ogp_site_url
ogp_type = "article"
copybutton_exclude = ".linenos, .gp, .go"


def _per_language(app: Sphinx, config: Config) -> None:
    """Set what depends on the language once ``-D language=...`` is applied."""
    lang = config.language
    languages = languages_of(Path(app.srcdir).parent)
    if lang not in (codes := [each.code for each in languages]):
        msg = (
            f"language {lang!r} is not one of the guide's ({', '.join(codes)}): "
            f"build one of those, or add it to {LANGUAGES_FILE}"
        )
        raise ConfigError(msg)
    text = translations(lang).gettext
    config.html_title = config.html_short_title = text(TITLE)
    # The footer's "By ..." and "© ...", in the page's language.
    config.author = text(AUTHORS)
    config.copyright = f"{COPYRIGHT_YEAR}, {config.author}"
    config.html_last_updated_fmt = text(LAST_UPDATED_FORMAT)
    config.html_theme_options["search_bar_text"] = text(SEARCH_PLACEHOLDER)
    config.html_theme_options["path_to_docs"] = f"docs/{lang}"
    # The logo's text is the title: the image needs no alternative text.
    config.html_theme_options["logo"] = {"text": config.html_title}
    show, hide = (text(toggle) for toggle in SOLUTION_TOGGLES)
    config.nb_code_prompt_show, config.nb_code_prompt_hide = show, hide
    stable = f"{base_url}{lang}/stable/"
    config.html_baseurl = config.ogp_site_url = stable
    config.ogp_site_name = config.html_title
    locale = next(each.locale for each in languages if each.code == lang)
    config.ogp_custom_meta_tags = [
        f'<meta property="og:locale" content="{locale}" />',
        '<meta property="og:image:width" content="1200" />',
        '<meta property="og:image:height" content="630" />',
        '<meta name="twitter:card" content="summary_large_image" />',
        *(
            f'<meta property="og:locale:alternate" content="{each.locale}" />'
            for each in languages
            if each.code != lang
        ),
    ]
    config.html_context = {
        **config.html_context,
        # The theme logs a console error on a first visit without this.
        "default_mode": "auto",
        "jaxguide_jax_version": jax_version,
        "jaxguide_base_url": base_url,
    }


def setup(app: Sphinx) -> None:
    app.connect("config-inited", _per_language)
