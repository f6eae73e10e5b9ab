"""Compiled ranking of whole boards with no own hand to count: the local best response's
roll-outs (``rollout_rows``), built on ``agents.strength.street_kernels``' ranking blocks
(one board's subsets for Loki's all-holdings values: ``agents.strength.subset_kernels``).

The public kernel calls another module's kernels, so it is compiled without a disk cache
(``agents.jit.uncached_kernel``): a cached copy would keep running the blocks' old code after
an edit there. It compiles once per process, in about a second. Its helpers here
(``_class``, ``_pair_rank``, ``_halves``, ``_flush_classes_off``) call nothing outside and are
cached; the memo of boards by rank multiset is ``agents.strength.multiset_memo``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel, uncached_kernel
from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS
from agents.strength.multiset_memo import multiset_index
from agents.strength.street_kernels import multiset_ranks
from envs import _evaluator_tables as _t

__all__ = ["rollout_rows"]

_KEY_INIT = _t.KEY_INIT
_FLUSH_SHIFT = _t.FLUSH_SHIFT
_FLUSH_NIBBLES = _t.FLUSH_NIBBLES
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_LOW = HOLDINGS[:, 0].astype(np.int64)
_HIGH = HOLDINGS[:, 1].astype(np.int64)
"""Each holding's cards, the lower first (``PAIR_INDEX[_LOW[h], _HIGH[h]] == h``)."""
_FLUSH_FLOOR = _t.CATEGORY_FLOORS[5]
"""The lowest flush's rank: a hand below it loses to every flush."""


@kernel
def _class(low: int, high: int) -> int:
    """The rank class of the cards ``low < high``: ``rank(low) + 13 rank(high)``, their place
    in a multiset table (ranks ascend with card ids)."""
    return (low >> 2) + 13 * (high >> 2)


@kernel
def _pair_rank(
    key: int,
    mask: int,
    low: int,
    high: int,
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    flush: npt.NDArray[np.uint16],
) -> int:
    """The rank of the board (``key``, flush ``mask``) with cards ``low < high``, as
    ``rank_block`` ranks it: a flush from the flush table, else the multiset ``table``."""
    sums = key + card_keys[low] + card_keys[high]
    if sums & _FLUSH_BITS:
        nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
        shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
        return int(flush[((mask + flush_keys[low] + flush_keys[high]) >> shift) & 0x1FFF])
    return int(table[_class(low, high)])


@kernel
def _halves(mine: int, rank: int) -> int:
    """The own hand's showdown score against ``rank`` in halves: 2 ahead, 1 tied, 0 behind."""
    return int(mine > rank) + int(mine >= rank)


@kernel
def _flush_classes_off(
    delta: npt.NDArray[np.int32],
    suit_made: npt.NDArray[np.int64],
    by_suit_sum: npt.NDArray[np.int32],
    by_suit_mixed: npt.NDArray[np.int32],
    through_suit: npt.NDArray[np.int32],
    through_mixed: npt.NDArray[np.int32],
    flush_gain: npt.NDArray[np.int32],
    pair_index: npt.NDArray[np.int64],
) -> None:
    """``rollout_rows``' per-row part of the flush corrections: per suit that reached three
    cards on a completion, the holdings of two cards of the suit lose their class scores
    summed over those completions (``by_suit_sum``) but for the completions through one of
    their cards (``through_suit``); at four, the holdings of one card of the suit lose theirs
    (``by_suit_mixed``, ``through_mixed``) and gain the flush scores of that card
    (``flush_gain``). Entries of holdings through a known card are left to be overwritten."""
    for suit in range(4):
        if suit_made[suit] < 3:
            continue
        for t in range(13):
            first = 4 * t + suit
            for v in range(t + 1, 13):
                second = 4 * v + suit
                delta[pair_index[first, second]] += (
                    through_suit[first, v]
                    + through_suit[second, t]
                    - by_suit_sum[suit, _class(first, second)]
                )
            if suit_made[suit] < 4:
                continue
            for other in range(52):
                if (other & 3) == suit:
                    continue
                low, high = min(first, other), max(first, other)
                delta[pair_index[low, high]] += (
                    flush_gain[first]
                    + through_mixed[first, other >> 2]
                    - by_suit_mixed[suit, _class(low, high)]
                )


