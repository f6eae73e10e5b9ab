"""The board-only work of the local best response to Loki, against the slower routes it
replaces: ``board_values`` from the board's ranks equals ``street_tables`` with a made-up
hand to the last bit, the dense ranks keep the order and ties of the evaluator's ranks, and
the card-removal correction taken off all the holdings through a card at once equals the
same subtractions one holding after the other."""

from __future__ import annotations

import numpy as np
import pytest

from agents.lbr.loki_board_kernels import _dense
from agents.lbr.loki_board_memo import BoardMemo
from agents.lbr.loki_boards import board_ranks, board_values, loki_board
from agents.lbr.loki_kernels import _shared
from agents.strength.street import street_tables
from agents.strength.street_constants import kernel_constants
from agents.strength.street_kernels import MOST_PAIRS, MOST_TRIPLES, street_rows
from agents.strength.subset_kernels import board_subset_ranks

BOARDS = [
    (0, 4, 8, 12, 16),  # one suit: flushes and a straight flush
    (0, 1, 2, 3, 4),  # quads on board
    (0, 13, 26, 39, 5),  # three suits, no pair
    (0, 4, 8, 1, 5),  # paired, flush draw
    (48, 44, 40, 36, 32),  # broadway-ish monotone
    (0, 1, 13, 14, 26),  # two pair on board
    (5, 9, 22, 30, 41),
    (50, 46, 42, 38, 51),
]


def _made_up(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """HS1 and PPOTc of every holding on ``board`` by ``street_tables`` with any hand off it
    (the route ``board_values`` replaced)."""
    spare = [c for c in range(52) if c not in board][:2]
    padded = np.array([[*board, *(0,) * (5 - len(board))]])
    tables = street_tables(np.array([spare]), padded, np.array([len(board)]))
    return tables.hs1[0], tables.ppotc[0]


@pytest.mark.parametrize("cards", [3, 4, 5])
def test_board_values_equal_street_tables_to_the_last_bit(cards: int) -> None:
    rng = np.random.default_rng(cards)
    boards = [b[:cards] for b in BOARDS]
    boards += [tuple(int(c) for c in rng.permutation(52)[:cards]) for _ in range(6)]
    for board in boards:
        for got, expected in zip(board_values(board), _made_up(board), strict=True):
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("cards", [3, 4])
def test_board_ranks_list_the_triples_street_rows_lists(cards: int) -> None:
    """The pair ranks and the straights-or-better triples (packed, in order) of a board
    ranked with no own hand equal ``street_rows``' with an own hand."""
    c = kernel_constants()
    for board in (b[:cards] for b in BOARDS):
        ranks = board_ranks(board)
        spare = np.array([[c_ for c_ in range(52) if c_ not in board][:2]], dtype=np.int64)
        padded = np.array([[*board, *(0,) * (5 - cards)]], dtype=np.int64)
        pairs = np.empty((1, MOST_PAIRS), dtype=np.int16)
        rare = np.empty((1, MOST_TRIPLES), dtype=np.int32)
        count = np.empty(1, dtype=np.int64)
        street_rows(
            spare, padded, np.array([cards], dtype=np.int64), c.card_keys, c.flush_keys,
            c.rank_keys, c.pair_index, c.offs, c.look, c.flush, pairs, rare, count,
            np.empty((1, 1326), dtype=np.int8), np.empty((1, 1326, 3), dtype=np.uint8),
            np.zeros(1, dtype=np.int64),
        )  # fmt: skip
        m = ranks.m
        np.testing.assert_array_equal(
            ranks.pairs[0, : m * (m - 1) // 2], pairs[0, : m * (m - 1) // 2]
        )
        assert int(ranks.rare_count[0]) == int(count[0]) > 0
        np.testing.assert_array_equal(ranks.rare[0, : count[0]], rare[0, : count[0]])


def test_board_subset_ranks_count_no_triples_on_the_river() -> None:
    c = kernel_constants()
    m, count = board_subset_ranks(
        np.array(BOARDS[0], dtype=np.int64), 5, c.card_keys, c.flush_keys, c.rank_keys,
        c.offs, c.look, c.flush, np.empty(52, dtype=np.int64),
        np.empty(MOST_PAIRS, dtype=np.int16), np.empty(1, dtype=np.int16),
        np.empty(MOST_TRIPLES, dtype=np.int32),
    )  # fmt: skip
    assert (m, count) == (47, 0)


def test_dense_ranks_keep_order_and_ties() -> None:
    rng = np.random.default_rng(3)
    for board in BOARDS:
        pairs = board_ranks(board[:3]).pairs[0, : 49 * 48 // 2].astype(np.int64)
        for ranks in (pairs, rng.integers(0, 7463, 500)):
            dense = ranks.copy()
            _dense(dense)
            np.testing.assert_array_equal(dense, np.unique(ranks, return_inverse=True)[1])


def _shared_one_by_one(
    m: int, wmatrix: np.ndarray, removal: np.ndarray, rises: np.ndarray
) -> None:
    """The correction holding by holding (h = {i, j}, shares over k in order), as the
    kernel computed it before taking off all the h through a card at once."""
    for i in range(m):
        for j in range(m):
            if j == i:
                continue
            h = max(i, j) * (max(i, j) - 1) // 2 + min(i, j)
            total = rises[h]
            for k in range(m):
                total -= wmatrix[i, k] * (0.5 * float(removal[i, k, j]))
            rises[h] = total


@pytest.mark.parametrize("board", [BOARDS[0][:3], BOARDS[3][:4], BOARDS[5][:3], BOARDS[6][:4]])
def test_shared_correction_equals_the_one_by_one_subtractions(board: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(board))
    b = loki_board(board)
    m, removal = b.m, b.arrays[-1]
    weights = rng.random(m * (m - 1) // 2) + 0.01
    wmatrix = np.zeros((m, m))
    p = 0
    for j in range(1, m):
        for i in range(j):
            wmatrix[i, j] = wmatrix[j, i] = weights[p]
            p += 1
    rises = rng.random(len(weights)) * 100.0
    expected = rises.copy()
    _shared(m, wmatrix, removal, rises)
    _shared_one_by_one(m, wmatrix, removal, expected)
    np.testing.assert_array_equal(rises, expected)


def test_the_memo_ranks_a_board_once_for_both_kinds() -> None:
    memo = BoardMemo(2)
    board = BOARDS[3][:4]
    ranks = memo.ranks(board)
    memo.arrays(board)
    memo.values(board)
    assert memo.ranks(board) is ranks
