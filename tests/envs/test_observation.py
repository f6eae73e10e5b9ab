"""The observation encoders: stateful, one-off and batch encodings match a plain reference,
and a view and the one-row batch of the same decision encode to the same arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.batched.views import DecisionBatch, decision_batch
from envs.game import Hand
from envs.observation import (
    NO_CARD,
    ObservationEncoder,
    encode_batch,
    encode_view,
    history_length,
    observation_space,
)
from envs.rules import Rules
from envs.view import PlayerView


def reference_encoding(view: PlayerView) -> dict[str, Any]:
    """The module table of ``envs.observation`` written out naively, one field at a time."""
    n = view.num_seats
    board = [NO_CARD] * 5
    board[: len(view.board)] = view.board
    history = [[-1] * 4 for _ in range(history_length(view.rules))]
    for row, acted in enumerate(view.actions):
        history[row] = [acted.street.value, acted.seat, acted.action.value, acted.amount]
    shown = [NO_CARD] * (2 * n)
    for seat, cards in enumerate(view.shown):
        if cards is not None:
            shown[2 * seat : 2 * seat + 2] = cards
    return {
        "hole": np.array(view.hole),
        "board": np.array(board),
        "street": view.street.value,
        "button": view.button,
        "position": (view.seat - view.button - 1) % n,
        "pot": np.array([sum(view.contributions)]),
        "to_call": np.array([view.to_call]),
        "num_bets": view.num_bets,
        "bets": np.array(view.bets),
        "contributions": np.array(view.contributions),
        "stacks": np.array(view.stacks),
        "folded": np.array(view.folded, dtype=np.int8),
        "history": np.array(history),
        "shown": np.array(shown),
    }


def assert_same_observation(got: dict[str, Any], expected: dict[str, Any]) -> None:
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, np.ndarray):
            assert isinstance(got[key], np.ndarray) and got[key].dtype in (np.int64, np.int8), key
            np.testing.assert_array_equal(got[key], value, err_msg=key)
        else:
            assert type(got[key]) is int and got[key] == value, key


def seat_views(
    num_seats: int, seed: int, hands: int, *, every_actor: bool = False
) -> list[PlayerView]:
    """Seat 0's view at every decision and at the end of seeded random hands, in order (or,
    ``every_actor``, the view of each seat to act, at every decision)."""
    rng = np.random.default_rng(seed)
    rules = Rules(
        num_seats=num_seats, stacks=tuple(int(s) for s in rng.integers(6, 60, num_seats))
    )
    views = []
    for hand_id in range(hands):
        hand = Hand(rules, rng.permutation(52), button=hand_id % num_seats, hand_id=hand_id)
        while (actor := hand.actor) is not None:
            if actor == 0 or every_actor:
                views.append(hand.view(actor))
            legal = hand.legal_actions()
            hand.act(legal[int(rng.integers(len(legal)))])
        if not every_actor:
            views.append(hand.view(0))
    return views


@pytest.mark.parametrize("num_seats", [2, 3, 6, 10])
def test_one_encoder_over_many_hands_matches_the_reference(num_seats: int) -> None:
    views = seat_views(num_seats, seed=num_seats, hands=150)
    encoder = ObservationEncoder(views[0].rules)
    space = observation_space(views[0].rules)
    kept = []
    for view in views:
        obs = encoder.encode(view)
        assert_same_observation(obs, reference_encoding(view))
        assert space.contains(obs)
        kept.append((view, obs))
    # Observations are fresh arrays: later encodings never changed the ones handed out.
    for view, obs in kept[::7]:
        assert_same_observation(obs, reference_encoding(view))
    assert any(view.shown for view in views)  # showdowns were encoded too


def test_going_back_to_an_earlier_view_or_hand_is_still_right() -> None:
    views = seat_views(4, seed=1, hands=40)
    encoder = ObservationEncoder(views[0].rules)
    order = np.random.default_rng(2).permutation(len(views))
    for index in order:  # any order: the kept rows are checked against the view's actions
        assert_same_observation(encoder.encode(views[index]), reference_encoding(views[index]))


def test_a_history_longer_than_its_rows_is_refused() -> None:
    view = next(v for v in seat_views(3, seed=0, hands=20) if len(v.actions) > 2)
    with pytest.raises(ValueError, match="more than the 2 rows of the history"):
        encode_view(view, history_rows=2)


@pytest.mark.parametrize("num_seats", [2, 3, 6, 10])
def test_a_view_and_its_one_row_decision_batch_encode_alike(num_seats: int) -> None:
    """Every key, value, shape and dtype, at every decision of seeded random hands; and a
    batch of all of them row by row."""
    views = seat_views(num_seats, seed=100 + num_seats, hands=40, every_actor=True)
    assert {v.seat for v in views} == set(range(num_seats))
    assert {int(v.street) for v in views} == {0, 1, 2, 3}
    encoder = ObservationEncoder(views[0].rules)
    together = encode_batch(decision_batch(views, range(len(views))))
    for row, view in enumerate(views):
        single = encoder.encode(view)
        alone = encode_batch(decision_batch([view], [0]))
        assert alone.keys() == single.keys() == together.keys()
        for key, value in single.items():
            expected = np.asarray(value)
            for got in (alone[key][0], together[key][row]):
                assert got.shape == expected.shape and got.dtype == expected.dtype, key
                assert np.array_equal(got, expected), (key, row)


def test_a_batch_with_more_actions_than_history_rows_is_refused() -> None:
    view = next(v for v in seat_views(3, seed=0, hands=20, every_actor=True) if v.actions)
    batch = decision_batch([view], [0])
    fields = {name: getattr(batch, name) for name in DecisionBatch.__annotations__}
    rows = history_length(view.rules)
    fields["log_len"] = np.array([rows + 1], dtype=np.int16)
    with pytest.raises(ValueError, match=f"has {rows + 1} actions, more than the {rows} rows"):
        encode_batch(DecisionBatch(**fields))
