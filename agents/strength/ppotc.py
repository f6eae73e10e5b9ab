"""PPOTc: Papp's crude, fast estimate of the one-card positive potential of every holding.

Post-flop re-weighting needs EHS' = HS1 + (1 - HS1) PPOT for about a thousand opponent holdings
at every observed action, so Papp (1998 section 7.2.3) replaced exact PPOT by "a crude but fast
estimating function (PPOTc)" that counts *outs*: next cards that turn the holding into a likely
winner, each worth up to one out, divided by the number of unseen cards. His example: a
four-flush with two suited board cards has 9 outs; with three suited board cards each flush card
is worth 0.5 (suited hole card a deuce) to 1 out (an ace), because other flush draws are likely.
He reports PPOTc within 0.05 of PPOT1 95% of the time on random unweighted cases.

Our reconstruction (the thesis gives the idea, not the function): a next card is an *out* of a
kind when it raises the holding's hand category with the help of a hole card -- pairing a hole
card (top pair or lower), one pair to two pair or trips, a flush (worth 0.5 .. 1 by the suited
hole card's rank when the board then shows four of the suit, as Papp says), a straight, a
straight or flush the board nearly makes itself ("shared"), a full house or better -- and

    PPOTc = sum over kinds of weight[kind] x outs[kind] / unseen cards
            + base value of the holding's class now (high card, one pair).

The weights are ours, fitted per street (``OutWeights``, ``holdem-lab loki-fit ppotc``): the
fit gives pairing outs no weight of their own -- every high-card holding has about six of them,
and a base value per class explains exact PPOT1 better -- and near-full weight to flush and
straight outs, as Papp's example. On held-out random boards PPOTc is within 0.05 of PPOT1 for
97.7% of holdings on the flop and 92.7% on the turn (Papp: 95%). Everything is array code over
the ``(1326, next card)`` grid of evaluator ranks (a few ms per board, cached per board).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from agents.strength.holdings import (
    HOLDING_FLUSH,
    HOLDING_KEYS,
    HOLDINGS,
    NUM_HOLDINGS,
    board_ranks,
    check_board,
)
from envs.evaluator import CARD_KEYS, FLUSH_KEYS, KEY_INIT, HandCategory, category, rank_from_keys

__all__ = ["FLOP_WEIGHTS", "TURN_WEIGHTS", "OutWeights", "out_features", "ppot_c"]


@dataclass(frozen=True, kw_only=True)
class OutWeights:
    """Worth of each kind of out (fraction of unseen cards) and base values, for one street."""

    top_pair: float
    """A card pairing a hole card into the board's top pair (ours, fitted)."""
    low_pair: float
    """A card pairing a hole card below the board's top rank (ours, fitted)."""
    two_pair_or_trips: float
    """A card turning one pair into two pair or trips with a hole card (ours, fitted)."""
    flush: float
    """A flush card with at most three suited board cards after it (Papp: 1 out)."""
    four_suited_flush: float
    """Scale of a flush card making four suited board cards, worth 0.5..1 by hole rank (Papp)."""
    straight: float
    """A card completing a straight that the board does not nearly make itself (ours)."""
    shared: float
    """A straight or flush card after which the board shows four (five) to it (ours)."""
    full_house: float
    """A card making a full house or quads (ours, fitted)."""
    high_card_base: float
    """PPOTc of a high-card holding before outs: pulling ahead of worse high cards (ours)."""
    pair_base: float
    """PPOTc of a one-pair holding before outs (ours, fitted)."""

    def vector(self) -> npt.NDArray[np.float64]:
        """The weights in ``out_features`` column order."""
        return np.array([getattr(self, f.name) for f in fields(self)])


_KEYS = CARD_KEYS.view(np.int64)
_FLUSH_KEYS = FLUSH_KEYS.view(np.int64)
_PAIR = int(HandCategory.PAIR)
_TWO_PAIR = int(HandCategory.TWO_PAIR)
_TRIPS = int(HandCategory.THREE_OF_A_KIND)
_STRAIGHT = int(HandCategory.STRAIGHT)
_FLUSH = int(HandCategory.FLUSH)
_FULL_HOUSE = int(HandCategory.FULL_HOUSE)
_QUADS = int(HandCategory.FOUR_OF_A_KIND)
_STRAIGHT_FLUSH = int(HandCategory.STRAIGHT_FLUSH)
_ROWS = np.arange(NUM_HOLDINGS)[:, np.newaxis]
_CONTAINS = np.zeros((NUM_HOLDINGS, 52), dtype=bool)
_CONTAINS[_ROWS, HOLDINGS] = True
"""Whether holding ``i`` contains card ``c``."""
_HOLDS_RANK = np.zeros((NUM_HOLDINGS, 13), dtype=bool)
_HOLDS_RANK[_ROWS, HOLDINGS >> 2] = True
"""Whether holding ``i`` has a card of rank ``r``."""
_TOP_IN_SUIT = np.full((NUM_HOLDINGS, 4), -1, dtype=np.int64)
for _card in (0, 1):  # the higher card comes second in HOLDINGS order, so it wins ties of suit
    _TOP_IN_SUIT[np.arange(NUM_HOLDINGS), HOLDINGS[:, _card] & 3] = HOLDINGS[:, _card] >> 2
"""Highest hole rank of holding ``i`` in suit ``s`` (-1 if none)."""