@uncached_kernel
def rollout_rows(
    holes: npt.NDArray[np.int64],
    boards: npt.NDArray[np.int64],
    board_len: npt.NDArray[np.int64],
    sample: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    pair_index: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    memo_tables: npt.NDArray[np.int16],
    memo_made: npt.NDArray[np.bool_],
    out: npt.NDArray[np.float64],
    targets: npt.NDArray[np.int64],
) -> None:
    """Per row (into ``out[targets[row]]``), the own hand's equity against every holding: its
    showdown score (1 ahead, 1/2 tied) summed over the completions of its board by
    ``sample`` (positions among the cards it does not see, ascending) that meet neither
    hand, over their number (1/2 if there are none; 0 for the holdings through the row's
    own or board cards).

    Counted by rank class, not holding by holding: on a completed board a hand that cannot
    be a flush ranks by its two cards' ranks alone, so each completion scores the 91 rank
    classes once and adds the score to every holding of the class. Then it corrects the
    holdings that differ: those through a completion card (taken off that completion, by
    sums per drawn card and rank class) and those that make a flush (the board holds three
    cards of a suit or more): their class scores are summed per suit and taken off once per
    row (``_flush_classes_off``), and their flush scores, which are 0 unless the own hand is a
    flush or better, are added per completion. The scores are sums of halves, exact in any
    order, so the equities are those of ranking every holding on every completion, to the
    last bit.

    ``memo_tables`` and ``memo_made`` are ``rank_multiset_tables()``: the multiset table of
    every five-card board's ranks met so far (each computed once per process)."""
    known = np.empty(52, dtype=np.bool_)
    drawn = np.zeros(52, dtype=np.bool_)
    unseen = np.empty(52, dtype=np.int64)
    full = np.empty(5, dtype=np.int64)
    board_counts = np.empty(13, dtype=np.int64)
    suits = np.empty(4, dtype=np.int64)
    # Scores are counted in halves, in int32: eight SIMD lanes where float64 has four, and
    # every sum exact (at most twice the completions), as the float sums of halves were.
    wins = np.zeros(169, dtype=np.int32)
    in_suit = np.empty(52, dtype=np.int64)
    off_suit = np.empty(52, dtype=np.int64)
    class_sum = np.empty(169, dtype=np.int32)
    delta = np.empty(out.shape[1], dtype=np.int32)  # the flushes' corrections
    through = np.empty((52, 13), dtype=np.int32)  # by drawn card and the other's rank
    drawn_count = np.empty(52, dtype=np.int64)
    both = np.empty(out.shape[1], dtype=np.int32)  # by holding of two drawn cards
    both_count = np.empty(out.shape[1], dtype=np.int64)
    by_suit = np.empty((4, 13), dtype=np.int64)  # the row's unseen cards of each suit
    in_by_suit = np.empty(4, dtype=np.int64)
    suit_made = np.empty(4, dtype=np.int64)  # the most cards of each suit a completion held
    by_suit_sum = np.empty((4, 169), dtype=np.int32)  # class scores, suit at 3 or more
    by_suit_mixed = np.empty((4, 169), dtype=np.int32)  # the same, suit at 4 or more
    through_suit = np.empty((52, 13), dtype=np.int32)  # ``through`` of those completions
    through_mixed = np.empty((52, 13), dtype=np.int32)
    flush_gain = np.empty(52, dtype=np.int32)  # one card's flush scores, suit at 4 or more
    flush_score = np.empty(13, dtype=np.int32)
    samples = sample.shape[0]
    for row in range(holes.shape[0]):
        n = board_len[row]
        own_low = min(holes[row, 0], holes[row, 1])
        own_high = max(holes[row, 0], holes[row, 1])
        known[:] = False
        known[own_low] = True
        known[own_high] = True
        for b in range(n):
            known[boards[row, b]] = True
            full[b] = boards[row, b]
        u = 0
        in_by_suit[:] = 0
        for card in range(52):
            if not known[card]:
                unseen[u] = card
                u += 1
                by_suit[card & 3, in_by_suit[card & 3]] = card
                in_by_suit[card & 3] += 1
        class_sum[:] = 0
        delta[:] = 0
        suit_made[:] = 0
        if n < 5:  # only completions that draw cards touch (and the last pass reads) these
            through[:] = 0
            drawn_count[:] = 0
        if n < 4:
            both[:] = 0
            both_count[:] = 0
        for s in range(samples):
            for b in range(n, 5):
                full[b] = unseen[sample[s, b - n]]
            key = _KEY_INIT
            mask = 0
            board_counts[:] = 0
            suits[:] = 0
            for b in range(5):
                card = full[b]
                key += card_keys[card]
                mask += flush_keys[card]
                board_counts[card >> 2] += 1
                suits[card & 3] += 1
            # The multiset table depends on the board's ranks alone: kept for every process.
            slot = multiset_index(board_counts)
            table = memo_tables[slot]
            if not memo_made[slot]:
                multiset_ranks(key, board_counts, 2, rank_keys, offs, look, table)
                memo_made[slot] = True
            mine = _pair_rank(key, mask, own_low, own_high, card_keys, flush_keys, table, flush)
            below_flushes = mine < _FLUSH_FLOOR  # then every flush scores 0, unranked
            # All 169 entries, in SIMD lanes: those of no rank class (low rank above high)
            # are scored too but never read.
            mine32 = np.int32(mine)  # ranks fit: int32 lanes throughout
            for c in range(169):
                lane_rank = np.int32(table[c])
                lane_halves = np.int32(mine32 > lane_rank) + np.int32(mine32 >= lane_rank)
                wins[c] = lane_halves
                class_sum[c] += lane_halves
            for b in range(n, 5):
                drawn[full[b]] = True
            # Holdings through a drawn card are off this completion. Their class scores are
            # summed per drawn card and rank of the other card (13 sums, not a pass over the
            # unseen cards), and per pair of drawn cards, and taken off at the end.
            for b in range(n, 5):
                x = full[b]
                drawn_count[x] += 1
                rank = x >> 2
                for other in range(13):
                    through[x, other] += wins[min(rank, other) + 13 * max(rank, other)]
                for c in range(n, b):
                    low, high = min(x, full[c]), max(x, full[c])
                    h = pair_index[low, high]
                    both[h] += wins[_class(low, high)]
                    both_count[h] += 1
            # Holdings that make a flush: a suit at three cards or more on the board, and
            # the holdings with the cards of that suit it lacks (then neither quads nor a
            # full house is possible, so the flush table ranks them). Their class scores
            # are summed per suit and taken off once per row (with the drawn cards' put
            # back, as ``through`` does), and only the flushes' own scores are added here.
            for suit in range(4):
                on_board = suits[suit]
                if on_board < 3:
                    continue
                if suit_made[suit] == 0:  # the suit's sums, zeroed at its first use
                    by_suit_sum[suit] = 0
                    by_suit_mixed[suit] = 0
                    for t in range(13):
                        through_suit[4 * t + suit] = 0
                        through_mixed[4 * t + suit] = 0
                        flush_gain[4 * t + suit] = 0
                suit_made[suit] = max(suit_made[suit], on_board)
                for c in range(169):
                    by_suit_sum[suit, c] += wins[c]
                if on_board >= 4:
                    for c in range(169):
                        by_suit_mixed[suit, c] += wins[c]
                suited = 0
                for t in range(in_by_suit[suit]):
                    card = by_suit[suit, t]
                    if not drawn[card]:
                        in_suit[suited] = card
                        suited += 1
                for b in range(n, 5):
                    x = full[b]
                    if (x & 3) != suit:
                        continue
                    rank = x >> 2
                    for other in range(13):
                        lane = wins[min(rank, other) + 13 * max(rank, other)]
                        through_suit[x, other] += lane
                        if on_board >= 4:
                            through_mixed[x, other] += lane
                    for c in range(n, b):  # both drawn: put back twice, taken off once
                        y = full[c]
                        if (y & 3) == suit:
                            low, high = min(x, y), max(x, y)
                            delta[pair_index[low, high]] -= wins[_class(low, high)]
                if not below_flushes:
                    for t in range(suited):
                        first = in_suit[t]
                        for v in range(t + 1, suited):  # ascending: first < in_suit[v]
                            second = in_suit[v]
                            rank = _pair_rank(
                                key, mask, first, second, card_keys, flush_keys, table, flush
                            )
                            delta[pair_index[first, second]] += _halves(mine, rank)
                if on_board < 4:
                    continue
                # One card of the suit and one off it: the flush ranks alike whatever the
                # other card (any off the suit and the board stands for it).
                if not below_flushes:
                    spare = 0
                    while (spare & 3) == suit or known[spare] or drawn[spare]:
                        spare += 1
                    for t in range(suited):
                        first = in_suit[t]
                        low, high = min(first, spare), max(first, spare)
                        rank = _pair_rank(
                            key, mask, low, high, card_keys, flush_keys, table, flush
                        )
                        flush_score[t] = _halves(mine, rank)
                        flush_gain[first] += flush_score[t]
                for b in range(n, 5):  # off this completion: its flush score taken back
                    y = full[b]
                    if (y & 3) == suit:
                        continue
                    for t in range(suited):
                        low, high = min(in_suit[t], y), max(in_suit[t], y)
                        back = wins[_class(low, high)]
                        if not below_flushes:
                            back -= flush_score[t]
                        delta[pair_index[low, high]] += back
                if on_board < 5:
                    continue
                others = 0  # the board's own flush: every pair off the suit
                for t in range(u):
                    card = unseen[t]
                    if not drawn[card] and (card & 3) != suit:
                        off_suit[others] = card
                        others += 1
                if others < 2:
                    continue
                score = 0
                if not below_flushes:
                    rank = _pair_rank(
                        key, mask, off_suit[0], off_suit[1], card_keys, flush_keys, table, flush
                    )
                    score = _halves(mine, rank)
                for t in range(others):
                    for v in range(t + 1, others):
                        low, high = off_suit[t], off_suit[v]
                        delta[pair_index[low, high]] += score - wins[_class(low, high)]
            for b in range(n, 5):
                drawn[full[b]] = False
        _flush_classes_off(
            delta,
            suit_made,
            by_suit_sum,
            by_suit_mixed,
            through_suit,
            through_mixed,
            flush_gain,
            pair_index,
        )
        equity = out[targets[row]]
        # In holding order: the per-holding sums read in turn, in halves (exact, in any
        # order: the float of the halves' sum is the sum the floats of halves made). With
        # fewer cards drawn the sums through drawn cards are zero, not zeroed, and not read.
        for h in range(NUM_HOLDINGS):
            low, high = _LOW[h], _HIGH[h]
            if known[low] or known[high]:
                equity[h] = 0.0
                continue
            count = samples
            halves = class_sum[_class(low, high)] + delta[h]
            if n < 5:
                count -= drawn_count[low] + drawn_count[high]
                halves -= through[low, high >> 2] + through[high, low >> 2]
                if n < 4:
                    count += both_count[h]
                    halves += both[h]
            equity[h] = (0.5 * halves) / count if count > 0 else 0.5
