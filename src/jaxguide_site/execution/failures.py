"""Name the page, the line and the error of a cell that failed to execute.

myst-nb reports a failed notebook with the full traceback. In a long build
log that is easy to lose, so this adds one short warning per failure that an
editor can jump to::

    docs/ko/intro.md:42: WARNING: cell 3 failed to execute: ZeroDivisionError: division by zero

The build fails on it (``-W``), like on any other warning.

Listed in workarounds.toml, with the upstream it relies on and its drift test.
"""

from __future__ import annotations

import re

from myst_nb.sphinx_ import NbMetadataCollector
from sphinx.application import Sphinx
from sphinx.util import logging

from ..myst_notebook import code_cells

logger = logging.getLogger(__name__)

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_SOURCE = re.compile(
    r"executing the following cell:\n-{18}\n(?P<source>.*?)\n-{18}\n", re.DOTALL
)


def summarize_failure(
    traceback: str, page_text: str
) -> tuple[int | None, int | None, str]:
    """Return (cell number, line in the page, last error line) for a failure.

    The cell number counts code cells from 1; the line is that of the cell's
    opening fence. Either is ``None`` when it cannot be found.
    """
    plain = _ANSI.sub("", traceback)
    lines = [line.strip() for line in plain.strip().splitlines() if line.strip()]
    error = lines[-1] if lines else "unknown error"
    match = _CELL_SOURCE.search(plain)
    if match is None:
        return None, None, error
    failed = match["source"].strip()
    for number, cell in enumerate(code_cells(page_text), start=1):
        if cell.source.strip() == failed:
            return number, cell.line, error
    return None, None, error


def _warn_on_failure(app: Sphinx, _doctree: object) -> None:
    env = app.env
    exec_data = NbMetadataCollector.get_exec_data(env, env.docname)
    if not exec_data or exec_data.get("succeeded", True):
        return
    path = env.doc2path(env.docname)
    traceback = exec_data.get("traceback") or exec_data.get("error") or ""
    cell, line, error = summarize_failure(traceback, path.read_text(encoding="utf-8"))
    where = f"cell {cell}" if cell else "a cell"
    logger.warning(
        "%s failed to execute: %s",
        where,
        error,
        location=(env.docname, line),
        type="jaxguide",
        subtype="exec",
    )


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", _warn_on_failure)
