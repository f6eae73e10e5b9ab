"""numba's ``njit`` for compiled loops, typed for mypy and cached on disk.

The batched engine's betting step (``envs.batched.betting``) and the agents' kernels
(``agents.jit``) use it. A kernel compiles on its first call, not at import, and ``cache=True``
keeps the machine code beside its module (``__pycache__``), so a later process only loads it.
numba checks a cached kernel against its own module's source only, so a kernel calls only
kernels of its own module. ``error_model="numpy"`` drops Python's zero-division checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["kernel"]

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """``function`` compiled by ``numba.njit`` (lazily, cached on disk), same signature."""
    return cast(F, numba.njit(cache=True, error_model="numpy")(function))
