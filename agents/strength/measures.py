"""Hand-strength toolkit shared by every agent: HS, HSn, PPOT/NPOT, EHS and EHS'.

All functions are exact enumerations written as array code (no Python loop over holdings),
weighted by an opponent weight table or uniform. A weight table is a ``(1326,)`` array over
the holdings of ``agents.strength.holdings`` (``HOLDINGS[i]`` is a card pair); entries of
holdings that conflict with the known cards are ignored, so one table serves every street.

* ``hand_strength`` -- HS1 = (ahead + tied / 2) / all opponent holdings (Papp 1998 section 5.2,
  Pena 1999 section 3.2); ``opponents=n`` gives HSn = HS1 ** n (Papp eq. 5.3).
* ``hand_potential`` -- (PPOT, NPOT) by one- or two-card look-ahead, "tied/2" denominators
  (Papp section 5.3, Billings et al. AAAI 1998); in ``agents.strength.potential``.
* ``ehs`` and ``ehs_prime`` -- effective hand strength with and without negative potential;
  Loki bets on EHS' = HSn + (1 - HSn) * PPOT (Papp eq. 6.4).
* ``hand_strength_all`` and ``ppot1_all`` -- HS1 and exact PPOT1 of every holding at once, as
  the opponent holding it sees the board (for re-weighting); ``ppot_c`` is Papp's fast
  heuristic estimate of PPOT1 (``agents.strength.ppotc``).
* ``field_weights`` -- the "field array" of several opponents (Papp section 7.3).

>>> from envs.cards import parse_cards
>>> round(hand_strength(parse_cards("AhQc"), parse_cards("3h4cJh")), 3)  # Papp Table 5.1
0.585
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import (
    HOLDINGS,
    NUM_HOLDINGS,
    board_ranks,
    check_hand,
    check_weights,
    dead_mask,
)
from envs.evaluator import evaluate_one
from envs.validation import whole_number

__all__ = ["ehs", "ehs_prime", "field_weights", "hand_strength", "hand_strength_all"]

_RANK_SLOT = 8192  # > 7462: packs (card, rank) into one sortable integer

Floats = TypeVar("Floats", float, npt.NDArray[np.float64])


def hand_strength(
    hole: Sequence[int],
    board: Sequence[int],
    weights: npt.ArrayLike | None = None,
    *,
    opponents: int = 1,
) -> float:
    """HSn of ``hole`` on ``board``: HS1 against the weighted holdings, to the power n.

    Args:
        hole: The two hole cards (card ids 0..51).
        board: The 3 to 5 community cards.
        weights: ``(1326,)`` opponent weight table, or ``None`` for uniform.
        opponents: n, the number of opponents (HSn = HS1 ** n, Papp eq. 5.3).

    Returns:
        ``(ahead + tied / 2) / total`` over the opponent holdings disjoint from the known cards
        (weighted sums), raised to ``opponents``.

    Raises:
        ValueError: on bad cards or weights, ``opponents < 1``, or live weights summing to 0.
    """
    hole, board = check_hand(hole, board)
    opponents = whole_number("opponents", opponents)
    if opponents < 1:
        raise ValueError(f"opponents must be at least 1, got {opponents}")
    table = check_weights(weights)
    ranks = board_ranks(board)
    live = ~dead_mask(hole)
    live &= ranks > 0
    mine = evaluate_one((*hole, *board))
    opp = ranks[live]
    w = np.ones(len(opp)) if table is None else table[live]
    total = float(w.sum())
    if total <= 0.0:
        raise ValueError("the weights of the possible opponent holdings sum to zero")
    score = float(w[opp < mine].sum()) + 0.5 * float(w[opp == mine].sum())
    hs1 = score / total
    return float(hs1**opponents)


def hand_strength_all(
    board: Sequence[int], weights: npt.ArrayLike | None = None
) -> npt.NDArray[np.float64]:
    """HS1 of every holding on ``board``, each against the (weighted) holdings disjoint from it.

    Each holding is rated as its owner sees the board: the opponents' holdings exclude only the
    board and the holding itself. To exclude further cards (e.g. our own hole cards), give
    their holdings weight 0. Exact, by sorting and prefix sums with a card-removal correction:
    the weight of the holdings worse than ``h = {a, b}`` and disjoint from it is (all worse)
    - (worse containing ``a``) - (worse containing ``b``); ties add ``h`` itself back once.

    Returns:
        ``(1326,)`` HS1 values; NaN for holdings that conflict with the board (and where every
        possible opponent holding has weight 0).
    """
    ranks = board_ranks(board)
    table = check_weights(weights)
    live = np.flatnonzero(ranks > 0)
    r = ranks[live].astype(np.int64)
    w = np.ones(len(live)) if table is None else table[live]
    # Totals over every live holding: weight strictly below / equal to each rank.
    order = np.argsort(r, kind="stable")
    sorted_r, cum = r[order], np.concatenate([[0.0], np.cumsum(w[order])])
    below_all = cum[np.searchsorted(sorted_r, r, side="left")]
    upto_all = cum[np.searchsorted(sorted_r, r, side="right")]
    # The same per card: each live holding is listed under both of its cards.
    cards = HOLDINGS[live]
    inc_key = np.concatenate([cards[:, 0], cards[:, 1]]) * _RANK_SLOT + np.concatenate([r, r])
    inc_w = np.concatenate([w, w])
    order = np.argsort(inc_key, kind="stable")
    inc_key, cum_inc = inc_key[order], np.concatenate([[0.0], np.cumsum(inc_w[order])])

    def per_card(card: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float64], ...]:
        base = card * _RANK_SLOT
        start = cum_inc[np.searchsorted(inc_key, base, side="left")]
        below = cum_inc[np.searchsorted(inc_key, base + r, side="left")] - start
        upto = cum_inc[np.searchsorted(inc_key, base + r, side="right")] - start
        total = cum_inc[np.searchsorted(inc_key, base + _RANK_SLOT, side="left")] - start
        return below, upto - below, total

    below_a, tied_a, total_a = per_card(cards[:, 0])
    below_b, tied_b, total_b = per_card(cards[:, 1])
    below = below_all - below_a - below_b
    tied = (upto_all - below_all) - tied_a - tied_b + w
    total = cum[-1] - total_a - total_b + w
    result = np.full(NUM_HOLDINGS, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = (below + 0.5 * tied) / total
    # Rounding in the prefix sums can leave a tiny negative remainder: clip to [0, 1].
    result[live] = np.where(total > 1e-12, np.clip(values, 0.0, 1.0), np.nan)
    return result


def ehs(hs: Floats, ppot: Floats, npot: Floats) -> Floats:
    """Effective hand strength with negative potential: HS (1 - NPOT) + (1 - HS) PPOT.

    Billings, Papp, Schaeffer & Szafron, AAAI 1998.
    """
    return hs * (1.0 - npot) + (1.0 - hs) * ppot


def ehs_prime(hs: Floats, ppot: Floats) -> Floats:
    """Loki's optimistic EHS' = HS + (1 - HS) PPOT (Papp 1998 eq. 6.4; NPOT ignored)."""
    return hs + (1.0 - hs) * ppot


def field_weights(tables: Sequence[npt.ArrayLike]) -> npt.NDArray[np.float64]:
    """Average of the normalised weight tables of several opponents (Papp section 7.3).

    Each table is scaled to sum 1 first, so no opponent counts more for having larger raw
    weights. HS against the field is then HS1 of the field array, raised to the number of
    opponents.

    Raises:
        ValueError: without tables, or on a malformed or all-zero table.
    """
    if not tables:
        raise ValueError("the field array needs at least one weight table")
    total = np.zeros(NUM_HOLDINGS)
    for weights in tables:
        table = check_weights(weights)
        assert table is not None
        mass = float(table.sum())
        if mass <= 0.0:
            raise ValueError("a weight table sums to zero")
        total += table / mass
    field: npt.NDArray[np.float64] = total / len(tables)
    return field
