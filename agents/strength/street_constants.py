"""The constant arrays the strength kernels read (``agents.strength.street``,
``agents.strength.batched``, ``agents.strength.ranged``): the evaluator's tables and the
holdings' orders and keys, loaded once per process.

The street kernels read the evaluator's tables in their own dtypes; the kernels of
``batched`` and ``ranged`` were compiled for them widened to int64 and int32. Widening copies
about a megabyte, which at every call cost more than those kernels take for one row (about
0.1 ms per call on the learners' single-decision path), so the widened copies are made here
once too."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.holdings import HOLDING_FLUSH, HOLDING_KEYS, HOLDINGS, PAIR_INDEX
from agents.strength.ppotc import FLOP_WEIGHTS, TURN_WEIGHTS
from agents.strength.ppotc_kernels import CATEGORY_BY_RANK, NEXT_FLOOR
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, lookup_tables

__all__ = ["HoldingRanking", "KernelConstants", "kernel_constants"]

_Table = npt.NDArray[Any]
HoldingRanking = tuple[_Table, _Table, _Table, _Table, _Table, _Table, _Table, _Table]
"""``KernelConstants.holding_ranking``: eight arrays, in the kernels' order."""


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
    holdings: npt.NDArray[np.int64]
    holding_keys: npt.NDArray[np.int64]
    holding_flush: npt.NDArray[np.int64]
    wide_offs: npt.NDArray[np.int64]
    wide_look: npt.NDArray[np.int32]
    wide_flush: npt.NDArray[np.int32]

    def holding_ranking(self) -> HoldingRanking:
        """What a kernel needs to rank every holding with given cards, in the order the
        kernels take it: card keys, flush keys, holdings, their keys and flush keys, and the
        evaluator's widened tables (offsets, look-up, flushes)."""
        return (
            self.card_keys,
            self.flush_keys,
            self.holdings,
            self.holding_keys,
            self.holding_flush,
            self.wide_offs,
            self.wide_look,
            self.wide_flush,
        )


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
        holdings=readonly(HOLDINGS, np.int64),
        holding_keys=readonly(HOLDING_KEYS, np.int64),
        holding_flush=readonly(HOLDING_FLUSH, np.int64),
        wide_offs=readonly(evaluator.offs, np.int64),
        wide_look=readonly(evaluator.look, np.int32),
        wide_flush=readonly(evaluator.flush, np.int32),
    )
