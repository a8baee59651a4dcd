"""Our corrections to sphinx-book-theme's own Korean interface text.

sphinx-book-theme translates its strings in a gettext domain of its own,
``booktheme``, which a project's ``locale_dirs`` cannot reach. Sphinx keeps
the first catalog registered for a domain as the primary one and later ones as
fallbacks; extensions are set up before the theme, so registering
``<locale_dirs>/<lang>/LC_MESSAGES/booktheme.po`` (``docs/_locale``) here
makes our strings win and leaves every string we do not list to the theme.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.i18n import CatalogInfo

DOMAIN = "booktheme"


def setup(app: Sphinx) -> None:
    language = app.config.language
    for (
        folder
    ) in app.config.locale_dirs:  # relative to the sources, as Sphinx reads them
        locale_dir = Path(app.srcdir, folder)
        messages = locale_dir / language / "LC_MESSAGES"
        catalog = CatalogInfo(str(messages), DOMAIN, "utf-8")
        if not catalog.po_path.exists():
            continue
        if catalog.is_outdated():
            catalog.write_mo(language)
        app.add_message_catalog(DOMAIN, str(locale_dir))
