"""numba's ``njit`` for the batched BPPs' kernels, typed for mypy and cached on disk.

The kernels are loops over the rows of a batch (``agents.bpp.batched_kernels``,
``batched_types``, ``batched_decision``, ``batched_agent``). They compile on their first call,
not at import, and ``cache=True`` keeps the machine code beside the module (``__pycache__``),
so that a later process only loads it (a few seconds of compiling once, a few tenths of a
second of loading after). numba checks a cached kernel against its own module's source only,
so a kernel calls only kernels of its own module (the tests check it): one calling another
module's kernel would keep running that kernel's old code after an edit.

No ``fastmath`` by default: the kernels add and multiply in the order the scalar BPP does, to
the last bit where the tests ask for it. ``error_model="numpy"`` drops Python's zero-division
checks (every divisor is positive).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

__all__ = ["fast_kernel", "kernel", "readonly"]

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """``function`` compiled by ``numba.njit`` (lazily, cached on disk), same signature."""
    return cast(F, numba.njit(cache=True, error_model="numpy")(function))


def fast_kernel(function: F) -> F:
    """``kernel``, allowed to reassociate sums and fuse multiply-adds (``fastmath`` flags
    ``reassoc`` and ``contract`` only: no assumptions about NaN, infinities or signed zeros),
    so that short sums of products run in SIMD lanes; for sums of non-negative terms, whose
    rounding does not depend on the order beyond a few units in the last place."""
    flags = {"reassoc", "contract"}
    return cast(F, numba.njit(cache=True, error_model="numpy", fastmath=flags)(function))


def readonly(array: npt.ArrayLike, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """``array`` as a C-contiguous, read-only array of ``dtype`` (a view when it already is
    one), so that a kernel compiles once whether its caller's arrays are writeable or not."""
    result: npt.NDArray[Any] = np.ascontiguousarray(array, dtype=dtype)
    if result.flags.writeable:
        result = result.view()
        result.flags.writeable = False
    return result
