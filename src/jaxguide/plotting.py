"""The few figures the pages repeat, in one consistent style.

Every helper returns the matplotlib ``Axes`` it drew on, so a page can add to
it. Every piece of text on a figure (axis labels, legend entries) comes from
the caller: the helpers add no words of their own, so figures read the same
on either language's site.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, cast

import matplotlib.pyplot as plt
import numpy as np
from cycler import cycler
from jax.typing import ArrayLike
from matplotlib.axes import Axes
from matplotlib.typing import RcKeyType

from ._render import format_ratio, unit_for

__all__ = ["STYLE", "plot_comparison", "plot_fit", "plot_history"]

STYLE: dict[str, Any] = {
    "figure.figsize": (6.0, 3.5),
    "figure.dpi": 100,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(
        color=["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    ),
    "legend.frameon": False,
    "lines.linewidth": 2.0,
}
"""matplotlib settings every helper draws with (``plt.rc_context(STYLE)``)."""

_DATA_COLOR = "#555555"


class _Timed(Protocol):
    """One candidate's times, as :class:`jaxguide.timing.Timing` has them."""

    @property
    def label(self) -> str: ...
    @property
    def median(self) -> float: ...
    @property
    def iqr(self) -> float: ...


class _Compared(Protocol):
    """What a figure of a comparison reads: :class:`jaxguide.timing.Comparison`
    (this module imports nothing of :mod:`jaxguide.timing`, which draws with it)."""

    @property
    def timings(self) -> Sequence[_Timed]: ...
    def speedup(self, label: str) -> float: ...


@contextmanager
def _styled(ax: Axes | None) -> Iterator[Axes]:
    """Draw in STYLE, on new axes or on the caller's (made before STYLE applied)."""
    with plt.rc_context(cast("dict[RcKeyType, Any]", STYLE)):
        if ax is None:
            yield plt.subplots()[1]
            return
        ax.grid(visible=True, alpha=STYLE["grid.alpha"])
        ax.spines[["top", "right"]].set_visible(False)
        if not ax.has_data():  # keep the colours of what the caller already drew
            ax.set_prop_cycle(STYLE["axes.prop_cycle"])
        yield ax


def _label(ax: Axes, xlabel: str | None, ylabel: str | None) -> None:
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if ax.get_legend_handles_labels()[1]:
        ax.legend()


def _vector(name: str, values: ArrayLike) -> np.ndarray[Any, Any]:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        msg = f"{name} must be one-dimensional, got shape {array.shape}"
        raise ValueError(msg)
    return array


