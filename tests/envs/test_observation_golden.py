"""Golden observations: the encoders give, bit for bit, the arrays recorded from seeded hands.

Saved learners (``results/ppo-*/model.zip``) were trained on these observations, so any change
to them shows up here. ``golden/observations.npz`` was recorded by the encoders of the commit
that added it; after a deliberate change to the observation, regenerate it with
``HOLDEM_LAB_UPDATE_GOLDEN=1 pytest`` and review the change like code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from envs.batched import HandBatch
from envs.deals import deal_deck, deal_decks
from envs.game import Hand
from envs.observation import ObservationEncoder, encode_batch, seat_batch, shown_cards
from envs.rules import Action, Rules
from envs.view import PlayerView

GOLDEN = Path(__file__).parent / "golden" / "observations.npz"

CASES = {
    "2 deep": (2, None),
    "2 short": (2, (9, 30)),
    "3 short": (3, (12, 40, 25)),
    "6 deep": (6, None),
    "10 short": (10, tuple(range(8, 48, 4))),
}
"""Seats and stacks: deep stacks reach capped rounds, short ones all-ins and side pots."""

Observation = dict[str, Any]


def _action(legal: tuple[Action, ...], u: float) -> Action:
    """A legal action, folding rarely so that many hands reach the showdown."""
    if Action.FOLD in legal and u < 0.1:
        return Action.FOLD
    if Action.RAISE in legal and u > 0.55:
        return Action.RAISE
    return Action.CALL


def scalar_views(num_seats: int, stacks: tuple[int, ...] | None) -> list[PlayerView]:
    """The actor's and the next seat's view at every decision, every seat's at every end."""
    rules = Rules(num_seats=num_seats, stacks=stacks)
    rng = np.random.default_rng(num_seats)
    views: list[PlayerView] = []
    for h in range(4):
        hand = Hand(rules, deal_deck(17, h), button=h % num_seats, hand_id=h)
        while (actor := hand.actor) is not None:
            views += [hand.view(actor), hand.view((actor + 1) % num_seats)]
            hand.act(_action(hand.legal_actions(), float(rng.random())))
        views += [hand.view(seat) for seat in range(num_seats)]
    return views


def table_observations(
    num_seats: int, stacks: tuple[int, ...] | None, encode: Any
) -> list[Observation]:
    """``encode(batch, seat, rows)`` of seats 0 and n - 1 at every table before every step
    of a seeded ``HandBatch`` rollout, and at the tables whose hand just ended."""
    rules = Rules(num_seats=num_seats, stacks=stacks)
    tables = 6
    batch = HandBatch(rules, tables)
    rng = np.random.default_rng(num_seats)
    hand = np.zeros(tables, dtype=np.int64)
    seats = (0, num_seats - 1)
    observed: list[Observation] = []
    for _ in range(40):
        idle = np.flatnonzero(batch.over)
        if idle.size:
            batch.start(
                idle,
                deal_decks(23, hand[idle] * tables + idle),
                hand[idle] % num_seats,
                hand[idle],
            )
            hand[idle] += 1
        observed += [encode(batch, seat, None) for seat in seats]
        weights = batch.legal_mask() * np.array([0.1, 1.0, 1.0])
        batch.step((rng.random((tables, 3)) * weights).argmax(axis=1))
        ended = np.flatnonzero(batch.finished)
        if ended.size:
            observed += [encode(batch, seat, ended) for seat in seats]
    return observed


def _stack(observations: list[Observation]) -> dict[str, np.ndarray]:
    return {key: np.stack([np.asarray(o[key]) for o in observations]) for key in observations[0]}


def _concatenate(observations: list[Observation]) -> dict[str, np.ndarray]:
    return {key: np.concatenate([o[key] for o in observations]) for key in observations[0]}


def _encode_tables(batch: HandBatch, seat: int, rows: np.ndarray | None) -> Observation:
    return encode_batch(seat_batch(batch, seat, rows), shown_cards(batch, rows))


def current() -> dict[str, np.ndarray]:
    """Every case's observations by today's encoders, keyed ``"<form>/<case>/<key>"``."""
    arrays: dict[str, np.ndarray] = {}
    for case, (num_seats, stacks) in CASES.items():
        views = scalar_views(num_seats, stacks)
        encoder = ObservationEncoder(views[0].rules)
        for key, value in _stack([encoder.encode(v) for v in views]).items():
            arrays[f"view/{case}/{key}"] = value
        observed = table_observations(num_seats, stacks, _encode_tables)
        for key, value in _concatenate(observed).items():
            arrays[f"tables/{case}/{key}"] = value
    return arrays


def test_the_encoders_give_the_recorded_observations() -> None:
    got = current()
    if os.environ.get("HOLDEM_LAB_UPDATE_GOLDEN") == "1":
        np.savez_compressed(GOLDEN, **got)
    with np.load(GOLDEN) as golden:
        assert sorted(golden.files) == sorted(got)
        for name in golden.files:
            assert got[name].dtype == golden[name].dtype, name
            np.testing.assert_array_equal(got[name], golden[name], err_msg=name)
    for case in CASES:
        assert (got[f"view/{case}/shown"] != 52).any(), case  # showdowns were recorded
        assert (got[f"tables/{case}/shown"] != 52).any(), case


@pytest.mark.parametrize("case", list(CASES))
def test_the_cases_reach_every_street(case: str) -> None:
    num_seats, stacks = CASES[case]
    streets = {int(v.street) for v in scalar_views(num_seats, stacks)}
    assert streets == {0, 1, 2, 3}
