"""What a build is, written next to its pages for the publish step.

Each HTML build writes ``jaxguide-build.json`` at its root: the language, the
guide's version, the JAX version it executed against, the site's address and
an id unique to the build. :mod:`.publish` reads it to put the build in its
place (``/<lang>/<version>/``), to name versions in the switcher and to tell
whether ``stable/`` already holds this build.

On the Korean site it also loads the Korean text for the theme's version
banner, which pydata-sphinx-theme writes in English from JavaScript.
"""

from __future__ import annotations

import json
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # publish.py reads MANIFEST without Sphinx
    from sphinx.application import Sphinx

MANIFEST = "jaxguide-build.json"


def git_commit(repo: Path) -> str:
    """The commit checked out in ``repo``, or \"\" where git cannot tell."""
    result = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() if result.returncode == 0 else ""


def manifest(app: Sphinx) -> dict[str, Any]:
    context = app.config.html_context
    return {
        "language": app.config.language,
        "version": app.config.release,
        "jax": context.get("jaxguide_jax_version", ""),
        "base_url": context.get("jaxguide_base_url", ""),
        "repository": getattr(app.config, "jaxguide_repository", ""),
        "commit": git_commit(Path(app.confdir)),
        "built": datetime.now(UTC).isoformat(timespec="seconds"),
        "build_id": uuid.uuid4().hex,
    }


def write_manifest(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    path = Path(app.outdir) / MANIFEST
    text = json.dumps(manifest(app), ensure_ascii=False, indent=2)
    path.write_text(text + "\n", encoding="utf-8")


def _banner_text(app: Sphinx) -> None:
    app.add_js_file("version-banner.js", loading_method="defer")


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _banner_text)
