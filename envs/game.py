"""The fixed-limit hold'em rules engine: one ``Hand`` from the blinds to the payoffs.

Order of play follows ACPC: blinds left of the button (heads-up the button posts the small
blind, acts first pre-flop and last after the flop); after the flop the first active seat left
of the button acts first; a round ends when every seat that can still act has acted and matched
the last bet. Checking is free, so folding then is illegal. Finite stacks follow the WSOP rules
that PokerKit implements (all-in for less, a short all-in raise does not reopen the betting for
seats that already acted, side pots, odd chips to the first winner left of the button).

Seat ``s`` receives ``deck[2s], deck[2s + 1]``; the board is ``deck[2n : 2n + 5]``. So a deck
order replays a deal exactly, and the match runner duplicates a deal by moving agents, not cards.

>>> from envs.cards import parse_cards, format_cards
>>> deck = parse_cards("AsAh KdKc 2c3d4h 9s Jd")
>>> hand = Hand(Rules(), deck, button=0)
>>> hand.actor, hand.legal_actions()
(0, (<Action.FOLD: 0>, <Action.CALL: 1>, <Action.RAISE: 2>))
>>> for action in (Action.RAISE, Action.CALL) + (Action.CALL,) * 6:
...     hand.act(action)
>>> hand.is_over, hand.payoffs
(True, (6, -6))
>>> hand.to_acpc()
'STATE:0:rc/cc/cc/cc:KdKc|AsAh/2c3d4h/9s/Jd:-6|6:p0|p1'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from envs.acpc import acpc_state
from envs.cards import DECK_SIZE, check_distinct
from envs.evaluator import evaluate_one
from envs.events import (
    Acted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    PotAwarded,
    ShowedDown,
)
from envs.rules import Action, Rules, Street
from envs.showdown import award_pots
from envs.view import PlayerView

_CALL = (Action.CALL,)
_CALL_RAISE = (Action.CALL, Action.RAISE)
_FOLD_CALL = (Action.FOLD, Action.CALL)
_FOLD_CALL_RAISE = (Action.FOLD, Action.CALL, Action.RAISE)
BOARD_SLICES = {Street.FLOP: (0, 3), Street.TURN: (3, 4), Street.RIVER: (4, 5)}
"""Which of the five board cards each round deals."""


class Hand:
    """One hand of fixed-limit hold'em, mutable while it is played; see the module docstring.

    Query with ``actor``, ``legal_actions()`` and ``can_fold()`` / ``can_check_or_call()`` /
    ``can_bet_or_raise()``; act with ``fold()``, ``check_or_call()``, ``bet_or_raise()`` or
    ``act(action)``, which raise ``ValueError`` with the reason when the action is illegal
    (``verify_*`` give the reason without acting).
    """

    __slots__ = (
        "_acted",
        "_actions",
        "_blinds",
        "_board_len",
        "_deck",
        "_events",
        "_folded",
        "_full_raise",
        "_max_bet",
        "_num_active",
        "_payoffs",
        "_queue",
        "_refusal",
        "_refusal_key",
        "_short_all_in",
        "_shown",
        "bets",
        "button",
        "contributions",
        "hand_id",
        "num_bets",
        "num_seats",
        "rules",
        "stacks",
        "street",
    )

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int] | np.ndarray,
        *,
        button: int = 0,
        hand_id: int = 0,
        stacks: Sequence[int] | None = None,
    ) -> None:
        n = rules.num_seats
        if not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button}")
        needed = 2 * n + 5
        if len(deck) < needed:
            raise ValueError(f"a {n}-seat hand needs at least {needed} cards, got {len(deck)}")
        head = deck[:needed]
        cards: tuple[int, ...] = tuple(
            head.tolist() if isinstance(head, np.ndarray) else map(int, head)
        )
        if len(set(cards)) != needed or min(cards) < 0 or max(cards) >= DECK_SIZE:
            check_distinct(cards)
        if stacks is None:
            start = rules.starting_stacks
        else:
            start = tuple(stacks)
            if len(start) != n or any(s <= 0 for s in start):
                raise ValueError(f"stacks must be {n} positive chip counts, got {start!r}")
        self.rules = rules
        self.num_seats = n
        self.button = button
        self.hand_id = hand_id
        self._deck = cards
        self.stacks = list(start)
        self.bets = [0] * n
        self.contributions = [0] * n
        self._blinds = [0] * n
        self._folded = [False] * n
        self._num_active = n
        self._payoffs: tuple[int, ...] | None = None
        self._shown: tuple[tuple[int, int] | None, ...] | None = None  # built by view()
        self._board_len = 0
        self.street = Street.PREFLOP
        self._events: list[Event] = []  # hole deals are prepended lazily by ``events``
        self._actions: list[Acted] = []  # the public betting, kept apart for views
        self._refusal_key = -1
        self._refusal: str | None = None
        self._max_bet = 0
        self._full_raise = 0
        self._short_all_in = 0
        self._acted: set[int] = set()
        self._queue: list[int] = []
        if n == 2:
            sb_seat, bb_seat = button, 1 - button
        else:
            sb_seat, bb_seat = (button + 1) % n, (button + 2) % n
        self._post(sb_seat, rules.small_blind)
        self._post(bb_seat, rules.big_blind)
        # The seat after the largest blind opens; a short big blind below the small blind
        # hands that role to the small blind (as in PokerKit).
        top = bb_seat if self.bets[bb_seat] >= self.bets[sb_seat] else sb_seat
        self._begin_round(top + 1, num_bets=1)

    # ----------------------------------------------------------------- queries

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
        holes = [HoleDealt(s, (deck[2 * s], deck[2 * s + 1])) for s in range(self.num_seats)]
        return (*holes, *self._events)

    @property
    def board(self) -> tuple[int, ...]:
        """Community cards dealt so far."""
        n2 = 2 * self.num_seats
        return self._deck[n2 : n2 + self._board_len]

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each seat has folded."""
        return tuple(self._folded)

    @property
    def pot(self) -> int:
        """All chips committed, current round included."""
        return sum(self.contributions)

    def hole(self, seat: int) -> tuple[int, int]:
        """The private cards of ``seat``."""
        return self._deck[2 * seat], self._deck[2 * seat + 1]

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (capped by its stack)."""
        return min(self.stacks[seat], self._max_bet - self.bets[seat])

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
        if self.bets[self._queue[0]] < self._max_bet:
            return _FOLD_CALL_RAISE if can_raise else _FOLD_CALL
        return _CALL_RAISE if can_raise else _CALL

    def _no_actor_reason(self) -> str:
        return "the hand is over" if self._payoffs is not None else "nobody is to act"

    def _fold_refusal(self) -> str | None:
        if not self._queue:
            return f"cannot fold: {self._no_actor_reason()}"
        seat = self._queue[0]
        if self.bets[seat] >= self._max_bet:
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
        verb = "raise" if self.num_bets else "bet"
        cap = self.rules.max_bets[self.street]
        if self.num_bets >= cap:
            return (
                f"seat {seat} may not {verb}: the cap of {cap} bets on the "
                f"{self.street.name.lower()} is reached"
            )
        owed = self._max_bet - self.bets[seat]
        stack = self.stacks[seat]
        if stack <= owed:
            return f"seat {seat} may not {verb}: its stack only covers a call"
        if owed < self._full_raise:
            return f"seat {seat} may not {verb}: it faces a short all-in it cannot raise"
        if self._short_all_in and self._short_all_in < self._full_raise and seat in self._acted:
            return (
                f"seat {seat} may not {verb}: a short all-in does not reopen the betting "
                "for a seat that already acted"
            )
        folded, stacks, bets, top = self._folded, self.stacks, self.bets, self._max_bet
        for s in range(self.num_seats):
            if s != seat and not folded[s] and stacks[s] + bets[s] > top:
                return None
        return f"seat {seat} may not {verb}: every other seat is all-in or folded"

    # ----------------------------------------------------------------- actions

    def act(self, action: Action) -> None:
        """Apply ``action`` for the actor; raises ``ValueError`` if it is illegal."""
        if action == Action.CALL:
            self.check_or_call()
        elif action == Action.RAISE:
            self.bet_or_raise()
        elif action == Action.FOLD:
            self.fold()
        else:
            raise ValueError(f"unknown action {action!r}; use envs.Action")

    def fold(self) -> None:
        """Fold the actor's hand."""
        self.verify_fold()
        seat = self._pop_actor()
        self._folded[seat] = True
        self._num_active -= 1
        self._record(Acted(self.street, seat, Action.FOLD, 0))
        self._after_passive()

    def check_or_call(self) -> None:
        """Check, or call the current bet (all-in for less if the stack is short)."""
        self.verify_check_or_call()
        seat = self._pop_actor()
        amount = min(self.stacks[seat], self._max_bet - self.bets[seat])
        self._put(seat, amount)
        self._record(Acted(self.street, seat, Action.CALL, amount))
        self._after_passive()

    def bet_or_raise(self) -> None:
        """Bet or raise by the round's fixed size (all-in for less if the stack is short)."""
        self.verify_bet_or_raise()
        seat = self._pop_actor()
        previous = self._max_bet
        target = min(
            self.stacks[seat] + self.bets[seat], previous + self.rules.bet_sizes[self.street]
        )
        put = target - self.bets[seat]
        self._put(seat, put)
        increment = target - previous
        self._max_bet = target
        self.num_bets += 1
        if increment >= self._full_raise:
            self._acted = {seat}
        self._full_raise = max(self._full_raise, increment)
        if self.stacks[seat]:
            self._short_all_in = 0
        else:
            self._short_all_in += increment
            if self._short_all_in >= self._full_raise:
                self._short_all_in = 0
        self._record(Acted(self.street, seat, Action.RAISE, put))
        n = self.num_seats
        self._queue = [
            s
            for s in ((seat + k) % n for k in range(1, n))
            if not self._folded[s] and self.stacks[s]
        ]
        if not self._queue:
            self._end_round()

    # ------------------------------------------------------------------- views

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now; after the hand, with the cards shown down."""
        # Positional construction: the engine builds one view per decision (hot path).
        shown: tuple[tuple[int, int] | None, ...]
        payoffs: tuple[int, ...]
        if self._payoffs is None:
            queue = self._queue
            to_call = self.to_call(seat)
            legal = self.legal_actions() if queue and queue[0] == seat else ()
            terminal, shown, payoffs = False, (), ()
        else:
            if self._shown is None:
                cards = {e.seat: e.cards for e in self._events if type(e) is ShowedDown}
                self._shown = tuple(cards.get(s) for s in range(self.num_seats))
            to_call, legal, terminal, shown, payoffs = 0, (), True, self._shown, self._payoffs
        return PlayerView(
            self.rules,
            self.hand_id,
            seat,
            self.button,
            self.hole(seat),
            self.board,
            self.street,
            tuple(self._actions),
            tuple(self._blinds),
            tuple(self.bets),
            tuple(self.contributions),
            tuple(self.stacks),
            tuple(self._folded),
            self.num_bets,
            to_call,
            legal,
            terminal,
            shown,
            payoffs,
        )

    def to_acpc(self, names: Sequence[str] | None = None) -> str:
        """The hand as an ACPC ``STATE`` line (positions start left of the button)."""
        return acpc_state(self, names)

    # ---------------------------------------------------------------- internals

    def _record(self, acted: Acted) -> None:
        self._events.append(acted)
        self._actions.append(acted)

    def _pop_actor(self) -> int:
        seat = self._queue.pop(0)
        self._acted.add(seat)
        return seat

    def _post(self, seat: int, blind: int) -> None:
        amount = min(blind, self.stacks[seat])
        if amount:
            self._put(seat, amount)
            self._blinds[seat] = amount
            self._events.append(BlindPosted(seat, amount))

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        self.contributions[seat] += amount

    def _begin_round(self, opener: int, *, num_bets: int) -> None:
        n = self.num_seats
        self.num_bets = num_bets
        self._max_bet = max(self.bets)
        self._full_raise = 0
        self._short_all_in = 0
        self._acted = set()
        live = [self.stacks[s] + self.bets[s] for s in range(n) if not self._folded[s]]
        second = sorted(live)[-2]
        # A seat acts only if it has chips and someone could still contest them (PokerKit's
        # "effective stack"); a lone seat that already matches the bet has nothing to decide.
        self._queue = [
            s
            for s in ((opener + k) % n for k in range(n))
            if not self._folded[s] and self.stacks[s] and second > self.bets[s]
        ]
        if not self._queue or (
            len(self._queue) == 1 and self.bets[self._queue[0]] >= self._max_bet
        ):
            self._queue = []
            self._end_round()

    def _after_passive(self) -> None:
        if not self._queue or self._num_active <= 1:
            self._queue = []
            self._end_round()

    def _end_round(self) -> None:
        bets = self.bets
        cutoff = sorted(bets)[-2]
        for seat in range(self.num_seats):
            if bets[seat] > cutoff:
                excess = bets[seat] - cutoff
                self.stacks[seat] += excess
                self.contributions[seat] -= excess
                self._events.append(BetReturned(seat, excess))
        self.bets = [0] * self.num_seats
        if self._num_active == 1:
            winner = self._folded.index(False)
            self._finish([(self.pot, (winner,))])
            return
        with_chips = sum(
            1 for s in range(self.num_seats) if not self._folded[s] and self.stacks[s]
        )
        if self.street == Street.RIVER or with_chips <= 1:
            while self.street < Street.RIVER:
                self._deal_next_street()
            self._showdown()
            return
        self._deal_next_street()
        self._begin_round(self.button + 1, num_bets=0)

    def _deal_next_street(self) -> None:
        self.street = Street(self.street + 1)
        lo, hi = BOARD_SLICES[self.street]
        start = 2 * self.num_seats
        self._board_len = hi
        self._events.append(BoardDealt(self.street, self._deck[start + lo : start + hi]))

    def _showdown(self) -> None:
        n = self.num_seats
        board = self.board
        ranks = [0] * n
        for s in self._order_from_button():
            if not self._folded[s]:
                cards = self.hole(s)
                ranks[s] = evaluate_one(cards + board)
                self._events.append(ShowedDown(s, cards, ranks[s]))
        contenders = [s for s in self._order_from_button() if not self._folded[s]]
        self._finish(award_pots(self.contributions, contenders, ranks))

    def _order_from_button(self) -> list[int]:
        n = self.num_seats
        return [(self.button + 1 + p) % n for p in range(n)]

    def _finish(self, awards: list[tuple[int, tuple[int, ...]]]) -> None:
        won = [0] * self.num_seats
        for index, (amount, winners) in enumerate(awards):
            share, odd = divmod(amount, len(winners))
            for k, seat in enumerate(winners):
                chips = share + (odd if k == 0 else 0)
                won[seat] += chips
                self._events.append(PotAwarded(index, seat, chips))
        payoffs = tuple(won[s] - self.contributions[s] for s in range(self.num_seats))

        for seat in range(self.num_seats):
            self.stacks[seat] += won[seat]
        self._payoffs = payoffs
        self._queue = []
        self._events.append(HandEnded(payoffs))
