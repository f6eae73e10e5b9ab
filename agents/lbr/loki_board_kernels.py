"""What Loki's all-holdings values read of one board, whatever the field (``board_arrays``).

``agents.lbr.loki_kernels.holding_values`` computes HS1 and PPOT1 (Papp 1998 sections 5.2,
5.3 and 7.3) of every holding against a field by counting the holdings in rank order, card
removal corrected. Everything it needs that does not depend on the weights is counted here,
once per board (a board meets several fields: the opponent's actions re-weight it):

* HS1's card removal: each card's row of the ``m x m`` matrix of pair ranks in rank order,
  and where each pair's group of tied ranks starts and ends in it, so that the weight of the
  holdings through a card below or tied with a pair is two reads of a cumulative sum;
* PPOT1's sweep per next card z: the pairs that share both their rank now and their rank
  with z ("points", about 90 to 250 of the 1,128 to 1,176 pairs: away from flushes a pair's
  ranks depend on its card ranks only) are one entry of the sweep, whose weight is theirs
  summed; the points are in now-rank groups from the best down, their final ranks dense,
  described group by group (``agents.lbr.loki_sweep_kernels.sweep_cells``);
* HS1's histogram: the pairs' ranks made dense (their order and ties kept), as short as the
  board's distinct ranks;
* PPOT1's card removal: for h = {i, j} and o = {i, k} the count over next cards of o's
  rises against h, from the cube ``T[i, j, z]`` of triple ranks (symmetric, -1 where two
  indices meet; ``_cube`` stores its row ``T[i, j]`` once per pair {i, j}); the next cards
  of one rank that make no flush with the board and i give the same ranks, so they are
  counted once per group with its size (13 to 24 groups of the 47 or 48 cards), the cards
  of h and o off their groups' counts (``_removal``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from agents.lbr import loki_sweep_kernels
from envs import _evaluator_tables as _t

__all__ = ["BoardArrays", "board_arrays"]

Int8s = npt.NDArray[np.int8]
Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]
BoardArrays = tuple[
    Int64s, Int64s, Int64s, Int64s, Int64s,  # ranks, holding, rows, first, last
    Int16s, Int16s, Int16s, Int64s, Int16s, Int16s, Int64s,  # SweepCells
    Int8s,  # removal
]  # fmt: skip
"""``board_arrays``' result, as ``holding_values`` reads it."""


_LANES = 64
"""The cube's last axis, padded so that a row of next cards fills whole SIMD registers."""

_GROUPS = 32
"""At least the most groups of next cards (``_groups``): 13 ranks, and at most one suit that
can make a flush with i, of which 11 cards are left."""


@kernel
def _cube(m: int, triples: Int16s) -> Int16s:
    """``cube[p, c]``: the rank of the slot triple of pair p = {a, b} (colex) and card c (-1
    where c meets the pair or is past ``m``; row ``m (m - 1) / 2``: all -1, the "pair"
    {a, a}). The cube's two pair axes are symmetric, so each row is stored once. The
    triples are read once, in order (colex: {a < b < c} for a, then b, then c), each written
    to its three rows: {b, c} in a run, {a, b} and {a, c} a row apart each."""
    pairs = m * (m - 1) // 2
    cube = np.empty((pairs + 1, _LANES), dtype=np.int16)
    for p in range(pairs + 1):
        for c in range(np.uint64(_LANES)):
            cube[p, c] = -1
    t = 0
    for c in range(2, m):
        two_c = c * (c - 1) // 2
        for b in range(1, c):
            two_b = b * (b - 1) // 2
            run = cube[two_c + b]
            for a in range(b):
                rank = triples[t + a]
                run[a] = cube[two_b + a, c] = cube[two_c + a, b] = rank
            t += b
    return cube


@kernel
def _groups(m: int, slots: Int64s, i: int, group: Int64s, first: Int64s, last: Int64s) -> int:
    """Group the next cards z != i whose columns ``T[i, :, z]`` are equal outside the
    rows of the group: the cards of one rank whose suits make no flush with the board, i and
    any two more cards (fewer than 3 of the suit on the board and in i, so at most 4 with two
    more: the hand's rank then depends on the card ranks only), and each card of another suit
    alone. ``group[z]`` is z's group (0 for z = i), ``first[g]`` and ``last[g]`` the lowest
    and highest card of group g (equal when it is alone); returns the number of groups."""
    on_board = np.full(4, 13, dtype=np.int64)  # the board's cards are the ones off the slots
    for x in range(m):
        on_board[slots[x] & 3] -= 1
    by_key = np.full(13 * 5, -1, dtype=np.int64)  # key: rank and suit, suit 4 for no flush
    count = 0
    group[i] = 0
    for z in range(m):
        if z == i:
            continue
        suit = slots[z] & 3
        if on_board[suit] + (suit == slots[i] & 3) < 3:
            suit = 4
        key = (slots[z] >> 2) * 5 + suit
        if by_key[key] < 0:
            by_key[key] = count
            first[count] = z
            count += 1
        group[z] = by_key[key]
        last[group[z]] = z
    return count


