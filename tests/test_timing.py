"""jaxguide.timing: honest timings, readable tables, clear errors.

No verdict here depends on how fast the machine is: the tests of what the
helpers measure run on a fake clock (:class:`FakeClock`), which only the code
they time moves, so every figure is exact; the tests on real JAX arrays check
what happens, not how long it takes. What real code shows on a real machine
(async dispatch, compile time, round lengths) has its targets in
tests/benchmarks/timing_claims.py: `nox -s benchmark -- timing_claims`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jaxguide import Comparison, Timing, _measure, benchmark, compare, format_duration
from jaxguide.ratios import Ratio, UnexpectedVerdict, median_interval
from jaxguide.timing import MEASURED_ALONE_ENV, format_ratio


class FakeClock:
    """The clock jaxguide's measurements read, moved only by the code timed.

    Durations are powers of two, so that sums and means of them are exact.
    """

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def costing(self, *seconds: float) -> Callable[[], None]:
        """A function whose calls take ``seconds`` in turn, the last one for
        every later call: ``costing(0.5, 2**-10)`` compiles on its first call
        (half a second), then runs in about a millisecond."""
        costs = iter(seconds)

        def call() -> None:
            self.advance(next(costs, seconds[-1]))

        return call


class Pending(np.ndarray):  # type: ignore[type-arg]
    """A result whose work is still queued, as a jax.Array right after the
    call: waiting for it (what jax.block_until_ready calls) does the work."""

    queue: FakeDevice  # (not "device": NumPy arrays have one of their own)

    def block_until_ready(self) -> Pending:
        self.queue.finish()
        return self


class FakeDevice:
    """Asynchronous dispatch on a fake clock: a call takes ``dispatch``
    seconds and returns at once, its ``work`` seconds pass when the result
    is waited for."""

    def __init__(self, clock: FakeClock, *, dispatch: float, work: float) -> None:
        self.clock, self.dispatch, self.work = clock, dispatch, work
        self.queued = 0.0

    def __call__(self) -> Pending:
        self.clock.advance(self.dispatch)
        self.queued += self.work
        result = np.zeros(3).view(Pending)
        result.queue = self
        return result

    def finish(self) -> None:
        self.clock.advance(self.queued)
        self.queued = 0.0


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The fake clock, read by every measurement of the test."""
    fake = FakeClock()
    monkeypatch.setattr(_measure, "_clock", fake)
    return fake


@pytest.fixture(scope="module")
def slow() -> tuple[jax.stages.Wrapped, jax.Array]:
    """A jitted function that runs for tens of milliseconds on a CPU, compiled."""
    fn = jax.jit(lambda x: jnp.tanh(x @ x @ x @ x).sum())
    x = jnp.ones((900, 900)) / 900
    fn(x).block_until_ready()
    return fn, x


DISPATCH, WORK = 2**-14, 2**-7  # 61 µs to queue the call, 7.8 ms of work


def test_timing_without_blocking_under_reports_and_the_helper_does_not(
    clock: FakeClock,
) -> None:
    device = FakeDevice(clock, dispatch=DISPATCH, work=WORK)
    timing = benchmark(device, repeat=3, number=2)
    assert timing.first_call == DISPATCH + WORK
    assert timing.times == (DISPATCH + WORK,) * 3
    dispatch_only = benchmark(device, repeat=3, number=2, block=False)
    assert dispatch_only.first_call == DISPATCH
    assert dispatch_only.times == (DISPATCH,) * 3
    assert device.queued == 0.0  # the work was left to finish, untimed
    assert timing.blocked
    assert not dispatch_only.blocked
    assert "(not blocked)" in str(dispatch_only)


def test_the_helper_waits_for_every_leaf_of_a_pytree(clock: FakeClock) -> None:
    # The first leaf is ready at once, the queued work is in the second:
    # blocking on the first leaf alone would time the dispatch only.
    device = FakeDevice(clock, dispatch=DISPATCH, work=WORK)
    ready = np.ones(3)
    timing = benchmark(lambda: {"a": ready, "b": [device()]}, repeat=3, number=2)
    assert timing.times == (DISPATCH + WORK,) * 3


