"""The points of PPOT1's sweep on one board, by now-rank group (``sweep_cells``).

``agents.lbr.loki_kernels.holding_values`` counts PPOT1 (Papp 1998 section 5.3) of every
holding at once: per next card z it sweeps the "points" (the slot pairs that share their rank
now and their rank with z) from the best now-rank down. A now-rank group's pairs nearly always
share their rank with z too (their card ranks are equal; only a flush with z tells them apart),
so this module describes the points by group, not pair by pair:

* ``groups[p]``: the now-rank group of pair p (0: the best rank now);
* ``single[z, g]``: the one point of group g with z, or -1 where its pairs (off z) make several
  points (or none: all its pairs hold z);
* ``mixed[k]``: the pairs (off z) of the groups with several points with z, each with its
  point, z's from ``mixed_starts[z]`` to ``mixed_starts[z + 1]``.

A group's one point then weighs the group's weight less its pairs through z, and a pair's
rises are its group's summed over z, less its own cards' terms: O(groups) per z, not
O(pairs). About 90 groups hold the 1,176 pairs of a flop (80 the 1,128 of a turn); 9% of a
flop's (z, pair)s fall in mixed groups, 25% of a turn's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = ["SweepCells", "sweep_cells"]

Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]
SweepCells = tuple[Int16s, Int16s, Int16s, Int64s, Int16s, Int16s, Int64s]
"""``sweep_cells``' result: groups, single, mixed, mixed_starts, finals, group_ends, counts."""


@kernel
def sweep_cells(m: int, order: Int64s, ends: Int64s, cube: Int16s) -> SweepCells:
    """Per next card z the points of the sweep (see the module), their dense final ranks and
    the ends of their now-rank groups, in sweep order, and their number.

    A now-rank group's rows of the cube are read for all z at once (SIMD lanes); where the
    group's final ranks with z (off the pairs through z) are all equal it is one point; only
    the other z look the pairs' final ranks up one by one, among the group's points so far.

    Args:
        m: Cards off the board (49 or 48).
        order: The slot pairs from the best dense rank now down (ties in pair order).
        ends: Where each one's group of tied ranks ends in ``order``.
        cube: Per slot pair, its rank with each next card (-1: through the card), as
            ``agents.lbr.loki_board_kernels._cube`` stores it (a row per pair, SIMD-wide).
    """
    pairs = len(order)
    lanes = cube.shape[1]
    raw = np.empty((m, pairs + 1), dtype=np.int16)
    group_ends = np.empty((m, pairs + 1), dtype=np.int16)
    groups = np.empty(pairs, dtype=np.int16)
    single = np.empty((m, pairs), dtype=np.int16)  # trimmed to the groups' number below
    mixed = np.empty((m, pairs, 2), dtype=np.int16)  # per z, then packed
    mixed_counts = np.zeros(m, dtype=np.int64)
    count = np.zeros(lanes, dtype=np.int16)  # per z: the points so far
    top = np.empty(lanes, dtype=np.int16)  # per z: the group's best and worst final rank
    bottom = np.empty(lanes, dtype=np.int16)
    several = np.empty(m, dtype=np.int64)  # the z where the group has several points
    start = 0
    g = 0
    while start < pairs:
        end = ends[start]
        for z in range(np.uint64(lanes)):
            top[z] = -1
        for q in range(start, end):
            row = cube[order[q]]
            groups[order[q]] = g
            for z in range(np.uint64(lanes)):
                top[z] = max(top[z], row[z])
        for z in range(np.uint64(lanes)):
            bottom[z] = top[z]
        for q in range(start, end):
            row = cube[order[q]]
            for z in range(np.uint64(lanes)):  # the pairs through z (-1) left out
                bottom[z] = min(bottom[z], row[z] if row[z] >= 0 else top[z])
        slow = 0
        for z in range(m):  # one point (or none: written past the count, never read)
            opened = count[z]
            raw[z, opened] = top[z]
            group_ends[z, opened] = opened + 1
            count[z] = opened + np.int16(top[z] >= 0)
            single[z, g] = opened if top[z] >= 0 and bottom[z] == top[z] else -1
            several[slow] = z
            slow += bottom[z] != top[z]
        for s in range(slow):  # several points: top[z] >= 0, counted above
            z = several[s]
            opened = count[z] - 1
            d = opened
            last = -1  # the latest final rank met, and its point
            at = 0
            k = mixed_counts[z]
            for q in range(start, end):
                final = cube[order[q], z]
                if final < 0:
                    continue  # through z: in no point's weight
                if final != last:
                    last = final
                    at = d - 1
                    while at >= opened and raw[z, at] != final:
                        at -= 1
                    if at < opened:
                        at = d
                        raw[z, d] = final
                        d += 1
                mixed[z, k, 0] = order[q]
                mixed[z, k, 1] = at
                k += 1
            mixed_counts[z] = k
            count[z] = d
            for t in range(opened, d):
                group_ends[z, t] = d
        start = end
        g += 1
    counts = np.empty(m, dtype=np.int64)
    histogram = np.zeros(_t.NUM_RANKS + 2, dtype=np.int32)
    for z in range(m):
        counts[z] = count[z]
        for t in range(count[z]):
            histogram[raw[z, t] + 1] += 1
    # the points' final ranks, dense per z: one counting sort of all z's points at once
    for r in range(1, len(histogram)):
        histogram[r] += histogram[r - 1]
    total = histogram[-1]
    by_rank = np.empty(total, dtype=np.int32)  # z << 11 | point, by final rank
    for z in range(m):
        for d in range(counts[z]):
            slot = raw[z, d]
            by_rank[histogram[slot]] = (z << 11) | d
            histogram[slot] += 1
    width = counts.max() + 1
    finals = np.zeros((m, width), dtype=np.int16)
    previous = np.full(m, -1, dtype=np.int64)
    dense = np.full(m, -1, dtype=np.int64)
    for e in range(total):
        z, d = by_rank[e] >> 11, by_rank[e] & 2047
        if raw[z, d] != previous[z]:
            previous[z] = raw[z, d]
            dense[z] += 1
        finals[z, d] = dense[z]
    mixed_starts = np.zeros(m + 1, dtype=np.int64)
    for z in range(m):
        mixed_starts[z + 1] = mixed_starts[z] + mixed_counts[z]
    packed = np.empty((mixed_starts[m], 2), dtype=np.int16)
    for z in range(m):
        packed[mixed_starts[z] : mixed_starts[z + 1]] = mixed[z, : mixed_counts[z]]
    return (
        groups,
        single[:, :g].copy(),
        packed,
        mixed_starts,
        finals,
        group_ends[:, :width].copy(),
        counts,
    )
