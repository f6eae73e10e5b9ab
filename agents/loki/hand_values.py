"""Loki's hand values behind one interface, shared by the scalar and the batched Loki.

Every hand value either Loki reads goes through these three functions, which have the
signatures of the compiled street kernels of issue 22 (``agents.strength.street``):

* ``street_tables`` -- per (own hand, board) row, the weight-independent values of a street:
  HS1 and PPOTc of every holding as its owner sees the board (the post-flop re-weighting values,
  Papp 1998 section 7.2.3), and the own hand against every holding now (``versus``) and after
  each card to come (``after``);
* ``field_values`` -- HSn and PPOT1 of the own hand against the field weights (Papp 1998
  sections 5.2-5.3): with ``versus`` and ``after`` a sum over the holdings;
* ``field_potential2`` -- PPOT2 (two cards to come, flop only), for ``lookahead=2``.

For now each function computes its rows one by one with the NumPy references of
``agents.strength`` (``hand_strength_all``, ``ppot_c``, ``board_ranks``, ``hand_potential``),
and ``field_values`` adds the weights in the references' own order, so that the values equal
``hand_strength(..., opponents=n)`` and ``hand_potential(..., lookahead=1)[0]`` to the last bit.
A row's values never depend on the other rows of the call: the scalar Loki (one row) and the
batched Loki (many) get the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from agents.strength import hand_potential, hand_strength_all, ppot_c
from agents.strength.holdings import HOLDING_FLUSH, HOLDING_KEYS, NUM_HOLDINGS, PAIR_INDEX
from agents.strength.potential import AHEAD, BEHIND, TIED
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, evaluate_one, rank_from_keys

__all__ = ["DEAD", "StreetTables", "field_potential2", "field_values", "street_tables"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]

DEAD = -128
"""``versus`` of a holding that meets the board or the own cards."""

_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)
_NOW_CLASS = {1: AHEAD, 0: TIED, -1: BEHIND}


@dataclass(frozen=True)
class StreetTables:
    """Weight-independent values of k (own hand, board) rows, one street each."""

    hs1: Floats
    """``(k, 1326)``: HS1 of every holding against a uniform opponent as its owner sees the
    board (``agents.strength.hand_strength_all``); NaN where the holding meets the board."""
    ppotc: Floats
    """``(k, 1326)``: PPOTc of every holding (``agents.strength.ppot_c``), 0 on the river; NaN
    where the holding meets the board."""
    versus: npt.NDArray[np.int8]
    """``(k, 1326)``: the own hand now against holding h, +1 ahead, 0 tied, -1 behind;
    ``DEAD`` where h meets the board or the own cards."""
    after: npt.NDArray[np.uint8]
    """``(k, 1326, 3)``: on the flop and the turn, over the next cards disjoint from the board,
    the own cards and h, how many leave the own hand ahead / tied / behind h; 0 on the river."""

    def take(self, rows: npt.ArrayLike) -> StreetTables:
        """The tables of ``rows`` (copies)."""
        index = np.asarray(rows, dtype=np.intp)
        return StreetTables(
            self.hs1[index], self.ppotc[index], self.versus[index], self.after[index]
        )


def street_tables(holes: Ints, boards: Ints, board_len: Ints) -> StreetTables:
    """The ``StreetTables`` of k rows: hole cards ``(k, 2)``, boards ``(k, 5)`` (cards past
    ``board_len[i]``, 3, 4 or 5, ignored)."""
    k = len(board_len)
    hs1 = np.empty((k, NUM_HOLDINGS))
    ppotc = np.empty((k, NUM_HOLDINGS))
    versus = np.empty((k, NUM_HOLDINGS), dtype=np.int8)
    after = np.zeros((k, NUM_HOLDINGS, 3), dtype=np.uint8)
    for i in range(k):
        hole = (int(holes[i][0]), int(holes[i][1]))
        board = tuple(int(c) for c in boards[i][: int(board_len[i])])
        hs1[i], ppotc[i] = _board_values(tuple(sorted(board)))
        versus[i], after[i] = _own_values(tuple(sorted(hole)), tuple(sorted(board)))
    return StreetTables(hs1, ppotc, versus, after)


@lru_cache(maxsize=256)
def _board_values(board: tuple[int, ...]) -> tuple[Floats, Floats]:
    hs1 = hand_strength_all(board)
    river = len(board) == 5
    return hs1, np.where(np.isnan(hs1), np.nan, 0.0) if river else np.array(ppot_c(board))


def _ranks(cards: tuple[int, ...]) -> npt.NDArray[np.int32]:
    """Rank of every holding with ``cards`` (5 to 7 in all), 0 where they meet."""
    dead = np.zeros(52, dtype=bool)
    dead[list(cards)] = True
    live = ~(dead[_HOLDING_CARDS[:, 0]] | dead[_HOLDING_CARDS[:, 1]])
    ranks = np.zeros(NUM_HOLDINGS, dtype=np.int32)
    key = KEY_INIT + int(_KEYS[list(cards)].sum())
    flush = int(_FLUSH[list(cards)].sum())
    ranks[live] = rank_from_keys(HOLDING_KEYS[live] + key, HOLDING_FLUSH[live] + flush)
    return ranks


@lru_cache(maxsize=512)  # the scalar and batched Loki of a test ask for the same rows
def _own_values(
    hole: tuple[int, ...], board: tuple[int, ...]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8]]:
    ranks = _ranks(board)
    live = ranks > 0
    live &= ~np.isin(_HOLDING_CARDS, hole).any(axis=1)
    mine = evaluate_one((*hole, *board))
    versus = np.sign(mine - ranks.astype(np.int64)).astype(np.int8)
    versus[~live] = DEAD
    after = np.zeros((NUM_HOLDINGS, 3), dtype=np.uint8)
    if len(board) < 5:
        held = np.flatnonzero(live)
        known = [*hole, *board]
        rest = np.array([c for c in range(52) if c not in known], dtype=np.intp)
        key = KEY_INIT + int(_KEYS[list(board)].sum()) + _KEYS[rest]
        flush = int(_FLUSH[list(board)].sum()) + _FLUSH[rest]
        cards = _HOLDING_CARDS[held]
        counted = (rest[:, np.newaxis] != cards[:, 0]) & (rest[:, np.newaxis] != cards[:, 1])
        which, holding = np.nonzero(counted)  # (next card, holding) pairs that are disjoint
        theirs = np.zeros(counted.shape, dtype=np.int64)
        theirs[which, holding] = rank_from_keys(
            key[which] + HOLDING_KEYS[held[holding]], flush[which] + HOLDING_FLUSH[held[holding]]
        )
        own_key, own_flush = int(_KEYS[list(hole)].sum()), int(_FLUSH[list(hole)].sum())
        mine_then = rank_from_keys(key + own_key, flush + own_flush).astype(np.int64)
        mine_then = mine_then[:, np.newaxis]
        after[held, 0] = np.count_nonzero(counted & (mine_then > theirs), axis=0)
        after[held, 1] = np.count_nonzero(counted & (mine_then == theirs), axis=0)
        after[held, 2] = np.count_nonzero(counted & (mine_then < theirs), axis=0)
    return versus, after


def field_values(tables: StreetTables, field: Floats, opponents: Ints) -> tuple[Floats, Floats]:
    """``(HSn, PPOT1)`` of each row's own hand against its field weights ``(k, 1326)``,
    ``opponents[i]`` the n of HSn = HS1 ** n; PPOT1 is 0 on the river.

    Equal to ``hand_strength(hole, board, field, opponents=n)`` and
    ``hand_potential(hole, board, field, lookahead=1)[0]``.

    Raises:
        ValueError: if the live holdings of a row weigh nothing (as the references).
    """
    k = len(opponents)
    hsn, ppot = np.empty(k), np.empty(k)
    for i in range(k):
        versus, weights = tables.versus[i], np.asarray(field[i], dtype=np.float64)
        live = versus != DEAD
        total = float(weights[live].sum())
        if total <= 0.0:
            raise ValueError("the weights of the possible opponent holdings sum to zero")
        score = float(weights[versus == 1].sum()) + 0.5 * float(weights[versus == 0].sum())
        hsn[i] = (score / total) ** int(opponents[i])
        ppot[i] = _ppot1(versus, tables.after[i], weights, int(np.count_nonzero(live)))
    return hsn, ppot


def _ppot1(
    versus: npt.NDArray[np.int8], after: npt.NDArray[np.uint8], weights: Floats, live: int
) -> float:
    """PPOT1 in ``agents.strength.potential.potential_counts``'s order of the holdings."""
    unseen = _unseen_cards(live)
    if unseen == 45:  # the river: nothing to come
        return 0.0
    cards = np.flatnonzero(_cards_in(versus != DEAD))
    first, second = _colex_pairs(unseen)
    order = PAIR_INDEX[cards[first], cards[second]]
    now = np.array([_NOW_CLASS[v] for v in (-1, 0, 1)], dtype=np.intp)[versus[order] + 1]
    final = after[order].astype(np.float64)
    w = weights[order]
    hp = np.zeros((3, 3))
    np.add.at(hp, now, w[:, np.newaxis] * final)
    total = np.bincount(now, weights=w * (unseen - 2), minlength=3).astype(np.float64)
    p_den = total[BEHIND] + total[TIED] / 2
    if p_den <= 0:
        return 0.0
    return float((hp[BEHIND, AHEAD] + hp[BEHIND, TIED] / 2 + hp[TIED, AHEAD] / 2) / p_den)


