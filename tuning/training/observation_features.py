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

Hand strength (Loki's HS1, Papp 1998 section 5.2) and equity against a random holding
(``tuning.training.sampled_equity``) are the computed features: an MLP learns card combinations
slowly, HS is what the rule-based agents of the papers start from, and equity (which counts
the cards to come) is what a best response against card-independent bots bets on. Pre-flop
HS is 0 and the rank block carries the information. Both are computed for all rows at once.

Seats are the observation's: the learner is seat 0 (as in the env). An agent in another seat
rotates its observation first (``seat_relative``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.strength.batched import hand_strengths
from envs.cards import DECK_SIZE
from envs.observation import NO_CARD
from envs.rules import Action, Rules
from tuning.training.sampled_equity import EquityEstimator

__all__ = ["FeatureEncoder", "seat_relative"]

_SEAT_KEYS = ("bets", "contributions", "stacks", "folded")
"""Observation keys indexed by seat (``shown`` too, by pairs; the features do not read it)."""

_RANKS = 13
_STREETS = 4


class FeatureEncoder:
    """Flat ``float32`` features of the learner's observation under ``rules``.

    ``encode(obs)`` takes a batched observation (every key with a leading table axis, as
    Gymnasium's vector envs return it) and gives an ``(n, size)`` array; ``encode_one`` takes
    one observation of ``LimitHoldemEnv``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
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
        ends = np.cumsum(list(sizes.values()))
        self.blocks = {
            name: slice(int(end) - size, int(end))
            for (name, size), end in zip(sizes.items(), ends, strict=True)
        }
        """Where each block of features sits in a row."""
        self.size = int(ends[-1])
        self._equity = EquityEstimator()
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
        rows = np.arange(batch)
        blocks: list[npt.NDArray[np.float32]] = []

        ranks = hole >> 2
        high, low = ranks.max(axis=1), ranks.min(axis=1)
        blocks += [_one_hot(high, _RANKS), _one_hot(low, _RANKS)]
        pair = (high == low).astype(np.float32)
        suited = ((hole[:, 0] & 3) == (hole[:, 1] & 3)).astype(np.float32)
        blocks.append(np.stack([pair, suited], axis=1))

        cards = np.zeros((batch, DECK_SIZE), dtype=np.float32)
        cards[rows[:, None], hole] = 1.0
        board = np.asarray(obs["board"], dtype=np.int64)
        dealt = board != NO_CARD
        board_cards = np.zeros((batch, DECK_SIZE + 1), dtype=np.float32)
        board_cards[rows[:, None], board] = 1.0
        blocks += [cards, board_cards[:, :DECK_SIZE]]

        blocks.append(_one_hot(np.asarray(obs["street"]), _STREETS))
        blocks.append(_one_hot(np.asarray(obs["position"]), self.rules.num_seats))
        own = np.stack(
            [
                np.asarray(obs["pot"])[:, 0] / self.rules.num_seats,
                np.asarray(obs["to_call"])[:, 0],
                np.asarray(obs["contributions"])[:, 0],
                np.minimum(np.asarray(obs["stacks"])[:, 0], self._scale),
            ],
            axis=1,
        )
        blocks.append((own / self._scale).astype(np.float32))
        blocks.append(_one_hot(np.asarray(obs["num_bets"]), max(self.rules.max_bets) + 1))

        folded = np.asarray(obs["folded"], dtype=np.float32)
        opponents_in = (self.rules.num_seats - 1) - folded[:, 1:].sum(axis=1)
        blocks.append((opponents_in / (self.rules.num_seats - 1))[:, None].astype(np.float32))
        blocks.append(self._betting(np.asarray(obs["history"])))

        board_len = dealt.sum(axis=1)
        power = np.maximum(opponents_in, 1)
        hs = hand_strengths(hole, board, board_len)
        blocks.append(np.stack([hs, hs**power], axis=1).astype(np.float32))
        equity = hs.copy()  # on the river, equity against a random holding is HS1
        early = board_len < 5
        equity[early] = self._equity.equity(hole[early], board[early], board_len[early])
        blocks.append(np.stack([equity, equity**power], axis=1).astype(np.float32))
        return np.concatenate(blocks, axis=1)

    def _betting(self, history: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Per street: the learner's raises, the opponents' raises and calls, over the cap."""
        street, seat, action = history[..., 0], history[..., 1], history[..., 2]
        mine = seat == 0
        raises = action == Action.RAISE
        calls = action == Action.CALL
        columns = []
        for s in range(_STREETS):
            on = street == s
            columns += [
                (on & raises & mine).sum(axis=1),
                (on & raises & ~mine).sum(axis=1),
                (on & calls & ~mine).sum(axis=1),
            ]
        counts = np.stack(columns, axis=1).astype(np.float32)
        return counts / self._betting_scale[None, :]


def _one_hot(values: npt.ArrayLike, size: int) -> npt.NDArray[np.float32]:
    out = np.zeros((np.shape(values)[0], size), dtype=np.float32)
    out[np.arange(out.shape[0]), np.asarray(values, dtype=np.int64)] = 1.0
    return out


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
