"""The evaluator's tables and the holdings' keys as the strength kernels read them, made once.

The compiled loops of ``agents.strength.batched`` and ``agents.strength.ranged`` take the
evaluator's tables (``envs.evaluator.lookup_tables``) widened to int64 and int32. Widening
them copies about a megabyte, which at every call cost more than the kernel itself does for
one row (about 0.1 ms per call, measured on the learners' single-decision path), so the
widened, read-only copies are made once per process here and shared.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.holdings import HOLDING_FLUSH, HOLDING_KEYS, HOLDINGS, PAIR_INDEX
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, lookup_tables

__all__ = ["EvaluatorArrays", "evaluator_arrays"]

Int64s = npt.NDArray[np.int64]
Int32s = npt.NDArray[np.int32]


class EvaluatorArrays(NamedTuple):
    """Read-only, C-contiguous arrays in the dtypes the strength kernels were compiled for."""

    card_keys: Int64s
    flush_keys: Int64s
    holdings: Int64s
    pair_index: Int64s
    holding_keys: Int64s
    holding_flush: Int64s
    offs: Int64s
    look: Int32s
    flush: Int32s


@cache
def evaluator_arrays() -> EvaluatorArrays:
    """The arrays, the evaluator's tables loaded on the first call."""
    tables = lookup_tables()
    return EvaluatorArrays(
        card_keys=readonly(CARD_KEYS.view(np.int64), np.int64),
        flush_keys=readonly(FLUSH_KEYS.view(np.int64), np.int64),
        holdings=readonly(HOLDINGS, np.int64),
        pair_index=readonly(PAIR_INDEX, np.int64),
        holding_keys=readonly(HOLDING_KEYS, np.int64),
        holding_flush=readonly(HOLDING_FLUSH, np.int64),
        offs=readonly(tables.offs, np.int64),
        look=readonly(tables.look, np.int32),
        flush=readonly(tables.flush, np.int32),
    )
