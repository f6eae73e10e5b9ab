"""Finished hands as PHH hand histories, the format PokerKit reads and writes (Kim 2024).

PHH ("poker hand history", Kim 2024, *Recording and Describing Poker Hands*) is TOML: one
hand is a set of fields, and a file of many hands (a ``.phhs`` set, as PokerKit's
``HandHistory.dump_all`` writes and ``HandHistory.load_all`` reads) puts each hand in a table
of its own, ``[1]``, ``[2]``, ... in order. The fields written for a hand:

| field | value |
|---|---|
| ``variant`` | ``"FT"``, fixed-limit Texas hold'em |
| ``antes`` | zeros (the engine has no antes) |
| ``blinds_or_straddles`` | small and big blind, then zeros (PHH reverses them heads-up) |
| ``small_bet``, ``big_bet`` | the fixed bet sizes of ``Rules`` |
| ``starting_stacks`` | each player's chips at the start of the hand, as the engine used them |
| ``actions`` | hole cards, betting, board cards and shown cards in PHH notation |
| ``hand`` | the hand number (``PlayerView.hand_id``, as in the ACPC ``STATE`` log) |
| ``seats``, ``seat_count`` | each player's seat, counted from 1, and the table size |
| ``players`` | the names given for the seats (omitted when none are given) |
| ``finishing_stacks`` | chips after the hand; minus ``starting_stacks`` they are the payoffs |
| ``winnings`` | chips each player collected from the pots |
| ``_max_bets`` | ``Rules.max_bets`` (user-defined field: PHH has no field for the cap) |

PHH orders players by position, not seat: player ``p1`` is the first seat left of the
button and the last player is the button (heads-up ``p1`` is the big blind). Actions use
PHH's notation: ``d dh p1 AsKd`` (hole cards), ``d db 2c3d4h`` (board), ``p2 f`` (fold),
``p2 cc`` (check or call), ``p2 cbr 6`` (bet or raise *to* 6 chips this round) and
``p1 sm AsKd`` (cards shown down). When the betting ends with at most one player able to
bet (all-ins), the cards are shown before the rest of the board is dealt, as PHH and
PokerKit order an all-in showdown.

PHH's ``FT`` variant allows four bets and raises per round besides the blinds (PokerKit's
``FixedLimitTexasHoldem``), so rules with a higher cap than ``max_bets=(5, 4, 4, 4)``
cannot be written (``check_phh_rules``); lower caps, such as the ACPC default, only mean
that PokerKit would have allowed raises the engine did not, and every recorded hand
replays the same.

>>> from envs.cards import parse_cards
>>> from envs.game import Hand
>>> from envs.rules import Action, Rules
>>> hand = Hand(Rules(), parse_cards("AsAh KdKc 2c3d4h 9s Jd"), button=0)
>>> for action in (Action.RAISE, Action.CALL) + (Action.CALL,) * 6:
...     hand.act(action)
>>> print(format_phh(hand, ("alice", "bob")))
variant = "FT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [48, 48]
actions = [
  "d dh p1 KdKc",
  "d dh p2 AsAh",
  "p2 cbr 4",
  "p1 cc",
  "d db 2c3d4h",
  "p1 cc",
  "p2 cc",
  "d db 9s",
  "p1 cc",
  "p2 cc",
  "d db Jd",
  "p1 cc",
  "p2 cc",
  "p1 sm KdKc",
  "p2 sm AsAh",
]
hand = 0
seats = [2, 1]
seat_count = 2
players = ["bob", "alice"]
finishing_stacks = [44, 52]
winnings = [0, 8]
_max_bets = [4, 4, 4, 4]
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from envs.cards import format_cards
from envs.events import Acted, BlindPosted, BoardDealt, Event, HandEnded, PotAwarded, ShowedDown
from envs.rules import Action, Rules

if TYPE_CHECKING:
    from envs.game import Hand

__all__ = ["PHH_MAX_BETS", "VARIANT", "PHHWriter", "check_phh_rules", "format_phh"]

VARIANT = "FT"
"""PHH's code for fixed-limit Texas hold'em."""

PHH_MAX_BETS = (5, 4, 4, 4)
"""The most bets per round PHH's ``FT`` allows, counted as ``Rules.max_bets`` counts them
(the big blind is the first pre-flop bet; ``FT`` allows four bets or raises besides it)."""


def check_phh_rules(rules: Rules) -> None:
    """Raise ``ValueError`` if hands played under ``rules`` cannot be written as PHH."""
    if any(cap > top for cap, top in zip(rules.max_bets, PHH_MAX_BETS, strict=True)):
        raise ValueError(
            f"PHH's fixed-limit hold'em ({VARIANT}) allows at most {PHH_MAX_BETS} bets per "
            f"round (the big blind counting as the first pre-flop), but the rules allow "
            f"max_bets={rules.max_bets}: such hands cannot be written as PHH"
        )


def format_phh(hand: Hand, names: Sequence[str] | None = None) -> str:
    """The PHH text of a finished ``hand`` (a ``.phh`` file's content, no trailing newline).

    Args:
        hand: A hand that is over.
        names: The name of the agent in each seat (indexed by seat), or ``None`` to omit
            the ``players`` field.

    Raises:
        ValueError: if the hand is not over, ``names`` does not have one name per seat, or
            the rules exceed what PHH can record (``check_phh_rules``).
    """
    return "\n".join(f"{key} = {value}" for key, value in _fields(hand, names))


class PHHWriter:
    """Writes finished hands, one after the other, to a PHH hand-history set (``.phhs``).

    Each ``write`` appends one table (``[1]``, ``[2]``, ...) holding ``format_phh`` of the
    hand, so the file grows hand by hand and memory stays flat however long the match.
    ``write(hand, names)`` has the signature of ``play_match``'s ``on_hand`` callback:

    >>> from envs.match import play_match
    >>> import io
    >>> buffer = io.StringIO()
    >>> with PHHWriter(buffer) as history:
    ...     result = play_match(["call", "raise"], hands=4, seed=1, on_hand=history.write)
    >>> history.hands, buffer.getvalue().count('variant = "FT"')
    (4, 4)

    Args:
        target: A path (the file is created, or truncated if it exists, as UTF-8) or an
            open text stream (written to, never closed by the writer).
    """

    def __init__(self, target: str | os.PathLike[str] | TextIO) -> None:
        if isinstance(target, str | os.PathLike):
            self._stream: TextIO = open(target, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by close()
            self._owned = True
        else:
            self._stream = target
            self._owned = False
        self._closed = False
        self.hands = 0
        """Hands written so far."""

    def write(self, hand: Hand, names: Sequence[str] | None = None) -> None:
        """Append the finished ``hand``, with the names of the agents per seat."""
        if self._closed:
            raise ValueError("the PHH writer is closed")
        text = format_phh(hand, names)  # validates before anything is written
        separator = "\n" if self.hands else ""
        self._stream.write(f"{separator}[{self.hands + 1}]\n{text}\n")
        self.hands += 1

    def close(self) -> None:
        """Flush, and close the file if the writer opened it (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._owned:
            self._stream.close()
        else:
            self._stream.flush()

    def __enter__(self) -> PHHWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


# ------------------------------------------------------------------ internals


def _fields(hand: Hand, names: Sequence[str] | None) -> list[tuple[str, str]]:
    """The fields of ``hand`` as (key, TOML value) pairs, required fields first."""
    rules = hand.rules
    n = rules.num_seats
    check_phh_rules(rules)
    events = hand.events
    if not events or not isinstance(events[-1], HandEnded):
        raise ValueError(
            "the hand is not over: only finished hands can be written as PHH "
            f"(seat {hand.actor} is to act)"
        )
    if names is not None and (isinstance(names, str) or len(names) != n):
        raise ValueError(f"need one name per seat ({n}), got {names!r}")
    # Player p (p1 in PHH) sits p + 1 seats left of the button; the button is the last.
    order = [(hand.button + 1 + p) % n for p in range(n)]
    view = hand.view(order[0])  # after the hand: every seat's final stack is public
    payoffs = events[-1].payoffs
    final = view.stacks
    won = [0] * n
    for event in events:
        if isinstance(event, PotAwarded):
            won[event.seat] += event.amount
    blinds = [0] * n
    blinds[0], blinds[1] = rules.small_blind, rules.big_blind
    fields = [
        ("variant", _string(VARIANT)),
        ("antes", _array([0] * n)),
        ("blinds_or_straddles", _array(blinds)),
        ("small_bet", str(rules.small_bet)),
        ("big_bet", str(rules.big_bet)),
        ("starting_stacks", _array([final[s] - payoffs[s] for s in order])),
        ("actions", _actions(hand, events, order)),
        ("hand", str(view.hand_id)),
        ("seats", _array([s + 1 for s in order])),
        ("seat_count", str(n)),
    ]
    if names is not None:
        fields.append(("players", "[" + ", ".join(_string(names[s]) for s in order) + "]"))
    fields += [
        ("finishing_stacks", _array([final[s] for s in order])),
        ("winnings", _array([won[s] for s in order])),
        ("_max_bets", _array(list(rules.max_bets))),
    ]
    return fields


def _actions(hand: Hand, events: Sequence[Event], order: Sequence[int]) -> str:
    """The ``actions`` array: deals, betting and showdown in PHH notation, one per line."""
    player = {seat: f"p{p + 1}" for p, seat in enumerate(order)}
    lines = [f"d dh {player[s]} {format_cards(hand.hole(s))}" for s in order]
    bets = [0] * len(order)  # chips each seat has put in this round, the "to" of a raise
    runout: list[str] = []  # board deals after the last decision (an all-in run-out)
    for event in events:
        if isinstance(event, BlindPosted):
            bets[event.seat] += event.amount
        elif isinstance(event, BoardDealt):
            bets = [0] * len(order)
            runout.append(f"d db {format_cards(event.cards)}")
        elif isinstance(event, Acted):
            lines += runout
            runout = []
            bets[event.seat] += event.amount
            who = player[event.seat]
            if event.action == Action.FOLD:
                lines.append(f"{who} f")
            elif event.action == Action.CALL:
                lines.append(f"{who} cc")
            else:
                lines.append(f"{who} cbr {bets[event.seat]}")
        elif isinstance(event, ShowedDown):
            # Shown as soon as the betting is over, before an all-in run-out's board.
            lines.append(f"{player[event.seat]} sm {format_cards(event.cards)}")
    lines += runout
    return "[\n" + "".join(f"  {_string(line)},\n" for line in lines) + "]"


def _array(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, DEL aside, which TOML must escape)."""
    return json.dumps(str(text), ensure_ascii=False).replace("\x7f", "\\u007f")
