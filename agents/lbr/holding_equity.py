"""Showdown equity of our hand against every opponent holding, rolled out to the river.

The local best response values checking or calling down as ``WP x pot``, WP its win
probability against the opponent's range (Lisy and Bowling 2017, section "Local Best
Response"). WP is a weighted mean of the per-holding equities computed here, so one roll-out
per round serves every range the round needs (after each opponent action, after a
hypothetical raise).

Equity of holding ``h``: the probability that our seven cards beat its seven at the showdown,
ties counted half, over the board completions that share no card with either hand. Exact on
the river (one board, ``agents.strength.street``'s counts) and the turn (every river card);
on the flop exact over the 1,081 turn-river pairs when ``samples`` allows, and otherwise, as
pre-flop, averaged over a fixed sample of completions (``completion_sample``). Completions
are counted by ``agents.strength.board_kernels.rollout_rows``, by rank class. Completions are
drawn as positions among the cards we do not see, once per (cards needed, samples, seed) from
the seed, so an equity is a function of the cards alone: the scalar and the batched local best
responses compute the same numbers, whatever the batch, and a hand's equities do not depend
on the order of play. Those holdings a completion meets are left out of it (equity 1/2 for a
holding that every completion meets). Sampling makes WP noisy, so the local best response
plays slightly worse; its measured value stays a lower bound on the opponent's
exploitability, which is all it claims.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.strength.board_kernels import rollout_rows
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.multiset_memo import rank_multiset_tables
from agents.strength.street_constants import kernel_constants

__all__ = [
    "check_targets",
    "completion_sample",
    "equity_rows",
    "equity_rows_into",
    "holding_equities",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@cache
def completion_sample(unseen: int, needed: int, samples: int, seed: int) -> Ints:
    """``(C, needed)`` positions among ``unseen`` cards: every ``needed``-subset when there
    are at most ``samples`` of them, else ``samples`` subsets drawn uniformly
    from ``seed`` (distinct positions within each). Read-only; computed once."""
    if needed == 0:
        sample = np.zeros((1, 0), dtype=np.int64)
    elif needed == 1:
        sample = np.arange(unseen, dtype=np.int64)[:, np.newaxis]
    elif needed == 2 and comb(unseen, 2) <= samples:
        first, second = np.triu_indices(unseen, k=1)
        sample = np.stack([first, second], axis=1).astype(np.int64)
    else:
        rng = np.random.default_rng(np.random.SeedSequence([seed, unseen, needed, samples]))
        sample = rng.random((samples, unseen)).argsort(axis=1)[:, :needed].astype(np.int64)
    sample.flags.writeable = False
    return sample


def holding_equities(
    hole: tuple[int, int], board: tuple[int, ...], *, samples: int, seed: int = 0
) -> Floats:
    """Equity of ``hole`` against each of the 1,326 holdings (0 where a holding clashes).

    Args:
        hole: Our two cards.
        board: The board so far (0, 3, 4 or 5 cards).
        samples: Most completions to use pre-flop and on the flop; at least 1.
        seed: Seed of the fixed completion sample.
    """
    boards = np.zeros((1, 5), dtype=np.int64)
    boards[0, : len(board)] = board
    result: Floats = equity_rows(
        np.array([hole], dtype=np.int64),
        boards,
        np.array([len(board)]),
        samples=samples,
        seed=seed,
    )[0]
    return result


def equity_rows(
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    board_len: npt.ArrayLike,
    *,
    samples: int,
    seed: int = 0,
) -> Floats:
    """``(k, 1326)``: row i is ``holding_equities(holes[i], boards[i, :board_len[i]])``.

    Raises:
        ValueError: on a board length other than 0, 3, 4, 5, shapes that do not fit, a card
            outside 0..51 or twice in a row, or ``samples < 1``.
    """
    hole = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    result = np.zeros((len(hole), NUM_HOLDINGS))
    equity_rows_into(
        result, np.arange(len(hole)), hole, boards, board_len, samples=samples, seed=seed
    )
    return result


def equity_rows_into(
    out: Floats,
    targets: npt.ArrayLike,
    holes: npt.ArrayLike,
    boards: npt.ArrayLike,
    board_len: npt.ArrayLike,
    *,
    samples: int,
    seed: int = 0,
) -> None:
    """``equity_rows`` written to ``out[targets[i]]`` (``out``: ``(m, 1326)``, C-contiguous
    float64; ``targets`` distinct), so that a caller keeping equities per table stores them
    with no copy between.

    Raises:
        ValueError: as ``equity_rows``, and if ``out`` or ``targets`` do not fit.
    """
    if not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    hole = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    k = len(hole)
    board = np.asarray(boards, dtype=np.int64).reshape(k, 5)
    length = np.asarray(board_len, dtype=np.int64).reshape(k)
    at = check_targets(out, targets, k)
    if k and not ((length == 0) | ((length >= 3) & (length <= 5))).all():
        raise ValueError(f"board lengths must be 0, 3, 4 or 5, got {np.unique(length)}")
    for n in (0, 3, 4, 5):
        rows = np.flatnonzero(length == n)
        if rows.size == 0:
            continue
        _check_cards(hole[rows], board[rows], n)
        _rolled_out(hole[rows], board[rows, :n], samples, seed, out, at[rows])


def check_targets(out: Floats, targets: npt.ArrayLike, k: int) -> Ints:
    """``targets`` as ``k`` row numbers of ``out``, a writeable C-contiguous ``(m, 1326)``
    float64 array that equities may be written to.

    Raises:
        ValueError: if ``out`` or ``targets`` do not fit.
    """
    at = np.asarray(targets, dtype=np.int64).reshape(-1)
    if out.dtype != np.float64 or out.ndim != 2 or out.shape[1] != NUM_HOLDINGS:
        raise ValueError(f"out must be (m, {NUM_HOLDINGS}) float64, got {out.dtype} {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be a writeable C-contiguous array")
    if len(at) != k or (k and (int(at.min()) < 0 or int(at.max()) >= len(out))):
        raise ValueError(f"targets must be {k} rows of out (0..{len(out) - 1})")
    return at


def _check_cards(hole: Ints, board: Ints, n: int) -> None:
    cards = np.concatenate([hole, board[:, :n]], axis=1)
    if cards.size and (int(cards.min()) < 0 or int(cards.max()) > 51):
        raise ValueError("card ids must lie in 0..51")
    ordered = np.sort(cards, axis=1)
    if (ordered[:, 1:] == ordered[:, :-1]).any():
        raise ValueError("a row holds a card twice")


def _rolled_out(
    hole: Ints, board: Ints, samples: int, seed: int, out: Floats, targets: Ints
) -> None:
    """Equities of rows of boards of ``n`` cards over the completion sample (the river: the
    one board, a sample of one empty completion), row i into ``out[targets[i]]``."""
    k, n = board.shape
    c = kernel_constants()
    full = np.zeros((k, 5), dtype=np.int64)
    full[:, :n] = board
    rollout_rows(
        readonly(hole, np.int64),
        full,
        np.full(k, n, dtype=np.int64),
        completion_sample(50 - n, 5 - n, samples, seed),
        c.card_keys,
        c.flush_keys,
        c.rank_keys,
        c.pair_index,
        c.offs,
        c.look,
        c.flush,
        *rank_multiset_tables(),
        out,
        readonly(targets, np.int64),
    )
