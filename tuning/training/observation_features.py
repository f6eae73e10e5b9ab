"""The learner's input: the env's ``Dict`` observation turned into one flat float vector.

Neural policies need a fixed-size vector of moderate numbers, not card ids and raw chip counts.
``FeatureEncoder`` computes it from the observation alone (so from the seat's ``PlayerView``
alone, see ``envs.observation``), for one observation or a batch, identically in training
(``tuning.training.sb3_env``) and in evaluation (``tuning.training.policy``).

| block | size | meaning |
|---|---|---|
| high / low hole rank | 13 + 13 | one-hot ranks of the two hole cards |
| pair, suited | 2 | 1 if the hole cards pair / share a suit |
| hole cards, board cards | 52 + 52 | one-hot card ids (suits matter for draws) |
| street | 4 | one-hot |
| position | n | one-hot, 0 = first seat left of the button |
| pot | 1 | chips / the most all seats can commit |
| to call, own contribution, own stack | 3 | chips / the most one seat can commit |
| bets this round | max_bets + 1 | one-hot |
| opponents in | 1 | fraction of the opponents that have not folded |
| raises and calls per street | 12 | learner's and opponents' raises / cap, opponents' calls
  (checks included) / their most |
| hand strength | 2 | post-flop HS against one random holding, and HS ** opponents in |
| equity | 2 | equity against one random holding (all streets), and equity ** opponents in |
| range (``ranged=True`` only) | 3 | strength against the range a generic model of the opponents'
  betting leaves, the same ** opponents in, and the range's relative weight |

Hand strength (Loki's HS1, Papp 1998 section 5.2) and equity against a random holding
(``tuning.training.sampled_equity``) are the computed features: an MLP learns card combinations
slowly, HS is what the rule-based agents of the papers start from, and equity (which counts
the cards to come) is what a best response against card-independent bots bets on. Pre-flop
HS is 0 and the rank block carries the information. Both are computed for all rows at once,
and only for cards the process has not seen yet (``tuning.training.strength_memo``).

The range block (``agents.strength.ranged``) reads the hand's public betting as the LBR reads
an opponent's white-box probabilities, but with one generic rule for every opponent: it is
off by default, and a network's input width says which encoder it was trained on.

Seats are the observation's: the learner is seat 0 (as in the env). An agent in another seat
rotates its observation first (``seat_relative``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, readonly
from agents.strength.batched import hand_strengths
from agents.strength.board_memo import hand_strengths_on_boards
from agents.strength.ranged import (
    CALLS,
    CHECKS,
    OPPONENT_RAISES,
    OWN_RAISES,
    RANGE_FEATURES,
    action_counts,
    percentiles,
    ranged_and_hand_strengths,
)
from envs.cards import DECK_SIZE
from envs.observation import NO_CARD
from envs.rules import Rules
from tuning.training.sampled_equity import EquityEstimator
from tuning.training.strength_memo import card_keys, shared_memo

__all__ = ["FeatureEncoder", "seat_relative"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

_SEAT_KEYS = ("bets", "contributions", "stacks", "folded")
"""Observation keys indexed by seat (``shown`` too, by pairs; the features do not read it)."""

_RANKS = 13
_STREETS = 4
_FIXED = ("ranks", "pair_suited", "cards", "street", "position", "chips", "bets", "opponents_in")
"""The blocks ``_fixed_blocks`` fills, in the order of its offsets."""
_SCALAR_KEYS = ("street", "position", "pot", "to_call", "num_bets")
"""One number per row, in the order ``_fixed_blocks`` takes them."""


@kernel
def _fixed_blocks(
    hole: Ints,
    board: Ints,
    street: Ints,
    position: Ints,
    pot: Ints,
    to_call: Ints,
    num_bets: Ints,
    contribution: Ints,
    stack: Ints,
    folded: npt.NDArray[np.int8],
    offsets: Ints,
    num_seats: int,
    scale: float,
    out: npt.NDArray[np.float32],
    opponents_in: npt.NDArray[np.float32],
) -> None:
    # Each value takes the float64 operations NumPy took block by block, then one rounding to
    # float32, so the features are the same to the bit.
    ranks, pair_suited, cards, streets = offsets[0], offsets[1], offsets[2], offsets[3]
    positions, chips, bets, opponents = offsets[4], offsets[5], offsets[6], offsets[7]
    for row in range(hole.shape[0]):
        first, second = hole[row, 0], hole[row, 1]
        if not (
            0 <= first < DECK_SIZE
            and 0 <= second < DECK_SIZE
            and 0 <= street[row] < _STREETS
            and 0 <= position[row] < num_seats
            and 0 <= num_bets[row] < opponents - bets
        ):
            raise ValueError("an observation's cards, street, position or bets are out of range")
        high, low = max(first >> 2, second >> 2), min(first >> 2, second >> 2)
        out[row, ranks + high] = 1.0
        out[row, ranks + _RANKS + low] = 1.0
        out[row, pair_suited] = 1.0 if high == low else 0.0
        out[row, pair_suited + 1] = 1.0 if (first & 3) == (second & 3) else 0.0
        out[row, cards + first] = 1.0
        out[row, cards + second] = 1.0
        for card in board[row]:
            if not 0 <= card <= NO_CARD:
                raise ValueError("an observation's board card is out of range")
            if card != NO_CARD:
                out[row, cards + DECK_SIZE + card] = 1.0
        out[row, streets + street[row]] = 1.0
        out[row, positions + position[row]] = 1.0
        out[row, chips] = pot[row] / num_seats / scale
        out[row, chips + 1] = to_call[row] / scale
        out[row, chips + 2] = contribution[row] / scale
        out[row, chips + 3] = min(float(stack[row]), scale) / scale
        out[row, bets + num_bets[row]] = 1.0
        gone = np.float32(0.0)
        for seat in range(1, num_seats):
            gone += np.float32(folded[row, seat])
        opponents_in[row] = np.float32(num_seats - 1) - gone
        out[row, opponents] = opponents_in[row] / np.float32(num_seats - 1)


class FeatureEncoder:
    """Flat ``float32`` features of the learner's observation under ``rules``.

    ``encode(obs)`` takes a batched observation (every key with a leading table axis, as
    Gymnasium's vector envs return it) and gives an ``(n, size)`` array; ``encode_one`` takes
    one observation of ``LimitHoldemEnv``.
    """

    def __init__(self, rules: Rules, *, ranged: bool = False, shared_boards: bool = False) -> None:
        self.rules = rules
        self.ranged = ranged
        self.shared_boards = shared_boards
        """Hand strength from the process's memo of boards (``agents.strength.board_memo``):
        the same numbers, cheaper when another encoder of the same tables ranked the boards
        (the privileged critic's, beside the range features); dearer when none did."""
        n = rules.num_seats
        sizes = {
            "ranks": 2 * _RANKS,
            "pair_suited": 2,
            "cards": 2 * DECK_SIZE,
            "street": _STREETS,
            "position": n,
            "chips": 4,
            "bets": max(rules.max_bets) + 1,
            "opponents_in": 1,
            "betting": 3 * _STREETS,
            "hand_strength": 2,
            "equity": 2,
        }
        if ranged:
            sizes["range"] = RANGE_FEATURES + 1
        ends = np.cumsum(list(sizes.values()))
        self.blocks = {
            name: slice(int(end) - size, int(end))
            for (name, size), end in zip(sizes.items(), ends, strict=True)
        }
        """Where each block of features sits in a row."""
        self._starts = {name: block.start for name, block in self.blocks.items()}
        self._offsets = np.array([self._starts[name] for name in _FIXED], dtype=np.int64)
        self.size = int(ends[-1])
        self._equity = EquityEstimator()
        self._pct = percentiles(self._equity.preflop_table()) if ranged else None
        self._memo = shared_memo(self._equity.samples, self._equity.seed)
        self._scale = float(rules.max_commitment)
        caps = np.array(rules.max_bets, dtype=np.float32)
        # Most raises by anyone per street is the cap; most opponents' calls, a call by each
        # of them after each bet plus a first check each.
        self._betting_scale = np.stack([caps, caps, (n - 1) * (caps + 1)], axis=1).reshape(-1)

    def encode_one(self, obs: dict[str, Any]) -> npt.NDArray[np.float32]:
        """Features of one (unbatched) observation, shape ``(size,)``."""
        batched = {key: np.asarray(value)[None] for key, value in obs.items()}
        row: npt.NDArray[np.float32] = self.encode(batched)[0]
        return row

    def encode(self, obs: dict[str, Any]) -> npt.NDArray[np.float32]:
        """Features of a batch of observations, shape ``(tables, size)``."""
        hole = np.asarray(obs["hole"], dtype=np.int64)
        batch = hole.shape[0]
        # One array filled block by block, the fixed blocks in one compiled loop: evaluation
        # encodes a few rows at a time, so the cost is the count of NumPy calls, not their size.
        out = np.zeros((batch, self.size), dtype=np.float32)
        at = self._starts

        board = np.asarray(obs["board"], dtype=np.int64)
        opponents_in = np.empty(batch, dtype=np.float32)
        street, position, pot, to_call, num_bets = (
            readonly(obs[key], np.int64).reshape(batch) for key in _SCALAR_KEYS
        )
        _fixed_blocks(
            readonly(hole, np.int64),
            readonly(board, np.int64),
            street,
            position,
            pot,
            to_call,
            num_bets,
            readonly(np.asarray(obs["contributions"])[:, 0], np.int64),
            readonly(np.asarray(obs["stacks"])[:, 0], np.int64),
            readonly(obs["folded"], np.int8),
            self._offsets,
            self.rules.num_seats,
            self._scale,
            out,
            opponents_in,
        )
        history = np.asarray(obs["history"])
        counts = action_counts(history)
        out[:, self.blocks["betting"]] = self._betting(counts)

        power = np.maximum(opponents_in, 1)
        known_hs = None
        if self._pct is not None:
            ranged, known_hs = ranged_and_hand_strengths(
                hole, board, street, history, self._pct, counts=counts
            )
        hs, equity = self._strengths(hole, board, (board != NO_CARD).sum(axis=1), known_hs)
        out[:, at["hand_strength"]] = hs
        out[:, at["hand_strength"] + 1] = hs**power
        out[:, at["equity"]] = equity
        out[:, at["equity"] + 1] = equity**power
        if self._pct is not None:
            out[:, at["range"]] = ranged[:, 0]
            out[:, at["range"] + 1] = ranged[:, 0] ** power
            out[:, at["range"] + 2] = ranged[:, 1]
        return out

    def _strengths(
        self,
        hole: npt.NDArray[np.int64],
        board: npt.NDArray[np.int64],
        board_len: Ints,
        known_hs: Floats | None = None,
    ) -> tuple[Floats, Floats]:
        """Hand strength and equity of every row, from the memo where it knows the cards;
        ``known_hs``, every row's HS1 when the caller has it (the range block ranks the
        board's holdings anyway), saves ranking them again for the rows the memo lacks."""
        hs = np.zeros(len(hole))
        equity = np.zeros(len(hole))
        preflop = board_len == 0
        if preflop.any():
            equity[preflop] = self._equity.preflop_equity(hole[preflop])
        rows = np.flatnonzero(~preflop)
        if not rows.size:
            return hs, equity
        keys = card_keys(hole[rows], board[rows])
        found, values = self._memo.lookup(keys)
        missing = np.flatnonzero(~found)
        if missing.size:
            new = rows[missing]
            if known_hs is not None:
                strength = known_hs[new]
            elif self.shared_boards:
                strength = hand_strengths_on_boards(hole[new], board[new], board_len[new])
            else:
                strength = hand_strengths(hole[new], board[new], board_len[new])
            fresh = np.stack([strength, strength], axis=1)  # on the river, equity is HS1
            early = np.flatnonzero(board_len[new] < 5)
            fresh[early, 1] = self._equity.equity(
                hole[new[early]], board[new[early]], board_len[new[early]]
            )
            self._memo.store(keys[missing], fresh)
            values[missing] = fresh
        hs[rows], equity[rows] = values[:, 0], values[:, 1]
        return hs, equity

    def _betting(self, counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Per street: the learner's raises, the opponents' raises and calls (checks
        included), over the cap, from the history's ``action_counts``."""
        kinds = counts[:, :, [OWN_RAISES, OPPONENT_RAISES, CALLS]]
        kinds[:, :, 2] += counts[:, :, CHECKS]
        kinds = kinds.reshape(len(counts), -1)
        scaled: npt.NDArray[np.float32] = kinds.astype(np.float32) / self._betting_scale
        return scaled


def seat_relative(obs: dict[str, Any], seat: npt.ArrayLike) -> dict[str, Any]:
    """A batched observation of ``seat`` (one per row) rotated so that it is seat 0.

    Seat-indexed arrays are rolled (row ``i``'s entry 0 becomes seat ``seat[i]``'s) and the
    history's seats renumbered ``(s - seat) % n``; the other keys are kept. ``FeatureEncoder``
    reads seat 0 as its own, so an agent outside seat 0 encodes this instead.
    """
    seats = np.asarray(seat, dtype=np.int64).reshape(-1)
    n = np.asarray(obs["folded"]).shape[1]
    rows = np.arange(len(seats))[:, np.newaxis]
    order = (np.arange(n)[np.newaxis, :] + seats[:, np.newaxis]) % n
    rotated = dict(obs)
    for key in _SEAT_KEYS:
        rotated[key] = np.asarray(obs[key])[rows, order]
    history = np.array(obs["history"], dtype=np.int64)
    logged = history[..., 1] >= 0
    history[..., 1] = np.where(logged, (history[..., 1] - seats[:, np.newaxis]) % n, -1)
    rotated["history"] = history
    return rotated
