"""Fit the same line by gradient descent: 100 steps of size 0.3 from b = 3, w = 5.

The loss is the mean squared error of b + w x on the samples of
least_squares.py (15 of y = 4.5 + 1.3 x, noise 0.02, jaxguide.linear_samples).
jaxguide.gradient_descent takes its gradient with jax.grad and runs all the
steps in one jax.lax.scan; the result should reach the least-squares answer
of jnp.linalg.lstsq, printed next to it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import jax
import jax.numpy as jnp
from matplotlib.figure import Figure

import jaxguide
from _cli import HelpFormatter, figure_path, positive_float, positive_int

TRUE_B, TRUE_W = 4.5, 1.3
START = {"b": 3.0, "w": 5.0}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a bad value stops the program with a usage message."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    add = parser.add_argument
    add("--steps", type=positive_int, default=100, help="gradient steps")
    add("--learning-rate", type=positive_float, default=0.3, help="step size")
    add("--seed", type=int, default=0, help="PRNG seed of the samples")
    add(
        "--plot", type=figure_path, metavar="PATH", help="save a figure of fit and path"
    )
    add("--smoke", action="store_true", help="quick check: already tiny, a normal run")
    return parser.parse_args(argv)


def line_loss(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    """Mean squared error of the line b + w x."""
    return jnp.mean((params["b"] + params["w"] * x - y) ** 2)


def save_figure(
    path: Path, x: jax.Array, y: jax.Array, fit: jaxguide.FitResult
) -> None:
    """Left, the samples and the fitted line; right, b and w at every step."""
    # A Figure, not pyplot: no window, no GUI backend; savefig writes the file.
    fig = Figure(figsize=(10, 3.5))
    left, right = fig.subplots(1, 2)
    b, w = float(fit.params["b"]), float(fit.params["w"])
    curves = {
        "true line": lambda t: TRUE_B + TRUE_W * t,
        "gradient descent": lambda t: b + w * t,
    }
    jaxguide.plot_fit(x, y, curves, data_label="data", xlabel="x", ylabel="y", ax=left)
    truth = {"b": TRUE_B, "w": TRUE_W}
    jaxguide.plot_history(fit.params_history, references=truth, xlabel="step", ax=right)
    fig.savefig(path, bbox_inches="tight")
    print(f"figure saved to {path}")


def main(argv: list[str] | None = None) -> None:
    """Descend, print the path every tenth of the way, compare with lstsq."""
    args = parse_args(argv)
    print(jaxguide.environment_report())
    x, y = jaxguide.linear_samples(jax.random.key(args.seed), TRUE_B, TRUE_W, 0.02, 15)
    fit = jaxguide.gradient_descent(
        line_loss, START, x, y, learning_rate=args.learning_rate, n_steps=args.steps
    )
    print(f"{args.steps} steps of size {args.learning_rate} from b = 3, w = 5")
    print(f"{'step':>6}  {'b':>8}  {'w':>8}  {'loss':>10}")
    history = fit.params_history
    rows = jnp.stack([history["b"], history["w"], fit.loss_history], axis=1)
    for k in sorted({*range(0, args.steps, max(1, args.steps // 10)), args.steps}):
        b, w, loss = rows[k].tolist()
        print(f"{k:>6}  {b:8.4f}  {w:8.4f}  {loss:10.3g}")
    design = jnp.stack([jnp.ones_like(x), x], axis=1)
    exact_b, exact_w = (float(v) for v in jnp.linalg.lstsq(design, y)[0])
    b, w = float(fit.params["b"]), float(fit.params["w"])
    print(f"{'gradient descent':>16}: b = {b:.4f}, w = {w:.4f}")
    print(f"{'least squares':>16}: b = {exact_b:.4f}, w = {exact_w:.4f}")
    first, last = fit.loss_history[0], fit.loss_history[-1]
    print(f"loss: {float(first):.4g} -> {float(last):.4g}")
    if args.plot:
        save_figure(args.plot, x, y, fit)


if __name__ == "__main__":
    main()
