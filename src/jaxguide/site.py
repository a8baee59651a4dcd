"""Values a page's prose shows: :func:`glue`.

A page computes a figure or a measured number in a cell and its prose shows
it through ``{glue:text}`name``` or ``{glue:figure}``. When the site is built
the value is recorded in the cell's output, in the form myst-nb reads; in a
reader's own notebook (a downloaded page, Colab) nothing is recorded, and the
same cell still runs: neither needs myst-nb in the kernel.
"""

from __future__ import annotations

import os
import sys

__all__ = ["GLUE_ENV", "MEASURED_ALONE_ENV", "glue"]

# Set to "1" by the site's build in the kernel of a page it executes with no
# other page executing (jaxguide_site.execution.measuring); the timing
# tables' captions say so. Here, where importing costs no JAX.
MEASURED_ALONE_ENV = "JAXGUIDE_MEASURED_ALONE"
# Set to "1" by the site's build for the kernels of the pages it executes
# (jaxguide_site.execution.kernels): there glue records values for the prose.
GLUE_ENV = "JAXGUIDE_GLUE"
# myst-nb's glue format (myst_nb.ext.glue, 1.x): the value's display data,
# its MIME types prefixed unless it is also shown, and its name in the
# output's "scrapbook" metadata. tests/test_workarounds.py holds it to
# myst-nb's own glue.
GLUE_PREFIX = "application/papermill.record/"


def glue(name: str, value: object, *, display: bool = False) -> None:
    """Record ``value`` under ``name`` for the page's prose when the site's
    build executes the page; anywhere else, show ``value`` if ``display``,
    else do nothing.

    A :class:`~jaxguide.ratios.Ratio` states its size from the record of
    the ratio glued under the same name (:mod:`jaxguide.records`), where
    there is one, and this run's value beside it.

    Raises:
        UnexpectedVerdict: If the ratio was ``expect``-ed and its record
            does not state that direction.

    >>> glue("answer", 42)  # outside a notebook: nothing to record or show
    """
    from .ratios import Ratio  # noqa: PLC0415 (importing costs no JAX here)
    from .records import recorded  # noqa: PLC0415

    if isinstance(value, Ratio):
        value = value.with_record(recorded(name))
    if os.environ.get(GLUE_ENV) == "1" and _in_a_kernel():
        _record(name, value, display=display)
    elif display:
        from IPython.display import display as show  # noqa: PLC0415

        show(value)  # type: ignore[no-untyped-call]


def _in_a_kernel() -> bool:
    """Whether this code runs in an IPython shell (a page's kernel)."""
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython  # noqa: PLC0415

    return get_ipython() is not None


def _record(name: str, value: object, *, display: bool) -> None:
    from IPython.core.formatters import format_display_data  # noqa: PLC0415
    from IPython.display import display as show  # noqa: PLC0415

    bundle, metadata = format_display_data(value)  # type: ignore[no-untyped-call]
    prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    show(  # type: ignore[no-untyped-call]
        {prefix + mime: data for mime, data in bundle.items()},
        raw=True,
        metadata=metadata,
    )
