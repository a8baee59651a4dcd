"""What every jaxguide_site extension tells Sphinx about itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["PARALLEL_SAFE"]

# Each extension keeps its state in the environment or on disk, never in the
# module: safe for parallel reading and writing (-j).
PARALLEL_SAFE: ExtensionMetadata = {
    "parallel_read_safe": True,
    "parallel_write_safe": True,
}
