"""Loki's HS1 and PPOT1 of every one of its 1,326 holdings at once, against one field.

A Loki decision after the flop needs, for its own holding h, HS1 and PPOT1 against its field
array (Papp 1998 sections 5.2, 5.3 and 7.3; ``agents.strength.street.field_values``). The local
best response needs them for every h Loki may hold. Holding by holding that is 1,326 times
one holding's cost; here the holdings are counted in rank order, card removal corrected, from
what ``agents.lbr.loki_board_kernels.board_arrays`` counts once per board:

* HS1: a holding's weighted count of holdings below / tied is a cumulative histogram of the
  weights over the (dense) ranks, minus the holdings through either of its cards (a cumulative sum
  of its card's row of weights in rank order, read where its tied group starts and ends),
  plus itself once.
* PPOT1's numerator over the pairs (h, o) and next cards z is
  ``sum w_o max(0, s_final - s_now)`` with s = 1 ahead, 1/2 tied, 0 behind (this gives
  exactly HP[behind][ahead] + HP[behind][tied]/2 + HP[tied][ahead]/2). Per z, the pairs of
  equal rank now and with z (a point) rise alike, so the points are swept from the best
  now-rank down with a Fenwick tree over the final ranks of the points already passed (the
  ones ahead now), each weighing its pairs' sum; each pair then reads its point's rises
  (summed over z by now-rank group, ``agents.lbr.loki_sweep_kernels``), and the holdings
  through h's cards are taken off with their counts over z (``_shared``). Its
  denominator is ``(m - 4) (W_behind + W_tied / 2)`` (every pair has ``m - 4`` completions).

The sums are not added in the scalar route's order, so values agree with it to about 1e-15,
not to the last bit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel

__all__ = ["holding_values"]

Array = npt.NDArray[np.float64]
Int8s = npt.NDArray[np.int8]
Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]


@kernel
def _add(tree: Array, size: int, rank: int, weight: float) -> None:
    i = rank + 1
    while i < size:
        tree[i] += weight
        i += i & -i


@kernel
def _below(tree: Array, rank: int) -> float:
    """The weight added at ranks below ``rank``."""
    total = 0.0
    i = rank
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


@kernel
def _strength(
    m: int,
    ranks: Int64s,
    weights: Array,
    wmatrix: Array,
    rows: Int64s,
    first: Int64s,
    last: Int64s,
) -> tuple[Array, Array, Array, Array]:
    """Per slot pair h: the weight of the holdings disjoint from it below h, tied with it,
    above it and in all (card removal corrected). Each weight is a difference of sums, so it
    is set to exactly 0 where no holding of positive weight is counted in it (from the same
    differences of counts, which are exact): else PPOT1's denominator of the best holding
    would be rounding noise, not 0 as in the scalar route."""
    pairs = m * (m - 1) // 2
    size = ranks[:pairs].max() + 2  # dense ranks 0..size - 2, shifted by one
    cumulative = np.zeros((size, 2))  # column 1: the holdings of positive weight
    for p in range(pairs):
        cumulative[ranks[p] + 1, 0] += weights[p]
        cumulative[ranks[p] + 1, 1] += weights[p] > 0
    for r in range(1, size):
        cumulative[r] += cumulative[r - 1]  # now: weight at ranks below r
    total = cumulative[size - 1]
    through = np.zeros((m, m + 1, 2))  # row i: weights through card i, in rank order, summed
    for i in range(m):
        for t in range(m):
            weight = wmatrix[i, rows[i, t]]
            through[i, t + 1, 0] = through[i, t, 0] + weight
            through[i, t + 1, 1] = through[i, t, 1] + (weight > 0)
    below, tied, above, live = np.empty(pairs), np.empty(pairs), np.empty(pairs), np.empty(pairs)
    sums = np.empty((3, 2))
    p = 0
    for j in range(1, m):
        for i in range(j):
            rank = ranks[p]
            first_i, first_j, last_i, last_j = first[i, j], first[j, i], last[i, j], last[j, i]
            for c in range(2):
                under_i, under_j = through[i, first_i, c], through[j, first_j, c]
                same_i, same_j = through[i, last_i, c] - under_i, through[j, last_j, c] - under_j
                over_i = through[i, m, c] - through[i, last_i, c]
                over_j = through[j, m, c] - through[j, last_j, c]
                mine = weights[p] if c == 0 else (1.0 if weights[p] > 0 else 0.0)
                sums[0, c] = cumulative[rank, c] - under_i - under_j
                # h left the tied sum twice (in both rows), once too many
                sums[1, c] = cumulative[rank + 1, c] - cumulative[rank, c] - same_i - same_j + mine
                sums[2, c] = total[c] - cumulative[rank + 1, c] - over_i - over_j
            below[p] = sums[0, 0] if sums[0, 1] > 0 else 0.0
            tied[p] = sums[1, 0] if sums[1, 1] > 0 else 0.0
            above[p] = sums[2, 0] if sums[2, 1] > 0 else 0.0
            live[p] = total[0] - through[i, m, 0] - through[j, m, 0] + weights[p]
            p += 1
    return below, tied, above, live


@kernel
def _rises(
    weights: Array,
    groups: Int16s,
    single: Int16s,
    mixed: Int16s,
    mixed_starts: Int64s,
    finals: Int16s,
    group_ends: Int16s,
    counts: Int64s,
) -> Array:
    """Per slot pair h: sum over next cards and holdings of ``w max(0, s_final - s_now)``,
    card removal not yet corrected: per next card z the points are swept from the best
    now-rank down with a Fenwick tree over their final ranks (``sweep_cells`` of
    ``agents.lbr.loki_sweep_kernels``). A point of one now-rank group weighs the group's
    weight less its pairs through z; a pair's rises are its group's point's summed over z,
    less the terms of its own cards (where it was in no point), plus its own points' where
    the group splits."""
    m, n = single.shape
    pairs = len(weights)
    width = finals.shape[1]
    mass = np.empty(width)  # each point's weight
    gain = np.empty(width)  # each point's rises with this z
    less = np.empty(width)
    tree = np.empty(width + 1)
    level = np.empty(width)  # the weight added at each final rank
    group_weight = np.zeros(n)
    for p in range(pairs):
        group_weight[groups[p]] += weights[p]
    by_card = np.empty((m, n))  # per z: each group's one point's rises with z (0: none)
    summed = np.zeros(n)
    risen = np.zeros(pairs)
    for z in range(m):
        count = counts[z]
        point_of, final, ends = single[z], finals[z], group_ends[z]
        mass[: count + 1] = 0.0
        for g in range(n):
            if point_of[g] >= 0:
                mass[point_of[g]] += group_weight[g]
        for x in range(m):  # the pairs through z, off their group's point
            if x != z:
                p = z * (z - 1) // 2 + x if x < z else x * (x - 1) // 2 + z
                if point_of[groups[p]] >= 0:
                    mass[point_of[groups[p]]] -= weights[p]
        for k in range(mixed_starts[z], mixed_starts[z + 1]):
            mass[mixed[k, 1]] += weights[mixed[k, 0]]
        tree[: count + 1] = 0.0
        level[:count] = 0.0
        start = 0
        while start < count:
            end = ends[start]
            for d in range(start, end):  # the points ahead now: beaten or tied finally
                less[d] = _below(tree, final[d])
                gain[d] = less[d] + 0.5 * level[final[d]]
            for d in range(start, end):
                _add(tree, count + 1, final[d], mass[d])
                level[final[d]] += mass[d]
            if end - start > 1:  # alone, a point ties with none of its group
                for d in range(start, end):  # with them, the points tied now
                    gain[d] += 0.5 * (_below(tree, final[d]) - less[d])
            start = end
        for g in range(n):
            by_card[z, g] = gain[point_of[g]] if point_of[g] >= 0 else 0.0
            summed[g] += by_card[z, g]
        for k in range(mixed_starts[z], mixed_starts[z + 1]):
            risen[mixed[k, 0]] += gain[mixed[k, 1]]
    p = 0
    for j in range(1, m):
        for i in range(j):
            g = groups[p]
            risen[p] += summed[g] - by_card[i, g] - by_card[j, g]
            p += 1
    return risen


@kernel
def _shared(m: int, wmatrix: Array, removal: Int8s, rises: Array) -> None:
    """Take off ``rises`` the holdings o through a card of h (o = {i, k}, h = {i, j}): per
    card i, each h's shares subtracted in the order of k (the same sums to the last bit as
    one h after the other), all the h through i at once (``removal[i, k]`` holds their
    shares side by side: SIMD lanes, not one dependent chain of subtractions)."""
    totals = np.empty(m)
    for i in range(m):
        for j in range(m):
            if j != i:
                totals[j] = rises[max(i, j) * (max(i, j) - 1) // 2 + min(i, j)]
        for k in range(m):
            weight = wmatrix[i, k]
            share = removal[i, k]
            for j in range(m):  # j = i: a share of 0, and not written back
                totals[j] -= weight * (0.5 * share[j])
        for j in range(m):
            if j != i:
                rises[max(i, j) * (max(i, j) - 1) // 2 + min(i, j)] = totals[j]


@kernel
def holding_values(
    m: int,
    ranks: Int64s,
    holding: Int64s,
    rows: Int64s,
    first: Int64s,
    last: Int64s,
    groups: Int16s,
    single: Int16s,
    mixed: Int16s,
    mixed_starts: Int64s,
    finals: Int16s,
    group_ends: Int16s,
    counts: Int64s,
    removal: Int8s,
    field: Array,
    hs1_out: Array,
    ppot_out: Array,
) -> None:
    """HS1 and PPOT1 (0 on the river) of every holding against ``field``.

    Args:
        m: Cards off the board (49, 48 or 47).
        ranks, holding, rows, first, last, groups, single, mixed, mixed_starts, finals,
            group_ends, counts, removal: The board's arrays
            (``agents.lbr.loki_board_kernels.board_arrays``).
        field: ``(1326,)`` non-negative weights of the opponent's holdings (Loki's field
            array); each holding's live weight must be positive.
        hs1_out: ``(1326,)`` HS1 of each holding; NaN where it meets the board.
        ppot_out: ``(1326,)`` PPOT1 ("tied/2" denominators, Papp 1998 section 5.3); NaN where
            the holding meets the board.
    """
    pairs = m * (m - 1) // 2
    weights = np.empty(pairs)
    wmatrix = np.zeros((m, m))
    p = 0
    for j in range(1, m):
        for i in range(j):
            weights[p] = field[holding[p]]
            wmatrix[i, j] = wmatrix[j, i] = weights[p]
            p += 1
    below, tied, above, live = _strength(m, ranks, weights, wmatrix, rows, first, last)
    hs1_out[:] = np.nan
    ppot_out[:] = np.nan
    for p in range(pairs):
        hs1_out[holding[p]] = (below[p] + 0.5 * tied[p]) / live[p]
        ppot_out[holding[p]] = 0.0
    if m > 47:
        rises = _rises(weights, groups, single, mixed, mixed_starts, finals, group_ends, counts)
        _shared(m, wmatrix, removal, rises)
        completions = m - 4
        for p in range(pairs):
            denominator = completions * (above[p] + 0.5 * tied[p])
            if denominator > 0:
                ppot_out[holding[p]] = rises[p] / denominator
