"""A page that measures executes alone: no other page executes meanwhile.

Timing tables measured while other pages' kernels run would share the cores
with them. A page that times code says so in its front matter::

    jaxguide:
      measures: true

and the build executes it alone: the pre-step (:mod:`.prefill`) runs the
measuring pages one by one after the others, and Sphinx itself executes only
in one process, one page at a time (:mod:`.kernels`). Its kernel is started
with :data:`jaxguide.site.MEASURED_ALONE_ENV` set, so that its tables'
captions say so. A page that calls jaxguide's ``benchmark`` or ``compare``
without the declaration fails the build (a warning, under ``-W``), naming
the page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from ..page_structure import PageError, PageStructure, read

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

TIMING_CALL = re.compile(r"\b(benchmark|compare)\(")


def declares_measuring(source: str) -> bool:
    """Whether the page's front matter says ``jaxguide: {measures: true}``.

    >>> declares_measuring("---\\njaxguide:\\n  measures: true\\n---\\n# Page\\n")
    True
    >>> declares_measuring("# Page\\n")
    False
    """
    page = _structure(source)
    return page is not None and measures(page.front_matter.data)


def measures(front_matter: Mapping[str, Any]) -> bool:
    """Whether front matter (or a notebook's metadata, which myst-nb makes
    from it) declares ``jaxguide: {measures: true}``."""
    settings = front_matter.get("jaxguide")
    return isinstance(settings, dict) and settings.get("measures") is True


def times_code(source: str) -> bool:
    """Whether a code cell of the page calls ``benchmark(`` or ``compare(``."""
    cells = page.cells if (page := _structure(source)) else []
    return any(c.kind == "code" and TIMING_CALL.search(c.source) for c in cells)


def _structure(source: str) -> PageStructure | None:
    """The page read, or ``None`` where it cannot be: myst-nb, reading it
    next, reports that at its line (this must not crash the build first)."""
    try:
        return read(source)
    except PageError:
        return None


def overlaps_with_measuring(log: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs (measuring page, other page) whose executions overlapped in time
    (entries of :mod:`.prefill`'s log).

    >>> a = {"page": "a", "alone": True, "started": 0.0, "ended": 2.0}
    >>> b = {"page": "b", "alone": False, "started": 1.0, "ended": 3.0}
    >>> c = {"page": "c", "alone": False, "started": 2.0, "ended": 4.0}
    >>> overlaps_with_measuring([a, b, c])
    [('a', 'b')]
    """
    return [
        (alone["page"], other["page"])
        for alone in log
        if alone["alone"]
        for other in log
        if other is not alone
        and other["started"] < alone["ended"]
        and alone["started"] < other["ended"]
    ]


def _check_declared(app: Sphinx, docname: str, source: list[str]) -> None:
    text = source[0]
    if times_code(text) and not declares_measuring(text):
        logger.warning(
            "%s times code (benchmark or compare) but its front matter does not "
            "declare it: add 'jaxguide:' with 'measures: true' so that the build "
            "executes it with no other page executing",
            app.env.doc2path(docname),
            location=docname,
        )


def setup(app: Sphinx) -> None:
    app.connect("source-read", _check_declared)