def test_every_leaf_of_a_jax_result_is_ready_before_the_next_call(
    slow: tuple[jax.stages.Wrapped, jax.Array],
) -> None:
    """The same with JAX's own arrays: each call (but the first) finds every
    leaf of the previous result ready, the slow second one included."""
    fn, x = slow
    results: list[dict[str, object]] = []
    unfinished: list[str] = []

    def both(x: jax.Array) -> dict[str, object]:
        if results:
            leaves = jax.tree.leaves_with_path(results[-1])
            unfinished.extend(
                f"call {len(results)}: {jax.tree_util.keystr(path)}"
                for path, leaf in leaves
                if not leaf.is_ready()
            )
        results.append({"a": x, "b": [fn(x)]})
        return results[-1]

    benchmark(both, x, repeat=3, number=2)
    assert len(results) == 1 + 1 + 3 * 2  # the first, one warm-up, the rounds
    assert unfinished == []


def test_first_call_is_timed_apart_from_the_compiled_runs(clock: FakeClock) -> None:
    compiles_then_runs = clock.costing(2**-1, 2**-10)
    timing = benchmark(compiles_then_runs, repeat=5)
    assert timing.first_call == 2**-1  # tracing + compiling
    assert timing.times == (2**-10,) * 5
    assert timing.best <= timing.median


def test_a_jitted_function_is_traced_once_for_all_the_calls() -> None:
    traced: list[None] = []

    @jax.jit
    def fn(x: jax.Array) -> jax.Array:
        traced.append(None)  # runs while tracing, not when the compiled code runs
        return jnp.cos(x) * 2.0

    timing = benchmark(fn, jnp.ones(10), repeat=5)
    assert len(traced) == 1  # by the first call: the rounds run compiled code
    assert len(timing.times) == 5
    assert timing.number >= 1


def test_number_is_chosen_so_that_a_round_lasts_the_target_time(
    clock: FakeClock,
) -> None:
    call = 2**-16  # 15 µs
    timing = benchmark(clock.costing(call), repeat=3, target_time=0.005)
    assert timing.number == math.ceil(0.005 / call)  # the fewest that last 5 ms
    assert timing.times == (call,) * 3


def test_a_pause_while_calibrating_does_not_shorten_the_rounds(
    clock: FakeClock,
) -> None:
    # The first call, the warm-up, then a call slowed by a pause of the
    # machine (4 ms) where the calibration starts: rounds are checked whole.
    call = 2**-16
    paused = clock.costing(2**-1, call, 2**-8, call)
    timing = benchmark(paused, repeat=3, target_time=0.01)
    assert timing.number == math.ceil(0.01 / call)


def test_one_slow_warm_up_call_does_not_cut_the_rounds_to_one_call(
    clock: FakeClock,
) -> None:
    # The warm-up call meets a pause (16 ms, longer than a round): before,
    # that one call set one call per round for all the rounds.
    call = 2**-16
    timing = benchmark(clock.costing(2**-1, 2**-6, call), repeat=3, target_time=0.01)
    assert timing.number == math.ceil(0.01 / call)


def test_a_pause_on_the_first_calibration_call_is_timed_again(
    clock: FakeClock,
) -> None:
    call = 2**-16
    paused = clock.costing(2**-1, call, 2**-6, call)  # the pause: calibration's n=1
    timing = benchmark(paused, repeat=3, target_time=0.01)
    assert timing.number == math.ceil(0.01 / call)


def test_a_call_longer_than_a_round_gets_rounds_of_one_call(clock: FakeClock) -> None:
    timing = benchmark(clock.costing(2**-1, 2**-5), repeat=3, target_time=0.01)
    assert timing.number == 1
    assert timing.times == (2**-5,) * 3


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


