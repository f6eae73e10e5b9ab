"""Equity against one random holding, estimated by Monte Carlo for many observations at once.

``EquityEstimator``: the probability of winning at showdown (ties count half) against one
uniformly random holding, with the board completed at random: the number a best response
against card-independent bots bets on (against a bot that always calls, every bet is a side
wager won with this probability, so it bets when the equity exceeds one half). Hand strength
(HS1, ``agents.strength.batched.hand_strengths``) ignores the cards to come, so on the flop and
turn it misjudges draws; equity does not. It is estimated by Monte Carlo over a fixed set of
deck permutations drawn once from the estimator's seed, so it is a deterministic function of
the cards (the same in training and evaluation) with a standard error of at most
``0.5 / sqrt(samples)``; on the river it is HS1 exactly. Pre-flop values are kept per holding
(the same samples, computed once for all 1,326 holdings on first use). The samples are played
by one compiled loop over the rows (``agents.strength.batched.sampled_equities``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from agents.strength.batched import hand_strengths, sampled_equities
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS, PAIR_INDEX
from envs.cards import DECK_SIZE
from envs.validation import whole_number

__all__ = ["EquityEstimator"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

_BOARD = 5
_DRAWN = 2 + _BOARD
"""Cards a sample may need: the opponent's two and a whole board."""
_CANDIDATES = 2 * _DRAWN
"""Leading cards of each permutation kept: at most 7 are known, so 7 unknown ones remain."""


class EquityEstimator:
    """Equity of hole cards against one random holding (see the module docstring).

    Args:
        samples: Monte Carlo samples per row (opponent holding and board completion each).
        seed: Seed of the fixed deck permutations.
    """

    def __init__(self, samples: int = 256, seed: int = 0) -> None:
        self.samples = whole_number("samples", samples, minimum=1)
        self.seed = whole_number("seed", seed, minimum=0)
        rng = np.random.default_rng(self.seed)
        order = np.argsort(rng.random((self.samples, DECK_SIZE)), axis=1)
        self._candidates = order[:, :_CANDIDATES].astype(np.intp)
        self._preflop_table: Floats | None = None

    def equity(self, hole: Ints, board: Ints, board_len: Ints) -> Floats:
        """Equity of each row: ``hole`` (n, 2), ``board`` (n, 5) of which the first
        ``board_len`` cards are dealt (0, 3, 4 or 5; the rest are ignored)."""
        n = len(hole)
        result = np.zeros(n)
        if n == 0:
            return result
        dealt = np.arange(_BOARD) < board_len[:, np.newaxis]
        padded = np.where(dealt, board, DECK_SIZE).astype(np.intp)
        hole = hole.astype(np.intp)
        river = np.flatnonzero(board_len == _BOARD)
        if river.size:
            result[river] = hand_strengths(
                hole[river].astype(np.uint8), padded[river].astype(np.uint8)
            )
        preflop = np.flatnonzero(board_len == 0)
        if preflop.size:
            result[preflop] = self.preflop_equity(hole[preflop])
        rows = np.flatnonzero((board_len > 0) & (board_len < _BOARD))
        if rows.size:
            result[rows] = sampled_equities(hole[rows], padded[rows], self._candidates)
        return result

    def preflop_equity(self, hole: Ints) -> Floats:
        """``equity`` before the flop (``hole`` (n, 2)): a lookup in the holdings' table."""
        table: Floats = self._preflop()[PAIR_INDEX[hole[:, 0], hole[:, 1]]]
        return table

    def preflop_table(self) -> Floats:
        """The pre-flop equity of every holding, in ``HOLDINGS`` order (read-only)."""
        return self._preflop()

    def _preflop(self) -> Floats:
        """The pre-flop equity of every holding (the same samples), computed on first use."""
        if self._preflop_table is None:
            self._preflop_table = _preflop_table(self.samples, self.seed)
        return self._preflop_table


@lru_cache(maxsize=4)
def _preflop_table(samples: int, seed: int) -> Floats:
    """Pre-flop equities of all 1,326 holdings with the estimator of ``(samples, seed)``:
    shared by every encoder (evaluations build new ones at each checkpoint)."""
    estimator = EquityEstimator(samples, seed)
    empty = np.full((NUM_HOLDINGS, _BOARD), DECK_SIZE, dtype=np.intp)
    table = sampled_equities(HOLDINGS, empty, estimator._candidates)
    table.flags.writeable = False
    return table
