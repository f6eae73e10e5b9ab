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

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from envs.events import Acted
from envs.rules import Rules
from envs.view import PlayerView

if TYPE_CHECKING:
    from envs.batched.engine import HandBatch

__all__ = [
    "NO_CARD",
    "ObservationEncoder",
    "encode_tables",
    "encode_view",
    "history_length",
    "observation_space",
]

NO_CARD = 52
"""Placeholder for a card not (yet) visible."""

HISTORY_COLUMNS = 4
"""street, seat, action, chips."""

_NO_BOARD = (NO_CARD,) * 5
_NO_PAIR = (NO_CARD, NO_CARD)


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


def encode_view(view: PlayerView, history_rows: int | None = None) -> dict[str, Any]:
    """The observation of ``view`` (fresh arrays, safe to keep).

    One-off encoding; an env encoding a seat's views hand after hand keeps an
    ``ObservationEncoder``, which converts each public action only once.

    Raises:
        ValueError: if the hand has more actions than ``history_rows`` (default: the bound of
            ``view.rules``).
    """
    return ObservationEncoder(view.rules, history_rows).encode(view)


class ObservationEncoder:
    """Encodes one seat's views, hand after hand, into observations.

    Converting the public history (enum fields, one by one) is most of an observation's cost,
    and within a hand the history only grows, so the encoder keeps the rows it has converted
    and adds only the new ones. Rows are a function of the actions alone, so a kept prefix is
    right whichever hand it came from.
    """

    def __init__(self, rules: Rules, history_rows: int | None = None) -> None:
        self.rules = rules
        self.history_rows = history_length(rules) if history_rows is None else history_rows
        self._blank_history = np.full((self.history_rows, HISTORY_COLUMNS), -1, dtype=np.int64)
        self._blank_shown = (NO_CARD,) * (2 * rules.num_seats)
        self._history = self._blank_history.copy()
        self._actions: tuple[Acted, ...] = ()

    def encode(self, view: PlayerView) -> dict[str, Any]:
        """The observation of ``view`` (fresh arrays, safe to keep); see the module table."""
        return {
            "hole": np.array(view.hole, dtype=np.int64),
            "board": np.array(view.board + _NO_BOARD[len(view.board) :], dtype=np.int64),
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
            "history": self._history_of(view).copy(),
            "shown": np.array(self._shown_of(view), dtype=np.int64),
        }

    def _history_of(self, view: PlayerView) -> npt.NDArray[np.int64]:
        """The encoder's own history array for ``view`` (callers copy it)."""
        actions = view.actions
        done = len(self._actions)
        if len(actions) < done or actions[:done] != self._actions:
            self._history = self._blank_history.copy()
            self._actions = ()
            done = 0
        if len(actions) > done:
            if len(actions) > self.history_rows:
                raise ValueError(
                    f"hand {view.hand_id} has {len(actions)} actions, more than the "
                    f"{self.history_rows} rows of the history"
                )
            self._history[done : len(actions)] = [
                (int(a.street), a.seat, int(a.action), a.amount) for a in actions[done:]
            ]
            self._actions = actions
        return self._history

    def _shown_of(self, view: PlayerView) -> tuple[int, ...]:
        if not view.shown:
            return self._blank_shown
        return tuple(card for cards in view.shown for card in (cards or _NO_PAIR))


def encode_tables(
    batch: HandBatch, seat: int = 0, rows: npt.NDArray[np.intp] | None = None
) -> dict[str, npt.NDArray[Any]]:
    """The observations of ``seat`` at the tables ``rows`` of ``batch`` (default: all), stacked
    along a first table axis, straight from the batch's arrays.

    Row ``i`` equals ``ObservationEncoder(batch.rules).encode(batch.view(rows[i], seat))``, with
    the dtypes of Gymnasium's ``batch_space`` (int64, ``folded`` int8): fresh arrays, in one
    array operation per key whatever the number of tables.
    """
    rules = batch.rules
    n = rules.num_seats
    at = slice(None) if rows is None else rows
    deck = batch.deck[at]
    over = batch.over[at]
    board_len = batch.board_len[at]
    board = np.where(np.arange(5) < board_len[:, np.newaxis], deck[:, 2 * n : 2 * n + 5], NO_CARD)
    bets = batch.bets[at].astype(np.int64)
    stacks = batch.stacks[at].astype(np.int64)
    contributions = batch.contributions[at].astype(np.int64)
    owed = batch.max_bet[at] - bets[:, seat]
    to_call = np.where(over, 0, np.minimum(stacks[:, seat], owed))
    button = batch.button[at].astype(np.int64)
    length = history_length(rules)
    logged = np.arange(length) < batch.log_len[at, np.newaxis]
    history = np.full((len(deck), length, HISTORY_COLUMNS), -1, dtype=np.int64)
    logs: tuple[npt.NDArray[Any], ...] = (
        batch.log_street,
        batch.log_seat,
        batch.log_action,
        batch.log_amount,
    )
    for column, log in enumerate(logs):
        np.copyto(history[:, :, column], log[at, :length], where=logged)
    shown = np.repeat(batch.showed[at] & over[:, np.newaxis], 2, axis=1)
    return {
        "hole": deck[:, 2 * seat : 2 * seat + 2].astype(np.int64),
        "board": board.astype(np.int64),
        "street": batch.street[at].astype(np.int64),
        "button": button,
        "position": (seat - button - 1) % n,
        "pot": contributions.sum(axis=1, keepdims=True),
        "to_call": to_call[:, np.newaxis].astype(np.int64),
        "num_bets": batch.num_bets[at].astype(np.int64),
        "bets": bets,
        "contributions": contributions,
        "stacks": stacks,
        "folded": batch.folded[at].astype(np.int8),
        "history": history,
        "shown": np.where(shown, deck[:, : 2 * n], NO_CARD).astype(np.int64),
    }
