"""Reproduce the guide's timing tables on your own CPU or GPU.

Each table is timed by jaxguide.compare: the first call on its own (it
compiles), every result waited for, the median of several repeats. Every
input is float32, JAX's default, on the NumPy side too, as on the pages.

  selu         SELU on 10^6 elements: NumPy, eager jax.numpy, jax.jit (jit page)
  wave         sin(10·exp(x))·cos(x²+1) the same three ways (jit page)
  device-put   x @ x.T with JAX, NumPy or device_put input, and np.dot,
               all float32 (async dispatch page)
  jit-in-loop  jax.jit(partial(f)) or jax.jit(lambda) made inside a loop
               against one named function (jit page)
  vmap         a 150×100 matrix times 10 vectors: a Python loop, batched
               by hand, jax.vmap (vmap page)

The times depend on your device, JAX version and what else the machine is
doing: compare the rows of one table, not your times with the guide's.
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
    """How big the inputs are and how long each table is timed."""

    elements: int  # vector length for selu and wave
    matrix: int  # side of the square matrix for device-put
    loop: int  # jitted calls per loop for jit-in-loop
    repeat: int  # rounds per candidate, median taken
    target_time: float  # seconds per round, calls per round chosen to fit


FULL = Sizes(elements=1_000_000, matrix=1000, loop=2, repeat=7, target_time=0.01)
SMOKE = Sizes(elements=10_000, matrix=64, loop=2, repeat=6, target_time=0.001)


def selu_np(x: np.ndarray, alpha: float = 1.67, lmbda: float = 1.05) -> np.ndarray:
    return lmbda * np.where(x > 0, x, alpha * np.exp(x) - alpha)


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


def three_ways(
    name: str,
    f_np: Callable[[np.ndarray], np.ndarray],
    f: Callable[[jax.Array], jax.Array],
    x: jax.Array,
) -> Candidates:
    """NumPy, eager jax.numpy and jax.jit on the same values."""
    f_jit, x_np = jax.jit(f), np.asarray(x)
    return {
        "NumPy": lambda: f_np(x_np),
        "jnp (eager)": lambda: f(x),
        f"jax.jit({name})": lambda: f_jit(x),
    }


def selu_table(sizes: Sizes) -> tuple[str, Candidates]:
    x = jax.random.normal(jax.random.key(0), (sizes.elements,))
    return f"SELU on {sizes.elements:,} elements", three_ways("selu", selu_np, selu, x)


def wave_table(sizes: Sizes) -> tuple[str, Candidates]:
    x = jnp.linspace(-2.0, 2.0, sizes.elements)
    title = f"sin(10·exp(x))·cos(x²+1) on {sizes.elements:,} elements"
    return title, three_ways("wave", wave_np, wave, x)


def device_put_table(sizes: Sizes) -> tuple[str, Candidates]:
    m = jax.random.normal(jax.random.key(0), (sizes.matrix, sizes.matrix))
    m_np = np.array(m)  # a NumPy float32 copy: no dtype conversion is timed
    m_put = jax.device_put(m_np)
    gram_jit = jax.jit(gram)
    candidates = {
        "JAX input": lambda: gram_jit(m),
        "NumPy input": lambda: gram_jit(m_np),
        "after device_put": lambda: gram_jit(m_put),
        "np.dot (float32)": lambda: np.dot(m_np, m_np.T),
    }
    return f"x @ x.T on a {sizes.matrix}×{sizes.matrix} float32 matrix", candidates


def jit_in_loop_table(sizes: Sizes) -> tuple[str, Candidates]:
    def loop(make: Callable[[], Callable[[jax.Array], jax.Array]]) -> jax.Array:
        i = jnp.asarray(0)
        for _ in range(sizes.loop):
            i = make()(i)  # a new function object has an empty cache: compiles
        return i

    candidates: Candidates = {
        "jax.jit(partial(add_one))": lambda: loop(lambda: jax.jit(partial(add_one))),
        "jax.jit(lambda j: add_one(j))": lambda: loop(
            lambda: jax.jit(lambda j: add_one(j))  # noqa: PLW0108 (a new lambda each time)
        ),
        "jax.jit(add_one)": lambda: loop(lambda: jax.jit(add_one)),
    }
    return f"jax.jit inside a loop of {sizes.loop} calls", candidates


def vmap_table(_sizes: Sizes) -> tuple[str, Candidates]:
    numbers = jax.random.normal(jax.random.key(1), (160, 100))
    mat, vs = numbers[:150], numbers[150:]  # 150×100 and a batch of 10 vectors

    def apply_matrix(v: jax.Array) -> jax.Array:
        return jnp.dot(mat, v)

    by_hand = jax.jit(lambda vs: jnp.dot(vs, mat.T))  # row b is A v_b: V Aᵀ
    vmapped = jax.jit(jax.vmap(apply_matrix))
    candidates = {
        "naive loop": lambda: jnp.stack([apply_matrix(v) for v in vs]),
        "by hand, jit": lambda: by_hand(vs),
        "vmap, jit": lambda: vmapped(vs),
    }
    return "150×100 matrix times a batch of 10 vectors", candidates


TABLES = {
    "selu": selu_table,
    "wave": wave_table,
    "device-put": device_put_table,
    "jit-in-loop": jit_in_loop_table,
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
    add("--smoke", action="store_true", help="tiny sizes, 6 repeats: checks it runs")
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
        title, candidates = TABLES[name](sizes)
        print(f"\n== {title} ({name}) ==")
        results[title] = jaxguide.compare(
            candidates, repeat=sizes.repeat, target_time=sizes.target_time
        )
        print(results[title])
    if args.plot:
        save_figure(args.plot, results)


if __name__ == "__main__":
    main()
