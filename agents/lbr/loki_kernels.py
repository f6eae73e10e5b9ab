"""Loki's HS1 and PPOT1 of every one of its 1,326 holdings at once, against one field.

A Loki decision after the flop needs, for its own holding h, HS1 and PPOT1 against its field
array (Papp 1998 sections 5.2, 5.3 and 7.3; ``agents.strength.street.field_values``). The local
best response needs them for every h Loki may hold. Holding by holding that is 1,326 times
one holding's cost; here the board's ranks are computed once (every slot pair now, every slot
triple = a pair's final hand with one card to come: ``board_subset_ranks``) and the holdings
are counted in rank order, card removal corrected:

* HS1: a holding's weighted count of holdings below / tied is a cumulative histogram of the
  weights over the ranks, minus the holdings through either of its cards (a row of the
  ``m x m`` matrix of pair ranks), plus itself once.
* PPOT1's numerator over the pairs (h, o) and next cards z is
  ``sum w_o max(0, s_final - s_now)`` with s = 1 ahead, 1/2 tied, 0 behind (this gives
  exactly HP[behind][ahead] + HP[behind][tied]/2 + HP[tied][ahead]/2). Per z, the holdings
  are swept from the best now-rank down with a Fenwick tree over the final ranks of the
  holdings already passed (the ones ahead of h now), then the holdings through h's cards are
  taken off with their counts over z, which do not depend on the weights: ``board_arrays``
  counts them once per board (contiguous, in SIMD lanes). Its denominator is
  ``(m - 4) (W_behind + W_tied / 2)`` (every pair has ``m - 4`` completions).

The sums are not added in the scalar route's order, so values agree with it to about 1e-15,
not to the last bit. The functions are plain arrays in, arrays out: ``board_arrays`` once per
board, then ``holding_values`` once per field.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = ["board_arrays", "holding_values"]

_SIZE = _t.NUM_RANKS + 2
"""Fenwick tree and histogram size: ranks 0..NUM_RANKS, shifted by one."""

Array = npt.NDArray[np.float64]
Int16s = npt.NDArray[np.int16]
Int64s = npt.NDArray[np.int64]


@kernel
def _add(tree: Array, rank: int, weight: float) -> None:
    i = rank + 1
    size = len(tree)
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
def _finals(m: int, triples: Int16s, finals: Int16s) -> None:
    """``finals[p, z]``: the rank of slot pair p with next card z (-1 where z is in p)."""
    finals[:, :] = -1
    for c in range(2, m):
        for b in range(1, c):
            for a in range(b):
                rank = triples[c * (c - 1) * (c - 2) // 6 + b * (b - 1) // 2 + a]
                finals[b * (b - 1) // 2 + a, c] = rank
                finals[c * (c - 1) // 2 + a, b] = rank
                finals[c * (c - 1) // 2 + b, a] = rank


@kernel
def _strength(
    m: int, ranks: Int64s, weights: Array, matrix: Int64s, wmatrix: Array
) -> tuple[Array, Array, Array]:
    """Per slot pair h: the weight of the holdings disjoint from it below h, tied with it,
    and in all (card removal corrected)."""
    pairs = m * (m - 1) // 2
    cumulative = np.zeros(_SIZE)
    for p in range(pairs):
        cumulative[ranks[p] + 1] += weights[p]
    for r in range(1, _SIZE):
        cumulative[r] += cumulative[r - 1]  # now: weight at ranks below r
    total = cumulative[_SIZE - 1]
    through = np.zeros(m)
    for i in range(m):
        for k in range(m):
            through[i] += wmatrix[i, k]
    below, tied, live = np.empty(pairs), np.empty(pairs), np.empty(pairs)
    p = 0
    for j in range(1, m):
        for i in range(j):
            rank = ranks[p]
            under = cumulative[rank]
            same = cumulative[rank + 1] - under
            for k in range(m):  # the holdings through card i or j (the diagonal weighs 0)
                for row in (i, j):
                    other = matrix[row, k]
                    if other < rank:
                        under -= wmatrix[row, k]
                    elif other == rank:
                        same -= wmatrix[row, k]
            below[p] = under
            tied[p] = same + weights[p]  # h left the tied sum twice, once too many
            live[p] = total - through[i] - through[j] + weights[p]
            p += 1
    return below, tied, live


@kernel
def _rises(order: Int64s, ends: Int64s, weights: Array, sweep: Int16s) -> Array:
    """Per slot pair h: sum over next cards and holdings of ``w max(0, s_final - s_now)``,
    card removal not yet corrected: per next card the pairs are swept from the best now-rank
    down (``order``; ``ends[q]`` ends the group of ties that starts at q) with a Fenwick tree
    over their final ranks (``sweep``, in sweep order, ``_dense``)."""
    pairs = len(order)
    swept = weights[order]
    tree = np.zeros(pairs + 2)
    point = np.zeros(pairs + 2)  # the weight added at each final rank
    less = np.empty(pairs)
    risen = np.zeros(pairs)
    for z in range(sweep.shape[0]):
        tree[:] = 0.0
        point[:] = 0.0
        finals = sweep[z]
        start = 0
        while start < pairs:
            end = ends[start]
            for q in range(start, end):  # the holdings ahead now: beaten or tied finally
                final = finals[q]
                if final >= 0:
                    less[q] = _below(tree, final)
                    risen[q] += less[q] + 0.5 * point[final]
            for q in range(start, end):
                final = finals[q]
                if final >= 0:
                    _add(tree, final, swept[q])
                    point[final] += swept[q]
            for q in range(start, end):  # with them, the holdings tied now
                final = finals[q]
                if final >= 0:
                    risen[q] += 0.5 * (_below(tree, final) - less[q])
            start = end
    rises = np.empty(pairs)
    rises[order] = risen
    return rises


@kernel
def _dense(finals: Int16s) -> None:
    """Replace each next card's final ranks by their order among that card's (ties kept, -1
    kept), so that the Fenwick tree of ``_rises`` spans the pairs, not all 7,462 ranks."""
    pairs, m = finals.shape
    below = np.zeros(_SIZE, dtype=np.int32)
    for z in range(m):
        below[:] = 0
        for p in range(pairs):
            if finals[p, z] >= 0:
                below[finals[p, z]] = 1
        running = 0
        for r in range(_SIZE):
            present = below[r]
            below[r] = running
            running += present
        for p in range(pairs):
            if finals[p, z] >= 0:
                finals[p, z] = below[finals[p, z]]


@kernel
def _removal(m: int, matrix: Int64s, finals: Int16s) -> Int16s:
    """``removal[i, j, k]``: twice the share of the holding o = {i, k} in the rises of
    h = {i, j} (ahead + tied / 2 over the next cards where o is tied now, ahead / 2 where h
    is tied with it now, 0 where o is behind now or meets h); the counts do not depend on
    the weights, so a board's are counted once."""
    removal = np.zeros((m, m, m), dtype=np.int16)
    for i in range(m):
        for j in range(m):
            if j == i:
                continue
            h = max(i, j) * (max(i, j) - 1) // 2 + min(i, j)
            now = matrix[i, j]
            for k in range(m):
                if k in (i, j) or matrix[i, k] < now:
                    continue  # o behind now: never a rise
                o = max(i, k) * (max(i, k) - 1) // 2 + min(i, k)
                mine, theirs = finals[h], finals[o]
                ahead = np.int16(0)
                level = np.int16(0)
                for z in range(np.uint64(m)):  # unsigned: no index fix-up, SIMD lanes
                    ahead += np.int16(mine[z] > theirs[z])
                    level += np.int16(mine[z] == theirs[z])
                ahead -= 1  # z = k: o's sentinel counted as beaten
                level -= 1  # z = i: both sentinels counted as tied
                if matrix[i, k] > now:
                    removal[i, j, k] = 2 * ahead + level
                else:
                    removal[i, j, k] = ahead
    return removal


