"""Exact showdown numerators of one holding over every completion of its board (the agent's route).

For one learner holding and a board of 3, 4 or 5 cards, the opponent's final hand is the board
plus a set of ``2 + f`` unseen cards (its two cards and the ``f`` cards still to come), so the
sets are ranked once each (178,365 four-card sets after the flop, 15,180 three-card sets after
the turn, 990 pairs on the river) and every (completion, opponent holding) pair reads its rank
from a fixed index table. The result is, per completion of the board, the numerator
``2 wins + ties`` against the opponent holdings that share no card with it (990 in the full
deck): the same quantity as ``agents.best_response.river_numerators`` computes for all
holdings at once, by another route.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from agents.best_response.deck import Deck
from envs.cards import check_distinct
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, rank_from_keys

__all__ = ["SetLayout", "completion_numerators", "set_layout"]

IntArray = npt.NDArray[np.int64]

_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)


@dataclass(frozen=True, eq=False)
class SetLayout:
    """Index tables for ``m`` unseen cards (labels ``0..m-1``) and ``future`` board cards."""

    completions: IntArray
    """``(F, future)`` label sets of the board cards to come, ascending, in lexicographic order."""
    sets: IntArray
    """``(S, 2 + future)`` label sets in colexicographic order (a set's row is its colex rank)."""
    opponents: npt.NDArray[np.int32]
    """``(F, O)`` row of ``sets`` holding completion ``f`` plus each opponent pair disjoint
    from it, the pairs in ``numpy.triu_indices`` order."""
    first_pair: IntArray
    """``(S,)`` the pair (``numpy.triu_indices(m, 1)`` order) of each set's first two labels."""
    rest: IntArray
    """``(S,)`` the rest of each set: its last label (3 cards) or last pair (4 cards)."""


def _colex(labels: IntArray) -> IntArray:
    """Colexicographic rank of ascending label sets along the last axis."""
    size = labels.shape[-1]
    table = np.array([[comb(n, k) for k in range(1, size + 1)] for n in range(64)], dtype=np.int64)
    ranks: IntArray = table[labels, np.arange(size)].sum(axis=-1)
    return ranks


@cache
def set_layout(m: int, future: int) -> SetLayout:
    """The index tables for ``m`` unseen cards and ``future`` cards to come (cached)."""
    if not 0 <= future <= 2 or m < future + 2:
        raise ValueError(f"no layout for {m} unseen cards and {future} cards to come")
    coming = list(itertools.combinations(range(m), future))
    completions = np.array(coming, dtype=np.int64).reshape(len(coming), future)
    lexical = np.array(list(itertools.combinations(range(m), future + 2)), dtype=np.int64)
    sets = np.empty_like(lexical)
    sets[_colex(lexical)] = lexical
    first, second = np.triu_indices(m, k=1)
    pairs = np.stack([first, second], axis=1)
    clash = (pairs[np.newaxis, :, :, np.newaxis] == completions[:, np.newaxis, np.newaxis, :]).any(
        axis=(2, 3)
    )
    keep = np.stack([np.flatnonzero(~row) for row in clash])
    members = np.concatenate(
        [
            np.broadcast_to(
                completions[:, np.newaxis, :], (len(completions), keep.shape[1], future)
            ),
            pairs[keep],
        ],
        axis=2,
    )
    opponents = _colex(np.sort(members, axis=2)).astype(np.int32)
    # Key sums add up, so a set's sum is that of its first pair plus that of the rest: two
    # gathers from small per-decision tables instead of one per card.
    pair_index = np.zeros((m, m), dtype=np.int64)
    pair_index[first, second] = np.arange(len(first))
    first_pair = pair_index[sets[:, 0], sets[:, 1]]
    rest = sets[:, 2] if future == 1 else pair_index[sets[:, -2], sets[:, -1]]
    for array in (completions, sets, opponents, first_pair, rest):
        array.flags.writeable = False
    return SetLayout(completions, sets, opponents, first_pair, rest)


def completion_numerators(
    deck: Deck, hole: tuple[int, int], board: tuple[int, ...]
) -> tuple[IntArray, IntArray]:
    """Numerators ``2 wins + ties`` of ``hole`` on every completion of ``board`` (3..5 cards).

    Returns:
        The completions as card ids, ``(F, 5 - len(board))`` in lexicographic order of the
        unseen deck cards (one empty row on the river), and their numerators ``(F,)``.

    Raises:
        ValueError: if a card repeats or is not in ``deck``, or the board has not 3..5 cards.
    """
    if not 3 <= len(board) <= 5:
        raise ValueError(f"need a board of 3 to 5 cards, got {len(board)}")
    check_distinct((*hole, *board))
    if not set(hole).union(board) <= set(deck.cards):
        raise ValueError(f"cards {(*hole, *board)} are not all in {deck}")
    unseen = deck.remaining((*hole, *board))
    layout = set_layout(len(unseen), 5 - len(board))
    board_key = KEY_INIT + int(_KEYS[list(board)].sum())
    board_flush = int(np.bitwise_or.reduce(_FLUSH[list(board)]))
    first, second = np.triu_indices(len(unseen), k=1)
    pair_keys = board_key + _KEYS[unseen[first]] + _KEYS[unseen[second]]
    pair_flush = board_flush | _FLUSH[unseen[first]] | _FLUSH[unseen[second]]
    set_keys, set_flush = pair_keys[layout.first_pair], pair_flush[layout.first_pair]
    if layout.sets.shape[1] > 2:
        rest_keys = _KEYS[unseen] if layout.sets.shape[1] == 3 else pair_keys - board_key
        rest_flush = _FLUSH[unseen] if layout.sets.shape[1] == 3 else pair_flush
        set_keys = set_keys + rest_keys[layout.rest]
        set_flush = set_flush | rest_flush[layout.rest]
    set_ranks = rank_from_keys(set_keys, set_flush)
    coming = unseen[layout.completions]
    hole_key = int(_KEYS[list(hole)].sum())
    hole_flush = int(_FLUSH[hole[0]] | _FLUSH[hole[1]])
    mine = rank_from_keys(
        board_key + hole_key + _KEYS[coming].sum(axis=1),
        board_flush | hole_flush | np.bitwise_or.reduce(_FLUSH[coming], axis=1, initial=0),
    )
    # Ranks fit in int16 (1..7462), which halves the memory traffic of the big gather; each
    # opponent adds 1 + sign(mine - theirs): 2 for a win, 1 for a tie, 0 for a loss.
    theirs = set_ranks.astype(np.int16).take(layout.opponents)
    signs = np.sign(mine.astype(np.int16)[:, np.newaxis] - theirs)
    numerators = signs.sum(axis=1, dtype=np.int64) + layout.opponents.shape[1]
    return coming, numerators
