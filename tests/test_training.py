"""jaxguide.training: gradient descent over pytrees and the tiny MLP."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaxguide import (
    gradient_descent,
    init_mlp,
    linear_samples,
    mlp_forward,
    mlp_loss,
    toy_regression,
)


def line_loss(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((params["b"] + params["w"] * x - y) ** 2)


def test_gradient_descent_finds_the_least_squares_line() -> None:
    x, y = linear_samples(jax.random.key(0), 4.5, 1.3, 0.02, 15)
    fit = gradient_descent(
        line_loss, {"b": 3.0, "w": 5.0}, x, y, learning_rate=0.3, n_steps=300
    )
    design = jnp.stack([jnp.ones_like(x), x], axis=1)
    b, w = jnp.linalg.lstsq(design, y)[0]
    assert float(fit.params["b"]) == pytest.approx(float(b), abs=1e-3)
    assert float(fit.params["w"]) == pytest.approx(float(w), abs=1e-3)


def test_history_starts_at_the_initial_params_and_ends_at_the_result() -> None:
    x, y = linear_samples(jax.random.key(1), 4.5, 1.3, 0.02, 15)
    start = {"b": 3.0, "w": 5.0}
    fit = gradient_descent(line_loss, start, x, y, learning_rate=0.3, n_steps=100)
    assert fit.loss_history.shape == (101,)
    assert fit.params_history["w"].shape == (101,)
    assert float(fit.params_history["w"][0]) == 5.0
    assert float(fit.params_history["b"][-1]) == float(fit.params["b"])
    assert float(fit.loss_history[0]) == pytest.approx(float(line_loss(start, x, y)))
    assert float(fit.loss_history[-1]) < 1e-2 * float(fit.loss_history[0])
    lean = gradient_descent(
        line_loss, start, x, y, learning_rate=0.3, n_steps=5, keep_params_history=False
    )
    assert lean.params_history is None
    assert lean.loss_history.shape == (6,)


def test_one_step_is_params_minus_learning_rate_times_gradient() -> None:
    x, y = jnp.array([1.0, 2.0]), jnp.array([2.0, 3.0])
    start = {"b": 0.5, "w": -1.0}
    grads = jax.grad(line_loss)(start, x, y)
    fit = gradient_descent(line_loss, start, x, y, learning_rate=0.1, n_steps=1)
    for name, value in start.items():
        expected = value - 0.1 * grads[name]
        assert float(fit.params[name]) == pytest.approx(float(expected), rel=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"learning_rate": 0.0}, ValueError, "learning_rate must be > 0, got 0.0"),
        ({"learning_rate": float("nan")}, ValueError, "learning_rate must be finite"),
        ({"n_steps": 0}, ValueError, "n_steps must be >= 1, got 0"),
        (
            {"params": {"b": 3, "w": 5.0}},
            TypeError,
            r"params\['b'\] is 3 \(int32\); gradient descent needs real floating-point",
        ),
        ({"loss_fn": "mse"}, TypeError, "loss_fn must be callable, got str"),
        (
            {"loss_fn": lambda p, x, y: p["w"] * x - y},
            ValueError,
            r"loss_fn must return a scalar, got ShapeDtypeStruct\(shape=\(3,\)",
        ),
    ],
)
def test_bad_arguments_are_named(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {
        "loss_fn": line_loss,
        "params": {"b": 3.0, "w": 5.0},
        "learning_rate": 0.1,
        "n_steps": 3,
    }
    arguments.update(kwargs)
    loss_fn, params = arguments.pop("loss_fn"), arguments.pop("params")
    with pytest.raises(error, match=message):
        gradient_descent(loss_fn, params, jnp.ones(3), jnp.ones(3), **arguments)  # type: ignore[arg-type]


# Two widths only, so that most layers reuse a compiled shape.
widths = st.lists(st.sampled_from([1, 5]), min_size=2, max_size=4)


@settings(max_examples=6)  # each new shape compiles: keep this quick
@given(widths=widths, seed=st.integers(0, 2**31 - 1))
def test_init_mlp_shapes_and_determinism(widths: list[int], seed: int) -> None:
    params = init_mlp(jax.random.key(seed), widths)
    assert len(params) == len(widths) - 1
    for layer, n_in, n_out in zip(params, widths[:-1], widths[1:], strict=True):
        assert layer["weights"].shape == (n_in, n_out)
        assert layer["biases"].shape == (n_out,)
        assert not bool(jnp.any(layer["biases"]))
    again = init_mlp(jax.random.key(seed), widths)
    assert jax.tree.all(jax.tree.map(jnp.array_equal, params, again))
    x = jnp.ones((3, widths[0]))
    assert mlp_forward(params, x).shape == (3, widths[-1])
    assert mlp_forward(params, x[0]).shape == (widths[-1],)


def test_init_mlp_uses_lecun_scaling() -> None:
    (layer,) = init_mlp(jax.random.key(0), [400, 300])
    assert float(jnp.std(layer["weights"])) == pytest.approx(1 / 20, rel=0.05)


@pytest.mark.parametrize(
    ("layer_widths", "error", "message"),
    [
        ([3], ValueError, r"needs an input and an output width, got \[3\]"),
        ([1, 0, 1], ValueError, r"layer_widths\[1\] must be >= 1, got 0"),
        ([1, 2.0, 1], TypeError, r"layer_widths\[1\] must be an int >= 1, got float"),
        (128, TypeError, "layer_widths must be a sequence of ints, got 128"),
    ],
)
def test_init_mlp_rejects_bad_widths(
    layer_widths: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        init_mlp(jax.random.key(0), layer_widths)  # type: ignore[arg-type]


def test_forward_names_mismatched_layers_and_inputs() -> None:
    params = init_mlp(jax.random.key(0), [1, 8, 1])
    with pytest.raises(
        ValueError,
        match=r"takes 1 inputs but x has last dimension 5 \(for 1-D data pass x\[:, None\]\)",
    ):
        mlp_forward(params, jnp.ones(5))
    broken = [params[0], init_mlp(jax.random.key(1), [4, 1])[0]]
    with pytest.raises(
        ValueError,
        match=r"params\[1\]\['weights'\] takes 4 inputs but layer 0 outputs 8",
    ):
        mlp_forward(broken, jnp.ones((5, 1)))
    with pytest.raises(
        ValueError, match=r"params\[0\] has weights \(1, 8\) and biases \(3,\)"
    ):
        mlp_forward(
            [{"weights": params[0]["weights"], "biases": jnp.zeros(3)}],
            jnp.ones((2, 1)),
        )
    with pytest.raises(
        TypeError, match=r"params\[0\] must be a dict with keys 'weights' and 'biases'"
    ):
        mlp_forward([{"w": 1.0}], jnp.ones((2, 1)))  # type: ignore[list-item]
    with pytest.raises(TypeError, match="params must be a non-empty list"):
        mlp_forward([], jnp.ones((2, 1)))


def test_mlp_loss_refuses_targets_that_would_broadcast() -> None:
    params = init_mlp(jax.random.key(0), [1, 8, 1])
    x = jnp.ones((15, 1))
    with pytest.raises(
        ValueError, match=r"predictions have shape \(15, 1\) but y has shape \(15,\)"
    ):
        mlp_loss(params, x, jnp.ones(15))
    assert mlp_loss(params, x, jnp.ones((15, 1))).shape == ()


def test_the_mlp_learns_the_toy_regression_with_gradient_descent() -> None:
    x, y = toy_regression(jax.random.key(0), 128, noise_scale=0.05)
    params = init_mlp(jax.random.key(1), [1, 32, 32, 1])
    fit = gradient_descent(
        mlp_loss,
        params,
        x[:, None],
        y[:, None],
        learning_rate=0.05,
        n_steps=1500,
        keep_params_history=False,
    )
    assert float(fit.loss_history[-1]) < 0.2 * float(fit.loss_history[0])
    per_example = jax.vmap(mlp_forward, in_axes=(None, 0))(fit.params, x[:, None])
    np.testing.assert_allclose(
        per_example, mlp_forward(fit.params, x[:, None]), rtol=1e-5, atol=1e-6
    )


def test_complex_parameters_are_refused() -> None:
    with pytest.raises(
        TypeError,
        match=r"params is Array\(1\.\+1\.j.*\(complex64\); gradient descent needs real",
    ):
        gradient_descent(
            lambda p: jnp.abs(p) ** 2, jnp.array(1 + 1j), learning_rate=0.1, n_steps=2
        )


def test_forward_explains_a_scalar_input() -> None:
    params = init_mlp(jax.random.key(0), [1, 4, 1])
    with pytest.raises(ValueError, match=r"x must have at least one dimension"):
        mlp_forward(params, jnp.array(2.0))