def made_up(
    label: str, median: float, *, first: float = 1.0, rounds: int = 7
) -> Timing:
    return Timing(label, first_call=first, times=(median,) * rounds, number=10)


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
    result = compare({"NumPy": np.cos, "jnp": jnp.cos}, np.ones(100), repeat=6)
    assert [t.label for t in result.timings] == ["NumPy", "jnp"]
    assert result.baseline == "NumPy"
    assert result.interleaved
    assert all(len(t.times) == 6 for t in result.timings)
    other = compare({"a": np.cos, "b": np.sin}, 1.0, baseline="b", repeat=6)
    assert other.speedup("b") == 1.0


def test_compare_interleaves_the_rounds_and_rotates_who_goes_first() -> None:
    calls: list[str] = []
    candidates = {name: functools.partial(calls.append, name) for name in "ABC"}
    compare(candidates, repeat=6, number=1, warmup=0)
    first_calls, rounds = calls[:3], calls[3:]
    assert first_calls == ["A", "B", "C"]
    assert rounds == [*"ABC", *"BCA", *"CAB", *"ABC", *"BCA", *"CAB"]


def test_compare_calibrates_each_candidate_to_the_round_length(
    clock: FakeClock,
) -> None:
    short, long = 2**-16, 2**-9  # 15 µs and 2 ms
    result = compare(
        {"short": clock.costing(short), "long": clock.costing(long)},
        repeat=6,
        target_time=0.01,
    )
    assert result["short"].number == math.ceil(0.01 / short)
    assert result["long"].number == math.ceil(0.01 / long)
    assert result.ratio("long", "short").value == long / short
    assert result.ratio("long", "short").verdict == "slower"


def test_compare_refuses_too_few_rounds_to_bound_a_ratio() -> None:
    with pytest.raises(ValueError, match=r"repeat=5: compare needs at least 6 rounds"):
        compare({"a": np.sin}, 1.0, repeat=5)


def test_a_round_must_be_long_against_the_clock() -> None:
    with pytest.raises(ValueError, match=r"not long against this clock's resolution"):
        benchmark(np.sin, 1.0, target_time=1e-12)


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
    with pytest.raises(ValueError, match="at least one round"):
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


def test_large_slowdowns_keep_their_digits() -> None:
    # compilation's disable_jit row printed "0.00× (0.00–0.00)" for 500x
    assert [format_ratio(r) for r in (0.001998, 0.0123, 0.0567)] == [
        "0.0020×",
        "0.012×",
        "0.057×",
    ]


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
    calls: list[None] = []

    def counted(x: jax.Array) -> jax.Array:
        calls.append(None)
        return fn(x)

    timing = benchmark(counted, x, repeat=3, block=False)
    assert timing.number == 1
    assert not timing.blocked
    # not hundreds of queued calls: the first, one warm-up, one per round
    assert len(calls) == 1 + 1 + 3


def test_without_warmup_the_number_of_calls_is_not_judged_by_compilation(
    clock: FakeClock,
) -> None:
    call = 2**-16
    timing = benchmark(clock.costing(2**-1, call), repeat=2, warmup=0, target_time=0.01)
    # judged from compiled calls, not from the first (half a second: 1 call)
    assert timing.number == math.ceil(0.01 / call)


def test_labels_of_partials_name_the_wrapped_function() -> None:
    timing = benchmark(functools.partial(np.add, 1.0), 2.0, repeat=1, number=1)
    assert timing.label == "add"


def rounds(label: str, *times: float) -> Timing:
    return Timing(label, first_call=1.0, times=times, number=1)


def test_the_median_interval_covers_at_least_95_percent() -> None:
    low, high, coverage = median_interval(list(range(15, 0, -1)))
    assert (low, high) == (4, 12)  # the 4th smallest and the 4th largest
    assert coverage == pytest.approx(0.9648, abs=1e-4)
    assert median_interval(range(6))[2] == pytest.approx(1 - 2 / 64)
    with pytest.raises(ValueError, match="5 rounds cannot bound a median at 95 %"):
        median_interval(range(5))


