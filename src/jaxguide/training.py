"""Plain gradient descent over a parameter pytree, and a tiny MLP made of pytrees.

These are deliberately small: the pages teach how they work, then import them
to keep later examples short.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from ._checks import check_callable, check_key, count, finite_number

__all__ = ["FitResult", "gradient_descent", "init_mlp", "mlp_forward", "mlp_loss"]


class FitResult(NamedTuple):
    """What :func:`gradient_descent` returns.

    Attributes:
        params: The parameters after the last step.
        params_history: The same pytree with a leading axis of length
            ``n_steps + 1`` on every leaf (the start, then after each step),
            or ``None`` when not kept.
        loss_history: The loss at each of those ``n_steps + 1`` points.
    """

    params: Any
    params_history: Any
    loss_history: jax.Array


def gradient_descent(
    loss_fn: Callable[..., jax.Array],
    params: Any,
    *data: Any,
    learning_rate: float,
    n_steps: int,
    keep_params_history: bool = True,
) -> FitResult:
    r"""Minimise ``loss_fn(params, *data)`` by plain gradient descent.

    Each step is :math:`\theta \leftarrow \theta - \eta\,\nabla_\theta L(\theta)`,
    applied to every leaf of the ``params`` pytree with :func:`jax.grad` and
    :func:`jax.tree.map`. The loop is one :func:`jax.lax.scan` inside one
    :func:`jax.jit`, compiled once per ``loss_fn``, ``n_steps`` and shapes.

    Args:
        loss_fn: ``loss_fn(params, *data)`` returning a scalar.
        params: Starting parameters, a pytree of float arrays or floats.
        *data: Further arguments of ``loss_fn`` (inputs, targets, ...).
        learning_rate: Step size :math:`\eta > 0`.
        n_steps: Number of updates.
        keep_params_history: Record the parameters after every step (turn
            off for large models to save memory).

    Returns:
        A :class:`FitResult` with the final parameters and the histories.

    Raises:
        TypeError: If ``loss_fn`` is not callable, or a parameter is not a
            real float (``5`` instead of ``5.0``, or complex); the message
            names the leaf. Non-array settings of ``loss_fn`` (a function, a
            string) cannot be passed as ``data``: bind them with
            :func:`functools.partial`.
        ValueError: If ``learning_rate`` is not positive and finite,
            ``n_steps < 1``, or ``loss_fn`` does not return a scalar.

    Examples:
        >>> def loss(params, target):
        ...     return (params["w"] - target) ** 2
        >>> fit = gradient_descent(loss, {"w": 0.0}, 3.0, learning_rate=0.25, n_steps=4)
        >>> float(fit.params["w"])
        2.8125
        >>> fit.loss_history.shape, fit.params_history["w"].shape
        ((5,), (5,))
    """
    check_callable("loss_fn", loss_fn)
    learning_rate = finite_number("learning_rate", learning_rate, positive=True)
    n_steps = count("n_steps", n_steps)
    for path, leaf in jax.tree.leaves_with_path(params):
        if not jnp.issubdtype(jnp.result_type(leaf), jnp.floating):
            msg = (
                f"params{jax.tree_util.keystr(path)} is {leaf!r} "
                f"({jnp.result_type(leaf)}); gradient descent needs real floating-point "
                "parameters, "
                "e.g. 5.0 instead of 5"
            )
            raise TypeError(msg)
    loss_shape = jax.eval_shape(loss_fn, params, *data)
    if getattr(loss_shape, "shape", None) != ():
        msg = f"loss_fn must return a scalar, got {loss_shape}"
        raise ValueError(msg)
    result: FitResult = _descend(
        loss_fn, params, data, learning_rate, n_steps, keep_params_history
    )
    return result


@partial(jax.jit, static_argnames=("loss_fn", "n_steps", "keep_params_history"))
def _descend(
    loss_fn: Callable[..., jax.Array],
    params: Any,
    data: tuple[Any, ...],
    learning_rate: float,
    n_steps: int,
    keep_params_history: bool,
) -> FitResult:
    value_and_grad = jax.value_and_grad(loss_fn)

    def step(current: Any, _: None) -> tuple[Any, tuple[Any, jax.Array]]:
        loss, grads = value_and_grad(current, *data)
        updated = jax.tree.map(lambda p, g: p - learning_rate * g, current, grads)
        return updated, (current if keep_params_history else None, loss)

    final, (history, losses) = jax.lax.scan(step, params, length=n_steps)
    losses = jnp.append(losses, loss_fn(final, *data))
    if keep_params_history:
        history = jax.tree.map(
            lambda past, last: jnp.concatenate([past, jnp.asarray(last)[None]]),
            history,
            final,
        )
    return FitResult(final, history, losses)


def init_mlp(key: jax.Array, layer_widths: Sequence[int]) -> list[dict[str, jax.Array]]:
    """Parameters of a multilayer perceptron, one ``{"weights", "biases"}`` per layer.

    Weights are drawn from :math:`\\mathcal{N}(0, 1/n_\\text{in})` (LeCun's
    scaling, without the truncation of ``jax.nn.initializers.lecun_normal``),
    one key per layer split from ``key``; biases start at zero.

    Args:
        key: A PRNG key, e.g. ``jax.random.key(0)``.
        layer_widths: Widths from input to output, e.g. ``[1, 128, 128, 1]``.

    Returns:
        A list with one dict per layer: ``weights`` of shape
        ``(n_in, n_out)`` and ``biases`` of shape ``(n_out,)``.

    Raises:
        TypeError: If ``key`` is not a PRNG key or a width is not an int.
        ValueError: If there are fewer than two widths or a width is below 1.

    Examples:
        >>> params = init_mlp(jax.random.key(0), [1, 128, 128, 1])
        >>> jax.tree.map(jnp.shape, params)
        [{'biases': (128,), 'weights': (1, 128)}, {'biases': (128,), 'weights': (128, 128)}, {'biases': (1,), 'weights': (128, 1)}]
    """
    check_key(key)
    if isinstance(layer_widths, str | bytes) or not isinstance(layer_widths, Sequence):
        msg = f"layer_widths must be a sequence of ints, got {layer_widths!r}"
        raise TypeError(msg)
    widths = [count(f"layer_widths[{i}]", w) for i, w in enumerate(layer_widths)]
    if len(widths) < 2:
        msg = f"layer_widths needs an input and an output width, got {widths}"
        raise ValueError(msg)
    keys = jax.random.split(key, len(widths) - 1)
    return [
        {
            "weights": jax.random.normal(layer_key, (n_in, n_out)) / jnp.sqrt(n_in),
            "biases": jnp.zeros(n_out),
        }
        for layer_key, n_in, n_out in zip(keys, widths[:-1], widths[1:], strict=True)
    ]


def _check_layers(params: object, x: jax.Array) -> Sequence[dict[str, jax.Array]]:
    if not isinstance(params, list | tuple) or not params:
        msg = "params must be a non-empty list of {'weights', 'biases'} dicts (see init_mlp)"
        raise TypeError(msg)
    if x.ndim == 0:
        msg = "x must have at least one dimension (the inputs); for a scalar, x[None]"
        raise ValueError(msg)
    width = x.shape[-1]
    for i, layer in enumerate(params):
        if not isinstance(layer, dict) or set(layer) != {"weights", "biases"}:
            msg = f"params[{i}] must be a dict with keys 'weights' and 'biases', got {layer!r}"
            raise TypeError(msg)
        w_shape, b_shape = jnp.shape(layer["weights"]), jnp.shape(layer["biases"])
        if len(w_shape) != 2 or b_shape != w_shape[1:]:
            msg = (
                f"params[{i}] has weights {w_shape} and biases {b_shape}; "
                "expected (n_in, n_out) and (n_out,)"
            )
            raise ValueError(msg)
        if w_shape[0] != width:
            source = "x has last dimension" if i == 0 else f"layer {i - 1} outputs"
            hint = (
                " (for 1-D data pass x[:, None])" if i == 0 and w_shape[0] == 1 else ""
            )
            msg = f"params[{i}]['weights'] takes {w_shape[0]} inputs but {source} {width}{hint}"
            raise ValueError(msg)
        width = w_shape[1]
    return params


def mlp_forward(
    params: Sequence[dict[str, jax.Array]],
    x: jax.Array,
    activation: Callable[[jax.Array], jax.Array] = jnp.tanh,
) -> jax.Array:
    """Apply the MLP: ``activation(x @ W + b)`` per hidden layer, linear output.

    Works on one example of shape ``(n_in,)`` (for :func:`jax.vmap`) and on a
    batch of shape ``(n, n_in)`` alike.

    Args:
        params: Layers as made by :func:`init_mlp`.
        x: Inputs whose last dimension is the first layer's width.
        activation: The hidden layers' nonlinearity.

    Returns:
        Outputs of shape ``x.shape[:-1] + (n_out,)``.

    Raises:
        TypeError: If ``params`` is not a list of ``{"weights", "biases"}`` dicts.
        ValueError: If the layer shapes do not chain, or ``x`` has the wrong width.

    Examples:
        >>> params = init_mlp(jax.random.key(0), [2, 8, 3])
        >>> mlp_forward(params, jnp.ones((5, 2))).shape
        (5, 3)
        >>> jax.vmap(mlp_forward, in_axes=(None, 0))(params, jnp.ones((5, 2))).shape
        (5, 3)
    """
    x = jnp.asarray(x)
    layers = _check_layers(params, x)
    for layer in layers[:-1]:
        x = activation(x @ layer["weights"] + layer["biases"])
    return x @ layers[-1]["weights"] + layers[-1]["biases"]


def mlp_loss(
    params: Sequence[dict[str, jax.Array]],
    x: jax.Array,
    y: jax.Array,
    activation: Callable[[jax.Array], jax.Array] = jnp.tanh,
) -> jax.Array:
    """Mean squared error of :func:`mlp_forward` against targets ``y``.

    Args:
        params: Layers as made by :func:`init_mlp`.
        x: Inputs, shape ``(n, n_in)``.
        y: Targets, shape ``(n, n_out)``: the same shape as the predictions.
        activation: The hidden layers' nonlinearity.

    Returns:
        A scalar: the mean of the squared errors.

    Raises:
        ValueError: If the predictions and ``y`` differ in shape (which would
            otherwise broadcast silently into a wrong loss).

    Examples:
        >>> params = init_mlp(jax.random.key(0), [1, 4, 1])
        >>> x = jnp.zeros((3, 1))
        >>> mlp_loss(params, x, jnp.ones((3, 1)))  # biases start at 0: predicts 0
        Array(1., dtype=float32)
    """
    predictions = mlp_forward(params, x, activation)
    y = jnp.asarray(y)
    if predictions.shape != y.shape:
        msg = (
            f"predictions have shape {predictions.shape} but y has shape {y.shape}; "
            "give y the same shape (for 1-D targets, y[:, None])"
        )
        raise ValueError(msg)
    return jnp.mean((predictions - y) ** 2)