@kernel
def _removal(m: int, slots: Int64s, matrix: Int64s, cube: Int16s) -> Int8s:
    """``removal[i, k, j]``: twice the share of the holding o = {i, k} in the rises of
    h = {i, j} (ahead + tied / 2 over the next cards where o is tied now, ahead / 2 where h
    is tied with it now, 0 where o is behind now or meets h); stored with j last, so that
    ``holding_values`` takes o's shares off all the h through card i in SIMD lanes.

    The counts are over the next cards z off {i, j, k}, of ``C[j, z]`` against ``C[k, z]``
    with ``C = T[i]`` (``C[x]``: the cube's row of pair {i, x}). The cards of a group
    (``_groups``) have equal columns outside their own rows, and so equal rows outside
    their own columns: with ``V[x, G] = C[x, z]`` for any z of G other than x (``same[x]``
    = ``V[x, G(x)]``), the count over all z off i is ``sum_G |G| [V[j, G] > V[k, G]]`` (one
    term per group, 13 to 24 of them, not one per card), the same for all k of a group
    (counted once per group of k, for all j in SIMD lanes), less its terms at z = j and
    z = k, ``[same[j] > C[j, k]]`` and ``[C[j, k] > same[k]]``: O(m^2 + m groups^2) per
    card i, not O(m^3).

    Stored as ``int8`` (a count is at most twice the ``m - 3`` next cards, 92): half the
    bytes of ``int16``, which a kept board holds (and a new one faults in) and every
    ``holding_values`` call reads; the counts themselves are the same."""
    removal = np.empty((m, m, m), dtype=np.int8)
    group = np.zeros(m, dtype=np.int64)
    first = np.empty(m, dtype=np.int64)
    last = np.empty(m, dtype=np.int64)
    same = np.full(_LANES, -1, dtype=np.int16)
    now = np.full(_LANES, -1, dtype=np.int16)
    columns = np.empty((_GROUPS, _LANES), dtype=np.int16)  # V[:, g] of the groups g
    ahead = np.empty((_GROUPS, _LANES), dtype=np.int16)  # the counts for k in group o
    level = np.empty((_GROUPS, _LANES), dtype=np.int16)
    size = np.empty(_GROUPS, dtype=np.int16)
    pairs = m * (m - 1) // 2
    through = np.empty(m, dtype=np.int64)  # the cube's row of {i, x} (x = i: all -1)
    for i in range(m):
        n = _groups(m, slots, i, group, first, last)
        for x in range(m):
            through[x] = pairs if x == i else max(i, x) * (max(i, x) - 1) // 2 + min(i, x)
        size[:n] = 0
        for x in range(m):
            other = first[group[x]] if x != first[group[x]] else last[group[x]]
            same[x] = cube[through[x], other]  # -1 when x is alone in its group: its terms cancel
            now[x] = matrix[i, x]
            size[group[x]] += np.int16(x != i)
        for g in range(n):  # V[:, g]: C's row first[g], with V[first[g], g] in its place
            columns[g] = cube[through[first[g]]]  # a row copy (an indexed loop reloads it)
            columns[g, first[g]] = same[first[g]]
        ahead[:n] = 0
        level[:n] = 0
        for o in range(n):  # ahead[o, j] = sum_g |g| [V[j, g] > V[first[o], g]], SIMD lanes
            beaten_by, tied_with = ahead[o], level[o]
            for g in range(n):
                weight, mark, column = size[g], columns[g, first[o]], columns[g]
                for j in range(np.uint64(_LANES)):  # unsigned: no index fix-up
                    beaten_by[j] += weight * np.int16(column[j] > mark)
                    tied_with[j] += weight * np.int16(column[j] == mark)
        for k in range(m):
            if k == i:
                for j in range(m):
                    removal[i, i, j] = 0
                continue
            row, mark, there = cube[through[k]], same[k], now[k]  # C[k, j] = C[j, k]
            beaten_by, tied_with = ahead[group[k]], level[group[k]]
            for j in range(m):
                pair = row[j]
                beaten = beaten_by[j] - np.int16(same[j] > pair) - np.int16(pair > mark)
                tied = tied_with[j] - np.int16(same[j] == pair) - np.int16(pair == mark)
                rises = beaten + np.int16(there > now[j]) * (beaten + tied)
                removal[i, k, j] = np.int8(np.int16(there >= now[j]) * rises)
            removal[i, k, i] = removal[i, k, k] = 0
    return removal


