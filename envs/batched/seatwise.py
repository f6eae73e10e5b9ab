"""Small array operations the engine repeats on every step, in their fastest NumPy form.

Measured on 16,384 tables: a masked choice written as arithmetic (``old + mask * (new - old)``)
costs a few microseconds where ``np.where`` or ``np.copyto(where=...)`` with an unpredictable
mask costs 60-75; a fancy-index assignment costs a third of ``np.put``; summing a boolean array
viewed as ``uint8`` costs a tenth of summing it as booleans.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from envs.batched.state import Bools, Index

__all__ = ["count_seats", "scatter"]


def scatter(array: npt.NDArray[np.generic], flat: Index, values: npt.ArrayLike) -> None:
    """``array.flat[flat] = values`` for a C-contiguous ``array``."""
    array.reshape(-1)[flat] = values


def count_seats(mask: Bools) -> npt.NDArray[np.uint8]:
    """How many seats of each table are set in a ``(seats, tables)`` mask."""
    counts: npt.NDArray[np.uint8] = mask.view(np.uint8).sum(axis=0, dtype=np.uint8)
    return counts
