"""BPP hand types and board classes: examples, known counts, scalar against vectorised."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from agents.bpp.batched_types import holding_types, street_types
from agents.bpp.hand_types import (
    NUM_BOARD_CLASSES,
    HandType,
    board_class,
    board_classes,
    hand_type,
    hand_types,
    type_by_rank,
)
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS
from envs.cards import parse_cards
from envs.evaluator import evaluate

H = HandType


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("AsKd", H.BUSTED_ACE),
        ("8c7d", H.BUSTED_LOW),
        ("9c2d", H.BUSTED_MEDIUM),
        ("JcTd", H.BUSTED_MEDIUM),
        ("Qc3d", H.BUSTED_QUEEN),
        ("2c2d", H.PAIR_2),
        ("AhAd", H.PAIR_A),
        ("7c7d2h9sJd", H.PAIR_7),
        ("AsKdQhJc2d", H.STRAIGHT_DRAW),  # four of the T-A window
        ("As2d3h4c9d", H.STRAIGHT_DRAW),  # the wheel window
        ("As9s2s5sKd", H.FLUSH_DRAW),
        ("As9s2s5sKdQc", H.FLUSH_DRAW),
        ("As9s2s5sKdQcJh", H.BUSTED_ACE),  # no draws on the river
        ("As9s2s5sAd", H.PAIR_A),  # a made pair keeps its type even with a draw
        ("2c3d4h5s6d", H.STRAIGHT),
        ("KcKdKh2s2d", H.FULL_HOUSE),
        ("KcKd2h2s9d", H.TWO_PAIR),
        ("AsKsQsJsTs2d3c", H.STRAIGHT_FLUSH),
    ],
)
def test_hand_type_examples(cards: str, expected: HandType) -> None:
    assert hand_type(parse_cards(cards)) == expected


@pytest.mark.parametrize(
    ("board", "kind", "texture"),
    [
        ("", H.BUSTED_LOW, 0),
        ("2c7d9h", H.BUSTED_MEDIUM, 0),
        ("2c7c9h", H.BUSTED_MEDIUM, 1),
        ("AsAdKs", H.PAIR_A, 1),
        ("AsAdKsKd", H.TWO_PAIR, 1),
        ("2c2d2h2s", H.FOUR_OF_A_KIND, 0),
        ("QsJsTs", H.BUSTED_QUEEN, 2),
        ("AsKsQsJs9s", H.FLUSH, 3),
    ],
)
def test_board_class_examples(board: str, kind: HandType, texture: int) -> None:
    assert board_class(parse_cards(board)) == 4 * kind + texture


def test_five_card_type_counts_match_combinatorics() -> None:
    """Over all 2,598,960 hands: the standard category counts, each pair rank 1/13 of the
    pairs, and busted hands by top card from C(top, 4) rank sets less the straights."""
    hands = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    counts = np.bincount(type_by_rank()[evaluate(hands)], minlength=25)
    assert counts[H.STRAIGHT_FLUSH] == 40
    assert counts[H.FOUR_OF_A_KIND] == 624
    assert counts[H.FULL_HOUSE] == 3744
    assert counts[H.FLUSH] == 5108
    assert counts[H.STRAIGHT] == 10200
    assert counts[H.THREE_OF_A_KIND] == 54912
    assert counts[H.TWO_PAIR] == 123552
    assert list(counts[H.PAIR_2 : H.PAIR_A + 1]) == [1098240 // 13] * 13
    suits = 4**5 - 4  # not all one suit
    by_top = [0] * 13
    for top in range(4, 13):  # the top card of 5 distinct ranks is at least a six
        straights = 1 if top >= 4 else 0  # the straight ending at `top`
        wheel = 1 if top == 12 else 0  # A-5-4-3-2 has the ace on top
        by_top[top] = (comb(top, 4) - straights - wheel) * suits
    busted = [sum(by_top[:7]), sum(by_top[7:10]), by_top[10], by_top[11], by_top[12]]
    assert list(counts[H.BUSTED_LOW : H.BUSTED_ACE + 1]) == busted


@pytest.mark.parametrize("width", [2, 5, 6, 7])
def test_vectorised_hand_types_match_the_scalar_ones(width: int) -> None:
    rng = np.random.default_rng(width)
    cards = np.array([rng.permutation(52)[:width] for _ in range(3000)], dtype=np.uint8)
    expected = [hand_type([int(c) for c in row]) for row in cards]
    assert hand_types(cards).tolist() == expected


@pytest.mark.parametrize("width", [0, 3, 4, 5])
def test_vectorised_board_classes_match_the_scalar_ones(width: int) -> None:
    rng = np.random.default_rng(10 + width)
    cards = np.array([rng.permutation(52)[:width] for _ in range(3000)], dtype=np.uint8)
    cards = cards.reshape(3000, width)
    expected = [board_class([int(c) for c in row]) for row in cards]
    got = board_classes(cards)
    assert got.tolist() == expected
    assert got.min() >= 0 and got.max() < NUM_BOARD_CLASSES


def test_every_holdings_types_on_a_board_match_the_rows_ones() -> None:
    rng = np.random.default_rng(7)
    boards = np.array([rng.permutation(52)[:5] for _ in range(40)], dtype=np.uint8)
    boards[:4] = parse_cards("AsKsQs2s9h")  # flush draws and made flushes
    boards[4:8] = parse_cards("7c7d7h2s7s")  # quads, full houses
    width = np.array([0, 3, 4, 5] * 10)
    got = holding_types(HOLDINGS, boards, width, dead=-1)
    assert got.shape == (40, NUM_HOLDINGS) and got.dtype == np.int8
    rows = np.repeat(np.arange(40), NUM_HOLDINGS)
    expected, _ = street_types(np.tile(HOLDINGS, (40, 1)), boards[rows], width[rows])
    expected = expected.reshape(40, NUM_HOLDINGS)
    on_board = [set(boards[i, : width[i]].tolist()) for i in range(40)]
    dead = np.array([[bool(on_board[i] & set(h.tolist())) for h in HOLDINGS] for i in range(40)])
    assert dead.sum(axis=1).tolist() == [0, 150, 198, 245] * 10  # 0, 3, 4, 5 cards seen
    np.testing.assert_array_equal(got, np.where(dead, -1, expected))
    with pytest.raises(ValueError, match="board widths must be 0, 3, 4 or 5"):
        holding_types(HOLDINGS, boards[:1], [2], dead=-1)
    with pytest.raises(ValueError, match="dead must fit in an int8"):
        holding_types(HOLDINGS, boards[:1], [3], dead=200)


@pytest.mark.parametrize("width", [3, 4, 5])
def test_every_holdings_types_on_suited_boards_match_the_rows_ones(width: int) -> None:
    """Boards of two, three, four and five cards of a suit: the holdings typed by their
    ranks alone and those typed card by card must agree with the scalar types."""
    rng = np.random.default_rng(20 + width)
    boards = np.zeros((120, 5), dtype=np.uint8)
    for row in range(120):
        suited = min(width, 2 + row % 4)  # cards of one suit on the board
        suit = rng.integers(4)
        ranks = rng.permutation(13)
        cards = [int(r) * 4 + int(suit) for r in ranks[:suited]]
        others = [c for c in rng.permutation(52).tolist() if c % 4 != suit]
        cards += others[: width - suited]
        boards[row, :width] = rng.permutation(cards)
    count = len(boards)
    got = holding_types(HOLDINGS, boards, np.full(count, width), dead=-1)
    rows = np.repeat(np.arange(count), NUM_HOLDINGS)
    expected, _ = street_types(
        np.tile(HOLDINGS, (count, 1)), boards[rows], np.full(len(rows), width)
    )
    expected = expected.reshape(count, NUM_HOLDINGS)
    seen = np.zeros((count, 52), dtype=bool)
    seen[np.repeat(np.arange(count), width), boards[:, :width].reshape(-1)] = True
    dead = seen[:, HOLDINGS[:, 0]] | seen[:, HOLDINGS[:, 1]]
    np.testing.assert_array_equal(got, np.where(dead, -1, expected))
