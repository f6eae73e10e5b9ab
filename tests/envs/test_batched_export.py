"""The batched ACPC export's edges (hand numbers ``Hand`` refuses, the tables asked for, bad
arguments) and the text rows it is built from. That it gives the scalar lines on thousands of
random hands is ``test_batched_differential``'s."""

from __future__ import annotations

import numpy as np
import pytest

from envs.batched import HandBatch, TableError
from envs.batched.text import decode, join, literal, lookup, numbers, separated
from envs.cards import parse_cards
from envs.rules import Action, Rules

EXTREMES = [0, 1, -1, 9, 10, -10, 99, 100, -999, 1000, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63)]


@pytest.mark.parametrize(
    "values",
    [
        np.array(EXTREMES, dtype=np.int64),
        np.random.default_rng(1).integers(-(10**15), 10**15, size=5_000),
        np.random.default_rng(2).integers(-300, 300, size=5_000).astype(np.int32),
        np.array([7], dtype=np.uint8),
        np.array([], dtype=np.int64),
    ],
)
def test_numbers_are_written_as_str_writes_them(values: np.ndarray) -> None:
    assert decode(numbers(values)) == [str(v) for v in values.tolist()]


def test_separated_rows_and_joined_pieces_are_the_python_strings() -> None:
    values = np.random.default_rng(3).integers(-50, 5_000, size=(700, 6))
    assert decode(separated(values, "|")) == ["|".join(map(str, row)) for row in values.tolist()]
    words = ["", "é|x", "plain"]
    index = np.random.default_rng(4).integers(0, 3, size=700)
    line = join(
        [
            literal("S:", 700),
            lookup(words, index),
            separated(values[:, :2], ","),
            literal(".", 700),
        ]
    )
    assert decode(line) == [
        f"S:{words[i]}{a},{b}."
        for i, (a, b) in zip(index.tolist(), values[:, :2].tolist(), strict=True)
    ]


def _played_batch() -> HandBatch:
    batch = HandBatch(Rules(), 5)
    deck = parse_cards("AsAh KdKc 2c3d4h 9s Jd")
    batch.start([0, 1, 3], [deck] * 3, [0, 1, 0], [-5, 2**62, 0], [[20, 20], [3, 20], [20, 20]])
    batch.step(np.array([Action.RAISE, Action.RAISE, 0, Action.FOLD, 0]))
    batch.step(np.array([Action.CALL, Action.CALL, 0, 0, 0]))
    return batch


def test_hand_numbers_of_any_sign_and_size_and_running_hands_export_as_one_by_one() -> None:
    batch = _played_batch()
    assert batch.to_acpc_lines([0, 1, 3, 0]) == [batch.to_acpc(t) for t in (0, 1, 3, 0)]
    assert batch.to_acpc_lines([0, 1, 3]) == [
        "STATE:-5:rc/:KdKc|AsAh/2c3d4h::p1|p0",  # running: no payoffs yet
        f"STATE:{2**62}:rc///:AsAh|KdKc/2c3d4h/9s/Jd:3|-3:p0|p1",  # all-in: board run out
        "STATE:0:f:KdKc|AsAh:1|-1:p1|p0",
    ]
    assert batch.to_acpc_lines([]) == []
    assert batch.to_acpc_lines(np.array([3], dtype=np.uint8), ["a", "b"]) == [
        "STATE:0:f:KdKc|AsAh:1|-1:b|a"
    ]


def test_export_arguments_are_checked() -> None:
    batch = _played_batch()
    with pytest.raises(TableError) as error:
        batch.to_acpc_lines()
    assert error.value.tables.tolist() == [2, 4]
    assert error.value.reasons == (
        "table 2 has not been dealt a hand yet",
        "table 4 has not been dealt a hand yet",
    )
    with pytest.raises(ValueError, match=r"table must be 0\.\.4, got 5"):
        batch.to_acpc_lines([0, 5])
    with pytest.raises(ValueError, match="1-D array of table numbers"):
        batch.to_acpc_lines([[0]])
    with pytest.raises(ValueError, match="1-D array of table numbers"):
        batch.to_acpc_lines([0.0])
    with pytest.raises(ValueError, match="need 2 player names, got 3"):
        batch.to_acpc_lines([0], ["a", "b", "c"])
