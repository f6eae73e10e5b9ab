"""The value function's showdown shares: each seat's expected share of the pot at a check-down.

For the actual hole cards of every seat and the board of a street, a seat's share is the pot
fraction it would win at the showdown among the seats still contending (ties split), averaged
over the cards still to come:

* river: the actual board, exact;
* turn: every river card left in the deck, exact;
* flop: ``samples`` (turn, river) pairs drawn uniformly from the cards left, an unbiased
  estimate of the exact share;
* pre-flop: ``samples`` five-card boards drawn uniformly from the cards left, unbiased too.

The draws come from the counter-based hash of ``envs.crn`` on a stream of their own, keyed by
the match seed, the deal and the sample, so they are independent of the cards actually dealt and
identical for every agent evaluated on the same deal (common random numbers). "Cards left" means
the deck less every seat's hole cards (folded seats' included) and the board so far: the cards
the next chance event draws from.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import numpy.typing as npt

from envs.crn import decision_uniforms
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = ["EQUITY_STREAM", "board_samples", "live_cards", "pot_shares", "street_ranks"]


EQUITY_STREAM = 0x41495641  # "AIVA": apart from the agents' decision stream
"""``envs.crn`` stream of the equity samples."""

BOARD_WIDTH = (0, 3, 4, 5)
_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)
Cards = npt.NDArray[np.uint8]
Ranks = npt.NDArray[np.int32]


def live_cards(holes: Cards, board: Cards) -> Cards:
    """``(m, M)`` the cards not dealt yet at each table, in increasing order.

    Args:
        holes: ``(m, S, 2)`` every seat's hole cards.
        board: ``(m, b)`` the board cards dealt so far (same ``b`` for all rows).
    """
    m = holes.shape[0]
    dead = np.zeros((m, 52), dtype=bool)
    rows = np.arange(m)[:, np.newaxis]
    dead[rows, holes.reshape(m, -1)] = True
    if board.shape[1]:
        dead[rows, board] = True
    live_count = 52 - int(dead[0].sum()) if m else 0
    # Every row has the same number of live cards, so the row-major nonzero splits evenly.
    cards = np.nonzero(~dead)[1].astype(np.uint8)
    return cards.reshape(m, live_count)


@functools.cache
def _subsets(size: int, count: int) -> npt.NDArray[np.uint8]:
    """Every ``count``-subset of ``range(size)``, one per row (built once per process)."""
    total = math.comb(size, count)
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(size), count)),
        dtype=np.uint8,
        count=total * count,
    )
    subsets = flat.reshape(total, count)
    subsets.flags.writeable = False
    return subsets


def board_samples(
    live: Cards,
    count: int,
    samples: int,
    seed: int | npt.NDArray[np.uint64],
    deals: npt.NDArray[np.int64],
    street: int,
) -> Cards:
    """``(m, samples, count)`` cards drawn without replacement from each row's ``live`` cards.

    Each sample is a uniform ``count``-subset: one hash uniform per sample, keyed ``(seed,
    deal, sample)`` on a stream per street, picks one of the ``C(M, count)`` subsets of the
    ``M`` live cards.

    >>> live = np.arange(10, dtype=np.uint8)[np.newaxis]
    >>> drawn = board_samples(live, 5, 400, 1, np.array([0]), street=0)
    >>> bool((np.sort(drawn, axis=2)[..., 1:] > np.sort(drawn, axis=2)[..., :-1]).all())
    True
    """
    m, size = live.shape
    seeds = np.asarray(seed)
    if seeds.ndim:
        seeds = seeds.reshape(-1, 1)
    u = decision_uniforms(
        seeds, deals[:, np.newaxis], np.arange(samples), 0, EQUITY_STREAM + street
    ).reshape(m, samples)
    subsets = _subsets(size, count)
    pick = np.minimum((u * len(subsets)).astype(np.intp), len(subsets) - 1)
    positions = subsets[pick].astype(np.intp)
    return np.take_along_axis(live[:, np.newaxis, :], positions, axis=2)


def street_ranks(
    holes: Cards,
    board: Cards,
    street: int,
    *,
    seed: int | npt.NDArray[np.uint64],
    deals: npt.NDArray[np.int64],
    samples: int,
) -> Ranks:
    """``(m, B, S)`` hand ranks of every seat on the ``B`` boards a street's share averages.

    Args:
        holes: ``(m, S, 2)`` hole cards.
        board: ``(m, 5)`` the whole board of each deal (only the street's cards are read).
        street: 0 pre-flop .. 3 river.
        seed: The match seed (sample stream key), one for all rows or one per row.
        deals: ``(m,)`` the deal index of each row (sample stream key).
        samples: Boards sampled on the flop and pre-flop.
    """
    width = BOARD_WIDTH[street]
    known = board[:, :width].astype(np.intp)
    # Evaluator keys add up: the keys of the known board, of each completion and of each
    # seat's hole cards are summed, then ranked in one call.
    keys, flush = _card_sums(known)
    keys, flush = keys[:, np.newaxis], flush[:, np.newaxis]  # (m, B = 1)
    if street < 3:
        live = live_cards(holes, board[:, :width])
        if street == 2:
            rest = live[:, :, np.newaxis].astype(np.intp)
        else:
            rest = board_samples(live, 5 - width, samples, seed, deals, street).astype(np.intp)
        more_keys, more_flush = _card_sums(rest)
        keys, flush = keys + more_keys, flush + more_flush
    hole_keys, hole_flush = _card_sums(holes.astype(np.intp))  # (m, S)
    hole_keys += KEY_INIT
    return rank_from_keys(
        keys[:, :, np.newaxis] + hole_keys[:, np.newaxis, :],
        flush[:, :, np.newaxis] + hole_flush[:, np.newaxis, :],
    )


def _card_sums(cards: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Evaluator key sums and flush-mask sums over the last axis of ``cards`` (a short axis:
    added column by column, far cheaper than a NumPy reduction over it)."""
    keys = np.zeros(cards.shape[:-1], dtype=np.int64)
    flush = np.zeros(cards.shape[:-1], dtype=np.int64)
    for j in range(cards.shape[-1]):
        column = cards[..., j]
        keys += _KEYS[column]
        flush += _FLUSH[column]
    return keys, flush


def pot_shares(ranks: Ranks, contenders: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """``(m, S)`` each seat's mean pot share among ``contenders`` over the boards of ``ranks``.

    Ties split the pot equally; a seat that does not contend gets 0, a lone contender 1.
    """
    shares = contenders.astype(np.float64)
    several = np.flatnonzero(contenders.sum(axis=1) >= 2)
    if not several.size:
        return shares
    if ranks.shape[2] == 2:  # heads-up: one comparison per board
        r = ranks[several]
        ahead = (r[:, :, 0] > r[:, :, 1]).mean(axis=1)
        tied = (r[:, :, 0] == r[:, :, 1]).mean(axis=1)
        first = ahead + 0.5 * tied
        shares[several, 0] = first
        shares[several, 1] = 1.0 - first
        return shares
    alive = contenders[several, np.newaxis, :]
    masked = np.where(alive, ranks[several], -1)
    winners = masked == masked.max(axis=2, keepdims=True)
    split = winners / winners.sum(axis=2, keepdims=True, dtype=np.float64)
    shares[several] = split.mean(axis=1)
    return shares
