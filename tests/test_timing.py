"""jaxguide.timing: honest timings, readable tables, clear errors."""

from __future__ import annotations

import functools
import math
import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jaxguide import Comparison, Timing, benchmark, compare, format_duration
from jaxguide.timing import format_ratio


@pytest.fixture(scope="module")
def slow() -> tuple[jax.stages.Wrapped, jax.Array]:
    """A jitted function that runs for tens of milliseconds on a CPU, compiled."""
    fn = jax.jit(lambda x: jnp.tanh(x @ x @ x @ x).sum())
    x = jnp.ones((900, 900)) / 900
    fn(x).block_until_ready()
    return fn, x


def test_timing_without_blocking_under_reports_and_the_helper_does_not(
    slow: tuple[jax.stages.Wrapped, jax.Array],
) -> None:
    fn, x = slow
    # What a stopwatch around the call alone sees: the dispatch only. Best of
    # five for both, because any one call can catch a pause of a shared
    # machine: the fastest run is the floor an honest timing cannot go under.
    naives, waits = [], []
    for _ in range(5):
        start = time.perf_counter()
        result = fn(x)
        naives.append(time.perf_counter() - start)
        start = time.perf_counter()
        result.block_until_ready()
        waits.append(time.perf_counter() - start)
    naive, waited = min(naives), min(waits)

    timing = benchmark(fn, x, repeat=3, number=1)
    dispatch_only = benchmark(fn, x, repeat=3, number=1, block=False)
    assert waited > 10 * naive, "the call did not return before the work finished"
    assert timing.median > 0.5 * (naive + waited)
    assert dispatch_only.median < 0.2 * timing.median
    assert not dispatch_only.blocked
    assert "(not blocked)" in str(dispatch_only)


def test_the_helper_waits_for_every_leaf_of_a_pytree(
    slow: tuple[jax.stages.Wrapped, jax.Array],
) -> None:
    fn, x = slow
    # The first leaf is ready at once (the input itself), the slow one comes
    # second: blocking on the first leaf alone would time the dispatch only,
    # about a thousandth of the computation. The wide margin keeps the test
    # true on a loaded machine, where one timing may run twice as long as the
    # other.
    both = benchmark(lambda x: {"a": x, "b": [fn(x)]}, x, repeat=5, number=1)
    alone = benchmark(fn, x, repeat=5, number=1)
    assert both.median > 0.2 * alone.median


def test_first_call_is_timed_apart_from_the_compiled_runs() -> None:
    fn = jax.jit(lambda x: jnp.cos(x) * 2.0)
    timing = benchmark(fn, jnp.ones(10), repeat=5)
    assert timing.first_call > 5 * timing.median  # tracing + compiling
    assert len(timing.times) == 5
    assert timing.number >= 1
    assert timing.best <= timing.median


def test_number_is_chosen_so_that_a_round_lasts_the_target_time() -> None:
    timing = benchmark(np.sin, np.ones(10), repeat=3, target_time=0.005)
    assert timing.number > 10
    assert timing.number * timing.median > 0.001


