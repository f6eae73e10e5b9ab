"""Invariants over seeded random rollouts at 2 to 10 seats, deep and short stacks."""

from __future__ import annotations

import numpy as np
import pytest

from envs.events import Acted, BlindPosted, BoardDealt, HandEnded, HoleDealt, ShowedDown
from envs.game import Hand
from envs.rules import Action, Rules, Street

HANDS_PER_SIZE = 300


def _rollout(rules: Rules, rng: np.random.Generator, button: int) -> Hand:
    hand = Hand(rules, rng.permutation(52), button=button)
    start = list(rules.starting_stacks)
    n = rules.num_seats
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        assert legal, "a seat is to act but has no legal action"
        assert Action.CALL in legal
        free = hand.bets[seat] >= max(hand.bets)
        assert (Action.FOLD in legal) == (not free), "fold offered iff checking is not free"
        for illegal in set(Action) - set(legal):
            with pytest.raises(ValueError):
                hand.act(illegal)
        hand.act(legal[int(rng.integers(len(legal)))])
    # chips are conserved and the payoffs sum to zero
    assert sum(hand.payoffs) == 0
    assert sum(hand.stacks) == sum(start)
    assert [s - s0 for s, s0 in zip(hand.stacks, start, strict=True)] == list(hand.payoffs)
    assert all(s >= 0 for s in hand.stacks)
    events = hand.events
    assert isinstance(events[-1], HandEnded)
    # every card dealt once
    cards = [c for e in events if isinstance(e, HoleDealt) for c in e.cards]
    cards += [c for e in events if isinstance(e, BoardDealt) for c in e.cards]
    assert len(cards) == len(set(cards))
    # the cap is respected on every street
    acts = [e for e in events if isinstance(e, Acted)]
    for street in Street:
        raises = sum(1 for a in acts if a.street == street and a.action == Action.RAISE)
        assert raises + (street == Street.PREFLOP) <= rules.max_bets[street]
    # order of play: the first decision of each round
    blinds = [e.seat for e in events if isinstance(e, BlindPosted)]
    bb = (button + 1) % n if n == 2 else (button + 2) % n
    if acts and rules.stacks is None:
        assert blinds[-1] == bb
        assert acts[0].seat == (bb + 1) % n
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            first = next((a for a in acts if a.street == street), None)
            if first is not None:
                folded_before = {
                    a.seat
                    for a in acts[: next(i for i, a in enumerate(acts) if a is first)]
                    if a.action == Action.FOLD
                }
                expected = next(
                    (button + k) % n
                    for k in range(1, n + 1)
                    if (button + k) % n not in folded_before
                )
                assert first.seat == expected
    # a seat acts again in a round only after a raise by someone else
    for street in Street:
        seen: set[int] = set()
        round_acts = [a for a in acts if a.street == street]
        for i, a in enumerate(round_acts):
            if a.seat in seen:
                assert any(b.action == Action.RAISE and b.seat != a.seat for b in round_acts[:i])
            seen.add(a.seat)
    showdown = [e for e in events if isinstance(e, ShowedDown)]
    assert not showdown or len(showdown) >= 2
    return hand


@pytest.mark.parametrize("num_seats", range(2, 11))
@pytest.mark.parametrize("stacks", ["deep", "short"])
def test_random_rollouts_keep_the_invariants(num_seats: int, stacks: str) -> None:
    rng = np.random.default_rng([num_seats, stacks == "short"])
    for i in range(HANDS_PER_SIZE):
        seat_stacks = None
        if stacks == "short":
            seat_stacks = tuple(int(s) for s in rng.integers(1, 40, size=num_seats))
        rules = Rules(num_seats=num_seats, stacks=seat_stacks)
        _rollout(rules, rng, button=i % num_seats)


def test_same_deck_and_actions_replay_identically() -> None:
    rng = np.random.default_rng(5)
    rules = Rules(num_seats=6)
    deck = rng.permutation(52)
    first = Hand(rules, deck, button=2)
    actions = []
    while not first.is_over:
        legal = first.legal_actions()
        actions.append(legal[int(rng.integers(len(legal)))])
        first.act(actions[-1])
    second = Hand(rules, deck, button=2)
    for action in actions:
        second.act(action)
    assert second.events == first.events
    assert second.to_acpc() == first.to_acpc()
