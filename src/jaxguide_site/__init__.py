"""The jaxguide site's tooling: one Sphinx extension, ``jaxguide_site``.

Its modules and how they work together: ARCHITECTURE.md, at the repository's root.
"""

from __future__ import annotations

from importlib.metadata import version
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
    "site_search",
    "interface_text",
    "publishing",
    "api_signatures",
    "math_mathml",
    "image_sizes",
    "page_loading",
    "output_contrast",
    "tracebacks",
    "reader_conveniences",
    "gpu_records",
    "post_build",
)


def setup(app: Sphinx) -> ExtensionMetadata:
    """Set up every feature of :data:`FEATURES`, in order."""
    for feature in FEATURES:
        app.setup_extension(f"{__name__}.{feature}")
    # The tooling is the checkout's, so its version is the installed jaxguide's
    # (from git, by hatch-vcs): what Sphinx's crash report and needs_extensions read.
    return {**PARALLEL_SAFE, "version": version("jaxguide")}
