"""What jaxguide's timing helpers show about speed, on this machine, met or missed.

tests/test_timing.py checks what the helpers do on a fake clock, where every
verdict is exact; whether real code on a real machine shows what they are
for is a measurement, and these are its targets (each was once a test's
assertion):

- a jitted call returns before its work is done (async dispatch);
- the helper's timing is not shorter than the call and its wait by hand;
- a timing that does not block (``block=False``) sees the dispatch alone;
- a pytree whose slow array is its second leaf is timed in full;
- a jitted function's first call (tracing, compiling) is apart and longest;
- the calls per round fill a round of ``target_time``, for each candidate
  of a comparison and without a warm-up call too.

Each target is measured ``--runs`` times (5 by default), optionally while
``--load`` processes keep the cores busy, and reported as ``Speed target
(...): met`` when every run met it, else as missed with the runs that did.
Run it with ``nox -s benchmark -- timing_claims`` (or ``python -m
tests.benchmarks.timing_claims`` where jaxguide is installed). It is a
measurement, not a test, and always exits 0.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from tests.benchmarks.timing_record import busy_cores

from jaxguide import benchmark, compare, environment_report, format_duration


@dataclass(frozen=True)
class Outcome:
    """One run of one target: what was measured, and whether it met the target."""

    measured: str
    met: bool


@dataclass(frozen=True)
class Target:
    name: str
    target: str
    measure: Callable[[], Outcome]


def slow_function() -> tuple[Callable[[jax.Array], jax.Array], jax.Array]:
    """A jitted function that runs for tens of milliseconds on a CPU, compiled."""
    fn = jax.jit(lambda x: jnp.tanh(x @ x @ x @ x).sum())
    x = jnp.ones((900, 900)) / 900
    fn(x).block_until_ready()
    return fn, x


def dispatch_and_wait(
    fn: Callable[[jax.Array], jax.Array], x: jax.Array
) -> tuple[float, float]:
    """Best of five of a stopwatch around the call alone, and around its wait.
    The fastest run is the floor an honest timing cannot go under."""
    naives, waits = [], []
    for _ in range(5):
        start = time.perf_counter()
        result = fn(x)
        naives.append(time.perf_counter() - start)
        start = time.perf_counter()
        result.block_until_ready()
        waits.append(time.perf_counter() - start)
    return min(naives), min(waits)


def targets() -> list[Target]:
    fn, x = slow_function()

    def async_dispatch() -> Outcome:
        naive, waited = dispatch_and_wait(fn, x)
        return Outcome(
            f"dispatch {format_duration(naive)}, wait {format_duration(waited)}",
            waited > 10 * naive,
        )

    def helper_not_short() -> Outcome:
        naive, waited = dispatch_and_wait(fn, x)
        median = benchmark(fn, x, repeat=3, number=1).median
        by_hand = naive + waited
        return Outcome(
            f"{format_duration(median)} against {format_duration(by_hand)} by hand",
            median > 0.5 * by_hand,
        )

    def unblocked() -> Outcome:
        blocked = benchmark(fn, x, repeat=3, number=1).median
        dispatch = benchmark(fn, x, repeat=3, block=False).median
        return Outcome(
            f"{format_duration(dispatch)} against {format_duration(blocked)}",
            dispatch < 0.2 * blocked,
        )

    def pytree() -> Outcome:
        both = benchmark(lambda x: {"a": x, "b": [fn(x)]}, x, repeat=5, number=1)
        alone = benchmark(fn, x, repeat=5, number=1)
        return Outcome(
            f"{format_duration(both.median)} against {format_duration(alone.median)}",
            both.median > 0.2 * alone.median,
        )

    def first_call() -> Outcome:
        fresh = jax.jit(lambda x: jnp.cos(x) * 2.0)  # not compiled yet
        timing = benchmark(fresh, jnp.ones(10), repeat=5)
        return Outcome(
            f"first {format_duration(timing.first_call)}, "
            f"median {format_duration(timing.median)}",
            timing.first_call > 5 * timing.median,
        )

    def round_length() -> Outcome:
        timing = benchmark(np.sin, np.ones(10), repeat=3, target_time=0.005)
        length = timing.number * timing.median
        return Outcome(
            f"{timing.number} calls, rounds of {format_duration(length)}",
            timing.number > 10 and length > 0.001,
        )

    def each_candidate() -> Outcome:
        result = compare(
            {"short": lambda: None, "long": lambda: time.sleep(0.002)},
            repeat=6,
            target_time=0.01,
        )
        short, long = result["short"].number, result["long"].number
        return Outcome(f"{short} and {long} calls", short > 10 * long)

    def without_warmup() -> Outcome:
        sine_sum = jax.jit(lambda x: jnp.sin(x).sum())
        timing = benchmark(sine_sum, jnp.ones(10), repeat=2, warmup=0, target_time=0.01)
        return Outcome(f"{timing.number} calls", timing.number > 5)

    return [
        Target(
            "async dispatch",
            "a jitted call of tens of ms returns in under a tenth of its wait",
            async_dispatch,
        ),
        Target(
            "blocked timing",
            "the helper's median is over half the call and its wait, timed by hand",
            helper_not_short,
        ),
        Target(
            "block=False",
            "the unblocked median is under a fifth of the blocked one",
            unblocked,
        ),
        Target(
            "every leaf",
            "{'a': x, 'b': [f(x)]} takes over a fifth of f(x) alone",
            pytree,
        ),
        Target(
            "first call",
            "a jitted function's first call takes over 5 times its median",
            first_call,
        ),
        Target(
            "round length",
            "np.sin on 10 elements, target 5 ms: over 10 calls, rounds over 1 ms",
            round_length,
        ),
        Target(
            "compare calibrates",
            "a no-op gets over 10 times the calls of a 2 ms sleep",
            each_candidate,
        ),
        Target(
            "no warm-up",
            "warmup=0, a compiled call of µs: over 5 calls a round of 10 ms",
            without_warmup,
        ),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each (5)")
    parser.add_argument(
        "--load", type=int, default=0, help="busy processes meanwhile (0)"
    )
    args = parser.parse_args(argv)

    print(f"Environment: {environment_report()}")
    print(f"{args.runs} runs of each target, {args.load} busy processes.\n")
    print("| target | measured (each run) | met |")
    print("| :-- | :-- | --: |")
    verdicts = []
    with busy_cores(args.load):
        for target in targets():
            outcomes = [target.measure() for _ in range(args.runs)]
            met = sum(outcome.met for outcome in outcomes)
            shown = "; ".join(outcome.measured for outcome in outcomes)
            print(f"| {target.name} | {shown} | {met} of {args.runs} |", flush=True)
            verdict = (
                "met"
                if met == args.runs
                else f"missed ({met} of {args.runs} runs met it)"
            )
            verdicts.append(
                f"Speed target ({target.name}: {target.target}): {verdict}."
            )
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
