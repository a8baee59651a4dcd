"""Fit a line by least squares: the normal equations and jnp.linalg.lstsq.

Draws 15 noisy samples of y = 4.5 + 1.3 x (noise 0.02) with
jaxguide.linear_samples and solves for the intercept b and the slope w twice:
from the normal equations (XᵀX) θ = Xᵀy, and with jnp.linalg.lstsq, which
never forms XᵀX. Both should agree, and land close to the true line.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import jax
import jax.numpy as jnp
from matplotlib.figure import Figure

import jaxguide
from _cli import HelpFormatter, checked, figure_path

TRUE_B, TRUE_W = 4.5, 1.3


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a bad value stops the program with a usage message."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    add = parser.add_argument
    count = checked(int, lambda n: n >= 2, "at least 2 (a line needs two points)")
    noise = checked(float, lambda s: 0 <= s < math.inf, "a finite number >= 0")
    add("--samples", type=count, default=15, help="(x, y) pairs")
    add("--noise", type=noise, default=0.02, help="noise std")
    add("--seed", type=int, default=0, help="seed of the samples")
    add("--plot", type=figure_path, metavar="PATH", help="save a figure of the fit")
    add("--smoke", action="store_true", help="quick check: already tiny, a normal run")
    return parser.parse_args(argv)


def normal_equations(design: jax.Array, y: jax.Array) -> jax.Array:
    """θ solving (XᵀX) θ = Xᵀy: short, but squares the condition number of X."""
    return jnp.linalg.solve(design.T @ design, design.T @ y)


def save_figure(path: Path, x: jax.Array, y: jax.Array, b: float, w: float) -> None:
    """The samples, the true line and the fitted one."""
    # A Figure, not pyplot: no window, no GUI backend; savefig writes the file.
    fig = Figure(figsize=(6, 3.5))
    curves = {
        "true line": lambda t: TRUE_B + TRUE_W * t,
        "least squares": lambda t: b + w * t,
    }
    jaxguide.plot_fit(
        x, y, curves, data_label="samples", xlabel="x", ylabel="y", ax=fig.subplots()
    )
    fig.savefig(path, bbox_inches="tight")
    print(f"figure saved to {path}")


def main(argv: list[str] | None = None) -> None:
    """Draw the samples, solve both ways, print the parameters."""
    args = parse_args(argv)
    print(jaxguide.environment_report())
    key = jax.random.key(args.seed)
    x, y = jaxguide.linear_samples(key, TRUE_B, TRUE_W, args.noise, args.samples)
    design = jnp.stack([jnp.ones_like(x), x], axis=1)  # rows (1, x_i): y ≈ X (b, w)
    fits = {
        "normal equations": normal_equations(design, y),
        "jnp.linalg.lstsq": jnp.linalg.lstsq(design, y)[0],
    }
    print(f"{args.samples} samples of y = {TRUE_B} + {TRUE_W} x, noise {args.noise}")
    print(f"{'true line':>16}: b = {TRUE_B:.4f}, w = {TRUE_W:.4f}")
    for name, theta in fits.items():
        mse = float(jnp.mean((design @ theta - y) ** 2))
        b, w = (float(v) for v in theta)
        print(f"{name:>16}: b = {b:.4f}, w = {w:.4f}, mean squared residual {mse:.3g}")
    gap = jnp.max(jnp.abs(fits["normal equations"] - fits["jnp.linalg.lstsq"]))
    print(f"largest difference between the two: {float(gap):.2g}")
    if args.plot:
        save_figure(args.plot, x, y, *(float(v) for v in fits["jnp.linalg.lstsq"]))


if __name__ == "__main__":
    main()
