"""Hand potential: PPOT and NPOT by exact one- or two-card look-ahead (Papp 1998 section 5.3).

For every opponent holding (weight ``w``) the hand is classified *now* as ahead, tied or behind,
and again after every completion of the board (the next card, or the next two on the flop).
``HP[now][final]`` accumulates ``w`` per completion and ``HPTotal[now]`` the weight times the
number of completions, so both are in the same units (ours; Papp leaves it open). Then

    PPOT = (HP[B][A] + HP[B][T] / 2 + HP[T][A] / 2) / (HPTotal[B] + HPTotal[T] / 2)
    NPOT = (HP[A][B] + HP[A][T] / 2 + HP[T][B] / 2) / (HPTotal[A] + HPTotal[T] / 2)

(the "tied/2" denominators, which reproduce Papp's Table 5.1 example: PPOT2 0.208, NPOT2 0.274).

Technique: the opponent's final hand is the board
plus a set of 3 (one card to come) or 4 (two to come) unseen cards, so every such set is ranked
once and shared by all the (opponent pair, completion) splits of it. The index arrays that list,
for each opponent pair of unseen-card *slots*, its completions and the id of the union set
depend only on the number of unseen cards and are built once per process.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import (
    HOLDINGS,
    NUM_HOLDINGS,
    PAIR_INDEX,
    board_ranks,
    check_hand,
    check_weights,
)
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, evaluate_one, rank_from_keys
from envs.validation import whole_number

__all__ = ["AHEAD", "BEHIND", "TIED", "hand_potential", "potential_counts", "ppot1_all"]

AHEAD, TIED, BEHIND = 0, 1, 2
"""Row / column order of the potential matrices (from our point of view)."""

_KEYS = CARD_KEYS.view(np.int64)
_FLUSH = FLUSH_KEYS.view(np.int64)


def _combinations(n: int, k: int) -> npt.NDArray[np.int64]:
    """All k-subsets of range(n) as sorted rows, in colex order (row id = colex rank)."""
    if k == 1:
        return np.arange(n, dtype=np.int64)[:, np.newaxis]
    smaller = _combinations(n, k - 1)
    rows = []
    for top in range(k - 1, n):
        head = smaller[: comb(top, k - 1)]
        rows.append(np.column_stack([head, np.full(len(head), top, dtype=np.int64)]))
    return np.concatenate(rows)


def _colex_rank(sets: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Colex rank of each row of sorted, distinct slots."""
    binom = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
    ranks = np.zeros(sets.shape[:-1], dtype=np.int64)
    for i in range(sets.shape[-1]):
        ranks += binom[sets[..., i], i + 1]
    return ranks


@cache
def _layout(unseen: int, ahead: int) -> tuple[npt.NDArray[np.int64], ...]:
    """Index arrays for ``unseen`` unknown cards and ``ahead`` cards to come.

    Returns ``(pairs, completions, runs, unions)``: the opponent slot pairs ``(P, 2)``, the
    completion slot sets ``(C, ahead)``, and per pair the ids of its disjoint completions and
    of the union set (pair + completion, a ``2 + ahead`` subset), both ``(P, C')``.
    """
    pairs = _combinations(unseen, 2)
    completions = _combinations(unseen, ahead)
    clash = (completions[np.newaxis, :, :, np.newaxis] == pairs[:, np.newaxis, np.newaxis, :]).any(
        axis=(2, 3)
    )
    per_pair = comb(unseen - 2, ahead)
    runs = np.nonzero(~clash)[1].reshape(len(pairs), per_pair)
    union = np.sort(
        np.concatenate(
            [np.repeat(pairs[:, np.newaxis, :], per_pair, axis=1), completions[runs]], axis=2
        ),
        axis=2,
    )
    unions = _colex_rank(union)
    for array in (pairs, completions, runs, unions):
        array.flags.writeable = False
    return pairs, completions, runs, unions


