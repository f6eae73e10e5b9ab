"""Differential test: the batched engine against the scalar ``Hand``, hand by hand.

Every table of a ``HandBatch`` is shadowed by a scalar ``Hand`` with the same deck, button,
hand number and stacks; both get the same random legal action at every decision (drawn from
the same numbers). At every decision the seat to act and the legal actions must agree; at the
end of every hand the payoffs, final stacks and ACPC ``STATE`` line; on a sample of decisions
the players' views, the event history and the decision counters. Finished tables restart in
place, so tables play at different streets in the same step. The batched ACPC export
(``to_acpc_lines``) gives the scalar lines too: for finished hands here, and at every step,
for every table, in a shorter test that runs with the quick tests (3,200 hands).

Each seat count plays at least 11,200 hands (more than 100,000 in all) under two rule sets:
the default game and a variant (odd blinds and bet sizes, other caps), each with short uneven
stacks (many all-ins, side pots, short blinds) at half of the tables and deep stacks at the
others.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from envs.batched import HandBatch, random_decks
from envs.events import Acted
from envs.game import Hand
from envs.rules import Action, Rules

HANDS_PER_RULES = 5_600
TABLES = 64
VARIANTS = (
    {"small_blind": 1, "big_blind": 3, "small_bet": 3, "big_bet": 6, "max_bets": (5, 4, 4, 4)},
    {"small_blind": 0, "big_blind": 1, "small_bet": 1, "big_bet": 2, "max_bets": (1, 2, 3, 1)},
    {"small_blind": 2, "big_blind": 2, "small_bet": 2, "big_bet": 5, "max_bets": (2, 1, 1, 6)},
)
LEGAL = {
    mask: tuple(a for a, ok in zip(Action, mask, strict=True) if ok)
    for mask in itertools.product((False, True), repeat=3)
}


class Shadowed:
    """A ``HandBatch`` and one scalar ``Hand`` per table, dealt and played alike."""

    def __init__(self, rules: Rules, rng: np.random.Generator, every_line: bool = False) -> None:
        self.rules, self.rng, self.every_line = rules, rng, every_line
        self.batch = HandBatch(rules, TABLES)
        self.hands: list[Hand | None] = [None] * TABLES
        self.next_id = 0
        self.played = 0

    def deal(self, rows: np.ndarray) -> None:
        n, k, rng = self.rules.num_seats, len(rows), self.rng
        decks = random_decks(rng, k, 2 * n + 5 + int(rng.integers(0, 3)))
        buttons = rng.integers(0, n, size=k)
        ids = np.arange(self.next_id, self.next_id + k) * 7 + 3
        self.next_id += k
        deep = self.rules.max_commitment + rng.integers(0, 20, size=(k, n))
        short = rng.integers(1, 5 * self.rules.big_bet, size=(k, n))
        stacks = np.where(rng.random(k)[:, np.newaxis] < 0.5, short, deep)
        self.batch.start(rows, decks, buttons, ids, stacks)
        for i, table in enumerate(rows.tolist()):
            self.hands[table] = Hand(
                self.rules,
                decks[i],
                button=int(buttons[i]),
                hand_id=int(ids[i]),
                stacks=stacks[i].tolist(),
            )

    def check_decisions(self) -> None:
        """Same seat to act and same legal actions at every table."""
        b = self.batch
        actors, legal = b.actor.tolist(), b.legal_mask().tolist()
        to_call = b.to_call().tolist()
        for table, hand in enumerate(self.hands):
            assert hand is not None
            actor = hand.actor
            assert actors[table] == (-1 if actor is None else actor), (table, hand.events)
            assert LEGAL[tuple(legal[table])] == hand.legal_actions(), (table, hand.events)
            assert b.legal_actions(table) == hand.legal_actions(), (table, hand.events)
            if actor is not None:
                assert to_call[table] == hand.to_call(actor)

    def check_finished(self) -> None:
        """Same payoffs, stacks and STATE line for every hand that ended."""
        b = self.batch
        over = np.flatnonzero(b.over).tolist()
        for table in over:
            hand = self.hands[table]
            assert hand is not None and hand.is_over
            assert b.payoffs[table].tolist() == list(hand.payoffs), hand.events
            assert b.stacks[table].tolist() == list(hand.stacks), hand.events
            assert b.to_acpc(table) == hand.to_acpc()
        assert b.to_acpc_lines(over) == [self._hand(t).to_acpc() for t in over]

    def check_lines(self) -> None:
        """The batched export of every table equals the scalar lines; so does that of a few
        tables drawn at random (repeats, any order) with player names."""
        b, n = self.batch, self.rules.num_seats
        assert b.to_acpc_lines() == [self._hand(t).to_acpc() for t in range(TABLES)]
        names = [f"pl|ayer\u00e9{s}" * (s % 3) for s in range(n)]  # empty, non-ASCII, "|"
        draw = self.rng.integers(0, TABLES, size=int(self.rng.integers(0, 8))).tolist()
        expected = [self._hand(t).to_acpc(names) for t in draw]
        assert b.to_acpc_lines(draw, names) == expected
        assert [b.to_acpc(t, names) for t in draw] == expected

    def _hand(self, table: int) -> Hand:
        hand = self.hands[table]
        assert hand is not None
        return hand

    def check_sample(self, tables: list[int]) -> None:
        """Views of every seat, events, STATE lines and decision counters."""
        b = self.batch
        for table in tables:
            hand = self.hands[table]
            assert hand is not None
            assert b.events(table) == hand.events
            names = [f"player{s}" for s in range(self.rules.num_seats)]
            assert b.to_acpc(table, names) == hand.to_acpc(names)
            for seat in range(self.rules.num_seats):
                assert b.view(table, seat) == hand.view(seat), (table, seat)
            acted = Counter(e.seat for e in hand.events if isinstance(e, Acted))
            assert b.decisions[table].tolist() == [acted[s] for s in range(self.rules.num_seats)]

    def play(self, hands: int) -> None:
        rng, b = self.rng, self.batch
        self.deal(np.arange(TABLES))
        while self.played < hands:
            self.check_finished()
            over = np.flatnonzero(b.over)
            self.played += len(over)
            if len(over):
                self.deal(over)
            self.check_decisions()
            if self.every_line:
                self.check_lines()
            if rng.random() < 0.2:
                self.check_sample(rng.choice(TABLES, size=3, replace=False).tolist())
            legal = b.legal_mask()
            choice = (rng.random(TABLES) * legal.sum(axis=1)).astype(int)
            actions = np.zeros(TABLES, dtype=np.int8)
            for table, hand in enumerate(self.hands):
                assert hand is not None
                options = hand.legal_actions()
                if options:
                    actions[table] = options[choice[table]]
                    hand.act(options[choice[table]])
            b.step(actions)


@pytest.mark.slow
@pytest.mark.parametrize("num_seats", range(2, 11))
def test_batched_engine_plays_the_scalar_game(num_seats: int) -> None:
    rng = np.random.default_rng([2026, num_seats])
    variant = VARIANTS[num_seats % len(VARIANTS)]
    for rules in (Rules(num_seats=num_seats), Rules(num_seats=num_seats, **variant)):
        shadowed = Shadowed(rules, rng)
        shadowed.play(HANDS_PER_RULES)
        assert shadowed.played >= HANDS_PER_RULES


@pytest.mark.parametrize("num_seats", [2, 3, 6, 10])
def test_batched_acpc_export_gives_the_scalar_lines_at_every_step(num_seats: int) -> None:
    rng = np.random.default_rng([21, num_seats])
    variant = VARIANTS[num_seats % len(VARIANTS)]
    for rules in (Rules(num_seats=num_seats), Rules(num_seats=num_seats, **variant)):
        shadowed = Shadowed(rules, rng, every_line=True)
        shadowed.play(400)
        assert shadowed.played >= 400
