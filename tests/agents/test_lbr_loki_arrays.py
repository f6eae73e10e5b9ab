"""The board-only arrays of the local best response to Loki (``board_arrays``) against
the implementation they replace (copied here as the reference): every array
``holding_values`` reads equal to it on flops, turns and rivers of every suit and rank
pattern (the ends of the now-rank groups where they are read, up to each z's count; the
sweep's points by now-rank group derived from the reference's points pair by pair)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from agents.jit import kernel
from agents.lbr.loki_board_kernels import _cube, _dense, board_arrays
from agents.lbr.loki_boards import board_ranks
from agents.strength.holdings import PAIR_INDEX
from envs import _evaluator_tables as _t
from envs.cards import parse_cards

Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]

_LANES = 64


@kernel
def _reference_cube(m: int, triples: Int16s) -> Int16s:
    """``cube[a, b, c]``: the rank of slot triple {a, b, c} (-1 where two indices meet or
    past ``m``)."""
    cube = np.full((m, m, _LANES), -1, dtype=np.int16)
    for c in range(2, m):
        for b in range(1, c):
            for a in range(b):
                rank = triples[c * (c - 1) * (c - 2) // 6 + b * (b - 1) // 2 + a]
                cube[a, b, c] = cube[a, c, b] = cube[b, a, c] = rank
                cube[b, c, a] = cube[c, a, b] = cube[c, b, a] = rank
    return cube


@kernel
def _reference_rows(m: int, matrix: Int64s) -> tuple[Int64s, Int64s, Int64s]:
    """Each card's row of pair ranks in rank order, and where the group of ranks tied with
    ``matrix[i, j]`` starts and ends in row i."""
    rows = np.empty((m, m), dtype=np.int64)
    first = np.empty((m, m), dtype=np.int64)
    last = np.empty((m, m), dtype=np.int64)
    for i in range(m):
        row = matrix[i]
        rows[i] = np.argsort(row, kind="mergesort")
        start = 0
        while start < m:
            end = start + 1
            while end < m and row[rows[i, end]] == row[rows[i, start]]:
                end += 1
            for t in range(start, end):
                first[i, rows[i, t]] = start
                last[i, rows[i, t]] = end
            start = end
    return rows, first, last


@kernel
def _reference_points(
    m: int, low: Int64s, high: Int64s, order: Int64s, ends: Int64s, cube: Int16s
) -> tuple[Int16s, Int16s, Int16s, Int64s]:
    """Per next card z, each pair's point (the pairs with its rank now and with z; the pairs
    through z: the last point, which weighs nothing in the sweep), the points' dense final
    ranks and the end of their now-rank groups, in sweep order, and their number."""
    pairs = len(order)
    swept = np.empty((m, pairs), dtype=np.int16)  # final ranks, in sweep order
    for q in range(pairs):
        row = cube[low[order[q]], high[order[q]]]
        for z in range(m):
            swept[z, q] = row[z]
    points = np.empty((m, pairs), dtype=np.int16)
    raw = np.empty((m, pairs + 1), dtype=np.int64)
    group_ends = np.empty((m, pairs + 1), dtype=np.int16)
    counts = np.zeros(m, dtype=np.int64)
    stamp = np.full(_t.NUM_RANKS + 1, -1, dtype=np.int64)  # the group a final rank met last
    at = np.empty(_t.NUM_RANKS + 1, dtype=np.int64)  # its point there
    histogram = np.zeros(_t.NUM_RANKS + 2, dtype=np.int64)
    group = 0
    for z in range(m):
        d = 0
        start = 0
        finals = swept[z]
        while start < pairs:
            end = ends[start]
            opened = d
            for q in range(start, end):
                final = finals[q]
                if final < 0:
                    points[z, order[q]] = -1
                elif stamp[final] == group:
                    points[z, order[q]] = at[final]
                else:
                    stamp[final], at[final] = group, d
                    raw[z, d] = final
                    histogram[final + 1] += 1
                    points[z, order[q]] = d
                    d += 1
            group_ends[z, opened:d] = d
            group += 1
            start = end
        counts[z] = d
        for p in range(pairs):
            if points[z, p] < 0:
                points[z, p] = d
    # the points' final ranks, dense per z: one counting sort of all z's points at once
    for r in range(1, len(histogram)):
        histogram[r] += histogram[r - 1]
    total = histogram[-1]
    by_rank = np.empty(total, dtype=np.int64)  # z * (pairs + 1) + point, by final rank
    for z in range(m):
        for d in range(counts[z]):
            slot = raw[z, d]
            by_rank[histogram[slot]] = z * (pairs + 1) + d
            histogram[slot] += 1
    width = counts.max() + 1
    finals_out = np.zeros((m, width), dtype=np.int16)
    previous = np.full(m, -1, dtype=np.int64)
    dense = np.full(m, -1, dtype=np.int64)
    for e in range(total):
        z, d = divmod(by_rank[e], pairs + 1)
        if raw[z, d] != previous[z]:
            previous[z] = raw[z, d]
            dense[z] += 1
        finals_out[z, d] = dense[z]
    return points, finals_out, group_ends[:, :width].copy(), counts


@kernel
def _reference_cells(
    m: int, low: Int64s, high: Int64s, order: Int64s, ends: Int64s, points: Int16s
) -> tuple[Int16s, Int16s, Int16s, Int64s]:
    """``sweep_cells``' groups, single points, mixed pairs and where each z's start, read
    off the points of every pair (the groups: the runs of tied ranks in ``order``)."""
    pairs = len(order)
    groups = np.empty(pairs, dtype=np.int16)
    count = 0
    start = 0
    while start < pairs:
        for q in range(start, ends[start]):
            groups[order[q]] = count
        count += 1
        start = ends[start]
    single = np.full((m, count), -1, dtype=np.int16)
    mixed = np.zeros((m * pairs, 2), dtype=np.int16)
    mixed_starts = np.zeros(m + 1, dtype=np.int64)
    for z in range(m):
        start = 0
        while start < pairs:
            end = ends[start]
            first, several = -1, False
            for q in range(start, end):
                p = order[q]
                if low[p] != z and high[p] != z:
                    several |= first >= 0 and points[z, p] != first
                    first = points[z, p] if first < 0 else first
            if first >= 0 and not several:
                single[z, groups[order[start]]] = first
            for q in range(start, end):
                p = order[q]
                if several and low[p] != z and high[p] != z:
                    mixed[mixed_starts[m], 0] = p
                    mixed[mixed_starts[m], 1] = points[z, p]
                    mixed_starts[m] += 1
            start = end
        mixed_starts[z + 1] = mixed_starts[m]
    return groups, single, mixed[: mixed_starts[m]].copy(), mixed_starts


@kernel
def _reference_arrays(
    m: int, slots: Int64s, pair_ranks: Int16s, triple_ranks: Int16s, pair_index: Int64s
) -> tuple[npt.NDArray[np.integer], ...]:
    """``board_arrays`` as it was, but for the card-removal counts (``_removal``, checked
    against its own reference in ``test_lbr_loki_removal``)."""
    pairs = m * (m - 1) // 2
    ranks = np.empty(pairs, dtype=np.int64)
    holding = np.empty(pairs, dtype=np.int64)
    low = np.empty(pairs, dtype=np.int64)
    high = np.empty(pairs, dtype=np.int64)
    matrix = np.full((m, m), -1, dtype=np.int64)  # the diagonal: below every rank, weight 0
    p = 0
    for j in range(1, m):
        for i in range(j):
            ranks[p], holding[p] = pair_ranks[p], pair_index[slots[i], slots[j]]
            low[p], high[p] = i, j
            matrix[i, j] = matrix[j, i] = pair_ranks[p]
            p += 1
    rows, first, last = _reference_rows(m, matrix)
    _dense(ranks)
    if m > 47:
        order = np.argsort(-ranks, kind="mergesort")
        ends = np.empty(pairs, dtype=np.int64)
        end = pairs
        for q in range(pairs - 1, -1, -1):
            if q < pairs - 1 and ranks[order[q]] != ranks[order[q + 1]]:
                end = q + 1
            ends[q] = end
        cube = _reference_cube(m, triple_ranks)
        points, finals, group_ends, counts = _reference_points(m, low, high, order, ends, cube)
        groups, single, mixed, mixed_starts = _reference_cells(m, low, high, order, ends, points)
    else:
        groups = np.empty(0, dtype=np.int16)
        single = finals = group_ends = np.empty((0, 1), dtype=np.int16)
        mixed = np.empty((0, 2), dtype=np.int16)
        counts = mixed_starts = np.empty(0, dtype=np.int64)
    return (
        ranks, holding, rows, first, last, groups, single, mixed, mixed_starts, finals,
        group_ends, counts,
    )  # fmt: skip


NAMED = [
    "2c7d9h", "2cKdAs", "3s8sQh", "4h9hKd", "5d6dTd", "2s3s4s", "JhQhKh", "7c7d2h",
    "7c7d7h", "AcKdQh", "5c6d7h", "9sTsJs", "2c3d4h5s", "2c3c4c5c", "6h7h8h9d", "AsAhKsKh",
    "2c2d2h2s", "Tc9c8d8s", "Ad2d3c4c", "KsQsJsTd", "4d8d3c9h", "AcAdKcQd", "2c3c4c5c6c",
    "AhKhQhJhTh", "7c7d7h7s2d", "2c7d9hJsKc", "5h6h7h8d9c", "AcAdKcKdQh",
]  # fmt: skip
"""Rainbow, two-tone, monotone, paired, trips, straight-heavy flops; two-flush, four-flush,
quads, two-pair turns; straight-flush, quads, rainbow, straight and two-pair rivers."""


def _boards() -> list[tuple[int, ...]]:
    boards = [tuple(parse_cards(text)) for text in NAMED]
    rng = np.random.default_rng(7)
    for cards in (3, 4, 5):
        boards += [tuple(int(c) for c in rng.permutation(52)[:cards]) for _ in range(10)]
    return boards


@pytest.mark.parametrize("board", _boards(), ids=lambda b: "-".join(map(str, b)))
def test_board_arrays_equal_the_reference(board: tuple[int, ...]) -> None:
    r = board_ranks(board)
    got = board_arrays(r.m, r.slots, r.pairs[0], r.triples, PAIR_INDEX)
    expected = _reference_arrays(r.m, r.slots, r.pairs[0], r.triples, PAIR_INDEX)
    counts = expected[11]
    assert len(expected) == 12 and len(got) == 13  # and the removal counts, tested apart
    for k in range(12):
        mine, theirs = np.asarray(got[k]), np.asarray(expected[k])
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, k
        if k == 10:  # the group ends: read up to each z's count only
            for z, count in enumerate(counts):
                np.testing.assert_array_equal(mine[z, :count], theirs[z, :count])
        else:
            np.testing.assert_array_equal(mine, theirs, err_msg=str(k))


@pytest.mark.parametrize("board", _boards()[:40], ids=lambda b: "-".join(map(str, b)))
def test_cube_rows_per_pair_equal_the_symmetric_cube(board: tuple[int, ...]) -> None:
    r = board_ranks(board)
    m = r.m
    if m == 47:
        return
    cube, expected = _cube(m, r.triples), _reference_cube(m, r.triples)
    p = 0
    for b in range(m):
        np.testing.assert_array_equal(cube[-1], expected[b, b])
        for a in range(b):
            np.testing.assert_array_equal(cube[p], expected[a, b])
            np.testing.assert_array_equal(cube[p], expected[b, a])
            p += 1
    assert p == len(cube) - 1