@kernel
def _rows(
    m: int, ranks: Int64s, low: Int64s, high: Int64s
) -> tuple[Int64s, Int64s, Int64s, Int64s, Int64s]:
    """The pairs from the best dense rank down (``order``, ties in pair order) and where
    each one's group of tied ranks ends in it (``ends``); each card's row of pair ranks in
    rank order (``rows``, ties in card order) and where the group of ranks tied with
    ``matrix[i, j]`` starts and ends in row i (``first``, ``last``). One counting sort of
    the pairs by dense rank gives all of them: walking its groups from the lowest rank up
    appends each pair {i, j} to rows i and j, in card order within a group (colex)."""
    pairs = len(ranks)
    size = ranks.max() + 2 if pairs > 0 else 1
    above = np.zeros(size, dtype=np.int64)  # then: the pairs ranked above each rank
    for p in range(pairs):
        above[ranks[p]] += 1
    total = 0
    for r in range(size - 1, -1, -1):
        count = above[r]
        above[r] = total
        total += count
    order = np.empty(pairs, dtype=np.int64)
    ends = np.empty(pairs, dtype=np.int64)
    for p in range(pairs):
        r = ranks[p]
        order[above[r]] = p
        above[r] += 1
    rows = np.empty((m, m), dtype=np.int64)
    first = np.empty((m, m), dtype=np.int64)
    last = np.empty((m, m), dtype=np.int64)
    fill = np.ones(m, dtype=np.int64)
    begin = np.empty(m, dtype=np.int64)
    for i in range(m):  # the diagonal (-1): below every rank
        rows[i, 0], first[i, i], last[i, i] = i, 0, 1
    end = pairs
    while end > 0:  # the groups of tied ranks, from the lowest up
        start = end - 1
        while start > 0 and ranks[order[start - 1]] == ranks[order[end - 1]]:
            start -= 1
        for q in range(start, end):
            i, j = low[order[q]], high[order[q]]
            begin[i], begin[j] = fill[i], fill[j]
            ends[q] = end
        for q in range(start, end):
            i, j = low[order[q]], high[order[q]]
            first[i, j], first[j, i] = begin[i], begin[j]
            rows[i, fill[i]] = j
            fill[i] += 1
            rows[j, fill[j]] = i
            fill[j] += 1
        for q in range(start, end):
            i, j = low[order[q]], high[order[q]]
            last[i, j], last[j, i] = fill[i], fill[j]
        end = start
    return order, ends, rows, first, last


@kernel
def _dense(ranks: Int64s) -> None:
    """Replace ``ranks`` by their dense ranks (0 for the lowest present, in the same order
    and with the same ties), so that a histogram over them is as short as the board's
    distinct ranks (a few hundred of the evaluator's 7,462)."""
    present = np.zeros(_t.NUM_RANKS + 1, dtype=np.int64)
    for rank in ranks:
        present[rank] = 1
    dense = 0
    for rank in range(_t.NUM_RANKS + 1):
        seen = present[rank]
        present[rank] = dense
        dense += seen
    for p in range(len(ranks)):
        ranks[p] = present[ranks[p]]


@kernel
def _ranked_pairs(
    m: int, slots: Int64s, pair_ranks: Int16s, pair_index: Int64s
) -> tuple[Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s]:
    """The slot pairs' dense ranks and holdings (colex), the pairs in rank order and each
    card's row of them (``_rows``), and the matrix of pair ranks (-1 on the diagonal)."""
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
    _dense(ranks)
    order, ends, rows, first, last = _rows(m, ranks, low, high)
    return ranks, holding, rows, first, last, order, ends, matrix


def board_arrays(
    m: int, slots: Int64s, pair_ranks: Int16s, triple_ranks: Int16s, pair_index: Int64s
) -> BoardArrays:
    """What ``holding_values`` reads of one board, whatever the field: the slot pairs' dense
    ranks (``_dense``) and holdings (colex), each card's row of pair ranks in rank order and
    where each pair's tied group starts and ends in it (``_rows``), the sweep's points by
    now-rank group, their dense final ranks, the ends of their now-rank groups and their
    numbers (``agents.lbr.loki_sweep_kernels.sweep_cells``), and the card-removal counts
    (``_removal``); the last eight empty on the river.

    Args:
        m: Cards off the board (49, 48 or 47), ``slots[:m]`` ascending.
        slots: The off-board cards (``board_subset_ranks``).
        pair_ranks: Ranks of the slot pairs with the board, colex.
        triple_ranks: Ranks of the slot triples with the board (colex), read when m > 47.
        pair_index: ``agents.strength.holdings.PAIR_INDEX``.
    """
    ranks, holding, rows, first, last, order, ends, matrix = _ranked_pairs(
        m, slots, pair_ranks, pair_index
    )
    if m > 47:
        cube = _cube(m, triple_ranks)
        cells = loki_sweep_kernels.sweep_cells(m, order, ends, cube)
        removal = _removal(m, slots, matrix, cube)
    else:
        empty = np.empty((0, 1), dtype=np.int16)
        counts = np.empty(0, dtype=np.int64)
        mixed = np.empty((0, 2), dtype=np.int16)
        cells = (np.empty(0, dtype=np.int16), empty, mixed, counts, empty, empty, counts)
        removal = np.empty((0, 0, 0), dtype=np.int8)
    return (ranks, holding, rows, first, last, *cells, removal)
