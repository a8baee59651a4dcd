"""Argument checks that fail early with a message naming the argument."""

from __future__ import annotations

import math
import operator

import jax
import jax.numpy as jnp

__all__ = ["check_callable", "check_key", "count", "finite_number", "interval"]


def count(name: str, value: object, minimum: int = 1) -> int:
    """``value`` as an int ``>= minimum``; NumPy integers are accepted."""
    if isinstance(value, bool):
        msg = f"{name} must be an int >= {minimum}, got bool {value!r}"
        raise TypeError(msg)
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        msg = (
            f"{name} must be an int >= {minimum}, got {type(value).__name__} {value!r}"
        )
        raise TypeError(msg) from None
    if number < minimum:
        msg = f"{name} must be >= {minimum}, got {number}"
        raise ValueError(msg)
    return number


def finite_number(
    name: str, value: object, *, minimum: float | None = None, positive: bool = False
) -> float:
    """``value`` as a finite float, optionally ``>= minimum`` or ``> 0``."""
    if isinstance(value, bool | str | bytes):
        msg = f"{name} must be a real number, got {type(value).__name__} {value!r}"
        raise TypeError(msg)
    try:
        number = float(value)  # type: ignore[arg-type]
    except TypeError:
        msg = (
            f"{name} must be a concrete real number (not a traced value), "
            f"got {type(value).__name__} {value!r}"
        )
        raise TypeError(msg) from None
    if not math.isfinite(number):
        msg = f"{name} must be finite, got {number}"
        raise ValueError(msg)
    if positive and number <= 0:
        msg = f"{name} must be > 0, got {number}"
        raise ValueError(msg)
    if minimum is not None and number < minimum:
        msg = f"{name} must be >= {minimum}, got {number}"
        raise ValueError(msg)
    return number


def interval(name: str, value: object) -> tuple[float, float]:
    """``value`` as a ``(low, high)`` pair of finite floats with ``low < high``."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        msg = f"{name} must be a pair (low, high), got {value!r}"
        raise TypeError(msg)
    low = finite_number(f"{name}[0]", value[0])
    high = finite_number(f"{name}[1]", value[1])
    if not low < high:
        msg = f"{name} must have low < high, got ({low}, {high})"
        raise ValueError(msg)
    return low, high


def check_callable(name: str, value: object) -> None:
    """Raise unless ``value`` can be called."""
    if not callable(value):
        msg = f"{name} must be callable, got {type(value).__name__} {value!r}"
        raise TypeError(msg)


def check_key(key: object, name: str = "key") -> None:
    """Raise unless ``key`` is one PRNG key (typed, or a legacy ``uint32[2]``)."""
    hint = "make one with jax.random.key(seed)"
    if not isinstance(key, jax.Array):
        msg = f"{name} must be a JAX PRNG key ({hint}), got {type(key).__name__}"
        raise TypeError(msg)
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        if key.shape == ():
            return
        msg = (
            f"{name} must be a single key, got an array of keys with shape "
            f"{key.shape}; pass one of them, e.g. {name}[0]"
        )
        raise ValueError(msg)
    if key.dtype == jnp.uint32 and key.shape == (2,):  # jax.random.PRNGKey(seed)
        return
    msg = f"{name} must be a JAX PRNG key ({hint}), got an array {key.dtype}{list(key.shape)}"
    raise TypeError(msg)
