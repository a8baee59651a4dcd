"""Values a page's prose shows: :func:`glue`.

A page computes a figure or a measured number in a cell and its prose shows
it through ``{glue:text}`name``` or ``{glue:figure}``. When the site is built
myst-nb records those values; in a reader's own notebook (a downloaded page,
Colab) myst-nb is usually not installed, and the same cell must still run.
"""

from __future__ import annotations

__all__ = ["MEASURED_ALONE_ENV", "glue"]

# Set to "1" by the site's build in the kernel of a page it executes with no
# other page executing (jaxguide_site.execution.measuring); the timing
# tables' captions say so. Here, where importing costs no JAX.
MEASURED_ALONE_ENV = "JAXGUIDE_MEASURED_ALONE"


def glue(name: str, value: object, *, display: bool = False) -> None:
    """Record ``value`` under ``name`` for the page's prose, as myst-nb's
    ``glue`` does; without myst-nb, show ``value`` if ``display``, else do
    nothing.

    >>> glue("answer", 42)  # outside a notebook: nothing to record or show
    """
    try:
        from myst_nb import glue as record  # noqa: PLC0415 (only where installed)
    except ImportError:
        if display:
            from IPython.display import display as show  # noqa: PLC0415

            show(value)  # type: ignore[no-untyped-call]
        return
    record(name, value, display=display)
