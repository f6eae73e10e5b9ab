"""The learner's observation: a Gymnasium ``Dict`` space and the encoding of a ``PlayerView``.

The observation is built from the learner's ``PlayerView`` alone, so it cannot hold more than
the seat may know: opponents' hole cards appear only in ``shown``, and only once shown down.
Seats are absolute seat numbers; the learner always sits in seat 0.

| key | space | meaning |
|---|---|---|
| ``hole`` | ``MultiDiscrete([52, 52])`` | own hole cards (card ids, see ``envs.cards``) |
| ``board`` | ``MultiDiscrete([53] * 5)`` | board cards in dealing order, 52 = not dealt yet |
| ``street`` | ``Discrete(4)`` | pre-flop, flop, turn, river (``Street``) |
| ``button`` | ``Discrete(n)`` | seat of the button |
| ``position`` | ``Discrete(n)`` | 0 = first seat left of the button ... n - 1 = the button |
| ``pot`` | ``Box(0, T, (1,), int64)`` | chips committed by all seats, this round included |
| ``to_call`` | ``Box(0, T, (1,), int64)`` | chips the learner must add to call (0: may check) |
| ``num_bets`` | ``Discrete(max(max_bets) + 1)`` | bets this round (the big blind is the first) |
| ``bets`` | ``Box(0, T, (n,), int64)`` | chips each seat put in this round |
| ``contributions`` | ``Box(0, T, (n,), int64)`` | chips each seat put in this hand |
| ``stacks`` | ``Box(0, T, (n,), int64)`` | chips each seat has behind |
| ``folded`` | ``MultiBinary(n)`` | 1 for seats that folded (the others are still in) |
| ``history`` | ``Box(-1, hi, (H, 4), int64)`` | public actions: street, seat, action, chips |
| ``shown`` | ``MultiDiscrete([53] * 2n)`` | seat s's cards at ``2s, 2s+1`` once shown, else 52 |

``T`` is the total of the starting stacks; ``history`` rows past the last action are -1, and
``H`` bounds the actions of a hand (``history_length``). Blinds are not actions: they show in
``bets`` and ``contributions``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envs.rules import Rules
from envs.view import PlayerView

__all__ = ["NO_CARD", "encode_view", "history_length", "observation_space"]

NO_CARD = 52
"""Placeholder for a card not (yet) visible."""

HISTORY_COLUMNS = 4
"""street, seat, action, chips."""


def history_length(rules: Rules) -> int:
    """Most public actions one hand can have under ``rules``.

    A round starts with at most ``n`` seats to act; each bet or raise gives at most ``n - 1``
    seats a new turn. Pre-flop the big blind is the first bet, so one raise fewer fits.
    """
    n = rules.num_seats
    raises = (rules.max_bets[0] - 1, *rules.max_bets[1:])
    return sum(n + r * (n - 1) for r in raises)


def chip_total(rules: Rules) -> int:
    """All chips at the table at the start of a hand: the bound of every chip field."""
    return sum(rules.starting_stacks)


def observation_space(rules: Rules) -> spaces.Dict:
    """The ``Dict`` space of the learner's observation under ``rules`` (see the module table)."""
    n = rules.num_seats
    total = chip_total(rules)

    def chips(size: int) -> spaces.Box:
        return spaces.Box(low=0, high=total, shape=(size,), dtype=np.int64)

    history_high = np.broadcast_to(
        np.array([3, n - 1, 2, total], dtype=np.int64), (history_length(rules), HISTORY_COLUMNS)
    )
    return spaces.Dict(
        {
            "hole": spaces.MultiDiscrete([NO_CARD, NO_CARD]),
            "board": spaces.MultiDiscrete([NO_CARD + 1] * 5),
            "street": spaces.Discrete(4),
            "button": spaces.Discrete(n),
            "position": spaces.Discrete(n),
            "pot": chips(1),
            "to_call": chips(1),
            "num_bets": spaces.Discrete(max(rules.max_bets) + 1),
            "bets": chips(n),
            "contributions": chips(n),
            "stacks": chips(n),
            "folded": spaces.MultiBinary(n),
            "history": spaces.Box(low=-1, high=history_high.copy(), dtype=np.int64),
            "shown": spaces.MultiDiscrete([NO_CARD + 1] * (2 * n)),
        }
    )


def encode_view(view: PlayerView, history_rows: int) -> dict[str, Any]:
    """The observation of ``view`` (fresh arrays on every call, safe to keep).

    Raises:
        ValueError: if the hand has more actions than ``history_rows`` (a bound violated).
    """
    n = view.num_seats
    board = np.full(5, NO_CARD, dtype=np.int64)
    board[: len(view.board)] = view.board
    history = np.full((history_rows, HISTORY_COLUMNS), -1, dtype=np.int64)
    if len(view.actions) > history_rows:
        raise ValueError(
            f"hand {view.hand_id} has {len(view.actions)} actions, more than the "
            f"{history_rows} rows of the history"
        )
    if view.actions:
        history[: len(view.actions)] = view.actions
    shown = np.full(2 * n, NO_CARD, dtype=np.int64)
    for seat, cards in enumerate(view.shown):
        if cards is not None:
            shown[2 * seat : 2 * seat + 2] = cards
    return {
        "hole": np.array(view.hole, dtype=np.int64),
        "board": board,
        "street": int(view.street),
        "button": view.button,
        "position": view.position,
        "pot": np.array([view.pot], dtype=np.int64),
        "to_call": np.array([view.to_call], dtype=np.int64),
        "num_bets": view.num_bets,
        "bets": np.array(view.bets, dtype=np.int64),
        "contributions": np.array(view.contributions, dtype=np.int64),
        "stacks": np.array(view.stacks, dtype=np.int64),
        "folded": np.array(view.folded, dtype=np.int8),
        "history": history,
        "shown": shown,
    }
