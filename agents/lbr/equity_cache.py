"""How the local best response computes its equities, and the pre-flop ones it keeps.

``LBRParams`` sets the completion samples of ``agents.lbr.holding_equity``; ``EquityCache``
computes equities for rows of (hole, board) with those settings. Pre-flop rows depend on the
two hole cards alone, so each of the 1,326 is rolled out once per process and settings
(``preflop_equities``, a memo of a pure function), whichever agent asks, scalar or batched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from agents.lbr.holding_equity import check_targets, equity_rows, equity_rows_into
from agents.lbr.lookahead import Lookahead
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS, PAIR_INDEX

__all__ = ["EquityCache", "LBRParams", "preflop_equities"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, kw_only=True)
class LBRParams:
    """How the local best response estimates its win probability
    (``agents.lbr.holding_equity``) and what it assumes after an action
    (``agents.lbr.lookahead``)."""

    preflop_samples: int = 500
    """Board completions for pre-flop equities (computed once per hole cards, then kept)."""
    flop_samples: int = 100
    """Turn-river completions on the flop (1,081 or more: all of them, exact; ours: sampled,
    as Lisy and Bowling 2017 sample their roll-outs, for speed)."""
    sample_seed: int = 0
    """Seed of the fixed completion samples (equities are then a function of the cards)."""
    lookahead: Lookahead = Lookahead.CHECK_DOWN
    """After the valued action: the check-down of Lisy and Bowling 2017, Algorithm 1, or
    later streets' bets (``agents.lbr.lookahead``, ours)."""

    def __post_init__(self) -> None:
        for name in ("preflop_samples", "flop_samples"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        seed = self.sample_seed
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"sample_seed must be a non-negative integer, got {seed!r}")
        lookahead: object = self.lookahead  # a field given at run time may be anything
        if not isinstance(lookahead, Lookahead):
            choices = ", ".join(f"Lookahead.{member.name}" for member in Lookahead)
            raise ValueError(f"lookahead must be one of {choices}, got {lookahead!r}")


@cache
def preflop_equities(holding: int, samples: int, seed: int) -> Floats:
    """``(1326,)`` pre-flop equities of holding ``HOLDINGS[holding]`` (read-only, memoised)."""
    row: Floats = equity_rows(
        HOLDINGS[holding][np.newaxis],
        np.zeros((1, 5), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        samples=samples,
        seed=seed,
    )[0]
    row.flags.writeable = False
    return row


class EquityCache:
    """Equities of rows of (hole, board) with ``params`` (pre-flop: ``preflop_equities``).

    Args:
        params: The sample sizes and seed.
    """

    def __init__(self, params: LBRParams) -> None:
        self.params = params

    def one(self, hole: tuple[int, int], board: tuple[int, ...]) -> Floats:
        """``(1326,)`` our equity with ``hole`` on ``board`` against each holding."""
        boards = np.zeros((1, 5), dtype=np.int64)
        boards[0, : len(board)] = board
        row: Floats = self.rows(np.array([hole]), boards, np.array([len(board)]))[0]
        return row

    def rows(
        self, holes: npt.ArrayLike, boards: npt.ArrayLike, board_len: npt.ArrayLike
    ) -> Floats:
        """``(k, 1326)``, row i with ``holes[i]`` on ``boards[i, :board_len[i]]``."""
        hole = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
        result = np.empty((len(hole), NUM_HOLDINGS))
        self.fill(result, np.arange(len(hole)), hole, boards, board_len)
        return result

    def fill(
        self,
        out: Floats,
        targets: npt.ArrayLike,
        holes: npt.ArrayLike,
        boards: npt.ArrayLike,
        board_len: npt.ArrayLike,
    ) -> None:
        """``rows`` written to ``out[targets[i]]`` (``out``: ``(m, 1326)``, C-contiguous
        float64), for a caller that keeps equities per table.

        Raises:
            ValueError: as ``agents.lbr.holding_equity.equity_rows_into`` (``out`` or
                ``targets`` that do not fit included, pre-flop rows alone too).
        """
        hole = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
        board = np.asarray(boards, dtype=np.int64).reshape(len(hole), -1)
        length = np.asarray(board_len, dtype=np.int64).reshape(len(hole))
        at = check_targets(out, targets, len(hole))
        params = self.params
        later = np.flatnonzero(length > 0)
        if later.size:
            equity_rows_into(
                out,
                at[later],
                hole[later],
                board[later],
                length[later],
                samples=params.flop_samples,
                seed=params.sample_seed,
            )
        preflop = np.flatnonzero(length == 0)
        if preflop.size:
            keys = PAIR_INDEX[hole[preflop, 0], hole[preflop, 1]]
            out[at[preflop]] = _preflop_table(keys, params.preflop_samples, params.sample_seed)


@cache
def _preflop_tables(samples: int, seed: int) -> tuple[Floats, npt.NDArray[np.bool_]]:
    """Every holding's ``preflop_equities`` row as one ``(1326, 1326)`` table (14 MB), and
    which rows are filled yet: rows of many tables are then gathered at once."""
    return np.zeros((NUM_HOLDINGS, NUM_HOLDINGS)), np.zeros(NUM_HOLDINGS, dtype=np.bool_)


def _preflop_table(keys: npt.NDArray[np.intp], samples: int, seed: int) -> Floats:
    """The pre-flop equities of the holdings ``keys``, ``(len(keys), 1326)``."""
    table, made = _preflop_tables(samples, seed)
    for key in np.unique(keys[~made[keys]]).tolist():
        table[key] = preflop_equities(key, samples, seed)
        made[key] = True
    return table[keys]
