"""The value function's equity: each seat's expected share of the pot at a check-down showdown.

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

import numpy as np
import numpy.typing as npt

from envs.crn import decision_uniforms
from envs.evaluator import evaluate

__all__ = ["EQUITY_STREAM", "board_samples", "live_cards", "pot_shares", "street_ranks"]


EQUITY_STREAM = 0x41495641  # "AIVA": apart from the agents' decision stream
"""``envs.crn`` stream of the equity samples."""

BOARD_WIDTH = (0, 3, 4, 5)
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


def board_samples(
    live: Cards,
    count: int,
    samples: int,
    seed: int | npt.NDArray[np.uint64],
    deals: npt.NDArray[np.int64],
    street: int,
) -> Cards:
    """``(m, samples, count)`` cards drawn without replacement from each row's ``live`` cards.

    Each sample is a uniform ``count``-subset: draw ``t`` picks uniformly among the ``M - t``
    positions not taken yet (hash uniforms keyed ``(seed, deal, sample, draw)`` on a stream per
    street), mapped past the positions taken before it.
    """
    m, size = live.shape
    sample_ids = np.arange(samples)[np.newaxis, :, np.newaxis]
    draw_ids = np.arange(count)[np.newaxis, np.newaxis, :]
    seeds = np.asarray(seed)
    if seeds.ndim:
        seeds = seeds.reshape(-1, 1, 1)
    u = decision_uniforms(
        seeds, deals[:, np.newaxis, np.newaxis], sample_ids, draw_ids, EQUITY_STREAM + street
    ).reshape(m, samples, count)
    taken: list[npt.NDArray[np.int64]] = []
    for t in range(count):
        pick = np.minimum((u[:, :, t] * (size - t)).astype(np.int64), size - t - 1)
        # The pick-th free position: step past every taken position at or below it, in order.
        for before in sorted_positions(taken):
            pick += pick >= before
        taken.append(pick)
    positions = np.stack(taken, axis=2)
    return np.take_along_axis(live[:, np.newaxis, :], positions, axis=2)


def sorted_positions(taken: list[npt.NDArray[np.int64]]) -> list[npt.NDArray[np.int64]]:
    """The positions taken so far, sorted per element (ascending), as separate arrays."""
    if len(taken) < 2:
        return list(taken)
    ordered = np.sort(np.stack(taken, axis=0), axis=0)
    return list(ordered)


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
    m, seats = holes.shape[0], holes.shape[1]
    width = BOARD_WIDTH[street]
    known = board[:, :width]
    if street == 3:
        boards = known[:, np.newaxis, :]
    else:
        live = live_cards(holes, known)
        if street == 2:
            boards = np.concatenate(
                [np.broadcast_to(known[:, np.newaxis, :], (m, live.shape[1], 4)), live[..., None]],
                axis=2,
            )
        else:
            drawn = board_samples(live, 5 - width, samples, seed, deals, street)
            boards = np.concatenate(
                [np.broadcast_to(known[:, np.newaxis, :], (m, samples, width)), drawn], axis=2
            )
    count = boards.shape[1]
    hands = np.empty((m, count, seats, 7), dtype=np.uint8)
    hands[..., :2] = holes[:, np.newaxis, :, :]
    hands[..., 2:] = boards[:, :, np.newaxis, :]
    return evaluate(hands.reshape(-1, 7)).reshape(m, count, seats)


def pot_shares(ranks: Ranks, contenders: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """``(m, S)`` each seat's mean pot share among ``contenders`` over the boards of ``ranks``.

    Ties split the pot equally; a seat that does not contend gets 0, a lone contender 1.
    """
    shares = contenders.astype(np.float64)
    several = np.flatnonzero(contenders.sum(axis=1) >= 2)
    if several.size:
        alive = contenders[several, np.newaxis, :]
        masked = np.where(alive, ranks[several], -1)
        winners = masked == masked.max(axis=2, keepdims=True)
        split = winners / winners.sum(axis=2, keepdims=True, dtype=np.float64)
        shares[several] = split.mean(axis=1)
    return shares
