"""``BatchedBayesianPlayer.type_probabilities``: BPP's probabilities with each of its 27 current
types at once (``agents.bpp.type_belief``) against the batched BPP asked with real cards.

Seeded random hands are played in a ``HandBatch``; at each decision of seat 0, one batched BPP
is asked with its real cards and its type twin (the same settings, told the same hand ends) is
asked for every type: the twin's row for the real cards' type must equal the first's
probabilities to 1e-12 (the sums run in another order), learning and multi-way tables
included.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.batched_types import BOARD_WIDTH, street_types
from agents.bpp.decision import Strategy
from agents.bpp.hand_types import NUM_CURRENT_TYPES
from envs.batched import HandBatch, random_decks
from envs.batched.views import decisions_at, hand_ends_at
from envs.rules import Rules

Batched = BatchedBPP | BatchedBPPCurves


def _compare(make: type[Batched], seats: int, seed: int, **settings: object) -> int:
    """Play seeded random hands at 40 tables; return the decisions compared."""
    tables, rng = 40, np.random.default_rng(seed)
    rules = Rules(num_seats=seats)
    real, typed = make(tables, **settings), make(tables, **settings)  # type: ignore[arg-type]
    for agent in (real, typed):
        agent.start_tables(np.arange(tables), np.zeros(tables, dtype=np.int8))
    batch = HandBatch(rules, tables)
    hand_ids = np.zeros(tables, dtype=np.int64)
    compared = 0
    for _ in range(600):
        idle = np.flatnonzero(batch.over)
        if idle.size:
            hand_ids[idle] += 1
            decks = random_decks(rng, count=idle.size, cards=2 * seats + 5)
            batch.start(idle, decks, rng.integers(0, seats, idle.size), hand_ids[idle])
        mine = np.flatnonzero(batch.actor == 0)
        if mine.size:
            views = decisions_at(batch, mine)
            expected = real.probabilities(views)
            every = typed.type_probabilities(views)
            assert every.shape == (mine.size, NUM_CURRENT_TYPES, 3)
            kinds, _ = street_types(views.hole, views.board, BOARD_WIDTH[views.street])
            np.testing.assert_allclose(
                every[np.arange(mine.size), kinds], expected, rtol=0, atol=1e-12
            )
            compared += mine.size
        legal = batch.legal_mask()
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in legal])
        batch.step(actions)
        ended = np.flatnonzero(batch.finished)
        if ended.size:
            ends = hand_ends_at(batch, ended, np.zeros(ended.size, dtype=np.int8))
            real.observe_ends(ends)
            typed.observe_ends(ends)
    return compared


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("strategy", list(Strategy))
def test_every_type_plays_as_the_bpp_holding_cards_of_that_type(
    seats: int, strategy: Strategy
) -> None:
    assert _compare(BatchedBPP, seats, seed=seats, strategy=strategy) > 500


def test_curves_and_a_bpp_that_does_not_learn() -> None:
    assert _compare(BatchedBPPCurves, 2, seed=5) > 500
    assert _compare(BatchedBPP, 2, seed=6, learn=False) > 500


def test_a_hand_dropped_after_a_probe_is_followed_afresh() -> None:
    """``end_hands`` drops the hand in progress: asked again, the type twin restarts from the
    log and answers as before."""
    rules, tables = Rules(), 4
    batch = HandBatch(rules, tables)
    decks = random_decks(np.random.default_rng(1), count=tables, cards=9)
    batch.start(np.arange(tables), decks, 0, np.arange(tables))
    batch.step(np.full(tables, 2))  # the small blind raises: the big blind decides
    agent = BatchedBPP(tables)
    agent.start_tables(np.arange(tables), np.ones(tables, dtype=np.int8))
    views = decisions_at(batch, np.arange(tables))
    first = agent.type_probabilities(views)
    agent.end_hands(np.arange(tables))
    np.testing.assert_array_equal(agent.type_probabilities(views), first)
    assert agent.nbytes > BatchedBPP(tables).nbytes  # the type twin's state is counted


def test_a_hypothetical_hand_leaves_the_real_one_where_it_was() -> None:
    """BPP (the big blind) raised; asked about the small blind's re-raise that did not
    happen (``hypothetical``), then, after the small blind's call, at the flop: its answers
    there equal, to the bit, those of a twin never asked about the re-raise, and those of one
    that dropped the hand and absorbed its log afresh."""
    rules, tables = Rules(), 4
    batch = HandBatch(rules, tables)
    decks = random_decks(np.random.default_rng(2), count=tables, cards=9)
    batch.start(np.arange(tables), decks, 0, np.arange(tables))
    everywhere = np.arange(tables)
    asked, unasked, restarted = (BatchedBPP(tables) for _ in range(3))
    for agent in (asked, unasked, restarted):
        agent.start_tables(everywhere, np.ones(tables, dtype=np.int8))
    batch.step(np.full(tables, 1))  # the small blind calls: the big blind decides
    first = decisions_at(batch, everywhere)
    for agent in (asked, unasked, restarted):
        agent.type_probabilities(first)
    batch.step(np.full(tables, 2))  # the big blind raises
    saved = batch.save(everywhere)
    batch.step(np.full(tables, 2))  # a re-raise only considered
    probe = decisions_at(batch, everywhere)
    asked.type_probabilities(probe, hypothetical=True)
    restarted.type_probabilities(probe)
    restarted.end_hands(everywhere)
    batch.restore(saved)
    batch.step(np.full(tables, 1))  # the small blind calls: the flop, the big blind first
    flop = decisions_at(batch, everywhere)
    assert flop.street.tolist() == [1] * tables
    expected = unasked.type_probabilities(flop)
    np.testing.assert_array_equal(asked.type_probabilities(flop), expected)
    np.testing.assert_array_equal(restarted.type_probabilities(flop), expected)
