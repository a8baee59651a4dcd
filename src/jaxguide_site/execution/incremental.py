"""An incremental build writes what a clean build of the same sources writes.

One difference, upstream: **myst-nb's stylesheet.** Sphinx adds
``?v=<checksum>`` to a stylesheet's link when the file is in ``_static`` as
it writes a page. myst-nb copies ``mystnb.<hash>.css`` there only when the
build finishes, so a clean build linked it without the checksum and every
later build with it. It is copied when writing starts instead.
"""

from __future__ import annotations

from pathlib import Path

from myst_nb.sphinx_ext import add_global_html_resources
from sphinx.application import Sphinx
from sphinx.builders import Builder


def _before_writing(app: Sphinx, builder: Builder) -> None:
    if builder.format != "html":
        return
    (Path(app.outdir) / "_static").mkdir(parents=True, exist_ok=True)
    add_global_html_resources(app, None)


def setup(app: Sphinx) -> None:
    app.connect("write-started", _before_writing)
