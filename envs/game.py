"""The fixed-limit hold'em rules engine: one ``Hand`` from the blinds to the payoffs.

Order of play follows ACPC: blinds left of the button (heads-up the button posts the small
blind, acts first pre-flop and last after the flop); after the flop the first active seat left
of the button acts first; a round ends when every seat that can still act has acted and matched
the last bet. Checking is free, so folding then is illegal. Finite stacks follow the WSOP rules
that PokerKit implements (all-in for less, a short all-in raise does not reopen the betting for
seats that already acted, side pots, odd chips to the first winner left of the button).

Seat ``s`` receives ``deck[2s], deck[2s + 1]``; the board is ``deck[2n : 2n + 5]``. So a deck
order replays a deal exactly, and the match runner duplicates a deal by moving agents, not cards.

This module is the public face of a hand: the checks of its input, the queries, the legality of
each action and the views. Moving the chips, closing rounds and settling the pots is
``envs.rounds.BettingRounds``, which ``Hand`` extends.

>>> from envs.cards import parse_cards, format_cards
>>> deck = parse_cards("AsAh KdKc 2c3d4h 9s Jd")
>>> hand = Hand(Rules(), deck, button=0)
>>> hand.actor, hand.legal_actions()
(0, (<Action.FOLD: 0>, <Action.CALL: 1>, <Action.RAISE: 2>))
>>> for action in (Action.RAISE, Action.CALL) + (Action.CALL,) * 6:
...     hand.act(action)
>>> hand.is_over, hand.payoffs
(True, (4, -4))
>>> hand.to_acpc()
'STATE:0:rc/cc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-4|4:p1|p0'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.acpc import acpc_state
from envs.cards import deck_cards
from envs.events import Event, HoleDealt, ShowedDown
from envs.rounds import BettingRounds
from envs.rules import Action, Rules, Street
from envs.validation import whole_number
from envs.view import PlayerView

__all__ = ["Hand"]

_CALL = (Action.CALL,)
_CALL_RAISE = (Action.CALL, Action.RAISE)
_FOLD_CALL = (Action.FOLD, Action.CALL)
_FOLD_CALL_RAISE = (Action.FOLD, Action.CALL, Action.RAISE)


class Hand(BettingRounds):
    """One hand of fixed-limit hold'em, mutable while it is played; see the module docstring.

    Query with ``actor``, ``legal_actions()`` and ``can_fold()`` / ``can_check_or_call()`` /
    ``can_bet_or_raise()``; act with ``fold()``, ``check_or_call()``, ``bet_or_raise()`` or
    ``act(action)``, which raise ``ValueError`` with the reason when the action is illegal
    (``verify_*`` give the reason without acting). Everything readable from outside is
    read-only (chip counts come as tuples); only the actions change a hand.

    Args:
        rules: The game.
        deck: Integer card ids 0..51, all distinct, at least ``2 * num_seats + 5`` of them.
        button: The button seat.
        hand_id: Number of the hand in its match or episode (shown in views and ACPC lines).
        stacks: Each seat's chips at the start, overriding ``rules.starting_stacks``.

    Raises:
        ValueError: on a bad deck (too short, not integers, a card outside 0..51 or repeated
            anywhere in it), button, hand id or stacks.
    """

    __slots__ = ("_hand_id", "_refusal", "_refusal_key", "_shown")

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int] | npt.NDArray[Any],
        *,
        button: int = 0,
        hand_id: int = 0,
        stacks: Sequence[int] | None = None,
    ) -> None:
        n = rules.num_seats
        # Plain ints in range skip the general check: a hand is built per deal (hot path).
        if type(button) is not int or not 0 <= button < n:
            button = whole_number("button", button, what="a seat")
            if not 0 <= button < n:
                raise ValueError(f"button must be a seat 0..{n - 1}, got {button}")
        if type(hand_id) is not int or hand_id < 0:
            hand_id = whole_number("hand_id", hand_id, minimum=0)
        cards = deck_cards(deck, 2 * n + 5)
        self._hand_id = hand_id
        self._shown: tuple[tuple[int, int] | None, ...] | None = None  # built by view()
        self._refusal_key = -1
        self._refusal: str | None = None
        start = rules.starting_stacks if stacks is None else _checked_stacks(stacks, n)
        super().__init__(rules, cards, button, start)

    # ----------------------------------------------------------------- queries

    @property
    def rules(self) -> Rules:
        """The game."""
        return self._rules

    @property
    def num_seats(self) -> int:
        """Seats at the table."""
        return self._num_seats

    @property
    def button(self) -> int:
        """The button seat."""
        return self._button

    @property
    def hand_id(self) -> int:
        """Number of the hand in its match or episode sequence."""
        return self._hand_id

    @property
    def street(self) -> Street:
        """The betting round being played (the river once the hand is over)."""
        return self._street

    @property
    def num_bets(self) -> int:
        """Bets made in the current round, the big blind counting as the first pre-flop."""
        return self._num_bets

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips each seat has behind (the final stacks once the hand is over)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each seat has put in during the current round."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put in during the whole hand."""
        return tuple(self._contributions)

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` once the hand is over."""
        return self._queue[0] if self._queue else None

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (payoffs are known)."""
        return self._payoffs is not None

    @property
    def payoffs(self) -> tuple[int, ...]:
        """Net chips won by each seat; raises ``ValueError`` while the hand is running."""
        if self._payoffs is None:
            raise ValueError("the hand is not over yet: no payoffs")
        return self._payoffs

    @property
    def events(self) -> tuple[Event, ...]:
        """The immutable history of the hand so far."""
        deck = self._deck
        holes = [HoleDealt(s, (deck[2 * s], deck[2 * s + 1])) for s in range(self._num_seats)]
        return (*holes, *self._events)

    @property
    def board(self) -> tuple[int, ...]:
        """Community cards dealt so far."""
        return self._board

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each seat has folded."""
        return self._folded

    @property
    def pot(self) -> int:
        """All chips committed, current round included."""
        return sum(self._contributions)

    def hole(self, seat: int) -> tuple[int, int]:
        """The private cards of ``seat``."""
        return self._deck[2 * seat], self._deck[2 * seat + 1]

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (capped by its stack)."""
        return min(self._stacks[seat], self._max_bet - self._bets[seat])

    # ------------------------------------------------------- legality (can/verify)

    def verify_fold(self) -> None:
        """Raise ``ValueError`` with the reason if the actor may not fold."""
        reason = self._fold_refusal()
        if reason:
            raise ValueError(reason)

    def verify_check_or_call(self) -> None:
        """Raise ``ValueError`` if nobody is to act."""
        if not self._queue:
            raise ValueError(f"cannot check or call: {self._no_actor_reason()}")

    def verify_bet_or_raise(self) -> None:
        """Raise ``ValueError`` with the reason if the actor may not bet or raise."""
        reason = self._raise_refusal()
        if reason:
            raise ValueError(reason)

    def can_fold(self) -> bool:
        """Whether the actor may fold (not when checking is free)."""
        return self._fold_refusal() is None

    def can_check_or_call(self) -> bool:
        """Whether someone is to act (checking or calling is then always legal)."""
        return bool(self._queue)

    def can_bet_or_raise(self) -> bool:
        """Whether the actor may bet or raise."""
        return self._raise_refusal() is None

    def legal_actions(self) -> tuple[Action, ...]:
        """The actor's legal actions in ``Action`` order (empty once the hand is over)."""
        if not self._queue:
            return ()
        can_raise = self._raise_refusal() is None
        if self._bets[self._queue[0]] < self._max_bet:
            return _FOLD_CALL_RAISE if can_raise else _FOLD_CALL
        return _CALL_RAISE if can_raise else _CALL

    def _no_actor_reason(self) -> str:
        return "the hand is over" if self._payoffs is not None else "nobody is to act"

    def _fold_refusal(self) -> str | None:
        if not self._queue:
            return f"cannot fold: {self._no_actor_reason()}"
        seat = self._queue[0]
        if self._bets[seat] >= self._max_bet:
            return f"seat {seat} may not fold: checking is free (ACPC)"
        return None

    def _raise_refusal(self) -> str | None:
        # legal_actions() and bet_or_raise() ask the same question in a row: answer it once.
        key = len(self._events)
        if key == self._refusal_key:
            return self._refusal
        self._refusal = self._compute_raise_refusal()
        self._refusal_key = key
        return self._refusal

    def _compute_raise_refusal(self) -> str | None:
        if not self._queue:
            return f"cannot bet or raise: {self._no_actor_reason()}"
        seat = self._queue[0]
        verb = "raise" if self._num_bets else "bet"
        cap = self._rules.max_bets[self._street]
        if self._num_bets >= cap:
            return (
                f"seat {seat} may not {verb}: the cap of {cap} bets on the "
                f"{self._street.name.lower()} is reached"
            )
        owed = self._max_bet - self._bets[seat]
        stack = self._stacks[seat]
        if stack <= owed:
            return f"seat {seat} may not {verb}: its stack only covers a call"
        if owed < self._full_raise:
            return f"seat {seat} may not {verb}: it faces a short all-in it cannot raise"
        if self._short_all_in and self._short_all_in < self._full_raise and seat in self._acted:
            return (
                f"seat {seat} may not {verb}: a short all-in does not reopen the betting "
                "for a seat that already acted"
            )
        folded, stacks, bets, top = self._folded, self._stacks, self._bets, self._max_bet
        for s in range(self._num_seats):
            if s != seat and not folded[s] and stacks[s] + bets[s] > top:
                return None
        return f"seat {seat} may not {verb}: every other seat is all-in or folded"

    # ----------------------------------------------------------------- actions

    def act(self, action: Action) -> None:
        """Apply ``action`` (an ``Action`` member) for the actor; ``ValueError`` if illegal."""
        # The checks and moves of check_or_call() and friends, one call shallower (hot path).
        if action is Action.CALL:
            self.verify_check_or_call()
            self._check_or_call()
        elif action is Action.RAISE:
            self.verify_bet_or_raise()
            self._bet_or_raise()
        elif action is Action.FOLD:
            self.verify_fold()
            self._fold()
        else:
            raise ValueError(
                f"unknown action {action!r} ({type(action).__name__}): Hand.act takes an "
                "envs.Action (FOLD, CALL or RAISE); convert an index with Action(i)"
            )

    def fold(self) -> None:
        """Fold the actor's hand."""
        self.verify_fold()
        self._fold()

    def check_or_call(self) -> None:
        """Check, or call the current bet (all-in for less if the stack is short)."""
        self.verify_check_or_call()
        self._check_or_call()

    def bet_or_raise(self) -> None:
        """Bet or raise by the round's fixed size (all-in for less if the stack is short)."""
        self.verify_bet_or_raise()
        self._bet_or_raise()

    # ------------------------------------------------------------------- views

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now; after the hand, with the cards shown down."""
        shown: tuple[tuple[int, int] | None, ...]
        payoffs: tuple[int, ...]
        if self._payoffs is None:
            queue = self._queue
            to_call = min(self._stacks[seat], self._max_bet - self._bets[seat])
            legal = self.legal_actions() if queue and queue[0] == seat else ()
            terminal, shown, payoffs = False, (), ()
        else:
            if self._shown is None:
                cards = {e.seat: e.cards for e in self._events if type(e) is ShowedDown}
                self._shown = tuple(cards.get(s) for s in range(self._num_seats))
            to_call, legal, terminal, shown, payoffs = 0, (), True, self._shown, self._payoffs
        deck = self._deck
        # By keyword, so that neighbouring ints cannot be swapped unnoticed; that costs about
        # 0.6 us of a view's 1.5 us, which the tuples kept ready (blinds, folded, board,
        # actions) partly pay back.
        return PlayerView(
            rules=self._rules,
            hand_id=self._hand_id,
            seat=seat,
            button=self._button,
            hole=(deck[2 * seat], deck[2 * seat + 1]),
            board=self._board,
            street=self._street,
            actions=self._actions,
            blinds=self._blinds,
            bets=tuple(self._bets),
            contributions=tuple(self._contributions),
            stacks=tuple(self._stacks),
            folded=self._folded,
            num_bets=self._num_bets,
            to_call=to_call,
            legal_actions=legal,
            is_terminal=terminal,
            shown=shown,
            payoffs=payoffs,
        )

    def to_acpc(self, names: Sequence[str] | None = None) -> str:
        """The hand as an ACPC ``STATE`` line (positions start left of the button)."""
        return acpc_state(self, names)


def _checked_stacks(stacks: Sequence[int], num_seats: int) -> tuple[int, ...]:
    """``Hand(stacks=)`` checked as ``Rules.stacks`` is: one positive integer per seat."""
    given: object = stacks  # anything may come in; the annotation is what should
    values = tuple(stacks) if isinstance(given, Sequence | np.ndarray) else None
    if values is None or isinstance(given, str) or len(values) != num_seats:
        raise ValueError(f"stacks must be {num_seats} positive chip counts, got {stacks!r}")
    return tuple(
        whole_number(f"stacks[{seat}]", stack, minimum=1, what="an integer number of chips")
        for seat, stack in enumerate(values)
    )
