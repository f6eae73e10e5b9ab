"""The card-removal counts of the local best response to Loki (``_removal``), counted once
per group of interchangeable next cards, against the card-by-card count they replace: the
same ``removal`` arrays on flops and turns of every suit pattern, and the claim the groups
rest on, that a group's cards give equal columns of the cube of triple ranks."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from agents.jit import kernel
from agents.lbr.loki_board_kernels import _GROUPS, _cube, _groups, _removal, board_arrays
from agents.lbr.loki_boards import board_ranks
from agents.strength.holdings import PAIR_INDEX
from envs.cards import parse_cards

Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]

_LANES = 64


@kernel
def _reference_removal(m: int, matrix: Int64s, cube: Int16s) -> Int16s:
    """``_removal`` as it was: every next card z counted for all k in SIMD lanes."""
    removal = np.zeros((m, m, m), dtype=np.int16)
    ahead = np.empty(_LANES, dtype=np.int16)
    level = np.empty(_LANES, dtype=np.int16)
    for i in range(m):
        for j in range(m):
            if j == i:
                continue
            ahead[:] = 0
            level[:] = 0
            mine = cube[i, j]
            for z in range(m):
                rank = mine[z]
                theirs = cube[i, z]
                for k in range(np.uint64(_LANES)):
                    ahead[k] += np.int16(rank > theirs[k])
                    level[k] += np.int16(rank == theirs[k])
            now = matrix[i, j]
            for k in range(m):
                if k in (i, j) or matrix[i, k] < now:
                    continue
                beaten = ahead[k] - 1
                tied = level[k] - 1
                removal[i, k, j] = 2 * beaten + tied if matrix[i, k] > now else beaten
    return removal


NAMED = [
    "2c7d9h", "2cKdAs", "3s8sQh", "4h9hKd", "5d6dTd", "2s3s4s", "JhQhKh", "7c7d2h",
    "7c7d7h", "AcKdQh", "5c6d7h", "9sTsJs", "2c3d4h5s", "2c3c4c5c", "6h7h8h9d", "AsAhKsKh",
    "2c2d2h2s", "Tc9c8d8s", "Ad2d3c4c", "KsQsJsTd", "4d8d3c9h", "AcAdKcQd",
]  # fmt: skip
"""Rainbow, two-tone, monotone, paired, trips, straight-heavy flops; rainbow, two-flush,
four-flush, three-flush, quads, two-pair turns."""


def _boards() -> list[tuple[int, ...]]:
    boards = [tuple(parse_cards(text)) for text in NAMED]
    rng = np.random.default_rng(2026)
    for cards in (3, 4):
        boards += [tuple(int(c) for c in rng.permutation(52)[:cards]) for _ in range(12)]
    return boards


def _full(m: int, cube: Int16s) -> Int16s:
    """``_cube``'s rows per pair as the symmetric ``(m, m, lanes)`` cube ``T[a, b, c]``."""
    full = np.empty((m, m, cube.shape[1]), dtype=np.int16)
    p = 0
    for b in range(m):
        full[b, b] = cube[-1]
        for a in range(b):
            full[a, b] = full[b, a] = cube[p]
            p += 1
    return full


def _inputs(board: tuple[int, ...]) -> tuple[int, Int64s, Int64s, Int16s]:
    """``_removal``'s arguments on ``board`` (as ``board_arrays`` builds them)."""
    r = board_ranks(board)
    m = r.m
    matrix = np.full((m, m), -1, dtype=np.int64)
    p = 0
    for j in range(1, m):
        for i in range(j):
            matrix[i, j] = matrix[j, i] = r.pairs[0, p]
            p += 1
    return m, r.slots, matrix, _cube(m, r.triples)


@pytest.mark.parametrize("board", _boards(), ids=lambda b: "-".join(map(str, b)))
def test_removal_equals_the_card_by_card_count(board: tuple[int, ...]) -> None:
    m, slots, matrix, cube = _inputs(board)
    expected = _reference_removal(m, matrix, _full(m, cube))
    np.testing.assert_array_equal(_removal(m, slots, matrix, cube), expected)
    r = board_ranks(board)
    arrays = board_arrays(m, r.slots, r.pairs[0], r.triples, PAIR_INDEX)
    assert arrays[-1].dtype == np.int8  # the counts fit: at most 2 (m - 3)
    np.testing.assert_array_equal(arrays[-1], expected)


def _columns_equal(cube: Int16s, m: int, members: list[list[int]]) -> bool:
    """Whether the cards of each group have equal columns of ``cube`` outside their rows."""
    for group in members:
        for z in group[1:]:
            rows = np.ones(m, dtype=bool)
            rows[[group[0], z]] = False
            if not np.array_equal(cube[rows, group[0]], cube[rows, z]):
                return False
    return True


@pytest.mark.parametrize("board", _boards(), ids=lambda b: "-".join(map(str, b)))
def test_a_groups_cards_give_equal_columns(board: tuple[int, ...]) -> None:
    """The claim the counts rest on, on every card i: straights, pairs to quads and boards
    with 2 to 4 cards of a suit among them; grouping by rank alone fails on flush boards."""
    m, slots, _, pair_cube = _inputs(board)
    cube = _full(m, pair_cube)
    group, first, last = (np.empty(m, dtype=np.int64) for _ in range(3))
    suits = np.bincount(np.array(board) & 3, minlength=4)
    for i in range(m):
        n = _groups(m, slots, i, group, first, last)
        assert n <= _GROUPS
        members = [[z for z in range(m) if z != i and group[z] == g] for g in range(n)]
        assert sorted(z for g in members for z in g) == [z for z in range(m) if z != i]
        assert all(first[g] == members[g][0] and last[g] == members[g][-1] for g in range(n))
        assert _columns_equal(cube[i, :m, :m], m, members)
        ranks: dict[int, list[int]] = {}
        for z in range(m):
            if z != i:
                ranks.setdefault(int(slots[z]) >> 2, []).append(z)
        if suits.max() + (suits[slots[i] & 3] == suits.max()) >= 3:
            assert not _columns_equal(cube[i, :m, :m], m, list(ranks.values()))
