"""Sample data for the worked examples, generated from PRNG keys.

Every function takes a key and nothing random happens outside it: the same key
gives the same data in either language's build and on every run. The values
belong to the JAX version and configuration (``jax_enable_x64`` changes them),
which every page states.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from ._checks import check_key, count, finite_number, interval

__all__ = ["linear_samples", "toy_regression", "toy_target"]


def linear_samples(
    key: jax.Array,
    intercept: float,
    slope: float,
    noise_scale: float,
    n_samples: int,
    *,
    x_range: tuple[float, float] = (-1.0, 1.0),
) -> tuple[jax.Array, jax.Array]:
    r"""Noisy samples of the line :math:`y = b + w x`.

    ``x`` is uniform on ``x_range`` and the noise is Gaussian; the key is split
    once, one half for ``x`` and one for the noise.

    Args:
        key: A PRNG key, e.g. ``jax.random.key(0)``.
        intercept: :math:`b`, the value at ``x = 0``.
        slope: :math:`w`.
        noise_scale: Standard deviation of the noise; ``0`` for none.
        n_samples: How many ``(x, y)`` pairs.
        x_range: ``(low, high)`` for ``x``.

    Returns:
        ``(x, y)``, two float arrays of shape ``(n_samples,)``.

    Raises:
        TypeError: If ``key`` is not a PRNG key or a number is not a number.
        ValueError: If ``n_samples < 1``, ``noise_scale < 0``, a value is not
            finite, or ``x_range`` is empty.

    Examples:
        >>> x, y = linear_samples(jax.random.key(0), 4.5, 1.3, 0.0, n_samples=3)
        >>> x.shape, y.shape
        ((3,), (3,))
        >>> bool(jnp.allclose(y, 4.5 + 1.3 * x))
        True
    """
    check_key(key)
    intercept = finite_number("intercept", intercept)
    slope = finite_number("slope", slope)
    noise_scale = finite_number("noise_scale", noise_scale, minimum=0.0)
    n_samples = count("n_samples", n_samples)
    low, high = interval("x_range", x_range)

    x_key, noise_key = jax.random.split(key)
    x = jax.random.uniform(x_key, (n_samples,), minval=low, maxval=high)
    noise = noise_scale * jax.random.normal(noise_key, (n_samples,))
    return x, intercept + slope * x + noise


def toy_target(x: ArrayLike) -> jax.Array:
    r"""The noise-free curve behind :func:`toy_regression`.

    .. math:: f(x) = \sin(2x) + x / 2

    Examples:
        >>> toy_target(jnp.array([0.0, 1.0]))
        Array([0.       , 1.4092975], dtype=float32)
    """
    x = jnp.asarray(x)
    return jnp.sin(2.0 * x) + 0.5 * x


def toy_regression(
    key: jax.Array,
    n_samples: int,
    noise_scale: float = 0.1,
    *,
    x_range: tuple[float, float] = (-3.0, 3.0),
) -> tuple[jax.Array, jax.Array]:
    """A toy 1-D nonlinear regression set: :func:`toy_target` plus noise.

    Args:
        key: A PRNG key, e.g. ``jax.random.key(0)``.
        n_samples: How many ``(x, y)`` pairs.
        noise_scale: Standard deviation of the Gaussian noise on ``y``.
        x_range: ``(low, high)`` for ``x``, drawn uniformly.

    Returns:
        ``(x, y)``, two float arrays of shape ``(n_samples,)``, ``x`` sorted
        so that the samples can be drawn as a line.

    Raises:
        TypeError: If ``key`` is not a PRNG key.
        ValueError: If ``n_samples < 1``, ``noise_scale < 0`` or
            ``x_range`` is empty.

    Examples:
        >>> x, y = toy_regression(jax.random.key(0), n_samples=100)
        >>> x.shape, y.shape
        ((100,), (100,))
        >>> bool(jnp.all(jnp.diff(x) >= 0))
        True
    """
    check_key(key)
    n_samples = count("n_samples", n_samples)
    noise_scale = finite_number("noise_scale", noise_scale, minimum=0.0)
    low, high = interval("x_range", x_range)

    x_key, noise_key = jax.random.split(key)
    x = jnp.sort(jax.random.uniform(x_key, (n_samples,), minval=low, maxval=high))
    noise = noise_scale * jax.random.normal(noise_key, (n_samples,))
    return x, toy_target(x) + noise
