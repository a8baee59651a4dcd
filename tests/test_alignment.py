"""numpy_at_offset places a copy where the pages need it (src/jaxguide/alignment.py)."""

from __future__ import annotations

import numpy as np
import pytest

from jaxguide.alignment import BOUNDARY, numpy_at_offset


@pytest.mark.parametrize("offset", [0, 4, 16, 60])
@pytest.mark.parametrize("shape", [(7,), (3, 5)])
def test_the_copy_starts_where_asked_and_holds_the_values(
    offset: int, shape: tuple[int, ...]
) -> None:
    values = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    placed = numpy_at_offset(values, offset)
    assert placed.ctypes.data % BOUNDARY == offset
    assert placed.dtype == values.dtype
    np.testing.assert_array_equal(placed, values)
    assert not np.shares_memory(placed, values)
    placed[...] = -1  # writable, and the source is untouched
    assert (values >= 0).all()


@pytest.mark.parametrize(
    ("offset", "problem"),
    [
        (-4, "offset=-4 is not within one 64-byte block"),
        (64, "offset=64 is not within one 64-byte block"),
        (6, "offset=6 splits a float64 element (8 bytes)"),
    ],
)
def test_an_offset_it_cannot_place_is_named_with_what_would_do(
    offset: int, problem: str
) -> None:
    with pytest.raises(ValueError, match="pick a multiple of 8 from 0 to 56") as error:
        numpy_at_offset(np.ones(3), offset)
    assert str(error.value).startswith(problem)
