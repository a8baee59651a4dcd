"""jaxguide.data: sample data from keys, with shapes, determinism and errors."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaxguide import linear_samples, toy_regression, toy_target

seeds = st.integers(min_value=0, max_value=2**31 - 1)
# A few sizes, each compiled once; seeds vary freely (no new compilation).
sizes = st.sampled_from([1, 2, 7, 40])


@settings(max_examples=10)  # a few eager JAX calls each: keep this quick
@given(seed=seeds, n=sizes)
def test_linear_samples_shapes_range_and_determinism(seed: int, n: int) -> None:
    key = jax.random.key(seed)
    x, y = linear_samples(key, 4.5, 1.3, 0.02, n, x_range=(0.0, 2.0))
    assert x.shape == y.shape == (n,)
    assert x.dtype == y.dtype == jnp.float32
    assert bool(jnp.all((x >= 0.0) & (x < 2.0)))
    again = linear_samples(key, 4.5, 1.3, 0.02, n, x_range=(0.0, 2.0))
    np.testing.assert_array_equal(x, again[0])
    np.testing.assert_array_equal(y, again[1])


@settings(max_examples=10)
@given(seed=seeds, n=sizes)
def test_toy_regression_shapes_sorted_and_deterministic(seed: int, n: int) -> None:
    key = jax.random.key(seed)
    x, y = toy_regression(key, n)
    assert x.shape == y.shape == (n,)
    assert bool(jnp.all(jnp.diff(x) >= 0))
    np.testing.assert_array_equal(y, toy_regression(key, n)[1])


def test_different_keys_give_different_data() -> None:
    a = linear_samples(jax.random.key(0), 0.0, 1.0, 0.1, 20)
    b = linear_samples(jax.random.key(1), 0.0, 1.0, 0.1, 20)
    assert not bool(jnp.allclose(a[0], b[0]))


def test_noise_scale_sets_the_spread_around_the_line() -> None:
    x, y = linear_samples(jax.random.key(3), 4.5, 1.3, 0.0, 50)
    np.testing.assert_allclose(y, 4.5 + 1.3 * x, rtol=1e-6)
    x, y = linear_samples(jax.random.key(3), 4.5, 1.3, 0.5, 4000)
    assert float(jnp.std(y - (4.5 + 1.3 * x))) == pytest.approx(0.5, rel=0.05)
    x, y = toy_regression(jax.random.key(3), 4000, noise_scale=0.2)
    assert float(jnp.std(y - toy_target(x))) == pytest.approx(0.2, rel=0.05)


def test_legacy_uint32_keys_are_accepted() -> None:
    x, _ = linear_samples(jax.random.PRNGKey(0), 0.0, 1.0, 0.1, 5)
    assert x.shape == (5,)


@pytest.mark.parametrize(
    ("n_samples", "error", "message"),
    [
        (0, ValueError, "n_samples must be >= 1, got 0"),
        (-3, ValueError, "n_samples must be >= 1, got -3"),
        (2.5, TypeError, "n_samples must be an int >= 1, got float 2.5"),
        (True, TypeError, "n_samples must be an int >= 1, got bool"),
    ],
)
def test_bad_sample_counts_are_named(
    n_samples: object, error: type[Exception], message: str
) -> None:
    key = jax.random.key(0)
    with pytest.raises(error, match=message):
        linear_samples(key, 0.0, 1.0, 0.1, n_samples)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        toy_regression(key, n_samples)  # type: ignore[arg-type]


@given(noise=st.floats(max_value=-1e-12, allow_infinity=False, allow_nan=False))
def test_negative_noise_is_refused(noise: float) -> None:
    with pytest.raises(ValueError, match=r"noise_scale must be >= 0.0"):
        linear_samples(jax.random.key(0), 0.0, 1.0, noise, 5)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"intercept": math.nan}, ValueError, "intercept must be finite, got nan"),
        ({"slope": math.inf}, ValueError, "slope must be finite, got inf"),
        ({"slope": "1.3"}, TypeError, "slope must be a real number, got str"),
        ({"x_range": (1.0, 1.0)}, ValueError, r"x_range must have low < high"),
        ({"x_range": (0.0,)}, TypeError, r"x_range must be a pair \(low, high\)"),
    ],
)
def test_bad_line_arguments_are_named(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {
        "intercept": 4.5,
        "slope": 1.3,
        "noise_scale": 0.1,
        "n_samples": 5,
    }
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        linear_samples(jax.random.key(0), **arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "error", "message"),
    [
        (0, TypeError, r"key must be a JAX PRNG key \(make one with jax.random.key"),
        (jnp.zeros(2), TypeError, r"got an array float32\[2\]"),
        (jax.random.split(jax.random.key(0), 3), ValueError, r"shape \(3,\); pass one"),
    ],
)
def test_bad_keys_are_explained(
    key: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        toy_regression(key, 5)  # type: ignore[arg-type]
