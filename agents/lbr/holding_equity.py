"""Showdown equity of one hand against every opponent holding, rolled out to the river.

The local best response values checking or calling down as ``WP x pot``, WP its win
probability against the opponent's range (Lisy and Bowling 2017, section "Local Best
Response"). WP is a weighted mean of the per-holding equities computed here, so one roll-out
per round serves every range the round needs (after each opponent action, after a
hypothetical raise).

Equity of holding ``h``: the probability that our seven cards beat its seven at the showdown,
ties counted half, over the board completions that share no card with either hand. Exact on
the river (one board) and the turn (every river card); on the flop every one of the 1,081
turn-river pairs when ``samples`` allows, and pre-flop ``samples`` random completions shared
by every holding (those clashing with a holding are left out for it). Sampling makes WP noisy,
so the local best response plays slightly worse; its measured value stays a lower bound on
the opponent's exploitability, which is all it claims.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import HOLDING_FLUSH, HOLDING_KEYS, HOLDINGS, NUM_HOLDINGS
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = ["holding_equities"]

Floats = npt.NDArray[np.float64]
_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)


def _completions(
    rest: npt.NDArray[np.int64], needed: int, samples: int, rng: np.random.Generator | None
) -> npt.NDArray[np.int64]:
    """Every ``needed``-card completion from ``rest`` when there are at most ``samples`` of
    them, else ``samples`` drawn uniformly (distinct cards within each); ``(C, needed)``."""
    if needed == 0:
        return np.zeros((1, 0), dtype=np.int64)
    if needed == 1:
        return rest[:, None]
    if needed == 2 and comb(len(rest), 2) <= samples:
        first, second = np.triu_indices(len(rest), k=1)
        return np.stack([rest[first], rest[second]], axis=1)
    if rng is None:
        raise ValueError(f"sampling {needed}-card completions needs a random generator")
    order = rng.random((samples, len(rest))).argsort(axis=1)[:, :needed]
    return rest[order]


def holding_equities(
    hole: tuple[int, int],
    board: tuple[int, ...],
    *,
    samples: int,
    rng: np.random.Generator | None = None,
) -> Floats:
    """Equity of ``hole`` against each of the 1,326 holdings (0 where a holding clashes).

    Args:
        hole: Our two cards.
        board: The board so far (0, 3, 4 or 5 cards).
        samples: Most completions to use (see the module); at least 1.
        rng: Draws the sampled completions (pre-flop, and the flop when ``samples`` is
            below 1,081); not needed on the turn and river.
    """
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    known = np.zeros(52, dtype=bool)
    known[[*hole, *board]] = True
    rest = np.flatnonzero(~known).astype(np.int64)
    live = np.flatnonzero(~(known[HOLDINGS[:, 0]] | known[HOLDINGS[:, 1]]))
    runs = _completions(rest, 5 - len(board), samples, rng)
    base = KEY_INIT + int(_KEYS[list(board)].sum())
    base_flush = int(_FLUSH[list(board)].sum())
    run_keys = base + _KEYS[runs].sum(axis=1)
    run_flush = base_flush + _FLUSH[runs].sum(axis=1)
    mine = rank_from_keys(
        run_keys + int(_KEYS[list(hole)].sum()), run_flush + int(_FLUSH[list(hole)].sum())
    )
    in_run = np.zeros((len(runs), 52), dtype=bool)
    in_run[np.arange(len(runs))[:, None], runs] = True
    cards = HOLDINGS[live]
    valid = ~(in_run[:, cards[:, 0]] | in_run[:, cards[:, 1]])  # (C, H)
    run_index, holding_index = np.nonzero(valid)
    ranks = rank_from_keys(
        run_keys[run_index] + HOLDING_KEYS[live][holding_index],
        run_flush[run_index] + HOLDING_FLUSH[live][holding_index],
    )
    mine_there = mine[run_index]
    score = (ranks < mine_there) + 0.5 * (ranks == mine_there)
    totals = np.bincount(holding_index, weights=score, minlength=len(live))
    counts = np.bincount(holding_index, minlength=len(live))
    result = np.zeros(NUM_HOLDINGS)
    # A sampled completion set may miss some holding entirely (all its runs clash): 1/2 then.
    result[live] = np.where(counts > 0, totals / np.maximum(counts, 1), 0.5)
    return result
