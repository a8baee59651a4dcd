"""How far does ``jaxguide.benchmark`` move the figure it measures?

For fast jitted functions, compare the helper's median with a plain
``timeit`` loop that blocks on each result (``f(x).block_until_ready()``),
the usual way to time JAX code by hand, and with a ``timeit`` loop that makes
the same calls as the helper (``wait(call())``). All run the same number of
calls per round and take turns round by round (101 rounds each by default),
so that the machine's drift hits them alike. The last rows time a callable
that does nothing: the helper's own cost per call.

Run it with ``nox -s benchmark`` (or ``python tests/benchmarks/timing_overhead.py``
where jaxguide is installed). It prints a Markdown table; it is a measurement,
not a test, and always exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp

from jaxguide import benchmark, environment_report, format_duration
from jaxguide._measure import _wait

Fn = Callable[[jax.Array], jax.Array]


def cases() -> dict[str, tuple[Fn, jax.Array]]:
    """Jitted functions from about twenty microseconds to half a millisecond."""
    sine_sum = jax.jit(lambda x: jnp.sin(x).sum())
    matmul = jax.jit(lambda x: x @ x)
    return {
        "sin(x).sum(), 10^3 elements": (sine_sum, jnp.ones(1_000)),
        "sin(x).sum(), 10^5 elements": (sine_sum, jnp.ones(100_000)),
        "x @ x, 256 x 256": (matmul, jnp.ones((256, 256))),
    }


def per_call(timer: timeit.Timer, number: int) -> float:
    return timer.timeit(number) / number


def measure(fn: Fn, x: jax.Array, rounds: int) -> tuple[float, float, float]:
    """Medians over ``rounds`` of: the helper, timeit by hand, timeit as the helper."""
    fn(x).block_until_ready()  # compile outside every measurement
    number = benchmark(fn, x, repeat=1, target_time=0.02).number
    call = partial(fn, x)
    methods: list[Callable[[], float]] = [
        lambda: benchmark(fn, x, repeat=1, number=number).median,
        lambda: per_call(timeit.Timer(lambda: fn(x).block_until_ready()), number),
        lambda: per_call(timeit.Timer(lambda: _wait(call())), number),
    ]
    results: list[list[float]] = [[] for _ in methods]
    for round_ in range(rounds):
        for offset in range(len(methods)):  # each method goes first in turn
            index = (round_ + offset) % len(methods)
            results[index].append(methods[index]())
    helper, by_hand, same_calls = (statistics.median(r) for r in results)
    return helper, by_hand, same_calls


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=101, help="rounds (101)")
    args = parser.parse_args(argv)

    print(f"Environment: {environment_report()}\n")
    print(
        "| function | jaxguide.benchmark | timeit, f(x).block_until_ready() "
        "| difference | timeit, the helper's calls | difference |"
    )
    print("| :-- | --: | --: | --: | --: | --: |")
    for name, (fn, x) in cases().items():
        helper, by_hand, same_calls = measure(fn, x, args.rounds)
        print(
            f"| {name} | {format_duration(helper)} | {format_duration(by_hand)} "
            f"| {100 * (helper - by_hand) / by_hand:+.1f} % "
            f"| {format_duration(same_calls)} "
            f"| {100 * (helper - same_calls) / same_calls:+.1f} % |"
        )
    array = jnp.ones(3)
    for what, fn in (("None", lambda: None), ("an array", lambda: array)):
        cost = benchmark(fn, repeat=21, number=100_000).median
        print(
            f"| does nothing, returns {what}: the helper's own cost | {format_duration(cost)} | | | | |"
        )


if __name__ == "__main__":
    main()
