"""Translation: the checker comparing the two languages page by page, the
glossary (``glossary-table``) and the state of every page's translation
(``translation-status``) as tables.

The checker: :mod:`.parity` reads a page (myst-nb's reading) and compares two
versions of it; :mod:`.consistency` checks the docs folder (both languages,
their toctrees, the pages in progress); :mod:`.structure` cuts a page and
its translation into stretches that stand for each other and compares their
paragraphs, list items and admonitions, and :mod:`.markup` the markup they
keep as it is (glued values, role targets, links, formulas, code spans);
:mod:`.prose` checks one page's prose (links, targets, the glossary's
terms, the language, split paragraphs); :mod:`.stamps` records and reads
a translation's stamp, and finds in git's history what changed since;
:mod:`.report` is what they report; and :mod:`.checker` is the
``jaxguide-i18n`` command.

Importing this package imports no Sphinx: ``jaxguide-i18n`` runs without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    # Imported here: jaxguide-i18n imports this package without Sphinx.
    from . import glossary_table, status  # noqa: PLC0415

    glossary_table.setup(app)
    status.setup(app)
    return PARALLEL_SAFE
