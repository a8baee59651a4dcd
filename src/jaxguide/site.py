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
    try:
        from myst_nb import glue as record  # noqa: PLC0415 (only where installed)
    except ImportError:
        if display:
            from IPython.display import display as show  # noqa: PLC0415

            show(value)  # type: ignore[no-untyped-call]
        return
    record(name, value, display=display)
