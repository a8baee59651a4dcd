"""Train the guide's small MLP data-parallel: the batch split over every device.

The parallelism page's recipe as a training loop. A one-axis mesh "data"
spans all devices; each step's batch is split by rows over it, and the
parameters and Adam's state are replicated. jax.jit compiles the step for
those shardings: each device computes the gradient of its own rows, and the
compiler adds the all-reduce that sums them. On a machine with several GPUs
that is real data parallelism; on a CPU, --cpu-devices splits the CPU into
that many devices, to try it (they share the cores: not faster).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import optax
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P
from matplotlib.figure import Figure

import jaxguide
from _cli import HelpFormatter, figure_path, positive_float, positive_int

Params = list[dict[str, jax.Array]]
Step = Callable[
    [Params, optax.OptState, jax.Array, jax.Array],
    tuple[Params, optax.OptState, jax.Array],
]


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
        "--samples-per-device",
        type=positive_int,
        default=32,
        help="rows of the batch on each device",
    )
    add(
        "--cpu-devices",
        type=positive_int,
        default=8,
        help="devices to split the CPU into (used only where JAX runs on the CPU)",
    )
    add("--seed", type=int, default=0, help="PRNG seed of data and weights")
    add("--plot", type=figure_path, metavar="PATH", help="save a figure of the loss")
    add("--smoke", action="store_true", help="a quick run: at most 100 steps")
    args = parser.parse_args(argv)
    if args.smoke:
        args.steps = min(args.steps, 100)
    return args


def make_step(optimizer: optax.GradientTransformation) -> Step:
    """One jitted step; its shardings come from its arguments'."""

    @jax.jit
    def step(
        params: Params, state: optax.OptState, x: jax.Array, y: jax.Array
    ) -> tuple[Params, optax.OptState, jax.Array]:
        loss, grads = jax.value_and_grad(jaxguide.mlp_loss)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    return step


def save_figure(path: Path, losses: jax.Array) -> None:
    """The loss at every step, on a logarithmic scale."""
    fig = Figure(figsize=(5, 3.5))
    jaxguide.plot_history(
        {"MSE": losses}, xlabel="step", log_scale=True, ax=fig.subplots()
    )
    fig.savefig(path, bbox_inches="tight")
    print(f"figure saved to {path}")


def main(argv: list[str] | None = None) -> None:
    """Train, printing where the data lives, the loss as it goes and at the end."""
    args = parse_args(argv)
    jax.config.update("jax_num_cpu_devices", args.cpu_devices)  # before any JAX work
    print(jaxguide.environment_report())
    n_devices = jax.device_count()
    mesh = jax.make_mesh((n_devices,), ("data",), axis_types=(AxisType.Auto,))
    rows, replicated = NamedSharding(mesh, P("data", None)), NamedSharding(mesh, P())

    data_key, init_key = jax.random.split(jax.random.key(args.seed))
    n_samples = n_devices * args.samples_per_device
    x, y = jaxguide.toy_regression(data_key, n_samples=n_samples, noise_scale=0.1)
    inputs = jax.device_put(x[:, None], rows)
    targets = jax.device_put(y[:, None], rows)
    params = jax.device_put(jaxguide.init_mlp(init_key, [1, 64, 64, 1]), replicated)
    print(
        f"{n_devices} device(s), batch of {n_samples}: {inputs.sharding.spec} by rows"
    )

    optimizer = optax.adam(args.learning_rate)
    state = optimizer.init(params)
    step = make_step(optimizer)
    program = step.lower(params, state, inputs, targets).compile().as_text()
    print("all-reduce in the compiled step:", "all-reduce" in program)

    losses = []
    for k in range(args.steps):
        params, state, loss = step(params, state, inputs, targets)
        losses.append(loss)
        if k % max(1, args.steps // 10) == 0:
            print(f"step {k:>6}  loss {float(loss):.4g}")
    final = jaxguide.mlp_loss(params, inputs, targets)
    print(
        f"parameters after training: {params[0]['weights'].sharding.spec} (replicated)"
    )
    print(f"initial loss: {float(losses[0]):.4g}")
    print(f"final loss: {float(final):.4g}")
    if args.plot:
        save_figure(args.plot, jnp.append(jnp.stack(losses), final))


if __name__ == "__main__":
    main()