def test_a_ratio_pairs_the_rounds_and_judges_the_whole_interval() -> None:
    # Load doubles both candidates in rounds 3 and 4: paired, the ratio holds.
    base = rounds("base", 1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 1.0)
    slow = rounds("slow", 3.0, 3.0, 6.0, 6.0, 3.0, 3.1, 2.9)
    same = rounds("same", 1.0, 0.9, 2.2, 1.9, 1.1, 1.0, 1.02)
    close = rounds("close", *(1.03 * t for t in base.times))
    noisy = rounds("noisy", 0.9, 1.3, 2.4, 1.9, 1.25, 1.1, 1.15)  # median 1.15
    result = Comparison((base, slow, same, close, noisy), "base", interleaved=True)
    assert result.ratio("slow").verdict == "slower"
    assert result.ratio("slow").value == pytest.approx(3.0)
    assert result.ratio("base", "slow").verdict == "faster"
    assert result.ratio("same").verdict == "unresolved"
    assert result.ratio("close").verdict == "similar"  # 3 %, all inside the band
    assert result.ratio("noisy").verdict == "unresolved"  # its interval reaches 0.9
    assert not result.ratio("close").resolved
    assert result.speedup("slow") == pytest.approx(1 / 3)
    assert result.ratio("slow").expect("slower").expected == "slower"
    with pytest.raises(UnexpectedVerdict, match=r"expected 'base' to be slower"):
        result.ratio("base", "slow").expect("slower")
    uneven = Comparison((base, rounds("short", 1.0)), "base", interleaved=True)
    with pytest.raises(ValueError, match=r"'short' has 1 rounds and 'base' 7"):
        uneven.ratio("short")


def test_timings_made_apart_are_never_paired_round_by_round() -> None:
    # Two benchmark() calls in one Comparison (as the GPU record's dispatch
    # table): the interval spans their rounds, it does not pair them.
    slow = rounds("slow", 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 3.0)
    fast = rounds("fast", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5)
    apart = Comparison((fast, slow), "fast").ratio("slow")
    assert (apart.low, apart.high) == (pytest.approx(2.0 / 1.5), pytest.approx(3.0))
    paired = Comparison((fast, slow), "fast", interleaved=True).ratio("slow")
    assert (paired.low, paired.high) == (2.0, 2.0)


def test_expect_fails_where_a_run_reversed_not_where_it_was_too_noisy() -> None:
    busy = Ratio("loop", "scan", 2.5, 0.12, 21.9, 0.96, 15)  # issue 44's busy run
    assert busy.verdict == "unresolved"
    assert busy.expect("slower").expected == "slower"  # no failed build for load
    reversed_run = Ratio("loop", "scan", 0.76, 0.73, 0.97, 0.96, 15)
    with pytest.raises(UnexpectedVerdict, match="measured the opposite"):
        reversed_run.expect("slower")
    wrong_side = Ratio("loop", "scan", 0.98, 0.5, 3.0, 0.96, 15)  # median below 1
    with pytest.raises(UnexpectedVerdict):
        wrong_side.expect("slower")
    with pytest.raises(ValueError, match="guards a direction"):
        busy.expect("similar")  # type: ignore[arg-type]


