"""Rerun five of the guide's timing tables on your own CPU or GPU.

Each table is the cell of its page run again: the same inputs, the same
candidates with the same labels, and the same jaxguide.compare settings
(rounds, warm-up calls, 10 ms per round), so its rows compare with each
other as the page's do. Every input is float32, JAX's default, on the NumPy
side too, as on the pages.

  selu         jit page, "How much faster?": SELU on 10^6 elements, eager
               and jax.jit (selu (eager), selu_jit); 15 rounds
  wave         jit page, the same section: sin(10·exp(x))·cos(x²+1) on 10^6
               elements: NumPy, eager jax.numpy, jax.jit; 15 rounds
  jit-in-loop  jit page, "Do not create jitted functions inside a loop":
               jax.jit(partial(add_one)), jax.jit(lambda) or jax.jit(add_one)
               made anew in a loop of 2 calls; 6 rounds, no warm-up call
  device-put   async-dispatch page, "Move data to the device once": x @ x.T
               on a 1000×1000 matrix with JAX, NumPy or device_put input,
               and np.dot; 7 rounds
  vmap         vmap page, "A matrix-vector product, three ways": a 150×100
               matrix times 10 vectors by a Python loop, by hand and by
               jax.vmap (both jitted); 15 rounds

How it differs from the pages. The pages' other tables are not here. The
page's add_one also counts its traces, a Python side effect of tracing that
this one leaves out. A page's table is one run, made while the site was
built, on the CPU named under it; this program is one run on your device,
whatever else it is doing, and a rerun lands elsewhere: compare the rows of
one table, not your times with the guide's. Where a page's prose states how
large a ratio is, that comes from many recorded runs (jaxguide.records), not
from its one table. --smoke shrinks the inputs and takes 6 rounds of 1 ms.
The GPU tables the pages show are examples/gpu_record.py's records.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from matplotlib.figure import Figure

import jaxguide
from _cli import HelpFormatter, figure_path

Candidates = dict[str, Callable[[], object]]


@dataclass(frozen=True)
class Sizes:
    """How big the inputs are."""

    elements: int  # vector length for selu and wave
    matrix: int  # side of the square matrix for device-put


FULL = Sizes(elements=1_000_000, matrix=1000)  # the pages' sizes
SMOKE = Sizes(elements=10_000, matrix=64)
SMOKE_REPEAT = 6  # rounds per candidate with --smoke: the fewest compare takes
SMOKE_TARGET_TIME = 0.001  # seconds per round with --smoke


@dataclass(frozen=True)
class Table:
    """One page's table: its candidates and the page's compare settings."""

    title: str
    page: str  # docs/en/<page>.md, whose cell this is
    candidates: Candidates
    repeat: int = 15  # compare's default, which the pages use unless they say
    warmup: int = 1


def selu(x: jax.Array, alpha: float = 1.67, lmbda: float = 1.05) -> jax.Array:
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def wave_np(x: np.ndarray) -> np.ndarray:
    return np.sin(10 * np.exp(x)) * np.cos(x**2 + 1)


def wave(x: jax.Array) -> jax.Array:
    return jnp.sin(10 * jnp.exp(x)) * jnp.cos(x**2 + 1)


def gram(m: jax.Array) -> jax.Array:
    return jnp.dot(m, m.T)


def add_one(i: jax.Array) -> jax.Array:
    return i + 1


def selu_table(sizes: Sizes) -> Table:
    x = jax.random.normal(jax.random.key(0), (sizes.elements,))
    selu_jit = jax.jit(selu)
    candidates: Candidates = {
        "selu (eager)": lambda: selu(x),
        "selu_jit": lambda: selu_jit(x),
    }
    return Table(f"SELU on {sizes.elements:,} elements", "jit", candidates)


def wave_table(sizes: Sizes) -> Table:
    wave_jit = jax.jit(wave)
    x_wave = jnp.linspace(-2.0, 2.0, sizes.elements)
    x_wave_np = np.asarray(x_wave)
    candidates: Candidates = {
        "NumPy": lambda: wave_np(x_wave_np),
        "jnp (eager)": lambda: wave(x_wave),
        "jax.jit(wave)": lambda: wave_jit(x_wave),
    }
    title = f"sin(10·exp(x))·cos(x²+1) on {sizes.elements:,} elements"
    return Table(title, "jit", candidates)


def jit_in_loop_table(_sizes: Sizes) -> Table:
    def loop_partial(n: int) -> object:
        i: object = 0
        for _ in range(n):
            i = jax.jit(partial(add_one))(i)  # a new function: an empty cache
        return i

    def loop_lambda(n: int) -> object:
        i: object = 0
        for _ in range(n):
            i = jax.jit(lambda j: add_one(j))(i)  # noqa: PLW0108 (a new lambda each time)
        return i

    def loop_named(n: int) -> object:
        i: object = 0
        for _ in range(n):
            i = jax.jit(add_one)(i)
        return i

    candidates: Candidates = {
        "jax.jit(partial(add_one))": lambda: loop_partial(2),
        "jax.jit(lambda j: add_one(j))": lambda: loop_lambda(2),
        "jax.jit(add_one)": lambda: loop_named(2),
    }
    title = "jax.jit inside a loop of 2 calls"
    return Table(title, "jit", candidates, repeat=6, warmup=0)


def device_put_table(sizes: Sizes) -> Table:
    n = sizes.matrix
    gram_jit = jax.jit(gram)
    m_jax = jax.random.normal(jax.random.key(0), (n, n))
    m_np = np.array(m_jax)  # a NumPy float32 copy of the same matrix
    m_put = jax.device_put(m_np)
    candidates: Candidates = {
        "JAX input": lambda: gram_jit(m_jax),
        "NumPy input": lambda: gram_jit(m_np),
        "after device_put": lambda: gram_jit(m_put),
        "np.dot (float32)": lambda: np.dot(m_np, m_np.T),
    }
    title = f"x @ x.T on a {n}×{n} float32 matrix"
    return Table(title, "async-dispatch", candidates, repeat=7)


def vmap_table(_sizes: Sizes) -> Table:
    numbers = jax.random.normal(jax.random.key(1), (160, 100))
    mat, batched_v = numbers[:150], numbers[150:]  # 150×100 and 10×100

    def apply_matrix(v: jax.Array) -> jax.Array:
        return jnp.dot(mat, v)

    def naively_batched(vs: jax.Array) -> jax.Array:
        return jnp.stack([apply_matrix(v) for v in vs])

    batched_by_hand = jax.jit(lambda vs: jnp.dot(vs, mat.T))  # row b is A v_b
    vmap_batched = jax.jit(jax.vmap(apply_matrix))
    candidates: Candidates = {
        "naive loop": lambda: naively_batched(batched_v),
        "by hand, jit": lambda: batched_by_hand(batched_v),
        "vmap, jit": lambda: vmap_batched(batched_v),
    }
    return Table("150×100 matrix times a batch of 10 vectors", "vmap", candidates)


TABLES: dict[str, Callable[[Sizes], Table]] = {
    "selu": selu_table,
    "wave": wave_table,
    "jit-in-loop": jit_in_loop_table,
    "device-put": device_put_table,
    "vmap": vmap_table,
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a bad value stops the program with a usage message."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    add = parser.add_argument
    add(
        "--only",
        choices=TABLES,
        action="append",
        help="time only this table; repeatable",
    )
    add(
        "--plot", type=figure_path, metavar="PATH", help="save the tables as bar charts"
    )
    add(
        "--smoke",
        action="store_true",
        help="tiny sizes, 6 rounds of 1 ms: checks it runs",
    )
    return parser.parse_args(argv)


def save_figure(path: Path, results: dict[str, jaxguide.Comparison]) -> None:
    """One bar chart per table, each bar labelled with its speed-up."""
    # A Figure, not pyplot: no window, no GUI backend; savefig writes the file.
    fig = Figure(figsize=(7, 2.4 * len(results)), layout="constrained")
    axes = fig.subplots(len(results), 1, squeeze=False)[:, 0]
    for ax, (title, comparison) in zip(axes, results.items(), strict=True):
        comparison.plot(ax=ax)
        ax.set_title(title)
    fig.savefig(path)
    print(f"figure saved to {path}")


def main(argv: list[str] | None = None) -> None:
    """Print the environment, then each table as it is measured."""
    args = parse_args(argv)
    sizes = SMOKE if args.smoke else FULL
    print(jaxguide.environment_report())
    results = {}
    for name in dict.fromkeys(args.only or TABLES):  # each table once
        table = TABLES[name](sizes)
        print(f"\n== {table.title} ({name}) ==")
        results[table.title] = jaxguide.compare(
            table.candidates,
            repeat=SMOKE_REPEAT if args.smoke else table.repeat,
            warmup=table.warmup,
            target_time=SMOKE_TARGET_TIME if args.smoke else 0.01,
        )
        print(results[table.title])
    if args.plot:
        save_figure(args.plot, results)


if __name__ == "__main__":
    main()
