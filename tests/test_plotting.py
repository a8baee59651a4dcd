"""jaxguide.plotting: the figures pages repeat, with only the caller's words."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes

from jaxguide import STYLE, plot_fit, plot_history


def words_on(ax: Axes) -> set[str]:
    """Every piece of text drawn on the axes, ticks aside."""
    legend = ax.get_legend()
    texts = [ax.get_xlabel(), ax.get_ylabel(), ax.get_title()]
    texts += [t.get_text() for t in legend.get_texts()] if legend else []
    texts += [t.get_text() for t in ax.texts]
    return {text for text in texts if text}


def test_plot_fit_draws_samples_and_one_curve_per_model() -> None:
    x = np.linspace(0.0, 1.0, 15)
    ax = plot_fit(
        x,
        4.5 + 1.3 * x,
        {"true line": lambda t: 4.5 + 1.3 * t, "fitted": lambda t: 4.4 + 1.4 * t},
        data_label="samples",
        xlabel="$x$",
        ylabel="$y$",
    )
    assert [line.get_label() for line in ax.get_lines()] == ["true line", "fitted"]
    assert len(ax.collections) == 1  # the scatter of samples
    assert ax.collections[0].get_offsets().shape == (15, 2)
    assert words_on(ax) == {"true line", "fitted", "samples", "$x$", "$y$"}
    curve = ax.get_lines()[0].get_xydata()
    assert curve[0, 0] == 0.0  # the curves span the samples
    assert curve[-1, 0] == 1.0


def test_helpers_add_no_words_of_their_own() -> None:
    ax = plot_fit([0.0, 1.0], [0.0, 1.0], {})
    assert words_on(ax) == set()
    assert ax.get_legend() is None
    ax = plot_history({"": [1.0, 0.5]})
    assert words_on(ax) == set()


def test_plot_history_draws_references_in_the_series_colour() -> None:
    ax = plot_history(
        {"b": [3.0, 4.0, 4.4], "w": [5.0, 2.0, 1.4]},
        references={"w": 1.3},
        xlabel="step",
        log_scale=True,
    )
    b, w, reference = ax.get_lines()
    assert reference.get_linestyle() == "--"
    assert reference.get_color() == w.get_color() != b.get_color()
    assert list(reference.get_ydata()) == [1.3, 1.3]
    assert ax.get_yscale() == "log"


def test_helpers_draw_on_given_axes_and_keep_the_global_style() -> None:
    before = plt.rcParams["axes.grid"]
    _, (left, right) = plt.subplots(1, 2)
    assert plot_fit([0.0, 1.0], [1.0, 2.0], {"f": lambda t: t + 1}, ax=left) is left
    assert plot_history({"loss": [1.0, 0.1]}, ax=right) is right
    assert plt.rcParams["axes.grid"] == before
    for ax in (left, right):  # the style reaches axes made outside it
        assert ax.xaxis.get_gridlines()[0].get_visible()
        assert not ax.spines["top"].get_visible()
    assert (
        left.get_lines()[0].get_color() == STYLE["axes.prop_cycle"].by_key()["color"][0]
    )
    assert STYLE["axes.grid"] is True


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: plot_fit([1.0, 2.0], [1.0], {}),
            "x and y must have the same length, got 2 and 1",
        ),
        (
            lambda: plot_fit(np.ones((2, 2)), np.ones(2), {}),
            r"x must be one-dimensional, got shape \(2, 2\)",
        ),
        (
            lambda: plot_fit([0.0, 1.0], [0.0, 1.0], {"c": lambda _: 1.0}),
            "curve 'c' gave 1 values for 200 inputs",
        ),
        (
            lambda: plot_history({"w": [1.0]}, references={"b": 1.0}),
            r"references name no series: \['b'\]",
        ),
        (
            lambda: plot_history({"w": np.ones((2, 2))}),
            r"series\['w'\] must be one-dimensional",
        ),
    ],
)
def test_bad_input_is_named(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
