"""The learner's observation: a Gymnasium ``Dict`` space and its two encoders.

An observation is built from what one seat may see and nothing else: opponents' hole cards
appear only in ``shown``, and only once shown down. Seats are absolute seat numbers (the
Gymnasium learner always sits in seat 0). One encoder takes a scalar ``PlayerView``
(``ObservationEncoder``, ``encode_view``: the Gymnasium and PettingZoo envs, ``PolicyAgent``),
the other the rows of a ``envs.batched.views.DecisionBatch`` (``encode_batch``: ``BatchedPolicy``,
and the vector env, whose learner's rows ``seat_batch`` and ``shown_cards`` read from its
``HandBatch``); a view and a one-row batch of the same decision give the same arrays.

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
``bets`` and ``contributions``. One observation has plain ints for the ``Discrete`` keys
(``DISCRETE_KEYS``); a batch has an ``int64`` array per key with a leading row axis, the
layout of Gymnasium's ``batch_space`` (``folded`` is ``int8``, every other key ``int64``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from envs.batched.engine import HandBatch
from envs.batched.rows import by_seat, pot, table_field
from envs.batched.views import DecisionBatch
from envs.events import Acted
from envs.rules import Rules
from envs.view import PlayerView, position_of

__all__ = [
    "DISCRETE_KEYS",
    "NO_CARD",
    "ObservationEncoder",
    "encode_batch",
    "encode_view",
    "history_length",
    "observation_space",
    "seat_batch",
    "shown_cards",
]

NO_CARD = 52
"""Placeholder for a card not (yet) visible."""

HISTORY_COLUMNS = 4
"""street, seat, action, chips."""

DISCRETE_KEYS = ("street", "button", "position", "num_bets")
"""The keys of ``Discrete`` spaces: plain ints in one observation."""

Observations = dict[str, npt.NDArray[Any]]

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


def encode_batch(
    batch: DecisionBatch, shown: npt.NDArray[np.integer] | None = None
) -> Observations:
    """The observations of the seat of every row of ``batch`` (fresh arrays, safe to keep).

    Row ``i`` holds what ``ObservationEncoder(batch.rules).encode(view)`` gives for the view
    row ``i`` was built from, as ``int64`` arrays (``folded`` ``int8``): the layout of
    Gymnasium's ``batch_space``. One array operation per key whatever the number of rows.

    Args:
        batch: The rows to encode (``seat_batch`` also builds one at finished hands).
        shown: ``(k, S, 2)`` cards each seat showed down, -1 where not shown (the layout of
            ``HandEndBatch.shown``); default nothing shown, as at every decision.

    Raises:
        ValueError: if a row has more actions than ``history_length(batch.rules)``.
    """
    rules = batch.rules
    n = rules.num_seats
    board_len = np.asarray(batch.board_len)
    rows = len(board_len)
    dealt = np.arange(5) < board_len[:, np.newaxis]
    button = np.array(batch.button, dtype=np.int64)
    seat = np.array(batch.seat, dtype=np.int64)
    if shown is None:
        cards = np.full((rows, 2 * n), NO_CARD, dtype=np.int64)
    else:
        shown = np.asarray(shown).reshape(rows, 2 * n)
        cards = np.where(shown >= 0, shown, NO_CARD).astype(np.int64)
    return {
        "hole": np.array(batch.hole, dtype=np.int64),
        "board": np.where(dealt, batch.board, NO_CARD).astype(np.int64),
        "street": np.array(batch.street, dtype=np.int64),
        "button": button,
        "position": position_of(seat, button, n),
        "pot": np.array(batch.pot, dtype=np.int64)[:, np.newaxis],
        "to_call": np.array(batch.to_call, dtype=np.int64)[:, np.newaxis],
        "num_bets": np.array(batch.num_bets, dtype=np.int64),
        "bets": np.array(batch.bets, dtype=np.int64),
        "contributions": np.array(batch.contributions, dtype=np.int64),
        "stacks": np.array(batch.stacks, dtype=np.int64),
        "folded": np.array(batch.folded, dtype=np.int8),
        "history": _history(batch, history_length(rules)),
        "shown": cards,
    }


def _history(batch: DecisionBatch, length: int) -> npt.NDArray[np.int64]:
    """The ``history`` key of ``batch``: ``length`` rows per row of the batch, -1 past its log."""
    logged_len = np.asarray(batch.log_len)
    if logged_len.size and int(logged_len.max()) > length:
        row = int(np.argmax(logged_len))
        raise ValueError(
            f"hand {int(batch.hand_id[row])} has {int(logged_len[row])} actions, more than the "
            f"{length} rows of the history"
        )
    logs: tuple[npt.NDArray[Any], ...] = (
        batch.log_street,
        batch.log_seat,
        batch.log_action,
        batch.log_amount,
    )
    width = min(length, logs[0].shape[1])
    logged = np.arange(width) < logged_len[:, np.newaxis]
    history = np.full((len(logged_len), length, HISTORY_COLUMNS), -1, dtype=np.int64)
    for column, log in enumerate(logs):
        np.copyto(history[:, :width, column], log[:, :width], where=logged)
    return history


_WHOLE = frozenset(
    [
        "button",
        "hand_id",
        "street",
        "board_len",
        "folded",
        "log_len",
        "log_street",
        "log_seat",
        "log_action",
        "log_amount",
    ]
)
"""Fields a ``seat_batch`` of every table reads uncopied from the ``HandBatch`` (its arrays
have the fields' shapes and dtypes): the log arrays are most of an encoding's reads."""


def seat_batch(
    batch: HandBatch, seat: int, rows: npt.NDArray[np.intp] | None = None
) -> DecisionBatch:
    """What ``seat`` sees at the tables ``rows`` of ``batch`` (default: all), as a
    ``DecisionBatch`` whether or not the seat is to act there (each field computed when
    first read).

    Where the seat is to act, a row holds what ``decisions_at`` gives; elsewhere ``legal`` is
    all False and ``to_call`` what the seat would put in to call (0 once the hand is over),
    as in its ``PlayerView``. The vector env encodes its learner's seat with it, at decisions
    and at finished hands alike (with ``shown_cards``).
    """
    at = np.arange(batch.num_tables, dtype=np.intp) if rows is None else rows
    seats = np.full(len(at), seat, dtype=np.int8)

    def field(name: str) -> Any:
        if name == "pot":
            return pot(batch, at)
        if name == "to_call":
            stack = np.take(batch.stacks[:, seat], at).astype(np.int64)
            owed = batch.max_bet[at] - np.take(batch.bets[:, seat], at).astype(np.int64)
            return np.where(batch.over[at], 0, np.minimum(stack, owed)).astype(np.int64)
        if name == "legal":
            return batch.legal_mask()[at] & (batch.actor[at] == seat)[:, np.newaxis]
        if rows is None and name in _WHOLE:
            whole: npt.NDArray[Any] = getattr(batch, name)  # read-only, in the field's dtype
            return whole
        return table_field(batch, at, seats, name)

    return DecisionBatch(field, rules=batch.rules, tables=at, seat=seats)


def shown_cards(
    batch: HandBatch, rows: npt.NDArray[np.intp] | None = None
) -> npt.NDArray[np.int16]:
    """``(k, S, 2)``: the cards each seat showed down at the tables ``rows`` (default: all),
    -1 where not shown or the hand is not over (``encode_batch``'s ``shown``)."""
    at = np.arange(batch.num_tables, dtype=np.intp) if rows is None else rows
    n = batch.num_seats
    cards = batch.deck[at, : 2 * n].reshape(len(at), n, 2).astype(np.int16)
    showed = by_seat(batch.showed, at) & batch.over[at, np.newaxis]
    shown: npt.NDArray[np.int16] = np.where(showed[:, :, np.newaxis], cards, np.int16(-1))
    return shown
