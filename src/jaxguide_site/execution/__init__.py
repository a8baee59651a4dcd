"""Executing the pages: the shared execution cache, filled before Sphinx
reads (prefill.py, run by site_build), kernels in a reader's Python that
Sphinx starts only in its own process, measuring pages executed with no
other page executing, one warning per failed cell, the per-build execution
report, incremental builds that check again the references into a re-read
page, and prose-only previews that execute nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE
from . import cache, failures, kernels, measuring, preview, referrers, report

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    cache.setup(app)
    kernels.setup(app)
    measuring.setup(app)
    failures.setup(app)
    report.setup(app)
    referrers.setup(app)
    preview.setup(app)
    return PARALLEL_SAFE
