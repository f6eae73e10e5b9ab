"""The bookkeeping half of a hand: chips, the order of play, rounds, streets and the showdown.

``BettingRounds`` posts the blinds, moves chips for the actions, keeps the queue of seats still
to act in the round, closes a round (giving back the uncalled part of a bet), deals the next
street and settles the pots. It never judges legality: ``envs.game.Hand``, its subclass and the
public face of a hand, checks every action first (see ``envs.game`` for the rules of play).
Both halves work on one object's slots: the split adds no lookup when a hand is played.
"""

from __future__ import annotations

from envs.evaluator import evaluate_one
from envs.events import (
    Acted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    PotAwarded,
    ShowedDown,
)
from envs.rules import MAX_SEATS, MIN_SEATS, Action, Rules, Street
from envs.showdown import award_pots

BOARD_SLICES = {Street.FLOP: (0, 3), Street.TURN: (3, 4), Street.RIVER: (4, 5)}
"""Which of the five board cards each round deals."""

_CLOCKWISE = {
    n: tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
    for n in range(MIN_SEATS, MAX_SEATS + 1)
}
"""``_CLOCKWISE[n][s]``: the ``n`` seats in order of play from seat ``s`` (built once)."""


class BettingRounds:
    """The state of a hand and the chip movements of its actions (see the module docstring).

    Args:
        rules: The game.
        cards: The ``2 * num_seats + 5`` cards dealt, already checked.
        button: The button seat, already checked.
        stacks: Each seat's chips at the start, already checked.
    """

    __slots__ = (
        "_acted",
        "_actions",
        "_bets",
        "_blinds",
        "_board",
        "_button",
        "_clockwise",
        "_contributions",
        "_deck",
        "_events",
        "_folded",
        "_full_raise",
        "_max_bet",
        "_num_active",
        "_num_bets",
        "_num_seats",
        "_payoffs",
        "_queue",
        "_rules",
        "_short_all_in",
        "_stacks",
        "_street",
    )

    def __init__(
        self, rules: Rules, cards: tuple[int, ...], button: int, stacks: tuple[int, ...]
    ) -> None:
        n = rules.num_seats
        self._rules = rules
        self._num_seats = n
        self._button = button
        self._clockwise = _CLOCKWISE[n]
        self._deck = cards
        self._stacks = list(stacks)
        self._bets = [0] * n
        self._contributions = [0] * n
        self._folded: tuple[bool, ...] = (False,) * n
        self._num_active = n
        self._payoffs: tuple[int, ...] | None = None
        self._board: tuple[int, ...] = ()
        self._street = Street.PREFLOP
        self._events: list[Event] = []  # hole deals are prepended lazily by ``Hand.events``
        self._actions: tuple[Acted, ...] = ()  # the public betting, kept apart for views
        self._num_bets = 0
        self._max_bet = 0
        self._full_raise = 0
        self._short_all_in = 0
        self._acted: set[int] = set()
        self._queue: list[int] = []
        if n == 2:
            sb_seat, bb_seat = button, 1 - button
        else:
            sb_seat, bb_seat = (button + 1) % n, (button + 2) % n
        blinds = [0] * n
        blinds[sb_seat] = self._post(sb_seat, rules.small_blind)
        blinds[bb_seat] = self._post(bb_seat, rules.big_blind)
        self._blinds = tuple(blinds)
        # The seat after the largest blind opens; a short big blind below the small blind
        # hands that role to the small blind (as in PokerKit).
        top = bb_seat if self._bets[bb_seat] >= self._bets[sb_seat] else sb_seat
        self._begin_round(top + 1, num_bets=1)

    # ------------------------------------------------------------ the actions

    def _fold(self) -> None:
        seat = self._pop_actor()
        folded = list(self._folded)
        folded[seat] = True
        self._folded = tuple(folded)
        self._num_active -= 1
        self._record(Acted(self._street, seat, Action.FOLD, 0))
        self._after_passive()

    def _check_or_call(self) -> None:
        seat = self._pop_actor()
        amount = min(self._stacks[seat], self._max_bet - self._bets[seat])
        self._put(seat, amount)
        self._record(Acted(self._street, seat, Action.CALL, amount))
        self._after_passive()

    def _bet_or_raise(self) -> None:
        seat = self._pop_actor()
        previous = self._max_bet
        target = min(
            self._stacks[seat] + self._bets[seat],
            previous + self._rules.bet_sizes[self._street],
        )
        put = target - self._bets[seat]
        self._put(seat, put)
        increment = target - previous
        self._max_bet = target
        self._num_bets += 1
        if increment >= self._full_raise:
            self._acted = {seat}
        self._full_raise = max(self._full_raise, increment)
        if self._stacks[seat]:
            self._short_all_in = 0
        else:
            self._short_all_in += increment
            if self._short_all_in >= self._full_raise:
                self._short_all_in = 0
        self._record(Acted(self._street, seat, Action.RAISE, put))
        folded, stacks = self._folded, self._stacks
        self._queue = [s for s in self._clockwise[seat][1:] if not folded[s] and stacks[s]]
        if not self._queue:
            self._end_round()

    # ------------------------------------------------------------ bookkeeping

    def _record(self, acted: Acted) -> None:
        self._events.append(acted)
        self._actions += (acted,)

    def _pop_actor(self) -> int:
        seat = self._queue.pop(0)
        self._acted.add(seat)
        return seat

    def _post(self, seat: int, blind: int) -> int:
        amount = min(blind, self._stacks[seat])
        if amount:
            self._put(seat, amount)
            self._events.append(BlindPosted(seat, amount))
        return amount

    def _put(self, seat: int, amount: int) -> None:
        self._stacks[seat] -= amount
        self._bets[seat] += amount
        self._contributions[seat] += amount

    def _begin_round(self, opener: int, *, num_bets: int) -> None:
        n = self._num_seats
        stacks, bets, folded = self._stacks, self._bets, self._folded
        self._num_bets = num_bets
        self._max_bet = max(bets)
        self._full_raise = 0
        self._short_all_in = 0
        self._acted = set()
        live = [stacks[s] + bets[s] for s in range(n) if not folded[s]]
        second = sorted(live)[-2]
        # A seat acts only if it has chips and someone could still contest them (PokerKit's
        # "effective stack"); a lone seat that already matches the bet has nothing to decide.
        self._queue = [
            s
            for s in self._clockwise[opener % n]
            if not folded[s] and stacks[s] and second > bets[s]
        ]
        if not self._queue or (len(self._queue) == 1 and bets[self._queue[0]] >= self._max_bet):
            self._queue = []
            self._end_round()

    def _after_passive(self) -> None:
        if not self._queue or self._num_active <= 1:
            self._queue = []
            self._end_round()

    def _end_round(self) -> None:
        bets = self._bets
        cutoff = sorted(bets)[-2]
        for seat in range(self._num_seats):
            if bets[seat] > cutoff:
                excess = bets[seat] - cutoff
                self._stacks[seat] += excess
                self._contributions[seat] -= excess
                self._events.append(BetReturned(seat, excess))
        self._bets = [0] * self._num_seats
        if self._num_active == 1:
            winner = self._folded.index(False)
            self._finish([(sum(self._contributions), (winner,))])
            return
        with_chips = sum(
            1 for s in range(self._num_seats) if not self._folded[s] and self._stacks[s]
        )
        if self._street == Street.RIVER or with_chips <= 1:
            while self._street < Street.RIVER:
                self._deal_next_street()
            self._showdown()
            return
        self._deal_next_street()
        self._begin_round(self._button + 1, num_bets=0)

    def _deal_next_street(self) -> None:
        self._street = Street(self._street + 1)
        lo, hi = BOARD_SLICES[self._street]
        start = 2 * self._num_seats
        self._board = self._deck[start : start + hi]
        self._events.append(BoardDealt(self._street, self._deck[start + lo : start + hi]))

    def _showdown(self) -> None:
        n = self._num_seats
        board = self._board
        ranks = [0] * n
        order = self._clockwise[(self._button + 1) % n]
        for s in order:
            if not self._folded[s]:
                cards = self._deck[2 * s], self._deck[2 * s + 1]
                ranks[s] = evaluate_one(cards + board)
                self._events.append(ShowedDown(s, cards, ranks[s]))
        contenders = [s for s in order if not self._folded[s]]
        self._finish(award_pots(self._contributions, contenders, ranks))

    def _finish(self, awards: list[tuple[int, tuple[int, ...]]]) -> None:
        won = [0] * self._num_seats
        for index, (amount, winners) in enumerate(awards):
            share, odd = divmod(amount, len(winners))
            for k, seat in enumerate(winners):
                chips = share + (odd if k == 0 else 0)
                won[seat] += chips
                self._events.append(PotAwarded(index, seat, chips))
        payoffs = tuple(won[s] - self._contributions[s] for s in range(self._num_seats))
        for seat in range(self._num_seats):
            self._stacks[seat] += won[seat]
        self._payoffs = payoffs
        self._queue = []
        self._events.append(HandEnded(payoffs))