def test_a_ratio_speaks_both_languages_from_its_verdict() -> None:
    slower = Ratio("loop", "scan", 27.3, 25.0, 30.2, 0.96, 15)
    faster = Ratio("jit", "eager", 0.31, 0.29, 0.33, 0.96, 15)
    unresolved = Ratio("a", "b", 0.98, 0.9, 1.1, 0.96, 15)
    similar = Ratio("a", "b", 1.03, 1.01, 1.04, 0.96, 15)
    assert str(slower) == (
        "'loop' took 27× as long as 'scan' in this run "
        "(95 % interval of its rounds 25–30×)"
    )
    assert str(faster) == (
        "'jit' ran 3.2× as fast as 'eager' in this run "
        "(95 % interval of its rounds 3.0–3.4×)"
    )
    assert str(unresolved).startswith(
        "this run could not rank 'a' and 'b' (ratio 0.98×"
    )
    assert str(similar).startswith("'a' and 'b' took times within 5 % of each other")
    html = faster._repr_html_()
    assert html.startswith('<span class="jaxguide-output jaxguide-verdict">')
    assert "<code>jit</code> 쪽이 <code>eager</code>보다 3.2배 빨랐습니다" in html
    assert '<span lang="ko" hidden>' in html
    assert (
        "<code>loop</code>의 실행 시간이 <code>scan</code>의 27배였습니다"
        in slower._repr_html_()
    )
    assert "가릴 수 없었습니다" in unresolved._repr_html_()
    assert "차이가 5% 이내였습니다" in similar._repr_html_()
    assert "<code>a</code>, <code>b</code>" not in similar._repr_html_()  # no list
    assert "`jit` ran 3.2× as fast as `eager`" in faster._repr_markdown_()
    assert repr(faster) == str(faster)  # what a notebook shows as text
    escaped = Ratio("<b>", "b", 2.0, 1.9, 2.1, 0.96, 15)._repr_html_()
    assert "<code>&lt;b&gt;</code>" in escaped


def test_the_caption_says_how_the_table_was_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(MEASURED_ALONE_ENV, raising=False)
    shared = compare({"a": np.sin, "b": np.cos}, 1.0, repeat=6)
    text = str(shared)
    assert "6 rounds, candidates interleaved" in text
    assert "no other page executing" not in text
    assert "this run's median of the per-round ratios" in text
    assert "a rerun can land outside it" in text
    assert "first call (1 sample)" in text
    load = shared.timings[0].load
    assert load is not None
    assert f"load {load:.1f} on " in text
    assert "부하 " in shared._repr_html_()
    monkeypatch.setenv(MEASURED_ALONE_ENV, "1")
    alone = compare({"a": np.sin, "b": np.cos}, 1.0, repeat=6)
    assert "no other page executing" in str(alone)
    assert "다른 페이지 실행 없이 측정" in alone._repr_html_()
    assert "no other page executing" in str(benchmark(np.sin, 1.0, repeat=2))


def test_the_speedup_column_shows_the_interval_and_marks_what_is_not_resolved() -> None:
    base = rounds("base", *[1.0] * 7)
    fast = rounds("fast", *[0.5] * 7)
    noisy = rounds("noisy", 0.9, 1.1, 1.0, 0.95, 1.05, 1.0, 1.0)
    text = str(Comparison((base, fast, noisy), "base", interleaved=True))
    assert "2.00× (2.00–2.00)" in text
    assert "≈ 1.00× (0.91–1.11)" in text


def test_timings_measured_apart_get_a_wide_but_honest_interval() -> None:
    slow = rounds("slow", *[2.0, 2.2, 2.1, 2.4, 2.0, 2.3, 2.1])
    fast = rounds("fast", *[1.0, 1.1, 1.05, 1.0, 1.2, 1.0, 1.1])
    ratio = slow.ratio_to(fast)
    assert ratio.value == pytest.approx(2.1 / 1.05)
    assert (ratio.low, ratio.high) == (pytest.approx(2.0 / 1.2), pytest.approx(2.4))
    assert ratio.coverage == pytest.approx((1 - 2**-6) ** 2)
    assert ratio.verdict == "slower"
    with pytest.raises(ValueError, match="take at least 7 each"):
        rounds("a", *[1.0] * 5).ratio_to(fast)


def test_an_interval_whose_ends_round_alike_keeps_a_digit_more() -> None:
    # Rounds from 12.6x to 13.4x: both ends are "13" at two digits.
    ratios = [12.6, 12.8, 12.9, 13.0, 13.0, 13.1, 13.2, 13.4] * 2
    ratio = Ratio.of("loop", ratios, "vmap", [1.0] * len(ratios))
    assert ratio.verdict == "slower"
    assert "13–13" not in str(ratio)
    assert re.search(r"\(95 % interval of its rounds 12\.\d–13\.\d×\)", str(ratio))
