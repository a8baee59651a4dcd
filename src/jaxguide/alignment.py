"""NumPy arrays whose memory starts where a page needs it to.

On the CPU, JAX may use a NumPy array's memory in place instead of copying
it, depending on where that memory starts (a 64-byte boundary, in the JAX
the guide runs). Where an array starts is up to NumPy's allocator, so the
pages that show the difference make their arrays with
:func:`numpy_at_offset`, which decides it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from jax.typing import ArrayLike

__all__ = ["BOUNDARY", "numpy_at_offset"]

#: The alignment, in bytes, at which JAX on the CPU may use a NumPy array's
#: memory in place (the pages show it; JAX does not document it).
BOUNDARY = 64


def numpy_at_offset(a: ArrayLike, offset: int) -> np.ndarray[Any, Any]:
    """A copy of ``a`` whose data starts ``offset`` bytes past a
    :data:`BOUNDARY`-byte boundary: ``0`` for an aligned array.

    Args:
        a: The values (any array-like; NumPy decides the dtype).
        offset: Bytes past the boundary, from 0 to 63, a multiple of the
            dtype's item size.

    Returns:
        A new, writable NumPy array with ``a``'s values, shape and dtype.

    Raises:
        ValueError: If ``offset`` is out of range or splits an element.

    Examples:
        >>> x = numpy_at_offset(np.arange(4, dtype=np.float32), 4)
        >>> x.ctypes.data % BOUNDARY, x.tolist()
        (4, [0.0, 1.0, 2.0, 3.0])
        >>> numpy_at_offset(np.ones(3, dtype=np.float32), 2)
        Traceback (most recent call last):
        ...
        ValueError: offset=2 splits a float32 element (4 bytes): pick a multiple of 4 from 0 to 60
    """
    values = np.asarray(a)
    size = values.itemsize
    problem = ""
    if not 0 <= offset < BOUNDARY:
        problem = f"is not within one {BOUNDARY}-byte block"
    elif offset % size:
        problem = f"splits a {values.dtype} element ({size} bytes)"
    if problem:
        msg = f"offset={offset} {problem}: pick a multiple of {size} from 0 to {BOUNDARY - size}"
        raise ValueError(msg)
    raw = np.empty(values.nbytes + 2 * BOUNDARY, dtype=np.uint8)
    start = -raw.ctypes.data % BOUNDARY + offset
    placed = raw[start : start + values.nbytes].view(values.dtype).reshape(values.shape)
    placed[...] = values
    return placed
