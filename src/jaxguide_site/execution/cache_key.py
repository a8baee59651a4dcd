"""What the pages execute against, as one digest: the execution cache's key.

The build keys its cache folder with it (``build/jupyter_cache/<digest>``,
:mod:`.cache`) and CI keys its saved cache with it, by running this file as a
script before anything is installed (``python3
src/jaxguide_site/execution/cache_key.py`` prints ``digest=<digest>``, a line
for ``$GITHUB_OUTPUT``). So it imports nothing but the standard library.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

# The repository's root, from this file's place in it.
REPO = Path(__file__).resolve().parents[3]
# Options of every page kernel. Plots at twice their pixels, shown at their
# size (matplotlib's "retina" PNG): axis labels stay sharp on a phone's
# screen, and Sphinx links the image to its full-size file.
KERNEL_ARGUMENTS = ("--InlineBackend.figure_formats=retina",)
# "reader" where the pages run in a reader's Python (execution/kernels.py):
# their outputs are kept apart from other kernels' (execution/cache.py).
KERNEL_ENV = "JAXGUIDE_KERNEL"


def cache_digest(repo: Path) -> str:
    """What the pages execute against: the jaxguide package, the pins and
    the kernel's options."""
    inputs = sorted((repo / "src" / "jaxguide").rglob("*.py"))
    inputs.append(repo / ".ci" / "constraints.txt")
    digest = hashlib.sha256(" ".join(KERNEL_ARGUMENTS).encode())
    for path in inputs:
        digest.update(path.relative_to(repo).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


if __name__ == "__main__":
    sys.stdout.write(f"digest={cache_digest(REPO)}\n")