# Fitted by ``holdem-lab loki-fit ppotc --boards 40 --seed 1998`` (non-negative least squares
# against exact PPOT1 on 40 random boards per street; agreement measured on 40 others).
FLOP_WEIGHTS = OutWeights(
    top_pair=0.0,
    low_pair=0.0,
    two_pair_or_trips=0.235,
    flush=0.980,
    four_suited_flush=0.943,
    straight=0.969,
    shared=0.778,
    full_house=0.687,
    high_card_base=0.082,
    pair_base=0.067,
)
"""PPOTc weights on the flop: |PPOTc - PPOT1| <= 0.05 for 97.7% of held-out holdings."""
TURN_WEIGHTS = OutWeights(
    top_pair=0.0,
    low_pair=0.0,
    two_pair_or_trips=0.080,
    flush=0.946,
    four_suited_flush=0.884,
    straight=0.917,
    shared=0.710,
    full_house=0.628,
    high_card_base=0.080,
    pair_base=0.086,
)
"""PPOTc weights on the turn: |PPOTc - PPOT1| <= 0.05 for 92.7% of held-out holdings."""


def ppot_c(board: Sequence[int]) -> npt.NDArray[np.float64]:
    """PPOTc of every holding on the flop or turn ``board`` (NaN where it conflicts).

    Cached per board (read-only result). ``ValueError`` on a bad board or on the river.
    """
    check_board(board)
    if len(board) not in (3, 4):
        raise ValueError(f"PPOTc needs a flop or turn board (3 or 4 cards), got {len(board)}")
    return _ppot_c(tuple(sorted(int(c) for c in board)))


@lru_cache(maxsize=256)
def _ppot_c(board: tuple[int, ...]) -> npt.NDArray[np.float64]:
    features, live = out_features(board)
    weights = FLOP_WEIGHTS if len(board) == 3 else TURN_WEIGHTS
    result = np.full(NUM_HOLDINGS, np.nan)
    result[live] = np.clip(features[live] @ weights.vector(), 0.0, 1.0)
    result.flags.writeable = False
    return result


def out_features(
    board: tuple[int, ...],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``(1326, 10)`` out counts per holding (over the unseen cards) and the live mask.

    Columns follow ``OutWeights`` fields: the fraction of the unseen cards that are outs of each
    kind, then indicators of holding high card / one pair now.
    """
    now = board_ranks(board)
    live = now > 0
    cards = list(board)
    rest = np.array([c for c in range(52) if c not in board])
    # Ranks of every holding with every next card, in one evaluator call: (1326, cards).
    ok = live[:, np.newaxis] & ~_CONTAINS[:, rest]
    keys = KEY_INIT + _KEYS[cards].sum() + HOLDING_KEYS[:, np.newaxis] + _KEYS[rest]
    masks = _FLUSH_KEYS[cards].sum() + HOLDING_FLUSH[:, np.newaxis] + _FLUSH_KEYS[rest]
    nxt = np.ones(ok.shape, dtype=np.int32)
    nxt[ok] = rank_from_keys(keys[ok], masks[ok])
    cat_now = category(np.where(live, now, 1))
    # The category after the card where it improves (and the card is live), else -1.
    code = np.where(ok & (category(nxt) > cat_now[:, np.newaxis]), category(nxt), -1)
    card_rank, card_suit = rest >> 2, rest & 3
    on_board = np.array(board) >> 2
    # A card pairing a board rank makes the board's pair, not ours.
    own_pair = _HOLDS_RANK[:, card_rank] & ~np.isin(card_rank, on_board)
    to_pair = (code == _PAIR) & own_pair
    top = card_rank >= on_board.max()
    improve = ((code == _TWO_PAIR) | (code == _TRIPS)) & own_pair & (cat_now == _PAIR)[:, None]
    # Flushes: the board cards of the card's suit after it decide how shared the flush is.
    board_after = np.bincount(np.array(board) & 3, minlength=4)[card_suit] + 1
    flush = (code == _FLUSH) | (code == _STRAIGHT_FLUSH)
    four = board_after == 4
    # Papp: with three suited board cards a flush card is worth 0.5 (deuce) .. 1 (ace) out.
    hole_top = _TOP_IN_SUIT[:, card_suit[four]]
    four_flush = np.where(flush[:, four], 0.5 + hole_top / 24.0, 0.0).sum(axis=1)
    straight = code == _STRAIGHT
    draw = _board_straight_draw(board, card_rank)
    counts = [
        np.count_nonzero(to_pair[:, top], axis=1),
        np.count_nonzero(to_pair[:, ~top], axis=1),
        np.count_nonzero(improve, axis=1),
        np.count_nonzero(flush[:, board_after <= 3], axis=1),
        four_flush,
        np.count_nonzero(straight[:, ~draw], axis=1),
        np.count_nonzero(flush[:, board_after >= 5], axis=1)
        + np.count_nonzero(straight[:, draw], axis=1),
        np.count_nonzero((code == _FULL_HOUSE) | (code == _QUADS), axis=1),
    ]
    unseen = len(rest) - 2
    columns = [np.asarray(c, dtype=np.float64) / unseen for c in counts]
    columns += [(cat_now == 0).astype(np.float64), (cat_now == _PAIR).astype(np.float64)]
    return np.stack(columns, axis=1), live


def _board_straight_draw(
    board: tuple[int, ...], card_rank: npt.NDArray[np.int64]
) -> npt.NDArray[np.bool_]:
    """Whether the board plus each next card holds four ranks of some five-rank straight."""
    present = np.zeros((len(card_rank), 14), dtype=bool)  # index 0 = ace low, 1..13 = 2..A
    for card in board:
        present[:, (card >> 2) + 1] = True
    present[np.arange(len(card_rank)), card_rank + 1] = True
    present[:, 0] = present[:, 13]
    windows = np.stack([present[:, i : i + 5].sum(axis=1) for i in range(10)], axis=1)
    result: npt.NDArray[np.bool_] = windows.max(axis=1) >= 4
    return result
