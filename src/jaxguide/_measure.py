"""The measuring loop behind :func:`~jaxguide.benchmark` and :func:`~jaxguide.compare`.

Each candidate is prepared (its first call timed, warmed up, its calls per
round calibrated as timeit's ``autorange`` does), then the rounds run,
interleaved between the candidates, with the garbage collector off.
"""

from __future__ import annotations

import gc
import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

import jax
import numpy as np

from ._checks import finite_number

_block_tree: Callable[[object], object] = jax.block_until_ready
#: The clock every measurement reads, in seconds. The tests give it a fake
#: clock that only the code they time moves, so that their verdicts never
#: depend on how busy the machine is.
_clock: Callable[[], float] = time.perf_counter


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


def name_of(fn: Callable[..., object]) -> str:
    target = fn.func if isinstance(fn, partial) else fn
    return getattr(target, "__name__", type(target).__name__)


_MAX_NUMBER = 1_000_000


def _calibrate(
    call: Callable[[], object], wait: Callable[[object], None], target_time: float
) -> int:
    """Calls per round for rounds of ``target_time``, checked on whole rounds.

    As timeit's ``autorange``: one call can be slowed by a pause of the
    machine, so the count grows until a real round of that many calls lasts
    ``target_time``; a single call that lasts that long is timed twice
    before the rounds are cut to one call each.
    """
    n = 1
    while True:
        elapsed = _run(call, wait, n)
        if n == 1 and elapsed >= target_time:  # a pause, or a long call? again
            elapsed = min(elapsed, _run(call, wait, 1))
        if elapsed >= target_time or n >= _MAX_NUMBER:
            return n
        estimate = math.ceil(n * target_time / max(elapsed, 1e-9))
        n = min(_MAX_NUMBER, max(2 * n, estimate))


def _run(call: Callable[[], object], wait: Callable[[object], None], n: int) -> float:
    """Seconds for ``n`` calls, each followed by ``wait`` (a loop as timeit's)."""
    start = _clock()
    for _ in itertools.repeat(None, n):
        wait(call())
    return _clock() - start


@dataclass
class Prepared:
    """A candidate ready for its rounds: called once (timed), warmed up,
    and with its calls per round chosen."""

    label: str
    call: Callable[[], object]
    wait: Callable[[object], None]
    first_call: float
    number: int
    blocked: bool
    times: list[float] = field(default_factory=list)

    def run_round(self) -> None:
        self.times.append(_run(self.call, self.wait, self.number) / self.number)
        if isinstance(self.wait, _KeepLast):  # let queued work finish, untimed
            _wait(self.wait.result)


def prepare(
    label: str,
    call: Callable[[], object],
    *,
    number: int | None,
    warmup: int,
    target_time: float,
    block: bool,
) -> Prepared:
    start = _clock()
    result = call()
    dispatched = _clock()
    _check_waitable(result)  # before waiting on it, and left out of the time
    resumed = _clock()
    if block:
        _wait(result)
    first_call = (dispatched - start) + (_clock() - resumed)
    if not block:
        _wait(result)  # start the rounds with an idle device

    wait: Callable[[object], None] = _wait if block else _KeepLast()
    for _ in range(warmup):
        _run(call, wait, 1)
    if number is None and not block:
        number = 1
    elif number is None:  # checked on whole rounds: one slow warm-up decides nothing
        number = _calibrate(call, wait, target_time)
    return Prepared(label, call, wait, first_call, number, block)


def check_target_time(target_time: float) -> float:
    """A positive round length, long against the clock's resolution."""
    target_time = finite_number("target_time", target_time, positive=True)
    resolution = time.get_clock_info("perf_counter").resolution
    if target_time < 1000 * resolution:
        msg = (
            f"target_time={target_time!r} s is not long against this clock's "
            f"resolution ({resolution!r} s): give at least {1000 * resolution!r} s"
        )
        raise ValueError(msg)
    return target_time


def run_rounds(prepared: list[Prepared], repeat: int) -> None:
    """``repeat`` rounds of every candidate, interleaved: round ``i`` runs
    each candidate once, starting from candidate ``i`` (A B C, B C A, C A B,
    …), so that none always follows the same one."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: a collection mid-round is noise
    try:
        for i in range(repeat):
            start = i % len(prepared)
            for candidate in prepared[start:] + prepared[:start]:
                candidate.run_round()
    finally:
        if gc_was_enabled:
            gc.enable()
