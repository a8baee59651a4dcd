"""Tie the operations of a profile back to the code that made them.

A trace names XLA's operations (``fusion.3``, ``dot``), not your functions.
The compiled program's text says where each instruction came from: its
``op_name`` holds the primitive, prefixed by the jitted functions,
transformations and named scopes it ran in. :func:`op_sources` collects
those names for every operation, including the instructions fused into it.
"""

from __future__ import annotations

import re

__all__ = ["op_sources"]

_COMPUTATION = re.compile(
    r"^(?:ENTRY )?%(\S+) \(.*?\{\n(.*?)^\}", re.MULTILINE | re.DOTALL
)
_ENTRY = re.compile(r"^ENTRY %(\S+)", re.MULTILINE)
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(\S+) = (.*)$", re.MULTILINE)
_CALLED = re.compile(r"(?:calls|to_apply)=%([\w.\-]+)")
_OP_NAME = re.compile(r'op_name="jit\([^)]*\)/([^"]+)"')


def op_sources(hlo: str) -> dict[str, list[str]]:
    """For each operation of a compiled program, where in the code it came from.

    Args:
        hlo: The compiled program's text: ``jitted.lower(*args).compile().as_text()``.

    Returns:
        For each instruction of the program's entry computation (the
        operations a trace names), the sorted ``op_name``\\ s of it and of
        the computations it calls (the instructions fused into it), without
        the leading ``jit(...)/``. An instruction with no ``op_name`` (a
        parameter, a copy XLA added) has an empty list.

    Raises:
        ValueError: If ``hlo`` has no entry computation, as when it is the
            lowered program's text (``lower(...).as_text()``, StableHLO)
            rather than the compiled one's.

    Examples:
        >>> import jax, jax.numpy as jnp
        >>> f = jax.jit(lambda x: jnp.sin(x) * 2)
        >>> op_sources(f.lower(1.0).compile().as_text())
        {'x.1': [], 'sine_multiply_fusion': ['mul', 'sin']}
        >>> op_sources(f.lower(1.0).as_text())
        Traceback (most recent call last):
        ...
        ValueError: no ENTRY computation in the text: pass the compiled program's HLO, jitted.lower(*args).compile().as_text()
    """
    entry_name = _ENTRY.search(hlo)
    if entry_name is None:
        msg = (
            "no ENTRY computation in the text: pass the compiled program's "
            "HLO, jitted.lower(*args).compile().as_text()"
        )
        raise ValueError(msg)
    computations = dict(_COMPUTATION.findall(hlo))
    sources = {}
    for op, instruction in _INSTRUCTION.findall(computations[entry_name.group(1)]):
        texts = [instruction]
        called = _CALLED.findall(instruction)
        while called:
            texts.append(computations[called.pop()])
            called += _CALLED.findall(texts[-1])
        sources[op] = sorted(
            {name for text in texts for name in _OP_NAME.findall(text)}
        )
    return sources
