"""What the site adds around a page for its reader, besides the theme's own
repository, edit and issue buttons (docs/conf.py):

- **Translator credit.** Under a translated page (front matter
  ``translated_from``), the names its translators wrote in its front matter
  (``translators:``, a list, as each wants to be credited), and a link that
  opens a new GitHub issue about the page's translation, its title and body
  prefilled in the page's language. A page that names no translator shows
  the link alone: git's author names are accounts, not people's names, so the
  credit never comes from git. The template is
  docs/_templates/translation-credit.html (pydata-sphinx-theme's
  ``article_footer_items``).
- **Last-updated dates** come from sphinx-last-updated-by-git. Outside a git
  checkout it warns, which fails the strict build, and hides every page's
  source links; here such a build shows no dates and keeps the links. In a
  shallow clone, pages whose last change is beyond the history show no date
  (conf.py suppresses the extension's ``git.too_shallow`` warning). Either
  way the build says in one line how many pages have no date.
- **The announcement**: a banner on every page of one language
  (pydata-sphinx-theme's ``announcement``), HTML text from
  ``_data/announcement.toml`` beside the language folders, by language;
  empty or missing, none.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.errors import ConfigError
from sphinx.util import logging
from sphinx.util.typing import ExtensionMetadata

from .extension import PARALLEL_SAFE
from .interface_text.catalog import _

logger = logging.getLogger(__name__)

ISSUE_TITLE = _("Translation suggestion: {page}")
ISSUE_BODY = _(
    "Page: {url}\nTranslation: {source}\n\n"
    "What the translation says now:\n\n\nWhat it should say, and why:\n"
)
ANNOUNCEMENTS = Path("_data") / "announcement.toml"
TRANSLATORS = "translators"  # the front matter key a translator writes


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=folder, capture_output=True, text=True, check=True
    ).stdout


def translators(metadata: Mapping[str, Any]) -> list[str] | None:
    """The names under ``translators:`` in a page's front matter, each once;
    None where there are none. Raises ValueError if it is not a list of names.

    >>> translators({"translators": ["김번역", "Alice Translator", "김번역"]})
    ['김번역', 'Alice Translator']
    >>> translators({"translators": '["김번역"]'})  # as Sphinx's metadata has it
    ['김번역']
    >>> translators({"translated_from": {"lang": "en"}}) is None
    True
    """
    names = metadata.get(TRANSLATORS, [])
    if isinstance(names, str) and names.startswith("["):
        names = json.loads(names)  # MyST keeps a list of the front matter as JSON
    if not isinstance(names, list) or not all(
        isinstance(name, str) and name.strip() for name in names
    ):
        msg = f"'{TRANSLATORS}:' must be a list of names, one a line (- name), got {names!r}"
        raise ValueError(msg)
    return list(dict.fromkeys(name.strip() for name in names)) or None


def _add_translation_credit(
    app: Sphinx,
    pagename: str,
    _template: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    context["jaxguide_translation"] = None
    if doctree is None or "translated_from" not in app.env.metadata[pagename]:
        return
    options = app.config.html_theme_options
    repository = options["repository_url"]
    source = f"{options['path_to_docs']}/{app.env.doc2path(pagename, base=False)}"
    title = str(ISSUE_TITLE).format(page=pagename)
    # The copy the reader is on: the canonical stable/ copy 404s until a
    # release is published, and names another version after one.
    version_root = app.config.html_baseurl.removesuffix("stable/")
    url = f"{version_root}{app.config.release}/{pagename}.html"
    body = str(ISSUE_BODY).format(url=url, source=source)
    try:
        names = translators(app.env.metadata[pagename])
    except ValueError as error:
        logger.warning("%s: %s", pagename, error, location=pagename, type="jaxguide")
        names = None
    context["jaxguide_translation"] = {
        "translators": ", ".join(names) if names else None,
        "suggest_url": f"{repository}/issues/new?"
        + urlencode({"title": title, "body": body}, quote_via=quote),
    }


def _in_git_checkout(folder: Path) -> bool:
    try:
        return _git(folder, "rev-parse", "--is-inside-work-tree").strip() == "true"
    except (OSError, subprocess.CalledProcessError):
        return False


def _dates_without_git(app: Sphinx, env: BuildEnvironment) -> None:
    """Outside a git checkout, mark the pages read as having no date (and
    their source links shown) before sphinx-last-updated-by-git asks git."""
    dates: dict[str, Any] = getattr(env, "git_last_updated", {})
    if _in_git_checkout(Path(app.srcdir)):
        return
    for docname, date in dates.items():
        if date is None:
            dates[docname] = (None, True)


def _report_missing_dates(app: Sphinx, env: BuildEnvironment) -> None:
    dates: dict[str, Any] = getattr(env, "git_last_updated", {})
    missing = sorted(name for name, date in dates.items() if not (date and date[0]))
    if missing:
        logger.info(
            "jaxguide [%s]: %d page(s) without a last-updated date (no git "
            "history for them: no checkout, a shallow clone or not committed): %s",
            app.config.language,
            len(missing),
            ", ".join(missing),
        )


def announcement(srcdir: Path, language: str) -> str:
    """The announcement of ``language``'s site in ``srcdir``, or ""."""
    path = srcdir.parent / ANNOUNCEMENTS
    if not path.is_file():
        return ""
    text = str(tomllib.loads(path.read_text(encoding="utf-8")).get(language, ""))
    if text.strip().startswith("http"):
        # The theme would fetch an address from the reader's browser.
        msg = f"{path}: {language!r} is an address; write the banner's HTML instead"
        raise ConfigError(msg)
    return text.strip()


def _set_announcement(app: Sphinx, config: Config) -> None:
    text = announcement(Path(app.srcdir), config.language)
    config.html_theme_options["announcement"] = text


def setup(app: Sphinx) -> ExtensionMetadata:
    # Measured code's labels in the page's language, beside the credit.
    app.setup_extension("jaxguide_site.output_labels")
    app.connect("config-inited", _set_announcement)
    app.connect("html-page-context", _add_translation_credit)
    # Before and after sphinx-last-updated-by-git's own handler (500).
    app.connect("env-updated", _dates_without_git, priority=400)
    app.connect("env-updated", _report_missing_dates, priority=600)
    return PARALLEL_SAFE
