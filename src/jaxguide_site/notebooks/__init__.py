"""The notebook a reader takes home: each page as an executed ``.ipynb``
beside its HTML, in the download menu and behind an Open-in-Colab button
(:mod:`.downloads`), without the build's own cells (:mod:`.reader`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE
from . import downloads

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    downloads.setup(app)
    return PARALLEL_SAFE