def test_numpy_callables_and_plain_python_results_work() -> None:
    timing = benchmark(np.dot, np.ones((20, 20)), np.ones(20), repeat=2, number=3)
    assert timing.label == "dot"
    assert timing.number == 3
    timing = benchmark(lambda: {"n": 1, "s": "text"}, repeat=2, number=2)
    assert timing.label == "<lambda>"


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0.00 ns"),
        (4.2e-10, "0.42 ns"),
        (2.5e-8, "25.0 ns"),
        (999e-9, "999 ns"),
        (0.0009996, "1.00 ms"),
        (0.000459, "459 µs"),
        (1.63, "1.63 s"),
        (2950.0, "2950 s"),
    ],
)
def test_format_duration_picks_a_readable_unit(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


@given(st.floats(min_value=1e-9, max_value=1e4))
def test_format_duration_has_three_significant_digits(seconds: float) -> None:
    value, unit = format_duration(seconds).split()
    assert unit in {"ns", "µs", "ms", "s"}
    assert 1.0 <= float(value) < 1000.0 or unit == "s"
    assert len(value.replace(".", "")) == 3 or float(value) >= 1000


@pytest.mark.parametrize("seconds", [-1.0, math.inf, math.nan])
def test_format_duration_rejects_impossible_durations(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds must be a finite duration"):
        format_duration(seconds)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"repeat": 0}, ValueError, "repeat must be >= 1, got 0"),
        ({"repeat": 2.5}, TypeError, "repeat must be an int >= 1, got float 2.5"),
        ({"repeat": True}, TypeError, "repeat must be an int >= 1, got bool"),
        ({"number": 0}, ValueError, "number must be >= 1, got 0"),
        ({"warmup": -1}, ValueError, "warmup must be >= 0, got -1"),
        ({"target_time": 0.0}, ValueError, "target_time must be > 0"),
        ({"target_time": "1s"}, TypeError, "target_time must be a real number"),
    ],
)
def test_bad_arguments_name_the_argument(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        benchmark(np.sin, 1.0, **kwargs)  # type: ignore[arg-type]


def test_a_non_callable_is_refused_before_anything_runs() -> None:
    with pytest.raises(TypeError, match=r"fn must be callable, got Array"):
        benchmark(jnp.ones(3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"candidates\['b'\] must be callable, got int"):
        compare({"a": np.sin, "b": 3}, 1.0)  # type: ignore[dict-item]


def made_up(label: str, median: float, *, first: float = 1.0) -> Timing:
    return Timing(label, first_call=first, times=(median,) * 3, number=10)


def test_comparison_speedups_are_baseline_over_candidate() -> None:
    result = Comparison((made_up("NumPy", 2e-3), made_up("jit", 1e-4)), "NumPy")
    assert result.speedup("jit") == pytest.approx(20.0)
    assert result.speedup("NumPy") == 1.0
    assert result["jit"].median == 1e-4
    text = str(result)
    assert "speed-up vs NumPy" in text
    assert "20.0×" in text
    assert "100 µs" in text
    assert "JAX " in text  # the environment line names the JAX version


def test_compare_times_each_candidate_and_uses_the_first_as_baseline() -> None:
    result = compare({"NumPy": np.cos, "jnp": jnp.cos}, np.ones(100), repeat=2)
    assert [t.label for t in result.timings] == ["NumPy", "jnp"]
    assert result.baseline == "NumPy"
    other = compare({"a": np.cos, "b": np.sin}, 1.0, baseline="b", repeat=1)
    assert other.speedup("b") == 1.0


def test_comparison_errors_name_the_labels() -> None:
    with pytest.raises(ValueError, match=r"baseline 'x' is not one of the candidates"):
        compare({"a": np.sin}, 1.0, baseline="x")
    with pytest.raises(ValueError, match="candidates is empty"):
        compare({}, 1.0)
    with pytest.raises(ValueError, match=r"labels must be unique, repeated: \['a'\]"):
        Comparison((made_up("a", 1.0), made_up("a", 2.0)), "a")
    result = Comparison((made_up("a", 1.0),), "a")
    with pytest.raises(
        KeyError, match=r"no timing labelled 'b'; the labels are \['a'\]"
    ):
        result["b"]
    with pytest.raises(ValueError, match="at least one repeat"):
        Timing("a", first_call=1.0, times=(), number=1)


def test_html_carries_both_languages_and_plain_text_is_english() -> None:
    result = Comparison((made_up("NumPy", 2e-3), made_up("jit", 1e-4)), "NumPy")
    html = result._repr_html_()
    assert html.startswith('<table class="jaxguide-output jaxguide-table">')
    assert '<span lang="en">median</span><span lang="ko" hidden>중앙값</span>' in html
    assert "NumPy 대비 속도 향상" in html
    assert html.count("<tr>") == 3
    markdown = result._repr_markdown_()
    assert markdown.splitlines()[1].startswith("| :-- | --: |")
    assert "| jit | 100 µs |" in markdown
    assert "중앙값" not in markdown + str(result)


def test_format_ratio() -> None:
    assert [format_ratio(r) for r in (0.561, 1.0, 12.34, 456.7)] == [
        "0.56×",
        "1.00×",
        "12.3×",
        "457×",
    ]


def test_comparison_plot_draws_one_bar_per_candidate_with_its_speedup() -> None:
    result = Comparison((made_up("NumPy", 2e-3), made_up("jit", 1e-6)), "NumPy")
    ax = result.plot()
    assert len(ax.patches) == 2
    assert [t.get_text() for t in ax.get_yticklabels()] == ["NumPy", "jit"]
    assert sorted(t.get_text().strip() for t in ax.texts) == ["1.00×", "2000×"]
    assert ax.get_xscale() == "log"  # 2000x apart: a linear axis hides the fast bar
    assert ax.get_xlabel() == "ms"
    close = Comparison((made_up("a", 2e-3), made_up("b", 1e-3)), "a")
    assert close.plot(xlabel="time").get_xscale() == "linear"


class Opaque:
    """A class JAX does not know as a pytree, holding an array."""

    def __init__(self, value: jax.Array) -> None:
        self.value = value


def test_outputs_that_hide_arrays_from_blocking_are_refused(
    slow: tuple[jax.stages.Wrapped, jax.Array],
) -> None:
    fn, x = slow
    with pytest.raises(
        TypeError, match=r"fn returned Opaque holding a Opaque.*dispatch"
    ):
        benchmark(lambda x: Opaque(fn(x)), x, repeat=1, number=1)
    with pytest.raises(TypeError, match=r"holding a generator"):
        benchmark(lambda: (i for i in range(3)), repeat=1, number=1)


def test_unblocked_timing_defaults_to_one_call_per_round(
    slow: tuple[jax.stages.Wrapped, jax.Array],
) -> None:
    fn, x = slow
    start = time.perf_counter()
    timing = benchmark(fn, x, repeat=3, block=False)
    elapsed = time.perf_counter() - start
    blocked = benchmark(fn, x, repeat=3, number=1)
    assert timing.number == 1
    assert timing.median < 0.2 * blocked.median
    assert elapsed < 20 * blocked.median  # not hundreds of queued calls


def test_without_warmup_the_number_of_calls_is_not_judged_by_compilation() -> None:
    fn = jax.jit(lambda x: jnp.sin(x).sum())
    timing = benchmark(fn, jnp.ones(10), repeat=2, warmup=0, target_time=0.01)
    assert timing.number > 5  # judged from a compiled call, not the first


def test_labels_of_partials_name_the_wrapped_function() -> None:
    timing = benchmark(functools.partial(np.add, 1.0), 2.0, repeat=1, number=1)
    assert timing.label == "add"
