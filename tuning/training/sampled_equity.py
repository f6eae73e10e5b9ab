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
(the same samples, computed once for all 1,326 holdings on first use).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from agents.strength.batched import hand_strengths
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS, PAIR_INDEX
from envs.cards import DECK_SIZE
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys
from envs.validation import whole_number

__all__ = ["EquityEstimator"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

_BOARD = 5
_DRAWN = 2 + _BOARD
"""Cards a sample may need: the opponent's two and a whole board."""
_CANDIDATES = 2 * _DRAWN
"""Leading cards of each permutation kept: at most 7 are known, so 7 unknown ones remain."""
_CHUNK_ROWS = 64
"""Rows sampled together: their temporaries (rows x samples x 14) stay in cache."""
# Key 0 for the "no card" id 52, so padded boards sum without masking.
_KEYS = np.append(CARD_KEYS.view(np.int64), 0)
_FLUSH = np.append(FLUSH_KEYS.view(np.int64), 0)


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
            result[preflop] = self._preflop()[PAIR_INDEX[hole[preflop, 0], hole[preflop, 1]]]
        rows = np.flatnonzero((board_len > 0) & (board_len < _BOARD))
        for start in range(0, rows.size, _CHUNK_ROWS):
            chunk = rows[start : start + _CHUNK_ROWS]
            result[chunk] = self._sampled(hole[chunk], padded[chunk], board_len[chunk])
        return result

    def _preflop(self) -> Floats:
        """The pre-flop equity of every holding (the same samples), computed on first use."""
        if self._preflop_table is None:
            self._preflop_table = _preflop_table(self.samples, self.seed)
        return self._preflop_table

    def _sampled(
        self, hole: npt.NDArray[np.intp], board: npt.NDArray[np.intp], size: Ints
    ) -> Floats:
        n = len(hole)
        known = np.zeros((n, DECK_SIZE + 1), dtype=bool)
        rows = np.arange(n)[:, np.newaxis]
        known[rows, hole] = True
        known[rows, board] = True
        candidates = self._candidates[np.newaxis]  # (1, K, 14)
        unknown = ~known[rows[:, :, np.newaxis], candidates]  # (n, K, 14)
        # The first 7 unknown cards of each permutation, in order: a boolean selection keeps
        # C order, and it picks exactly 7 per (row, sample).
        first = unknown & (np.cumsum(unknown, axis=2, dtype=np.int8) <= _DRAWN)
        drawn = np.broadcast_to(candidates, unknown.shape)[first].reshape(n, -1, _DRAWN)
        # Board completion: the drawn cards 2.. fill the slots past each row's board.
        missing = np.arange(_BOARD) < (_BOARD - size)[:, np.newaxis]  # (n, 5)
        fill = np.where(missing[:, np.newaxis, :], drawn[:, :, 2:], DECK_SIZE)
        board_keys = _KEYS[board].sum(axis=1)[:, np.newaxis] + _KEYS[fill].sum(axis=2)
        board_flush = _FLUSH[board].sum(axis=1)[:, np.newaxis] + _FLUSH[fill].sum(axis=2)
        mine = rank_from_keys(
            KEY_INIT + board_keys + _KEYS[hole].sum(axis=1)[:, np.newaxis],
            board_flush + _FLUSH[hole].sum(axis=1)[:, np.newaxis],
        )
        theirs = rank_from_keys(
            KEY_INIT + board_keys + _KEYS[drawn[:, :, :2]].sum(axis=2),
            board_flush + _FLUSH[drawn[:, :, :2]].sum(axis=2),
        )
        wins = (mine > theirs).sum(axis=1) + 0.5 * (mine == theirs).sum(axis=1)
        equity: Floats = wins / self.samples
        return equity


@lru_cache(maxsize=4)
def _preflop_table(samples: int, seed: int) -> Floats:
    """Pre-flop equities of all 1,326 holdings with the estimator of ``(samples, seed)``:
    shared by every encoder (evaluations build new ones at each checkpoint)."""
    estimator = EquityEstimator(samples, seed)
    table = np.empty(NUM_HOLDINGS)
    empty = np.full((_CHUNK_ROWS, _BOARD), DECK_SIZE, dtype=np.intp)
    size = np.zeros(_CHUNK_ROWS, dtype=np.int64)
    for start in range(0, NUM_HOLDINGS, _CHUNK_ROWS):
        hole = HOLDINGS[start : start + _CHUNK_ROWS].astype(np.intp)
        k = len(hole)
        table[start : start + k] = estimator._sampled(hole, empty[:k], size[:k])
    table.flags.writeable = False
    return table
