"""Train a small MLP on a noisy 1-D curve with Optax's Adam.

Fits 200 noisy samples of f(x) = sin(2x) + x/2 (jaxguide.toy_regression)
with a tanh network of two hidden layers of 64 units (jaxguide.init_mlp),
minimising jaxguide.mlp_loss with 2000 steps of optax.adam (learning rate
0.002), as the guide's MLP page does. One jitted step takes the loss and its
gradient and applies Adam's update; a plain Python loop calls it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import jax
import jax.numpy as jnp
import optax
from matplotlib.figure import Figure

import jaxguide
from _cli import HelpFormatter, figure_path, positive_float, positive_int

Params = list[dict[str, jax.Array]]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; a bad value stops the program with a usage message."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    add = parser.add_argument
    add("--steps", type=positive_int, default=2000, help="training steps")
    add(
        "--learning-rate",
        type=positive_float,
        default=2e-3,
        help="Adam's learning rate",
    )
    add(
        "--hidden",
        type=positive_int,
        nargs="+",
        default=[64, 64],
        help="hidden layer widths",
    )
    add("--seed", type=int, default=0, help="PRNG seed of data and weights")
    add(
        "--plot", type=figure_path, metavar="PATH", help="save a figure of fit and loss"
    )
    add("--smoke", action="store_true", help="a quick run: at most 100 steps")
    args = parser.parse_args(argv)
    if args.smoke:
        args.steps = min(args.steps, 100)
    return args


def train(
    params: Params, x: jax.Array, y: jax.Array, steps: int, learning_rate: float
) -> tuple[Params, jax.Array]:
    """Adam on mlp_loss; returns the parameters and the loss before each step."""
    optimizer = optax.adam(learning_rate)

    @jax.jit  # the data as arguments: captured arrays would become constants
    def step(
        params: Params, state: optax.OptState, x: jax.Array, y: jax.Array
    ) -> tuple[Params, optax.OptState, jax.Array]:
        loss, grads = jax.value_and_grad(jaxguide.mlp_loss)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    state, losses = optimizer.init(params), []
    for k in range(steps):
        params, state, loss = step(params, state, x, y)
        losses.append(loss)  # an array: the loop need not wait for the step
        if k % max(1, steps // 10) == 0:
            print(f"step {k:>6}  loss {float(loss):.4g}")  # float() waits
    return params, jnp.stack(losses)


def save_figure(
    path: Path, x: jax.Array, y: jax.Array, params: Params, losses: jax.Array
) -> None:
    """Left, the samples, the true curve and the network; right, the loss."""
    # A Figure, not pyplot: no window, no GUI backend; savefig writes the file.
    fig = Figure(figsize=(10, 3.5))
    left, right = fig.subplots(1, 2)
    curves = {
        "f(x) = sin(2x) + x/2": jaxguide.toy_target,
        "MLP": lambda t: jaxguide.mlp_forward(params, t[:, None])[:, 0],
    }
    jaxguide.plot_fit(x, y, curves, data_label="samples", xlabel="x", ax=left)
    jaxguide.plot_history({"MSE": losses}, xlabel="step", log_scale=True, ax=right)
    fig.savefig(path, bbox_inches="tight")
    print(f"figure saved to {path}")


def main(argv: list[str] | None = None) -> None:
    """Train, printing the loss every tenth of the way, then the final loss."""
    args = parse_args(argv)
    print(jaxguide.environment_report())
    data_key, init_key = jax.random.split(jax.random.key(args.seed))
    x, y = jaxguide.toy_regression(data_key, n_samples=200, noise_scale=0.1)
    inputs, targets = x[:, None], y[:, None]  # shape (200, 1): one feature, one output
    widths = [1, *args.hidden, 1]
    params = jaxguide.init_mlp(init_key, widths)
    n_params = sum(leaf.size for leaf in jax.tree.leaves(params))
    print(f"MLP {widths}: {n_params} parameters, 200 samples, {args.steps} steps")
    params, losses = train(params, inputs, targets, args.steps, args.learning_rate)
    losses = jnp.append(losses, jaxguide.mlp_loss(params, inputs, targets))
    noise = y - jaxguide.toy_target(x)  # what even a perfect fit leaves
    print(f"initial loss: {float(losses[0]):.4g}")
    print(f"final loss: {float(losses[-1]):.4g}")
    print(f"loss of f itself: {float(jnp.mean(noise**2)):.4g} (the noise alone)")
    if args.plot:
        save_figure(args.plot, x, y, params, losses)


if __name__ == "__main__":
    main()
