"""Compiled turn street of one flop: river continuations and turn backups per holding class.

After a turn card, holdings whose cards match in rank, and in suit wherever a suit has two or
more cards on the board, have the same values (``add_turn_values``: about 330 classes of the
1,128 holdings on average), so one holding per class is computed. For it, each river round's
continuation is the mean of its river table over the river cards; the tables are ``a + b * n``
on each bin of numerators (``agents.best_response.flops``), so the mean is, per bin, ``a``
times how many rivers fall in it plus ``b`` times the sum of their numerators. A holding's
rivers fall in few of the bins (about 3 of 22 against ``random``), so only those are added,
for every river round of every seat at once. The turn rounds are then backed up on those
continuations (``RoundProgram``) node by node over a block of holdings, doing what
``agents.best_response.backup.backup`` does per array: the bot's average in ``Action``
order, the learner's preferred action among those within ``tolerance`` of the best
(check/call, then bet/raise, then fold), and the counts of post-flop bets/raises and calls.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs.rules import Action

__all__ = ["add_turn_values", "back_up_columns"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

_CALL, _RAISE, _FOLD = int(Action.CALL), int(Action.RAISE), int(Action.FOLD)


@kernel
def _histograms(
    turn: int,
    numerators: npt.NDArray[np.int16],
    board_row: IntArray,
    board_map: IntArray,
    pair_maps: IntArray,
    holdings: IntArray,
    bin_of: IntArray,
    rivers: npt.NDArray[np.int32],
    sums: npt.NDArray[np.int32],
) -> None:
    """``rivers[i, b]`` and ``sums[i, b]``: how many rivers put holding ``holdings[i]`` in
    numerator bin ``b`` after ``turn``, and the sum of their numerators (board by board: rows
    stay cached); the last bin counts the rivers that clash with the holding."""
    rivers[:] = 0
    sums[:] = 0
    # Flat views and unsigned indices: no negative-index fix-up on the gathers.
    width = np.uint64(rivers.shape[1])
    counted, summed = rivers.reshape(-1), sums.reshape(-1)
    for r in range(board_row.shape[0]):
        if r == turn:
            continue
        # Holdings that clash with the board read a numerator whose bin is the extra last one.
        row = numerators[board_row[turn, r]]
        images = pair_maps[board_map[turn, r]]
        for i in range(np.uint64(holdings.shape[0])):
            n = row[np.uint64(images[np.uint64(holdings[i])])]
            at = i * width + np.uint64(bin_of[np.uint64(n)])
            counted[at] += 1
            summed[at] += n


@kernel
def _classes(
    turn: int,
    flop_suits: IntArray,
    card_rank: IntArray,
    card_suit: IntArray,
    pairs: IntArray,
    class_of: IntArray,
    representative: IntArray,
) -> int:
    """Sort the holdings without the turn card into classes of equal turn values; the number
    of classes. ``class_of[p]`` is holding ``p``'s class (-1 if it holds the turn card) and
    ``representative[c]`` the first holding of class ``c``.

    A suit with at most one card on the flop and turn makes no flush for anyone whatever the
    river, so its cards count by rank alone: any two holdings whose cards match card for card
    in rank, and in suit where a suit has two or more cards on the board, map onto each other
    by a permutation of such cards of equal rank that fixes the board, and every hand keeps its
    rank under it (numerators and turn values alike)."""
    suits = flop_suits.copy()
    suits[card_suit[turn]] += 1
    kind = np.empty(card_rank.shape[0], dtype=np.int64)
    for card in range(card_rank.shape[0]):
        suit = card_suit[card]
        kind[card] = card_rank[card] + (13 * (1 + suit) if suits[suit] >= 2 else 0)
    index = np.full(65 * 65, -1, dtype=np.int64)
    classes = 0
    for p in range(pairs.shape[0]):
        x, y = pairs[p, 0], pairs[p, 1]
        if (x == turn) | (y == turn):
            class_of[p] = -1
            continue
        key = 65 * min(kind[x], kind[y]) + max(kind[x], kind[y])
        if index[key] < 0:
            index[key] = classes
            representative[classes] = p
            classes += 1
        class_of[p] = index[key]
    return classes


@kernel
def _continuations(
    rivers: npt.NDArray[np.int32],
    sums: npt.NDArray[np.int32],
    intercept: Array,
    slope: Array,
    lo: int,
    hi: int,
    column: Array,
    met: IntArray,
    following: Array,
) -> None:
    """``following[j, p - lo]``: river row ``j``'s mean over the rivers of holding ``p`` in
    ``lo..hi-1``, from the bins it meets only. ``intercept`` and ``slope`` are ``(bins, rows)``
    and ``(bins, sloped)`` lines already divided by the number of rivers: only the first
    ``sloped`` rows rise within a bin (values; action counts are flat). ``column`` and ``met``
    are scratch."""
    bins, rows = intercept.shape
    width, sloped = np.uint64(rows), np.uint64(slope.shape[1])
    for p in range(lo, hi):
        # The bins met, listed without a branch per bin (which bins is hard to predict).
        counts, totals = rivers[p], sums[p]
        k = 0
        for b in range(bins):
            met[k] = b
            k += counts[b] != 0
        column[:] = 0.0
        for i in range(k):
            b = met[i]
            count, total = float(counts[b]), float(totals[b])
            flat, rising = intercept[b], slope[b]
            for j in range(width):
                column[j] += flat[j] * count
            for j in range(sloped):
                column[j] += rising[j] * total
        at = np.uint64(p - lo)
        for j in range(width):
            following[j, at] = column[j]


@kernel
def back_up_columns(
    starts: IntArray,
    bot: npt.NDArray[np.bool_],
    facing: npt.NDArray[np.bool_],
    legal: npt.NDArray[np.bool_],
    source: IntArray,
    probability: Array,
    quantities: int,
    tolerance: float,
    node_rows: int,
    rows: Array,
    chosen: npt.NDArray[np.int8],
    entries: int,
    out: Array,
) -> None:
    """Back up every round for the first ``entries`` columns of ``rows``: ``out[k *
    quantities + q]`` is round ``k``'s root. ``rows`` holds the next street's values and the
    chip amounts, where ``source[node, action, q]`` reads them, and from row ``node_rows`` on
    the values of the current round's nodes (``quantities`` rows each)."""
    # Rows are taken as 1-d views and columns counted unsigned: no negative-index fix-up then
    # stops the loops from running in SIMD lanes.
    minus_infinity = node_rows - 1
    n = np.uint64(entries)
    for k in range(starts.shape[0] - 1):
        first = starts[k]
        for local in range(starts[k + 1] - first - 1, -1, -1):
            node = first + local
            base = node_rows + local * quantities
            if bot[node]:
                # The bot's average in ``Action`` order. An action it never takes would add
                # 0.0 times a finite value, which changes no sum: it is left out.
                fold_p, call_p, raise_p = (
                    probability[node, 0],
                    probability[node, 1],
                    probability[node, 2],
                )
                for q in range(quantities):
                    target = rows[base + q]
                    fold = rows[source[node, _FOLD, q]]
                    call = rows[source[node, _CALL, q]]
                    raise_ = rows[source[node, _RAISE, q]]
                    if fold_p != 0.0:
                        for e in range(n):
                            target[e] = fold_p * fold[e] + call_p * call[e] + raise_p * raise_[e]
                    elif raise_p == 0.0:
                        for e in range(n):
                            target[e] = call_p * call[e]
                    elif call_p == 0.0:
                        for e in range(n):
                            target[e] = raise_p * raise_[e]
                    else:
                        for e in range(n):
                            target[e] = call_p * call[e] + raise_p * raise_[e]
                continue
            # Check/call is always legal; an illegal raise or fold reads minus infinity, so
            # that the choice is a select.
            call = rows[source[node, _CALL, 0]]
            raise_ = rows[source[node, _RAISE, 0] if legal[node, _RAISE] else minus_infinity]
            fold = rows[source[node, _FOLD, 0] if legal[node, _FOLD] else minus_infinity]
            if quantities == 3:
                # Values and both counts in one pass over the holdings.
                called = 1.0 if facing[node] else 0.0
                value, raises, calls = rows[base], rows[base + 1], rows[base + 2]
                call_r = rows[source[node, _CALL, 1]]
                call_c = rows[source[node, _CALL, 2]]
                raise_r = rows[source[node, _RAISE, 1]]
                raise_c = rows[source[node, _RAISE, 2]]
                fold_r = rows[source[node, _FOLD, 1]]
                fold_c = rows[source[node, _FOLD, 2]]
                for e in range(n):
                    c, r, f = call[e], raise_[e], fold[e]
                    threshold = max(c, max(r, f)) - tolerance
                    if c >= threshold:
                        value[e] = c
                        raises[e] = call_r[e] + 0.0
                        calls[e] = call_c[e] + called
                    elif r >= threshold:
                        value[e] = r
                        raises[e] = raise_r[e] + 1.0
                        calls[e] = raise_c[e] + 0.0
                    else:
                        value[e] = f
                        raises[e] = fold_r[e] + 0.0
                        calls[e] = fold_c[e] + 0.0
                continue
            for e in range(n):
                c, r, f = call[e], raise_[e], fold[e]
                threshold = max(c, max(r, f)) - tolerance
                chosen[e] = _CALL if c >= threshold else (_RAISE if r >= threshold else _FOLD)
            for q in range(quantities):
                target = rows[base + q]
                call = rows[source[node, _CALL, q]]
                raise_ = rows[source[node, _RAISE, q]]
                fold = rows[source[node, _FOLD, q]]
                for e in range(n):
                    choice = chosen[e]
                    target[e] = (
                        call[e]
                        if choice == _CALL
                        else (raise_[e] if choice == _RAISE else fold[e])
                    )
            if quantities > 1:
                called = 1.0 if facing[node] else 0.0
                raises, calls = rows[base + 1], rows[base + 2]
                for e in range(n):
                    raises[e] += 1.0 if chosen[e] == _RAISE else 0.0
                    calls[e] += called if chosen[e] == _CALL else 0.0
        for q in range(quantities):
            out[k * quantities + q, :entries] = rows[node_rows + q, :entries]


