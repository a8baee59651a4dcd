"""Interface text: the site's own messages in one gettext domain
(:mod:`.messages`, :mod:`.catalog`), our Korean corrections to
sphinx-book-theme's catalog (:mod:`.theme`), the headers of myst-nb's
execution table (:mod:`.execution_table`), the copy button's text
(:mod:`.copy_button`) and the name of the solutions' toggle
(:mod:`.solution_toggle`).

Importing this package imports no Sphinx: the publishing step reads the
messages without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    from . import (  # noqa: PLC0415
        catalog,
        execution_table,
        solution_toggle,
        theme,
    )

    catalog.setup(app)
    theme.setup(app)
    execution_table.setup(app)
    solution_toggle.setup(app)
    return PARALLEL_SAFE
