"""Suit isomorphism after the flop: the turn cards and turn-river boards worth computing.

The suit permutations that map a flop (and the deck) onto itself, its stabiliser ``G``,
relabel the cards left after it without changing any value: a holding's value after turn
card ``g(t)`` is that of holding ``g^-1(h)`` after ``t``, and its numerator on board
``g(b)`` is that of ``g^-1(h)`` on ``b``. So the turn rounds are solved only for one turn card
per orbit of ``G`` (about 26 of the 49 on average over the canonical flops, 13 on a monotone
flop) and the river numerators only for one board per orbit of turn-river pairs; the sum over
the turn cards of an orbit is recovered from its representative as

    sum over t in orbit(t0) of V(t, h) = 1 / |G_t0| * sum over g in G of V(t0, g(h)),

``G_t0`` the permutations that also fix ``t0`` (a sum over ``G`` equals one over its inverses).
This is the isomorphism of the canonical flops (``agents.best_response.deck``) carried on to
the turn and the river, as in Waugh's hand indexing ("A fast and optimal hand isomorphism
algorithm", AAAI workshop 2013).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.best_response.deck import Deck
from agents.best_response.river_numerators import flop_layout
from envs.cards import DECK_SIZE

__all__ = ["FlopSymmetry", "flop_symmetry"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class FlopSymmetry:
    """The stabiliser of a flop acting on the labels of the cards left (see the module)."""

    pair_maps: IntArray
    """``(G, P + 1)``: image of each label pair (``flop_layout`` order) under each element of
    the stabiliser, identity first; entry ``P`` (no pair) maps to itself."""
    turns: IntArray
    """The representative turn labels, ascending (the smallest label of each orbit)."""
    turn_weights: npt.NDArray[np.float64]
    """``1 / |G_t|`` per representative turn (see the module)."""
    boards: IntArray
    """``(B, 2)`` the representative turn-river boards (label pairs) to compute."""
    board_row: IntArray
    """``(m, m)``: for a representative turn ``t`` and any river ``r``, the row of ``boards``
    whose numerators hold those of board ``{t, r}``; -1 elsewhere."""
    board_map: IntArray
    """``(m, m)``: the element ``g`` of the stabiliser with ``g({t, r})`` that board, so that
    holding ``h`` on ``{t, r}`` reads pair ``pair_maps[g, h]`` of that row; -1 elsewhere."""
    flop_suits: IntArray
    """``(4,)`` the flop's cards per suit."""
    card_rank: IntArray
    """Rank (0..12) of each label's card."""
    card_suit: IntArray
    """Suit (0..3) of each label's card."""


def flop_symmetry(deck: Deck, flop: tuple[int, int, int]) -> FlopSymmetry:
    """The stabiliser of ``flop`` in the deck's suit symmetries, on the remaining labels."""
    remaining = deck.remaining(flop)
    m = len(remaining)
    layout = flop_layout(m)
    label_of = np.full(DECK_SIZE, -1, dtype=np.int64)
    label_of[remaining] = np.arange(m)
    flop_set = set(flop)
    maps = [
        label_of[mapping[remaining]]
        for mapping in deck.symmetries
        if {int(mapping[c]) for c in flop} == flop_set
    ]
    labels = np.stack(maps)
    group = len(labels)
    count = len(layout.pairs)
    pair_maps = np.full((group, count + 1), count, dtype=np.int64)
    pair_maps[:, :count] = layout.pair_index[
        labels[:, layout.pairs[:, 0]], labels[:, layout.pairs[:, 1]]
    ]
    smallest = labels.min(axis=0)
    turns = np.flatnonzero(smallest == np.arange(m))
    fixing = (labels[:, turns] == turns).sum(axis=0)
    # images[g, i, r]: the pair of g(turns[i]) and g(r); the board's representative is the
    # smallest image (the diagonal, pair P, never is: it only pairs a turn with itself).
    images = layout.pair_index[labels[:, turns][:, :, np.newaxis], labels[:, np.newaxis, :]]
    best = images.argmin(axis=0)
    canonical = np.take_along_axis(images, best[np.newaxis], axis=0)[0]
    rivers = canonical < count
    representatives, rows = np.unique(canonical[rivers], return_inverse=True)
    board_row = np.full((m, m), -1, dtype=np.int64)
    board_map = np.full((m, m), -1, dtype=np.int64)
    turn_rows = board_row[turns]
    turn_rows[rivers] = rows
    board_row[turns] = turn_rows
    turn_maps = board_map[turns]
    turn_maps[rivers] = best[rivers]
    board_map[turns] = turn_maps
    boards = layout.pairs[representatives]
    for array in (pair_maps, turns, boards, board_row, board_map):
        array.flags.writeable = False
    return FlopSymmetry(
        pair_maps=pair_maps,
        turns=turns,
        turn_weights=1.0 / fixing,
        boards=boards,
        board_row=board_row,
        board_map=board_map,
        flop_suits=np.bincount(np.asarray(flop) & 3, minlength=4),
        card_rank=remaining >> 2,
        card_suit=remaining & 3,
    )
