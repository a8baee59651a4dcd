"""Publishing: what a build is (:mod:`.build_info`, written beside its
pages), the guide's versions and address (:mod:`.site_address`), and the
``python -m jaxguide_site.publishing.publish`` command (:mod:`.publish`) that lays builds out as the
published site with the root pages in ``root_pages/``.

Importing this package imports no Sphinx: it runs without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE
from . import build_info

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    build_info.setup(app)
    return PARALLEL_SAFE
