"""numba's ``njit`` for the agents' compiled loops, typed for mypy and cached on disk
(``kernel`` is ``envs.compiled``'s, which the batched engine's betting step uses too).

The kernels are loops over the rows of a batch: the batched BPPs' (``agents.bpp.batched_*``)
and the hand strengths of many rows at once (``agents.strength.batched``, which the batched
``rule`` bot and the learners' features use). They compile on their first call, not at import,
and ``cache=True`` keeps the machine code beside the module (``__pycache__``), so that a later
process only loads it (a few seconds of compiling once, a few tenths of a second of loading
after). numba checks a cached kernel against its own module's source only, so a kernel calls
only kernels of its own module (the tests check it): one calling another module's kernel would
keep running that kernel's old code after an edit.

No ``fastmath`` by default: the kernels add and multiply in the order the scalar agents do, to
the last bit where the tests ask for it. ``error_model="numpy"`` drops Python's zero-division
checks (every divisor is positive). ``prefetch`` asks for a cache line from inside a kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from envs.compiled import kernel

__all__ = ["fast_kernel", "kernel", "prefetch", "readonly", "uncached_kernel"]

F = TypeVar("F", bound=Callable[..., Any])


def uncached_kernel(function: F) -> F:
    """``kernel`` without the disk cache, for a kernel that calls another module's kernels
    (compiled in each process that calls it, so never stale)."""
    return cast(F, numba.njit(cache=False, error_model="numpy")(function))


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


def _prefetch_hint(typingctx: Any, array: Any, index: Any) -> Any:
    """A hint (LLVM's ``llvm.prefetch``: read, keep in all cache levels) to bring the cache
    line of ``array[index]`` (a 1-d array) into the cache, so that fetching the memory of a
    row a few steps ahead overlaps the work on the current one; it changes no result."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        prefetch = builder.module.declare_intrinsic("llvm.prefetch", [byte], hint)
        address = builder.bitcast(builder.gep(data, [args[1]]), byte)
        builder.call(prefetch, [address, word(0), word(3), word(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch = cast(Callable[[npt.NDArray[Any], int], None], intrinsic(_prefetch_hint))
"""``prefetch(array, index)`` inside a kernel (``_prefetch_hint``). It is compiled into its
callers, whose disk caches do not see an edit of it: clear them (``__pycache__``) after one."""