@kernel
def add_turn_values(
    turn: int,
    flop_suits: IntArray,
    card_rank: IntArray,
    card_suit: IntArray,
    numerators: npt.NDArray[np.int16],
    board_row: IntArray,
    board_map: IntArray,
    pair_maps: IntArray,
    pairs: IntArray,
    bin_of: IntArray,
    intercept: Array,
    slope: Array,
    chips: Array,
    starts: IntArray,
    bot: npt.NDArray[np.bool_],
    facing: npt.NDArray[np.bool_],
    legal: npt.NDArray[np.bool_],
    source: IntArray,
    probability: Array,
    quantities: int,
    tolerance: float,
    node_rows: int,
    rows: Array,
    weight: float,
    out: Array,
) -> None:
    """``out[p]`` += ``weight`` times every turn round's root values for holding ``p``
    after ``turn``, nothing for the holdings holding it. One holding per class (``_classes``)
    is computed, in blocks of ``rows.shape[1]`` (``rows`` being scratch laid out as
    ``source_rows`` says), so that a block's continuations and node values stay cached."""
    count = pairs.shape[0]
    class_of = np.empty(count, dtype=np.int64)
    representative = np.empty(count, dtype=np.int64)
    classes = _classes(turn, flop_suits, card_rank, card_suit, pairs, class_of, representative)
    bins, following = intercept.shape
    block = rows.shape[1]
    rivers = np.empty((classes, bins + 1), dtype=np.int32)
    sums = np.empty((classes, bins + 1), dtype=np.int32)
    _histograms(
        turn,
        numerators,
        board_row,
        board_map,
        pair_maps,
        representative[:classes],
        bin_of,
        rivers,
        sums,
    )
    for c in range(chips.shape[0]):
        rows[following + c, :] = chips[c]
    rows[node_rows - 1, :] = -np.inf
    column = np.empty(following)
    met = np.empty(bins, dtype=np.int64)
    chosen = np.empty(block, dtype=np.int8)
    result = np.empty((out.shape[1], block))
    values = np.empty((classes, out.shape[1]))
    for lo in range(0, classes, block):
        hi = min(classes, lo + block)
        _continuations(rivers, sums, intercept, slope, lo, hi, column, met, rows)
        back_up_columns(
            starts,
            bot,
            facing,
            legal,
            source,
            probability,
            quantities,
            tolerance,
            node_rows,
            rows,
            chosen,
            hi - lo,
            result,
        )
        for c in range(lo, hi):
            for j in range(out.shape[1]):
                values[c, j] = weight * result[j, c - lo]
    for p in range(count):
        c = class_of[p]
        if c >= 0:
            total, value = out[p], values[c]
            for j in range(out.shape[1]):
                total[j] += value[j]