def potential_counts(
    hole: Sequence[int],
    board: Sequence[int],
    weights: npt.ArrayLike | None = None,
    *,
    lookahead: int = 1,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The potential matrix ``HP`` (3 x 3) and ``HPTotal`` (3,) of Papp's section 5.3.

    Rows are the situation now, columns after the completion, in the order AHEAD, TIED,
    BEHIND. With uniform weights the entries are counts of (opponent holding, completion)
    cases, e.g. Papp's Table 5.1 for A-Q on 3-4-J with ``lookahead=2``.

    Raises:
        ValueError: on bad cards or weights, on the river, or for two cards to come on the turn.
    """
    hole, board = check_hand(hole, board)
    table = check_weights(weights)
    if whole_number("lookahead", lookahead) not in (1, 2):
        raise ValueError(f"lookahead is 1 or 2 cards, got {lookahead}")
    if len(board) + lookahead > 5:
        raise ValueError(
            f"a board of {len(board)} cards has {5 - len(board)} card(s) to come, not {lookahead}"
        )
    known = (*hole, *board)
    unseen = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    pairs, completions, runs, unions = _layout(len(unseen), lookahead)
    board_key = KEY_INIT + int(_KEYS[list(board)].sum())
    board_flush = int(_FLUSH[list(board)].sum())
    opp_cards = unseen[pairs]
    opp_now = rank_from_keys(
        board_key + _KEYS[opp_cards].sum(axis=1), board_flush + _FLUSH[opp_cards].sum(axis=1)
    )
    my_now = evaluate_one(known)
    run_cards = unseen[completions]
    my_final = rank_from_keys(
        board_key + int(_KEYS[list(hole)].sum()) + _KEYS[run_cards].sum(axis=1),
        board_flush + int(_FLUSH[list(hole)].sum()) + _FLUSH[run_cards].sum(axis=1),
    )
    set_cards = unseen[_all_sets(len(unseen), 2 + lookahead)]
    set_ranks = rank_from_keys(
        board_key + _KEYS[set_cards].sum(axis=1), board_flush + _FLUSH[set_cards].sum(axis=1)
    )
    mine, theirs = my_final[runs], set_ranks[unions]
    final = np.stack(
        [
            np.count_nonzero(mine > theirs, axis=1),
            np.count_nonzero(mine == theirs, axis=1),
            np.count_nonzero(mine < theirs, axis=1),
        ],
        axis=1,
    ).astype(np.float64)
    w = (
        np.ones(len(pairs))
        if table is None
        else table[PAIR_INDEX[opp_cards[:, 0], opp_cards[:, 1]]]
    )
    now = np.where(opp_now < my_now, AHEAD, np.where(opp_now == my_now, TIED, BEHIND))
    hp = np.zeros((3, 3))
    np.add.at(hp, now, w[:, np.newaxis] * final)
    hp_total = np.bincount(now, weights=w * runs.shape[1], minlength=3).astype(np.float64)
    return hp, hp_total


@cache
def _all_sets(unseen: int, size: int) -> npt.NDArray[np.int64]:
    sets = _combinations(unseen, size)
    sets.flags.writeable = False
    return sets


def _ratios(hp: npt.NDArray[np.float64], total: npt.NDArray[np.float64]) -> tuple[float, float]:
    a, t, b = AHEAD, TIED, BEHIND
    p_den = total[b] + total[t] / 2
    n_den = total[a] + total[t] / 2
    ppot = (hp[b, a] + hp[b, t] / 2 + hp[t, a] / 2) / p_den if p_den > 0 else 0.0
    npot = (hp[a, b] + hp[a, t] / 2 + hp[t, b] / 2) / n_den if n_den > 0 else 0.0
    return float(ppot), float(npot)


def hand_potential(
    hole: Sequence[int],
    board: Sequence[int],
    weights: npt.ArrayLike | None = None,
    *,
    lookahead: int = 1,
) -> tuple[float, float]:
    """(PPOT, NPOT) of ``hole`` on ``board`` by exact ``lookahead``-card enumeration.

    Args:
        hole: The two hole cards.
        board: The flop (3 cards; ``lookahead`` 1 or 2) or the turn (4 cards; ``lookahead`` 1).
        weights: ``(1326,)`` opponent weight table, or ``None`` for uniform.
        lookahead: Cards to come that are enumerated: PPOT1/NPOT1 or PPOT2/NPOT2.

    Returns:
        PPOT, the chance to pull ahead when behind (or tied, counted half), and NPOT, the chance
        to fall behind when ahead; 0 when there is no case to pull ahead from (or fall from).

    Raises:
        ValueError: on bad cards or weights, on the river (nothing to come), or for
            ``lookahead=2`` on the turn.
    """
    return _ratios(*potential_counts(hole, board, weights, lookahead=lookahead))


def ppot1_all(
    board: Sequence[int], weights: npt.ArrayLike | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Exact (PPOT1, NPOT1) of every holding on the flop or turn ``board``, at once.

    Each holding ``h`` is rated as its owner sees the board: against the (weighted) holdings
    disjoint from it and the board, over the next cards disjoint from both; the same numbers
    as ``hand_potential(h, board, weights, lookahead=1)`` for every ``h``. One dense (holding x
    holding) comparison per next card accumulates, per pair, the sum of the final signs and the
    count of final wins; since every disjoint pair has the same number of next cards,
    ``HPTotal`` needs no per-card work. The reference that ``ppot_c`` is measured against.

    Returns:
        ``(ppot, npot)``, each ``(1326,)``; NaN for holdings that conflict with the board.

    Raises:
        ValueError: on a bad board or weights, or on the river.
    """
    if len(board) not in (3, 4):
        raise ValueError(f"PPOT1 needs a flop or turn board (3 or 4 cards), got {len(board)}")
    now = board_ranks(board)
    table = check_weights(weights)
    live = np.flatnonzero(now > 0)
    cards = HOLDINGS[live]
    w = np.ones(len(live)) if table is None else table[live]
    shared = cards[:, np.newaxis, :, np.newaxis] == cards[np.newaxis, :, np.newaxis, :]
    disjoint = ~shared.any(axis=(2, 3))
    now_sign = np.sign(now[live][:, np.newaxis] - now[live][np.newaxis, :])
    sign_sum = np.zeros((len(live), len(live)), dtype=np.int16)  # wins - losses after the card
    wins = np.zeros((len(live), len(live)), dtype=np.int16)
    for card in range(52):
        if card in board:
            continue
        ranks = board_ranks((*board, card))[live]
        ok = ranks > 0
        final = np.sign(ranks[:, np.newaxis] - ranks[np.newaxis, :]).astype(np.int8)
        final[~ok] = 0
        final[:, ~ok] = 0
        sign_sum += final
        wins += final > 0
    per_pair = 52 - len(board) - 4  # next cards disjoint from both holdings
    losses = wins - sign_sum
    weighted = np.where(disjoint, w[np.newaxis, :], 0.0)
    behind, tied, ahead = (weighted * (now_sign == s) for s in (-1, 0, 1))
    total = {s: m.sum(axis=1) * per_pair for s, m in ((-1, behind), (0, tied), (1, ahead))}
    ppot_num = (behind * (sign_sum + per_pair)).sum(axis=1) / 2 + (tied * wins).sum(axis=1) / 2
    npot_num = (ahead * (per_pair - sign_sum)).sum(axis=1) / 2 + (tied * losses).sum(axis=1) / 2
    p_den = total[-1] + total[0] / 2
    n_den = total[1] + total[0] / 2
    ppot_all = np.full(NUM_HOLDINGS, np.nan)
    npot_all = np.full(NUM_HOLDINGS, np.nan)
    ppot_all[live] = np.divide(ppot_num, p_den, out=np.zeros_like(p_den), where=p_den > 0)
    npot_all[live] = np.divide(npot_num, n_den, out=np.zeros_like(n_den), where=n_den > 0)
    return ppot_all, npot_all
