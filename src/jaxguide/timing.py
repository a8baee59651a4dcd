"""Time JAX (and NumPy) code honestly: first call apart, blocked, repeated.

JAX dispatches work asynchronously: ``f(x)`` returns as soon as the work is
queued, long before the device has finished. A stopwatch around the call alone
measures the dispatch, not the computation. :func:`benchmark` blocks on every
output (:func:`jax.block_until_ready`) inside the timed region, times the first
call (tracing, compilation and one run) on its own, warms up, and reports the
median of several repeats with their spread.
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from ._checks import check_callable, count
from ._measure import Prepared, check_target_time, name_of, prepare, run_rounds
from ._render import Cell, Table, TableOutput, Text, format_ratio, unit_for
from .environment import EnvironmentReport, environment_report
from .ratios import MIN_ROUNDS, Ratio
from .site import MEASURED_ALONE_ENV

if TYPE_CHECKING:
    import matplotlib.axes

__all__ = [
    "MEASURED_ALONE_ENV",
    "Comparison",
    "Ratio",
    "Timing",
    "benchmark",
    "compare",
    "format_duration",
]


def _measured_alone() -> bool:
    return os.environ.get(MEASURED_ALONE_ENV) == "1"


def _load_average() -> float | None:
    """The system's load over the last minute, where the system tells it."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows has none
        return None


def format_duration(seconds: float) -> str:
    """Write a duration with three significant digits in a readable unit.

    Args:
        seconds: A duration in seconds, finite and not negative.

    Returns:
        The duration in s, ms, µs or ns, whichever gives 1 to 999.

    Raises:
        ValueError: If ``seconds`` is negative, infinite or NaN.

    Examples:
        >>> format_duration(0.000459)
        '459 µs'
        >>> format_duration(1.63)
        '1.63 s'
        >>> format_duration(2.5e-8)
        '25.0 ns'
        >>> format_duration(0.0009996)
        '1.00 ms'
    """
    if not math.isfinite(seconds) or seconds < 0:
        msg = f"seconds must be a finite duration >= 0, got {seconds!r}"
        raise ValueError(msg)
    rounded = float(f"{seconds:.3g}")
    scale, unit = unit_for(rounded)
    value = rounded / scale
    digits = 0 if value >= 100 else 1 if value >= 10 else 2
    return f"{value:.{digits}f} {unit}"


