"""The compiled loops of ``agents.strength.street.field_values`` and ``field_potential2``.

``field_rows`` turns a row's weight-independent ``StreetTables`` into HS1 and PPOT1 against
a field weight table: weighted sums over the holdings, no ranking. Both add as the
references do, so that their numbers are the references' to the last bit: HS1 sums the
weights of the live holdings, of those the own hand beats and of those it ties in NumPy's
pairwise order (``_pairwise_sum``), as ``agents.strength.hand_strength`` does with
``ndarray.sum``; PPOT1 visits the holdings in colex card order (``(a, b)`` by ``b``, then
``a``), the order in which ``agents.strength.potential.potential_counts`` lists the opponent
pairs, and adds ``HP[now] += w x final counts`` and ``HPTotal[now] += w x completions`` as it
does.

``potential2_rows`` is PPOT2 (two cards to come, flop): the opponent's final hand is the flop
plus a 4-subset of the 47 unseen cards, ranked once (C(47, 4) = 178,365) and shared by its six
(opponent pair, turn and river) splits, as in ``agents.strength.potential``; a 4-subset's rank
is a flush or else read from a table of the 1,820 rank multisets, looked up once per row.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel
from envs import _evaluator_tables as _t

__all__ = ["field_rows", "potential2_rows"]

_KEY_MASK = (1 << _t.KEY_BITS) - 1
_FLUSH_BITS = _t.FLUSH_NIBBLES << _t.FLUSH_SHIFT
_ROW_SHIFT = _t.ROW_SHIFT
_COL_MASK = _t.COL_MASK
_FLUSH_SHIFT = _t.FLUSH_SHIFT
_FLUSH_NIBBLES = _t.FLUSH_NIBBLES
_KEY_INIT = _t.KEY_INIT
_DEAD = -128
_AHEAD, _TIED, _BEHIND = 0, 1, 2


@kernel
def _multiset_ranks(
    base_key: int,
    counts: npt.NDArray[np.int64],
    cards: int,
    rank_keys: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    table: npt.NDArray[np.int16],
) -> None:
    """``table[r1 + 13 r2 + 169 r3 + 2197 r4]``: the rank, were it no flush, of the base
    cards (``counts`` per rank) with ``cards`` (2 or 4) more of ranks ``r1 <= r2 (<= r3 <=
    r4)``; multisets with a fifth card of a rank are left out (their keys fall outside the
    evaluator's hash)."""
    four = cards == 4
    for r4 in range(13 if four else 1):
        for r3 in range(r4 + 1 if four else 1):
            for r2 in range(r3 + 1 if four else 13):
                for r1 in range(r2 + 1):
                    counts[r1] += 1
                    counts[r2] += 1
                    if four:
                        counts[r3] += 1
                        counts[r4] += 1
                    fits = max(counts[r1], counts[r2], counts[r3], counts[r4]) <= 4
                    counts[r1] -= 1
                    counts[r2] -= 1
                    sums = base_key + rank_keys[r1] + rank_keys[r2]
                    if four:
                        counts[r3] -= 1
                        counts[r4] -= 1
                        sums += rank_keys[r3] + rank_keys[r4]
                    if fits:
                        key = sums & _KEY_MASK
                        index = r1 + 13 * r2 + 169 * r3 + 2197 * r4
                        table[index] = look[(key & _COL_MASK) + offs[key >> _ROW_SHIFT]]


@kernel
def _rank_pairs(
    base_key: int,
    base_mask: int,
    keys: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    card_rank: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    flush: npt.NDArray[np.uint16],
    out: npt.NDArray[np.int16],
) -> None:
    """``out[C(j, 2) + i]`` = rank of the base cards with slots ``i < j`` (all 47)."""
    t = 0
    for j in range(1, 47):
        for i in range(j):
            sums = base_key + keys[i] + keys[j]
            if sums & _FLUSH_BITS:
                nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
                shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
                out[t] = flush[((base_mask + masks[i] + masks[j]) >> shift) & 0x1FFF]
            else:
                out[t] = table[card_rank[i] + 13 * card_rank[j]]
            t += 1


@kernel
def _ppot(hp: npt.NDArray[np.float64], hp_total: npt.NDArray[np.float64]) -> float:
    """PPOT from the potential matrix, "tied/2" denominators (Papp 1998 section 5.3)."""
    denominator = hp_total[_BEHIND] + hp_total[_TIED] / 2
    if denominator > 0:
        return (  # type: ignore[no-any-return]
            hp[_BEHIND, _AHEAD] + hp[_BEHIND, _TIED] / 2 + hp[_TIED, _AHEAD] / 2
        ) / denominator
    return 0.0


@kernel
def _block_sum(values: npt.NDArray[np.float64], start: int, count: int) -> float:
    """``values[start : start + count].sum()`` for ``count <= 128``, in NumPy's order: eight
    running sums over blocks of eight, then the rest (fewer than eight: one sum)."""
    if count < 8:
        result = 0.0
        for i in range(start, start + count):
            result += values[i]
        return result
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = start + 8
    while i < start + count - count % 8:
        r0, r1, r2, r3 = r0 + values[i], r1 + values[i + 1], r2 + values[i + 2], r3 + values[i + 3]
        r4, r5, r6, r7 = (
            r4 + values[i + 4],
            r5 + values[i + 5],
            r6 + values[i + 6],
            r7 + values[i + 7],
        )
        i += 8
    result = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for j in range(i, start + count):
        result += values[j]
    return float(result)


@kernel
def _pairwise_sum(values: npt.NDArray[np.float64], count: int) -> float:
    """``values[:count].sum()`` added in NumPy's order, to the last bit: halves (a multiple
    of eight on the left) until blocks of at most 128. The recursion runs on an explicit
    stack: numba cannot reload a self-recursive kernel from its disk cache."""
    starts = np.empty(32, dtype=np.int64)
    counts = np.empty(32, dtype=np.int64)
    states = np.zeros(32, dtype=np.int64)  # 0: left half next, 1: right half next, 2: done
    lefts = np.empty(32)
    depth = 0
    starts[0], counts[0], states[0] = 0, count, 0
    result = 0.0
    while depth >= 0:
        start, size = starts[depth], counts[depth]
        if size <= 128:
            result = _block_sum(values, start, size)
            depth -= 1
            continue
        half = size // 2 - (size // 2) % 8
        if states[depth] == 0:
            states[depth] = 1
            depth += 1
            starts[depth], counts[depth], states[depth] = start, half, 0
        elif states[depth] == 1:
            lefts[depth] = result
            states[depth] = 2
            depth += 1
            starts[depth], counts[depth], states[depth] = start + half, size - half, 0
        else:
            result = lefts[depth] + result
            depth -= 1
    return result


@kernel
def field_rows(
    versus: npt.NDArray[np.int8],
    after: npt.NDArray[np.uint8],
    field: npt.NDArray[np.float64],
    colex: npt.NDArray[np.int64],
    hs1_out: npt.NDArray[np.float64],
    ppot_out: npt.NDArray[np.float64],
    total_out: npt.NDArray[np.float64],
    table_rows: npt.NDArray[np.int64],
) -> None:
    """HS1, PPOT1 and the live weight of each row (HS1 NaN where that weight is 0), added as
    the references add: ``hand_strength`` sums the weights of the live holdings, of those
    the own hand beats and of those it ties in NumPy's pairwise order over the holdings;
    ``potential_counts`` adds to ``HP`` holding after holding in colex order. Row ``row`` of
    the outputs and of ``field`` reads row ``table_rows[row]`` of ``versus`` and ``after``."""
    live = np.empty(versus.shape[1])
    worse = np.empty(versus.shape[1])  # the holdings the own hand beats
    tied = np.empty(versus.shape[1])
    hp = np.zeros((3, 3))
    hp_total = np.zeros(3)
    for row in range(field.shape[0]):
        at = table_rows[row]
        n_live = n_worse = n_tied = 0
        for h in range(versus.shape[1]):
            sign = versus[at, h]
            w = field[row, h]
            # Always written, kept where the holding belongs.
            live[n_live], worse[n_worse], tied[n_tied] = w, w, w
            n_live += sign != _DEAD
            n_worse += sign == 1
            n_tied += sign == 0
        total = _pairwise_sum(live, n_live)
        score = _pairwise_sum(worse, n_worse) + 0.5 * _pairwise_sum(tied, n_tied)
        total_out[row] = total
        hs1_out[row] = score / total if total > 0 else np.nan
        hp[:] = 0.0
        hp_total[:] = 0.0
        for t in range(colex.shape[0]):
            h = colex[t]
            sign = versus[at, h]
            if sign == _DEAD:
                continue
            w = field[row, h]
            now = _AHEAD if sign > 0 else (_TIED if sign == 0 else _BEHIND)
            wins = np.float64(after[at, h, 0])
            ties = np.float64(after[at, h, 1])
            losses = np.float64(after[at, h, 2])
            hp[now, 0] += w * wins
            hp[now, 1] += w * ties
            hp[now, 2] += w * losses
            hp_total[now] += w * (wins + ties + losses)
        ppot_out[row] = _ppot(hp, hp_total)


@kernel
def _split_counts(
    block: npt.NDArray[np.int16],
    c: int,
    d: int,
    final: npt.NDArray[np.int16],
    ahead: npt.NDArray[np.int16],
    tied: npt.NDArray[np.int16],
) -> None:
    """Add the six (opponent pair, turn and river) splits of the 4-subsets ``{a < b < c < d}``
    (``block[C(b, 2) + a]``: the opponent's final rank) to the pairs' counts of turns and
    rivers that leave the own hand (``final`` per slot pair) ahead or tied: for each ``b``,
    three pairs through ``a`` get one comparison each and three pairs without ``a`` a sum over
    ``a``, all contiguous runs (SIMD lanes)."""
    u = np.uint64
    base_c, base_d = u(c * (c - 1) // 2), u(d * (d - 1) // 2)
    final_cd = final[base_d + u(c)]
    sum_ahead_cd = np.int16(0)
    sum_tied_cd = np.int16(0)
    for b in range(u(1), u(c)):
        base_b = b * (b - 1) // u(2)
        final_bd, final_bc = final[base_d + b], final[base_c + b]
        sum_ahead_bc = sum_tied_bc = sum_ahead_bd = sum_tied_bd = np.int16(0)
        for a in range(b):
            rank = block[base_b + a]
            ahead[base_b + a] += np.int16(rank < final_cd)  # {a, b} | {c, d}
            tied[base_b + a] += np.int16(rank == final_cd)
            ahead[base_c + a] += np.int16(rank < final_bd)  # {a, c} | {b, d}
            tied[base_c + a] += np.int16(rank == final_bd)
            ahead[base_d + a] += np.int16(rank < final_bc)  # {a, d} | {b, c}
            tied[base_d + a] += np.int16(rank == final_bc)
            final_ad, final_ac, final_ab = final[base_d + a], final[base_c + a], final[base_b + a]
            sum_ahead_bc += np.int16(rank < final_ad)  # {b, c} | {a, d}
            sum_tied_bc += np.int16(rank == final_ad)
            sum_ahead_bd += np.int16(rank < final_ac)  # {b, d} | {a, c}
            sum_tied_bd += np.int16(rank == final_ac)
            sum_ahead_cd += np.int16(rank < final_ab)  # {c, d} | {a, b}
            sum_tied_cd += np.int16(rank == final_ab)
        ahead[base_c + b] += sum_ahead_bc
        tied[base_c + b] += sum_tied_bc
        ahead[base_d + b] += sum_ahead_bd
        tied[base_d + b] += sum_tied_bd
    ahead[base_d + u(c)] += sum_ahead_cd
    tied[base_d + u(c)] += sum_tied_cd


@kernel
def potential2_rows(
    holes: npt.NDArray[np.int64],
    boards: npt.NDArray[np.int64],
    field: npt.NDArray[np.float64],
    card_keys: npt.NDArray[np.int64],
    flush_keys: npt.NDArray[np.int64],
    rank_keys: npt.NDArray[np.int64],
    pair_index: npt.NDArray[np.int64],
    offs: npt.NDArray[np.uint32],
    look: npt.NDArray[np.uint16],
    flush: npt.NDArray[np.uint16],
    ppot_out: npt.NDArray[np.float64],
) -> None:
    """PPOT2 of each row's own hand on its flop against its field weights. The 47 unseen
    cards are the slots, ascending; slot pairs in colex order."""
    slots = np.empty(47, dtype=np.int64)
    keys = np.empty(47, dtype=np.int64)
    masks = np.empty(47, dtype=np.int64)
    card_rank = np.empty(47, dtype=np.int64)
    board_counts = np.zeros(13, dtype=np.int64)
    own_counts = np.zeros(13, dtype=np.int64)
    pairs = 47 * 46 // 2
    table = np.empty(13**4, dtype=np.int16)
    opp_now = np.empty(pairs, dtype=np.int16)
    final = np.empty(pairs, dtype=np.int16)  # the own hand's rank after each turn and river
    block = np.empty(45 * 44 // 2, dtype=np.int16)
    ahead = np.empty(pairs, dtype=np.int16)
    tied = np.empty(pairs, dtype=np.int16)
    hp = np.zeros((3, 3))
    hp_total = np.zeros(3)
    completions = 45 * 44 // 2
    for row in range(holes.shape[0]):
        board_counts[:] = 0
        board_key, board_mask = _KEY_INIT, 0
        for b in range(3):
            board_key += card_keys[boards[row, b]]
            board_mask += flush_keys[boards[row, b]]
            board_counts[boards[row, b] >> 2] += 1
        first, second = holes[row, 0], holes[row, 1]
        own_key = board_key + card_keys[first] + card_keys[second]
        own_mask = board_mask + flush_keys[first] + flush_keys[second]
        own_counts[:] = board_counts
        own_counts[first >> 2] += 1
        own_counts[second >> 2] += 1
        m = 0
        for card in range(52):
            if card in (first, second):
                continue
            if card in (boards[row, 0], boards[row, 1], boards[row, 2]):
                continue
            slots[m], keys[m], masks[m], card_rank[m] = (
                card,
                card_keys[card],
                flush_keys[card],
                card >> 2,
            )
            m += 1
        _multiset_ranks(board_key, board_counts, 2, rank_keys, offs, look, table)
        _rank_pairs(board_key, board_mask, keys, masks, card_rank, table, flush, opp_now)
        _multiset_ranks(own_key, own_counts, 2, rank_keys, offs, look, table)
        _rank_pairs(own_key, own_mask, keys, masks, card_rank, table, flush, final)
        if own_key & _FLUSH_BITS:
            nibble = (own_key >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
            shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
            mine = np.int64(flush[(own_mask >> shift) & 0x1FFF])
        else:
            key = own_key & _KEY_MASK
            mine = np.int64(look[(key & _COL_MASK) + offs[key >> _ROW_SHIFT]])
        _multiset_ranks(board_key, board_counts, 4, rank_keys, offs, look, table)
        ahead[:] = 0
        tied[:] = 0
        for d in range(3, 47):
            for c in range(2, d):
                key_cd = board_key + keys[c] + keys[d]
                mask_cd = board_mask + masks[c] + masks[d]
                index_cd = 169 * card_rank[c] + 2197 * card_rank[d]
                t = 0
                for b in range(1, c):
                    key_bcd, mask_bcd = key_cd + keys[b], mask_cd + masks[b]
                    index_bcd = index_cd + 13 * card_rank[b]
                    for a in range(b):
                        sums = key_bcd + keys[a]
                        if sums & _FLUSH_BITS:
                            nibble = (sums >> _FLUSH_SHIFT) & _FLUSH_NIBBLES
                            shift = (32 if nibble >= 0x100 else 0) + (16 if nibble & 0x1010 else 0)
                            block[t] = flush[((mask_bcd + masks[a]) >> shift) & 0x1FFF]
                        else:  # slots ascend, so do their ranks
                            block[t] = table[index_bcd + card_rank[a]]
                        t += 1
                _split_counts(block, c, d, final, ahead, tied)
        hp[:] = 0.0
        hp_total[:] = 0.0
        for j in range(1, 47):  # in potential_counts' order, as it adds
            for i in range(j):
                p = j * (j - 1) // 2 + i
                w = field[row, pair_index[slots[i], slots[j]]]
                theirs = opp_now[p]
                now = _AHEAD if theirs < mine else (_TIED if theirs == mine else _BEHIND)
                hp[now, 0] += w * np.float64(ahead[p])
                hp[now, 1] += w * np.float64(tied[p])
                hp[now, 2] += w * np.float64(completions - ahead[p] - tied[p])
                hp_total[now] += w * np.float64(completions)
        ppot_out[row] = _ppot(hp, hp_total)