def plot_fit(
    x: ArrayLike,
    y: ArrayLike,
    curves: Mapping[str, Callable[[np.ndarray[Any, Any]], ArrayLike]],
    *,
    data_label: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Scatter the samples and draw each model as a curve over their range.

    Args:
        x: Sample inputs, one-dimensional.
        y: Sample targets, the same length as ``x``.
        curves: Legend label → function from a grid of ``x`` values to
            predictions, e.g. ``{"true line": lambda t: 4.5 + 1.3 * t}``.
        data_label: Legend entry of the samples (none if ``None``).
        xlabel: Label of the x axis.
        ylabel: Label of the y axis.
        ax: Axes to draw on; a new figure is made when ``None``.

    Returns:
        The ``Axes`` drawn on.

    Raises:
        ValueError: If ``x`` and ``y`` are not 1-D of the same length, or a
            curve returns a different number of values than it was given.

    Examples:
        >>> x = np.array([0.0, 1.0, 2.0])
        >>> ax = plot_fit(x, 2 * x, {"y = 2x": lambda t: 2 * t}, xlabel="x")
        >>> [line.get_label() for line in ax.get_lines()]
        ['y = 2x']
    """
    xs, ys = _vector("x", x), _vector("y", y)
    if xs.shape != ys.shape:
        msg = f"x and y must have the same length, got {xs.size} and {ys.size}"
        raise ValueError(msg)
    grid = np.linspace(xs.min(), xs.max(), 200)
    with _styled(ax) as axes:
        axes.scatter(xs, ys, s=18, color=_DATA_COLOR, label=data_label, zorder=3)
        for label, curve in curves.items():
            values = np.asarray(curve(grid), dtype=float).reshape(-1)
            if values.shape != grid.shape:
                msg = (
                    f"curve {label!r} gave {values.size} values for {grid.size} inputs"
                )
                raise ValueError(msg)
            axes.plot(grid, values, label=label)
        _label(axes, xlabel, ylabel)
    return axes


def plot_history(
    series: Mapping[str, ArrayLike],
    *,
    references: Mapping[str, float] | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    log_scale: bool = False,
    ax: Axes | None = None,
) -> Axes:
    """Draw how values (parameters, a loss) changed over the steps.

    Args:
        series: Legend label → values per step (one-dimensional).
        references: Label of a series → the value it should reach, drawn as a
            dashed line in that series' colour (e.g. a closed-form answer).
        xlabel: Label of the x axis (the steps).
        ylabel: Label of the y axis.
        log_scale: Logarithmic y axis, for losses.
        ax: Axes to draw on; a new figure is made when ``None``.

    Returns:
        The ``Axes`` drawn on.

    Raises:
        ValueError: If a series is not 1-D, or a reference names no series.

    Examples:
        >>> ax = plot_history({"w": [5.0, 3.0, 2.0]}, references={"w": 1.3})
        >>> len(ax.get_lines())  # the series and its reference
        2
    """
    references = dict(references or {})
    unknown = sorted(set(references) - set(series))
    if unknown:
        msg = f"references name no series: {unknown}; the series are {list(series)}"
        raise ValueError(msg)
    with _styled(ax) as axes:
        for label, values in series.items():
            (line,) = axes.plot(_vector(f"series[{label!r}]", values), label=label)
            if label in references:
                axes.axhline(references[label], color=line.get_color(), linestyle="--")
        if log_scale:
            axes.set_yscale("log")
        _label(axes, xlabel, ylabel)
    return axes


def plot_comparison(
    comparison: _Compared,
    *,
    xlabel: str | None = None,
    log_scale: bool | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Horizontal bars of median times, each annotated with its speed-up.

    Prefer :meth:`jaxguide.timing.Comparison.plot`, which calls this.

    Args:
        comparison: What :func:`jaxguide.timing.compare` returned.
        xlabel: Label of the time axis; by default only the unit, e.g. ``ms``.
        log_scale: Logarithmic time axis; by default when the slowest median
            is over 100 times the fastest.
        ax: Axes to draw on; a new figure is made when ``None``.

    Returns:
        The ``Axes`` drawn on.

    Examples:
        >>> result = jaxguide.compare({"a": np.sin, "b": np.cos}, np.ones(10), repeat=6)
        >>> ax = result.plot()
        >>> [label.get_text() for label in ax.get_yticklabels()]
        ['a', 'b']
    """
    medians = np.array([timing.median for timing in comparison.timings])
    spreads = np.array([timing.iqr for timing in comparison.timings]) / 2
    scale, unit = unit_for(float(medians.max()))
    if log_scale is None:
        log_scale = bool(medians.max() > 100 * medians.min())
    labels = [timing.label for timing in comparison.timings]
    with _styled(ax) as axes:
        positions = np.arange(len(labels))
        axes.barh(
            positions,
            medians / scale,
            xerr=spreads / scale,
            color="#1f77b4",
            error_kw={"ecolor": _DATA_COLOR, "capsize": 3},
        )
        axes.set_yticks(positions, labels)
        axes.invert_yaxis()  # first candidate on top, as in the table
        axes.grid(axis="y", visible=False)
        ends = (medians + spreads) / scale  # write past the error bar
        for position, (label, end) in enumerate(zip(labels, ends, strict=True)):
            axes.annotate(
                format_ratio(comparison.speedup(label)),
                (end, position),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
            )
        if log_scale:
            axes.set_xscale("log")
        axes.set_xlabel(xlabel if xlabel is not None else unit)
        axes.margins(x=0.15)
    return axes
