"""The jaxguide site's tooling: one Sphinx extension, and the commands around it.

docs/conf.py loads ``jaxguide_site``; :func:`setup` sets up each feature
module of :data:`FEATURES`. ARCHITECTURE.md, at the repository's root, maps
them and the modules beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .extension import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["FEATURES", "setup"]

# The site's features, each a module with its own setup(), in the order they
# are set up (the order of their event handlers where priorities tie).
FEATURES = (
    "execution",
    "translation",
    "notebooks",
    "language_links",
    "section_anchors",
    "korean_search",
    "site_search",
    "interface_text",
    "publishing",
    "api_signatures",
    "math_mathml",
    "icon_fonts",
    "image_sizes",
    "page_loading",
    "output_contrast",
    "reader_conveniences",
    "gpu_records",
)


def setup(app: Sphinx) -> ExtensionMetadata:
    for feature in FEATURES:
        app.setup_extension(f"{__name__}.{feature}")
    return PARALLEL_SAFE