def _unseen_cards(live: int) -> int:
    """Cards unseen by the own hand, from its number of live holdings C(unseen, 2)."""
    for unseen in (47, 46, 45):
        if unseen * (unseen - 1) // 2 == live:
            return unseen
    raise ValueError(f"{live} live holdings fit no board of 3 to 5 cards")


def _cards_in(live: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    present = np.zeros(52, dtype=bool)
    present[_HOLDING_CARDS[live].ravel()] = True
    return present


@cache
def _colex_pairs(n: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The 2-subsets of ``range(n)`` in colex order (``potential._combinations(n, 2)``)."""
    second = np.concatenate([np.full(top, top) for top in range(1, n)]).astype(np.intp)
    first = np.concatenate([np.arange(top) for top in range(1, n)]).astype(np.intp)
    return first, second


def field_potential2(holes: Ints, boards: Ints, field: Floats) -> Floats:
    """PPOT2 (two cards to come) of each row's own hand on its flop ``boards[i, :3]``
    against its field weights: ``hand_potential(hole, flop, field, lookahead=2)[0]``."""
    values = np.empty(len(holes))
    for i in range(len(holes)):
        hole = (int(holes[i][0]), int(holes[i][1]))
        flop = tuple(int(c) for c in boards[i][:3])
        values[i] = hand_potential(hole, flop, field[i], lookahead=2)[0]
    return values


_HOLDING_CARDS = np.stack(np.triu_indices(52, k=1), axis=1).astype(np.intp)
