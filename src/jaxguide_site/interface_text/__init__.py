"""Interface text the themes and myst-nb write in English only: our Korean
corrections to sphinx-book-theme's catalog (:mod:`.theme`) and the headers of
myst-nb's execution table (:mod:`.execution_table`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE
from . import execution_table, theme

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    theme.setup(app)
    execution_table.setup(app)
    return PARALLEL_SAFE