@kernel
def _shared(m: int, wmatrix: Array, removal: Int16s, rises: Array) -> None:
    """Take off ``rises`` the holdings o through a card of h (o = {i, k}, h = {i, j})."""
    for i in range(m):
        for j in range(m):
            if j == i:
                continue
            h = max(i, j) * (max(i, j) - 1) // 2 + min(i, j)
            share = removal[i, j]
            total = rises[h]
            for k in range(m):
                total -= wmatrix[i, k] * (0.5 * share[k])
            rises[h] = total


@kernel
def board_arrays(
    m: int, slots: Int64s, pair_ranks: Int16s, triple_ranks: Int16s, pair_index: Int64s
) -> tuple[Int64s, Int64s, Int64s, Int64s, Int64s, Int16s, Int16s]:
    """What ``holding_values`` reads of one board, whatever the field: the slot pairs' ranks
    and holdings (colex), the pairs from the best rank down and where each group of ties
    ends, the ``m x m`` matrix of pair ranks (-1 on the diagonal), the order of the pairs'
    final ranks with each next card (``(m, pairs)`` in sweep order: ``_finals``, ``_dense``)
    and the card-removal counts (``_removal``); the last two empty on the river.

    Args:
        m: Cards off the board (49, 48 or 47), ``slots[:m]`` ascending.
        slots: The off-board cards (``board_subset_ranks``).
        pair_ranks: Ranks of the slot pairs with the board, colex.
        triple_ranks: Ranks of the slot triples with the board (colex), read when m > 47.
        pair_index: ``agents.strength.holdings.PAIR_INDEX``.
    """
    pairs = m * (m - 1) // 2
    ranks = np.empty(pairs, dtype=np.int64)
    holding = np.empty(pairs, dtype=np.int64)
    matrix = np.full((m, m), -1, dtype=np.int64)  # the diagonal: below every rank, weight 0
    p = 0
    for j in range(1, m):
        for i in range(j):
            ranks[p], holding[p] = pair_ranks[p], pair_index[slots[i], slots[j]]
            matrix[i, j] = matrix[j, i] = pair_ranks[p]
            p += 1
    order = np.argsort(-ranks, kind="mergesort")
    ends = np.empty(pairs, dtype=np.int64)
    end = pairs
    for q in range(pairs - 1, -1, -1):
        if q < pairs - 1 and ranks[order[q]] != ranks[order[q + 1]]:
            end = q + 1
        ends[q] = end
    if m > 47:
        finals = np.empty((pairs, m), dtype=np.int16)
        _finals(m, triple_ranks, finals)
        _dense(finals)
        removal = _removal(m, matrix, finals)
        sweep = np.ascontiguousarray(finals[order].T)
    else:
        sweep = np.empty((0, pairs), dtype=np.int16)
        removal = np.empty((0, 0, 0), dtype=np.int16)
    return ranks, holding, order, ends, matrix, sweep, removal


@kernel
def holding_values(
    m: int,
    ranks: Int64s,
    holding: Int64s,
    order: Int64s,
    ends: Int64s,
    matrix: Int64s,
    sweep: Int16s,
    removal: Int16s,
    field: Array,
    hs1_out: Array,
    ppot_out: Array,
) -> None:
    """HS1 and PPOT1 (0 on the river) of every holding against ``field``.

    Args:
        m: Cards off the board (49, 48 or 47).
        ranks, holding, order, ends, matrix, sweep, removal: The board's arrays
            (``board_arrays``).
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
    below, tied, live = _strength(m, ranks, weights, matrix, wmatrix)
    hs1_out[:] = np.nan
    ppot_out[:] = np.nan
    for p in range(pairs):
        hs1_out[holding[p]] = (below[p] + 0.5 * tied[p]) / live[p]
        ppot_out[holding[p]] = 0.0
    if m > 47:
        rises = _rises(order, ends, weights, sweep)
        _shared(m, wmatrix, removal, rises)
        completions = m - 4
        for p in range(pairs):
            behind = live[p] - below[p] - tied[p]
            denominator = completions * (behind + 0.5 * tied[p])
            if denominator > 0:
                ppot_out[holding[p]] = rises[p] / denominator
