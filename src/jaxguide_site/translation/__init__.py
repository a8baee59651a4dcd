"""Translation: the checker comparing the two languages page by page
(:mod:`.checker`, the ``jaxguide-i18n`` command, on :mod:`.parity`'s reading
of a page), the glossary (``glossary-table``) and the state of every page's
translation (``translation-status``) as tables.

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
