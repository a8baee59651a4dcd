"""What happens after Sphinx has written a language's pages: one list, in order.

Sphinx calls :func:`finish` once, at ``build-finished``; it runs each step of
:data:`AFTER_WRITING` in turn, with the build's exception (or ``None``). A step
that writes the output skips a failed build itself (and a builder that is not
HTML), so a step that must always run, the preview's undoing of its patch,
still runs. Each step writes its own files once: the pages' HTML is not
rewritten here (publishing's page rewrites come later, laying out the site).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import icon_fonts, korean_search, page_loading, site_search
from .execution import preview, report
from .extension import PARALLEL_SAFE
from .interface_text import copy_button
from .notebooks import downloads
from .publishing import build_info

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

Step = Callable[["Sphinx", "Exception | None"], None]

AFTER_WRITING: tuple[Step, ...] = (
    # First: a reader loads no template, and the steps below read _static.
    page_loading.remove_theme_templates,
    report.report_executions,
    preview.report_preview,
    downloads.write_notebooks,
    korean_search.write_query_script,
    # After every file it indexes is written.
    site_search.index_pages,
    copy_button.translate_script,
    build_info.write_manifest,
    icon_fonts.subset_icon_fonts,
)


def finish(app: Sphinx, exception: Exception | None) -> None:
    """Run every step of :data:`AFTER_WRITING`, in order."""
    for step in AFTER_WRITING:
        step(app, exception)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("build-finished", finish)
    return PARALLEL_SAFE