@dataclass(frozen=True)
class Timing(TableOutput):
    """How long one callable took, as measured by :func:`benchmark`.

    Attributes:
        label: The name shown in tables and charts.
        first_call: Seconds taken by the first call, one sample: one run
            plus, for a jitted function not called before on these shapes,
            tracing and compiling.
        times: Seconds per call, one entry per round (each round is the
            mean over ``number`` back-to-back calls).
        number: Calls per round.
        blocked: Whether each call waited for its result (``False`` only
            when asked for, to show what async dispatch hides).
        environment: What ran the code, recorded when the timing is made
            (see :func:`~jaxguide.environment.environment_report`).
        alone: Whether the site's build ran this page with no other page
            executing (``False`` anywhere else, where nobody can tell).
        load: The machine's load average over the minute before the
            timing was made (processes running or waiting for a core; this
            one counts), or ``None`` where the system does not tell it.
    """

    label: str
    first_call: float
    times: tuple[float, ...]
    number: int
    blocked: bool = True
    environment: EnvironmentReport = field(
        default_factory=environment_report, init=False, compare=False, repr=False
    )
    alone: bool = field(
        default_factory=_measured_alone, init=False, compare=False, repr=False
    )
    load: float | None = field(
        default_factory=_load_average, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if not self.times:
            msg = f"Timing {self.label!r}: times must hold at least one round"
            raise ValueError(msg)

    @property
    def median(self) -> float:
        """Median seconds per call over the rounds."""
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        """Fastest round, in seconds per call."""
        return min(self.times)

    @property
    def iqr(self) -> float:
        """Interquartile range of the rounds, in seconds per call (0 for one)."""
        if len(self.times) < 2:
            return 0.0
        low, _, high = statistics.quantiles(self.times, n=4, method="inclusive")
        return high - low

    def ratio_to(self, reference: Timing) -> Ratio:
        """How long this took against ``reference``, timed apart (two
        :func:`benchmark` calls): a wide interval, since the rounds cannot be
        paired (see :meth:`~jaxguide.ratios.Ratio.unpaired`); prefer :func:`compare`."""
        return Ratio.unpaired(
            self._verdict_label(),
            self.times,
            reference._verdict_label(),
            reference.times,
        )

    def _verdict_label(self) -> str:
        return self.label if self.blocked else f"{self.label} (not blocked)"

    def _row(self) -> list[Cell]:
        name: Cell = self.label
        if not self.blocked:
            name = Text(f"{self.label} (not blocked)", f"{self.label} (기다리지 않음)")
        return [
            name,
            format_duration(self.median),
            format_duration(self.iqr),
            format_duration(self.first_call),
            f"{len(self.times)} × {self.number}",
        ]

    def _how_measured(self, interleaved: bool) -> list[Cell]:
        """Caption cells: rounds, their order, and whether the page ran alone."""
        rounds = len(self.times)
        cells: list[Cell] = [
            " · ",
            Text(
                f"{rounds} rounds, candidates interleaved",
                f"{rounds}라운드, 후보를 번갈아 측정",
            )
            if interleaved
            else Text(f"{rounds} rounds", f"{rounds}라운드"),
        ]
        if self.alone:
            cells += [
                " · ",
                Text("no other page executing", "다른 페이지 실행 없이 측정"),
            ]
        if self.load is not None:
            cores = self.environment.cpu_cores
            cells += [
                " · ",
                Text(
                    f"load {self.load:.1f} on {cores} cores (1-minute average)",
                    f"부하 {self.load:.1f}, 코어 {cores}개(1분 평균)",
                ),
            ]
        return cells

    def _table(self) -> Table:
        caption = [*self.environment._caption_cells(), *self._how_measured(False)]
        return _HEADER, [self._row()], caption


_HEADER: list[Cell] = [
    Text("code", "코드"),
    Text("median", "중앙값"),
    Text("spread (IQR)", "사분위 범위(IQR)"),
    Text("first call (1 sample)", "첫 호출(1회 측정)"),
    Text("runs", "실행 횟수"),
]


@dataclass(frozen=True)
class Comparison(TableOutput):
    """Several timings of the same work, with speed-ups against a baseline.

    Ratios pair the candidates' rounds by index, which is what
    :func:`compare` measures: round ``i`` of every candidate ran back to
    back, under the same load (``interleaved``).

    Attributes:
        timings: The measured candidates, in the order given.
        baseline: Label of the timing the others are compared with.
        interleaved: Whether the rounds alternated between the candidates.
    """

    timings: tuple[Timing, ...]
    baseline: str
    interleaved: bool = False

    def __post_init__(self) -> None:
        labels = [timing.label for timing in self.timings]
        if not labels:
            msg = "Comparison needs at least one timing"
            raise ValueError(msg)
        duplicates = sorted({label for label in labels if labels.count(label) > 1})
        if duplicates:
            msg = f"Comparison labels must be unique, repeated: {duplicates}"
            raise ValueError(msg)
        if self.baseline not in labels:
            msg = f"baseline {self.baseline!r} is not one of the labels {labels}"
            raise ValueError(msg)

    def __getitem__(self, label: str) -> Timing:
        for timing in self.timings:
            if timing.label == label:
                return timing
        labels = [timing.label for timing in self.timings]
        msg = f"no timing labelled {label!r}; the labels are {labels}"
        raise KeyError(msg)

    def ratio(self, label: str, reference: str | None = None) -> Ratio:
        """How long ``label`` took against ``reference`` (the baseline by
        default), with its interval and verdict: round by round where the
        rounds were interleaved (:func:`compare`), else from the two sets of
        rounds apart (:meth:`Timing.ratio_to`), which cannot be paired.

        Raises:
            KeyError: If either label is not a timing of this comparison.
            ValueError: With too few rounds to bound a ratio (6 interleaved,
                7 each apart).
        """
        reference = self.baseline if reference is None else reference
        if not self.interleaved:
            return self[label].ratio_to(self[reference])
        return Ratio.of(label, self[label].times, reference, self[reference].times)

    def speedup(self, label: str) -> float:
        """How many times faster ``label`` ran than the baseline: the value of
        :meth:`ratio` where there are enough rounds for it (the median of the
        per-round ratios, or of the medians for timings made apart), else the
        ratio of the medians."""
        if label == self.baseline:
            return 1.0
        try:
            return self.ratio(self.baseline, label).value
        except ValueError:
            return self[self.baseline].median / self[label].median

    def _speedup_cell(self, label: str) -> str:
        if label == self.baseline:
            return format_ratio(1.0)
        try:
            ratio = self.ratio(self.baseline, label)
        except ValueError:  # too few rounds for an interval
            return format_ratio(self.speedup(label))
        bounds = f"({format_ratio(ratio.low)[:-1]}–{format_ratio(ratio.high)[:-1]})"
        mark = "" if ratio.resolved else "≈ "
        return f"{mark}{format_ratio(ratio.value)} {bounds}"

    def _table(self) -> Table:
        header = [
            *_HEADER,
            Text(f"speed-up vs {self.baseline}", f"{self.baseline} 대비 속도 향상"),
        ]
        rows = [
            [*timing._row(), self._speedup_cell(timing.label)]
            for timing in self.timings
        ]
        first = self.timings[0]
        caption = [
            *first.environment._caption_cells(),
            *first._how_measured(self.interleaved),
        ]
        if len(self.timings) > 1 and not self.interleaved:
            caption += [
                " · ",
                Text(
                    "speed-up: ratio of the medians of timings made apart (its "
                    "interval spans their rounds); ≈: not ranked by this run",
                    "속도 향상: 따로 잰 시간들의 중앙값 비율(구간은 양쪽 라운드 전체), "
                    "≈: 이번 실행으로 가릴 수 없는 차이",
                ),
            ]
        elif len(self.timings) > 1:
            caption += [
                " · ",
                Text(
                    "speed-up: this run's median of the per-round ratios (95 % "
                    "interval of its rounds: a rerun can land outside it); "
                    "≈: within 5 %, or not ranked by this run",
                    "속도 향상: 이번 실행의 라운드별 비율 중앙값(라운드의 95% "
                    "구간이며, 다시 실행하면 벗어날 수 있음), "
                    "≈: 5% 이내이거나 이번 실행으로 가릴 수 없는 차이",
                ),
            ]
        return header, rows, caption

    def plot(
        self,
        *,
        ax: matplotlib.axes.Axes | None = None,
        xlabel: str | None = None,
        log_scale: bool | None = None,
    ) -> matplotlib.axes.Axes:
        """Draw the medians as horizontal bars, each marked with its speed-up.

        Args:
            ax: Axes to draw on; a new figure is made when ``None``.
            xlabel: Label of the time axis; by default just the unit.
            log_scale: Logarithmic time axis; by default only when the
                slowest median is over 100 times the fastest.

        Returns:
            The matplotlib ``Axes`` drawn on.
        """
        from .plotting import plot_comparison  # noqa: PLC0415 (matplotlib on demand)

        return plot_comparison(self, ax=ax, xlabel=xlabel, log_scale=log_scale)


def _timing(candidate: Prepared) -> Timing:
    return Timing(
        label=candidate.label,
        first_call=candidate.first_call,
        times=tuple(candidate.times),
        number=candidate.number,
        blocked=candidate.blocked,
    )


def benchmark(
    fn: Callable[..., object],
    /,
    *args: object,
    label: str | None = None,
    repeat: int = 7,
    number: int | None = None,
    warmup: int = 1,
    target_time: float = 0.01,
    block: bool = True,
) -> Timing:
    """Time ``fn(*args)`` the way JAX code must be timed.

    The first call is timed on its own: for a jitted function not called
    before, it includes tracing and compilation. Then ``warmup`` untimed calls,
    then ``repeat`` rounds of ``number`` calls each; every call waits until all
    leaves of its output pytree are ready. NumPy and plain Python callables
    work the same way. Arguments stay where they are: a NumPy input to JAX code
    is converted on every call (on a GPU, copied to it; on the CPU, copied
    unless its memory is aligned for use in place), and that is timed too.

    A function that donates its arguments (``donate_argnums``) cannot be
    called twice on the same arrays, so it cannot be timed this way.

    Args:
        fn: The callable to time.
        *args: Positional arguments for ``fn``; bind keyword arguments with
            :func:`functools.partial` or a lambda.
        label: Name for tables and charts; defaults to ``fn.__name__``.
        repeat: Rounds to take the median over.
        number: Calls per round; by default enough for a round to last
            ``target_time`` (found by timing whole rounds, as timeit's
            ``autorange``), and 1 when ``block`` is ``False``.
        warmup: Untimed calls after the first one.
        target_time: Seconds a round should last when ``number`` is chosen
            automatically; at least 1000 times the clock's resolution.
        block: Wait for each result. ``False`` times the dispatch alone,
            which under-reports; use it only to show that. The device is
            left to finish between rounds, outside the timing.

    Returns:
        A :class:`Timing` that prints and renders as a table.

    Raises:
        TypeError: If ``fn`` is not callable, a count is not an int, or
            ``fn`` returns an object JAX cannot wait for (an unregistered
            class holding arrays, an iterator), whose timing would silently
            measure the dispatch alone.
        ValueError: If ``repeat`` or ``number`` is below 1, ``warmup`` is
            negative, or ``target_time`` is not a positive number long
            against the clock's resolution.

    Examples:
        >>> f = jax.jit(lambda x: (x @ x.T).sum())
        >>> timing = benchmark(f, jnp.ones((100, 100)), repeat=3)
        >>> timing.label, len(timing.times), timing.blocked
        ('<lambda>', 3, True)

    See Also:
        :func:`compare` for several candidates, timed round by round.
    """
    check_callable("fn", fn)
    repeat = count("repeat", repeat)
    warmup = count("warmup", warmup, minimum=0)
    if number is not None:
        number = count("number", number)
    target_time = check_target_time(target_time)
    prepared = prepare(
        label if label is not None else name_of(fn),
        partial(fn, *args),
        number=number,
        warmup=warmup,
        target_time=target_time,
        block=block,
    )
    run_rounds([prepared], repeat)
    return _timing(prepared)


def compare(
    candidates: Mapping[str, Callable[..., object]],
    /,
    *args: object,
    baseline: str | None = None,
    repeat: int = 15,
    number: int | None = None,
    warmup: int = 1,
    target_time: float = 0.01,
) -> Comparison:
    """Time several callables on the same arguments, round by round.

    Each candidate is called once (timed: its first call), warmed up and
    given its own calls per round, so that a round lasts ``target_time``.
    Then the rounds alternate between the candidates (A B C, B C A, C A B,
    …): a change of load on the machine falls on every candidate alike, and
    :meth:`Comparison.ratio` compares them round by round, with an interval
    and a verdict.

    Args:
        candidates: Label → callable, e.g. ``{"NumPy": ..., "jit": ...}``.
            Callables that need different inputs can take none and close
            over their own (``lambda: np_fn(x_np)``).
        *args: Positional arguments given to every candidate.
        baseline: Label the speed-ups are relative to; the first by default.
        repeat: Rounds of every candidate; at least 6, the fewest whose
            per-round ratios bound their median at 95 %.
        number: Calls per round for every candidate; by default each
            candidate's own, as in :func:`benchmark`.
        warmup: As in :func:`benchmark`.
        target_time: As in :func:`benchmark`.

    Returns:
        A :class:`Comparison`: a table with a speed-up column, ratios with
        their verdicts, and a bar chart through :meth:`Comparison.plot`.

    Raises:
        ValueError: If ``candidates`` is empty, ``baseline`` is not a label,
            or ``repeat`` is below 6.
        TypeError: If a candidate is not callable (named in the message).

    Examples:
        >>> x_np = np.arange(1000.0)
        >>> x = jnp.asarray(x_np)  # on the device once, not on every call
        >>> result = compare({"NumPy": lambda: np.sin(x_np), "jnp": lambda: jnp.sin(x)})
        >>> [timing.label for timing in result.timings]
        ['NumPy', 'jnp']
        >>> result.ratio("jnp").verdict in {"slower", "faster", "similar", "unresolved"}
        True
    """
    if not candidates:
        msg = "candidates is empty: give at least one label → callable"
        raise ValueError(msg)
    labels = list(candidates)
    baseline = labels[0] if baseline is None else baseline
    if baseline not in candidates:
        msg = f"baseline {baseline!r} is not one of the candidates {labels}"
        raise ValueError(msg)
    for label, fn in candidates.items():
        check_callable(f"candidates[{label!r}]", fn)
    repeat = count("repeat", repeat)
    if repeat < MIN_ROUNDS:
        msg = (
            f"repeat={repeat}: compare needs at least {MIN_ROUNDS} rounds to "
            f"bound a ratio at 95 %; give repeat={MIN_ROUNDS} or more (a slow "
            "candidate can take number=1)"
        )
        raise ValueError(msg)
    warmup = count("warmup", warmup, minimum=0)
    if number is not None:
        number = count("number", number)
    target_time = check_target_time(target_time)
    prepared = [
        prepare(
            label,
            partial(fn, *args),
            number=number,
            warmup=warmup,
            target_time=target_time,
            block=True,
        )
        for label, fn in candidates.items()
    ]
    run_rounds(prepared, repeat)
    return Comparison(
        timings=tuple(_timing(candidate) for candidate in prepared),
        baseline=baseline,
        interleaved=True,
    )
