"""How far does ``jaxguide.benchmark`` move the figure it measures?

For fast jitted functions, compare the helper's median with a plain
``timeit`` loop that blocks on each result (``f(x).block_until_ready()``),
the usual way to time JAX code by hand. Both run the same number of calls per
round, and the two alternate over many rounds so that the machine's drift hits
both alike. A last row times a callable that does nothing: the helper's own
cost per call.

Run it with ``nox -s benchmark`` (or ``python tests/benchmarks/timing_overhead.py``
where jaxguide is installed). It prints a Markdown table; it is a measurement,
not a test, and always exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable

import jax
import jax.numpy as jnp

from jaxguide import benchmark, environment_report, format_duration


def cases() -> dict[str, tuple[Callable[[jax.Array], jax.Array], jax.Array]]:
    """Jitted functions from about ten microseconds to half a millisecond."""
    sine_sum = jax.jit(lambda x: jnp.sin(x).sum())
    matmul = jax.jit(lambda x: x @ x)
    return {
        "sin(x).sum(), 10^3 elements": (sine_sum, jnp.ones(1_000)),
        "sin(x).sum(), 10^5 elements": (sine_sum, jnp.ones(100_000)),
        "x @ x, 256 x 256": (matmul, jnp.ones((256, 256))),
    }


def plain_timeit(
    fn: Callable[[jax.Array], jax.Array], x: jax.Array, number: int, repeat: int
) -> float:
    """Median seconds per call of ``fn(x).block_until_ready()`` with timeit."""
    timer = timeit.Timer(lambda: fn(x).block_until_ready())
    return statistics.median(t / number for t in timer.repeat(repeat, number))


def compare_once(
    fn: Callable[[jax.Array], jax.Array], x: jax.Array, rounds: int
) -> tuple[float, float]:
    """Medians over ``rounds`` of the helper's and timeit's medians."""
    fn(x).block_until_ready()  # compile outside both measurements
    number = benchmark(fn, x, repeat=1, target_time=0.02).number
    helper: list[float] = []
    plain: list[float] = []
    for round_ in range(rounds):
        # Alternate which goes first, so that neither always runs warm.
        for first in (round_ % 2 == 0, round_ % 2 == 1):
            if first:
                helper.append(benchmark(fn, x, repeat=7, number=number).median)
            else:
                plain.append(plain_timeit(fn, x, number, repeat=7))
    return statistics.median(helper), statistics.median(plain)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21, help="alternations (21)")
    args = parser.parse_args(argv)

    print(f"Environment: {environment_report()}\n")
    print("| function | jaxguide.benchmark | timeit, blocking | difference |")
    print("| :-- | --: | --: | --: |")
    for name, (fn, x) in cases().items():
        ours, theirs = compare_once(fn, x, args.rounds)
        print(
            f"| {name} | {format_duration(ours)} | {format_duration(theirs)} "
            f"| {100.0 * (ours - theirs) / theirs:+.1f} % |"
        )
    noop = benchmark(lambda: None, repeat=21, number=100_000).median
    array = jnp.ones(3)
    identity = benchmark(lambda: array, repeat=21, number=100_000).median
    print(
        f"| nothing (returns None): the helper's own cost | {format_duration(noop)} | | |"
    )
    print(
        f"| nothing (returns an array): the helper's own cost | {format_duration(identity)} | | |"
    )


if __name__ == "__main__":
    main()
