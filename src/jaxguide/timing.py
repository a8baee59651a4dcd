"""Time JAX (and NumPy) code honestly: first call apart, blocked, repeated.

JAX dispatches work asynchronously: ``f(x)`` returns as soon as the work is
queued, long before the device has finished. A stopwatch around the call alone
measures the dispatch, not the computation. :func:`benchmark` blocks on every
output (:func:`jax.block_until_ready`) inside the timed region, times the first
call (tracing, compilation and one run) on its own, warms up, and reports the
median of several repeats with their spread.
"""

from __future__ import annotations

import gc
import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import jax
import numpy as np

from ._checks import check_callable, count, finite_number
from ._render import Cell, Table, TableOutput, Text
from .environment import EnvironmentReport, environment_report

if TYPE_CHECKING:
    import matplotlib.axes

__all__ = ["Comparison", "Timing", "benchmark", "compare", "format_duration"]

_UNITS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))


def unit_for(seconds: float) -> tuple[float, str]:
    """The unit (scale in seconds, symbol) that writes ``seconds`` as 1 to 999."""
    return next(((s, u) for s, u in _UNITS if seconds >= s), _UNITS[-1])


def format_ratio(ratio: float) -> str:
    """Write a speed-up such as ``12.3×`` (three significant digits, at most two decimals).

    Examples:
        >>> format_ratio(1.0), format_ratio(0.5612), format_ratio(123.4)
        ('1.00×', '0.56×', '123×')
    """
    digits = 0 if ratio >= 100 else 1 if ratio >= 10 else 2
    return f"{ratio:.{digits}f}×"


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
        first_call: Seconds taken by the first call: one run plus, for a
            jitted function not called before, tracing and compiling.
        times: Seconds per call, one entry per repeat (each repeat is the
            mean over ``number`` back-to-back calls).
        number: Calls per repeat.
        blocked: Whether each call waited for its result (``False`` only
            when asked for, to show what async dispatch hides).
        environment: What ran the code, recorded when the timing is made
            (see :func:`~jaxguide.environment.environment_report`).
    """

    label: str
    first_call: float
    times: tuple[float, ...]
    number: int
    blocked: bool = True
    environment: EnvironmentReport = field(
        default_factory=environment_report, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if not self.times:
            msg = f"Timing {self.label!r}: times must hold at least one repeat"
            raise ValueError(msg)

    @property
    def median(self) -> float:
        """Median seconds per call over the repeats."""
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        """Fastest repeat, in seconds per call."""
        return min(self.times)

    @property
    def iqr(self) -> float:
        """Interquartile range of the repeats, in seconds per call (0 for one)."""
        if len(self.times) < 2:
            return 0.0
        low, _, high = statistics.quantiles(self.times, n=4, method="inclusive")
        return high - low

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

    def _table(self) -> Table:
        return _HEADER, [self._row()], self.environment._caption_cells()


_HEADER: list[Cell] = [
    Text("code", "코드"),
    Text("median", "중앙값"),
    Text("spread (IQR)", "사분위 범위(IQR)"),
    Text("first call", "첫 호출"),
    Text("runs", "실행 횟수"),
]


@dataclass(frozen=True)
class Comparison(TableOutput):
    """Several timings of the same work, with speed-ups against a baseline.

    Attributes:
        timings: The measured candidates, in the order given.
        baseline: Label of the timing the others are compared with.
    """

    timings: tuple[Timing, ...]
    baseline: str

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

    def speedup(self, label: str) -> float:
        """How many times faster ``label`` ran than the baseline (by medians)."""
        return self[self.baseline].median / self[label].median

    def _table(self) -> Table:
        header = [
            *_HEADER,
            Text(f"speed-up vs {self.baseline}", f"{self.baseline} 대비 속도 향상"),
        ]
        rows = [
            [*timing._row(), format_ratio(self.speedup(timing.label))]
            for timing in self.timings
        ]
        return header, rows, self.timings[0].environment._caption_cells()

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


_block_tree: Callable[[object], object] = jax.block_until_ready


def _wait(result: object) -> None:
    if isinstance(result, jax.Array):  # the common case, without a tree walk
        result.block_until_ready()
    else:
        _block_tree(result)


class _KeepLast:
    """Waits for nothing, but keeps the latest result for a final wait."""

    def __init__(self) -> None:
        self.result: object = None

    def __call__(self, result: object) -> None:
        self.result = result


_WAITABLE = (jax.Array, np.ndarray, np.generic, int, float, complex, str, bytes)


def _check_waitable(result: object) -> None:
    """Raise if the output hides arrays from :func:`jax.block_until_ready`."""
    for leaf in jax.tree.leaves(result, is_leaf=lambda x: isinstance(x, Iterator)):
        if not isinstance(leaf, _WAITABLE):
            kind = type(leaf).__name__
            msg = (
                f"fn returned {type(result).__name__} holding a {kind}, which "
                "jax.block_until_ready cannot look inside: the timing would "
                "measure the dispatch, not the work. Return the arrays "
                f"themselves, or register {kind} as a pytree "
                "(jax.tree_util.register_dataclass)."
            )
            raise TypeError(msg)


def _name(fn: Callable[..., object]) -> str:
    target = fn.func if isinstance(fn, partial) else fn
    return getattr(target, "__name__", type(target).__name__)


_MAX_NUMBER = 1_000_000


def _calibrate(
    call: Callable[[], object], wait: Callable[[object], None], target_time: float
) -> int:
    """Calls per round for rounds of ``target_time``, checked on whole rounds.

    As timeit's ``autorange``: one call can be slowed by a pause of the
    machine, so the count grows until a real round of that many calls lasts
    ``target_time``.
    """
    n = 1
    while True:
        elapsed = _run(call, wait, n)
        if elapsed >= target_time or n >= _MAX_NUMBER:
            return n
        estimate = math.ceil(n * target_time / max(elapsed, 1e-9))
        n = min(_MAX_NUMBER, max(2 * n, estimate))


def _run(call: Callable[[], object], wait: Callable[[object], None], n: int) -> float:
    """Seconds for ``n`` calls, each followed by ``wait`` (a loop as timeit's)."""
    start = time.perf_counter()
    for _ in itertools.repeat(None, n):
        wait(call())
    return time.perf_counter() - start


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
            automatically.
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
            negative, or ``target_time`` is not a positive number.

    Examples:
        >>> f = jax.jit(lambda x: (x @ x.T).sum())
        >>> timing = benchmark(f, jnp.ones((100, 100)), repeat=3)
        >>> timing.label, len(timing.times)
        ('<lambda>', 3)
        >>> timing.first_call > timing.median  # the first call compiled
        True

    See Also:
        :func:`compare` for several candidates and their speed-ups.
    """
    check_callable("fn", fn)
    repeat = count("repeat", repeat)
    warmup = count("warmup", warmup, minimum=0)
    if number is not None:
        number = count("number", number)
    target_time = finite_number("target_time", target_time, positive=True)

    call = partial(fn, *args)
    start = time.perf_counter()
    result = call()
    dispatched = time.perf_counter()
    _check_waitable(result)  # before waiting on it, and left out of the time
    resumed = time.perf_counter()
    if block:
        _wait(result)
    first_call = (dispatched - start) + (time.perf_counter() - resumed)
    if not block:
        _wait(result)  # start the rounds with an idle device

    wait: Callable[[object], None] = _wait if block else _KeepLast()
    last = math.nan
    for _ in range(warmup):
        last = _run(call, wait, 1)
    if number is None and not block:
        number = 1
    elif number is None:  # a warm call already as long as a round: 1 call
        number = 1 if last >= target_time else _calibrate(call, wait, target_time)

    times = []
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: a collection mid-round is noise
    try:
        for _ in range(repeat):
            times.append(_run(call, wait, number) / number)
            if isinstance(wait, _KeepLast):  # let queued work finish, untimed
                _wait(wait.result)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Timing(
        label=label if label is not None else _name(fn),
        first_call=first_call,
        times=tuple(times),
        number=number,
        blocked=block,
    )


def compare(
    candidates: Mapping[str, Callable[..., object]],
    /,
    *args: object,
    baseline: str | None = None,
    repeat: int = 7,
    number: int | None = None,
    warmup: int = 1,
    target_time: float = 0.01,
) -> Comparison:
    """Time several callables on the same arguments and compare them.

    Args:
        candidates: Label → callable, e.g. ``{"NumPy": ..., "jit": ...}``.
            Callables that need different inputs can take none and close
            over their own (``lambda: np_fn(x_np)``).
        *args: Positional arguments given to every candidate.
        baseline: Label the speed-ups are relative to; the first by default.
        repeat: As in :func:`benchmark`.
        number: As in :func:`benchmark`.
        warmup: As in :func:`benchmark`.
        target_time: As in :func:`benchmark`.

    Returns:
        A :class:`Comparison`: a table with a speed-up column, and a
        bar chart through :meth:`Comparison.plot`.

    Raises:
        ValueError: If ``candidates`` is empty or ``baseline`` is not a label.
        TypeError: If a candidate is not callable (named in the message).

    Examples:
        >>> x_np = np.arange(1000.0)
        >>> x = jnp.asarray(x_np)  # on the device once, not on every call
        >>> result = compare(
        ...     {"NumPy": lambda: np.sin(x_np), "jnp": lambda: jnp.sin(x)}, repeat=3
        ... )
        >>> [timing.label for timing in result.timings]
        ['NumPy', 'jnp']
        >>> result.speedup("NumPy")
        1.0
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
    timings = tuple(
        benchmark(
            fn,
            *args,
            label=label,
            repeat=repeat,
            number=number,
            warmup=warmup,
            target_time=target_time,
        )
        for label, fn in candidates.items()
    )
    return Comparison(timings=timings, baseline=baseline)
