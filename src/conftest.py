"""Names every doctest in src/jaxguide can use without importing them."""

import jax
import jax.numpy as jnp
import matplotlib as mpl
import numpy as np
import pytest

import jaxguide

mpl.use("Agg")  # doctests draw figures; never open a window


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace.update(jax=jax, jnp=jnp, np=np, jaxguide=jaxguide)
