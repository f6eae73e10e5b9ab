"""The compiled many-boards hand strength against the one-hand reference."""

from __future__ import annotations

import numpy as np
import pytest

from agents.strength import hand_strength
from agents.strength.batched import hand_strengths


@pytest.mark.parametrize("width", [3, 4, 5])
def test_equals_the_reference_row_by_row(width: int) -> None:
    rng = np.random.default_rng(width)
    deals = np.array([rng.permutation(52)[: 2 + width] for _ in range(60)], dtype=np.uint8)
    fast = hand_strengths(deals[:, :2], deals[:, 2:])
    slow = [hand_strength(tuple(d[:2]), tuple(d[2:])) for d in deals.tolist()]
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-15)


def test_the_nuts_and_a_flush_board() -> None:
    # Royal flush in spades on the board: every holding ties (strength 1/2).
    from envs.cards import parse_cards

    board = np.array([parse_cards("AsKsQsJsTs")], dtype=np.uint8)
    hole = np.array([parse_cards("2c3d")], dtype=np.uint8)
    assert hand_strengths(hole, board)[0] == 0.5
    # Quads with the case ace beat every other holding.
    board = np.array([parse_cards("AcAdAh2c7d")], dtype=np.uint8)
    hole = np.array([parse_cards("As3h")], dtype=np.uint8)
    assert hand_strengths(hole, board)[0] == 1.0


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        (np.zeros((2, 3)), np.zeros((2, 3)), "hole must have shape"),
        (np.zeros((2, 2)), np.zeros((2, 6)), "board must have shape"),
        (np.zeros((2, 2)), np.zeros((3, 3)), "2 hole rows but 3 boards"),
        (np.full((1, 2), 52), np.zeros((1, 3)), "0..51"),
    ],
)
def test_bad_shapes_and_cards_raise(hole: object, board: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hand_strengths(hole, board)  # type: ignore[arg-type]


def test_rows_on_different_streets_are_grouped_by_board_length() -> None:
    rng = np.random.default_rng(7)
    deals = np.array([rng.permutation(52)[:7] for _ in range(40)], dtype=np.uint8)
    lengths = np.array([0, 3, 4, 5] * 10)
    got = hand_strengths(deals[:, :2], deals[:, 2:], lengths)
    expected = [
        hand_strength(tuple(d[:2]), tuple(d[2 : 2 + n])) if n else 0.0
        for d, n in zip(deals.tolist(), lengths.tolist(), strict=True)
    ]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("lengths", "message"), [([0, 2], "must be 0, 3, 4 or 5"), ([3], "must have shape")]
)
def test_bad_board_lengths_raise(lengths: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hand_strengths(np.zeros((2, 2)), np.zeros((2, 5)), np.array(lengths))


def test_with_lengths_only_the_dealt_cards_are_read_and_checked() -> None:
    hole = np.array([[0, 1], [0, 1]])
    board = np.array([[10, 20, 30, 99, 99], [10, 20, 30, 40, 99]])
    got = hand_strengths(hole, board, np.array([3, 4]))
    assert got[0] == hand_strength((0, 1), (10, 20, 30))
    assert got[1] == hand_strength((0, 1), (10, 20, 30, 40))
    with pytest.raises(ValueError, match=r"0\.\.51"):
        hand_strengths(hole, board, np.array([3, 5]))
