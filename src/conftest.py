"""Names every doctest in src/jaxguide can use without importing them."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace.update(jax=jax, jnp=jnp, np=np)
