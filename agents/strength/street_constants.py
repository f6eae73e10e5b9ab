"""The constant arrays the street kernels read (``agents.strength.street``): the
evaluator's tables and the holdings' orders, loaded once."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.holdings import HOLDINGS, PAIR_INDEX
from agents.strength.ppotc import FLOP_WEIGHTS, TURN_WEIGHTS
from agents.strength.ppotc_kernels import CATEGORY_BY_RANK, NEXT_FLOOR
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, lookup_tables

__all__ = ["KernelConstants", "kernel_constants"]


class KernelConstants(NamedTuple):
    """The read-only arrays the kernels read (one compiled signature, whatever the caller)."""

    card_keys: npt.NDArray[np.int64]
    flush_keys: npt.NDArray[np.int64]
    rank_keys: npt.NDArray[np.int64]
    pair_index: npt.NDArray[np.int64]
    colex: npt.NDArray[np.int64]
    offs: npt.NDArray[np.uint32]
    look: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]
    categories: npt.NDArray[np.int8]
    next_floor: npt.NDArray[np.int16]
    flop_weights: npt.NDArray[np.float64]
    turn_weights: npt.NDArray[np.float64]


@cache
def kernel_constants() -> KernelConstants:
    """The kernels' constant inputs, the evaluator's tables loaded on the first call."""
    evaluator = lookup_tables()
    return KernelConstants(
        card_keys=readonly(CARD_KEYS.view(np.int64), np.int64),
        flush_keys=readonly(FLUSH_KEYS.view(np.int64), np.int64),
        rank_keys=readonly(CARD_KEYS.view(np.int64)[::4], np.int64),  # one card of each rank
        pair_index=readonly(PAIR_INDEX, np.int64),
        # Holdings by high card, then low: the order of potential_counts' opponent pairs.
        colex=readonly(np.lexsort((HOLDINGS[:, 0], HOLDINGS[:, 1])), np.int64),
        offs=readonly(evaluator.offs, np.uint32),
        look=readonly(evaluator.look, np.uint16),
        flush=readonly(evaluator.flush, np.uint16),
        categories=readonly(CATEGORY_BY_RANK, np.int8),
        next_floor=readonly(NEXT_FLOOR, np.int16),
        flop_weights=readonly(FLOP_WEIGHTS.vector(), np.float64),
        turn_weights=readonly(TURN_WEIGHTS.vector(), np.float64),
    )
