"""op_sources ties a compiled program's operations to the code (src/jaxguide/profiles.py)."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import pytest

from jaxguide.profiles import op_sources


def layer(x: jax.Array, w: jax.Array) -> jax.Array:
    with jax.named_scope("hidden"):
        return jnp.tanh(x @ w).sum()


def compiled_gradient() -> str:
    x, w = jnp.ones((8, 4)), jnp.ones((4, 4))
    return jax.jit(jax.grad(layer, argnums=1)).lower(x, w).compile().as_text()


def test_every_operation_of_the_entry_is_named_with_its_sources() -> None:
    hlo = compiled_gradient()
    sources = op_sources(hlo)
    entry = hlo[hlo.index("\nENTRY ") :].split("\n}")[0]
    assert set(sources) == set(
        re.findall(r"^\s+(?:ROOT )?%(\S+) = ", entry, re.MULTILINE)
    )
    names = {name for found in sources.values() for name in found}
    assert any(name.startswith("jvp(hidden)/") for name in names), names
    assert any(name.startswith("transpose(jvp(hidden))/") for name in names), names
    assert not any(name.startswith("jit(") for name in names), names


def test_a_fusion_carries_the_names_of_the_instructions_fused_into_it() -> None:
    hlo = jax.jit(lambda x: jnp.sin(x) * 2).lower(1.0).compile().as_text()
    sources = op_sources(hlo)
    (fusion,) = (op for op in sources if "fusion" in op)
    assert sources[fusion] == ["mul", "sin"]  # the fusion itself is named mul only


def test_the_lowered_text_is_refused_with_what_to_pass() -> None:
    stablehlo = jax.jit(jnp.sin).lower(1.0).as_text()
    with pytest.raises(ValueError, match=r"compile\(\)\.as_text\(\)"):
        op_sources(stablehlo)
