"""The compiled loops of the batched belief and opponent model (``agents.bpp.batched_belief``,
``agents.bpp.batched_model``), reading the network's tables and each table's memory in place.

``win_probabilities`` does at each row what ``agents.bpp.belief.Belief.win_probability`` does
for one view, in the same order: restart the hand if it changed, absorb the new log entries
(each opponent action multiplies its likelihood row ``P(class | round, type)``, computed from
the counts as the scalar ``OpponentModel`` does, into ``L_round`` of its slot), on entering a
round compute ``u`` for each opponent still in the hand, and return the ratio. It makes four
passes: over the rows (restarts, the new actions, the rows entering a round), over the new
actions (absorbed in log order), over the entries sorted by (round, board) so that each board's
tables are read once, and over the rows again (the ratios); each pass asks for the memory of a
few steps ahead (``agents.jit.prefetch``). The products are the scalar ones; only the sums of
the 27 x 25 products run in another order than BLAS's. ``count_showdowns`` is
``OpponentModel.observe_hand`` over the rows of a ``HandEndBatch``.

Arrays (N tables, O = seats - 1 opponent slots, T = 27 current types, F = 25 final types):
``likelihood (N, O, 4, T)``, ``u (N, O, 2, T)`` after the flop (pre-flop, BPP's type per table
indexes ``preflop_terms``), the hand's key per table, and the counts
``(N, O, round, class, T)`` as ``uint32`` (one table of zeros when not learning).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from agents.bpp.opponent import PARTNER, OppAction
from agents.jit import fast_kernel, kernel, prefetch
from envs.rules import Action

__all__ = [
    "absorb_action",
    "action_class",
    "count_showdowns",
    "round_tables",
    "win_probabilities",
]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]

_TYPES, _FINALS = 27, 25
_PARTNER = np.array([int(p) for p in PARTNER], dtype=np.int64)
_CALL, _RAISE = int(Action.CALL), int(Action.RAISE)
_PASS_CLASS, _BET_CLASS = int(OppAction.PASS), int(OppAction.BET)
_CALL_CLASS, _RAISE_CLASS = int(OppAction.CALL), int(OppAction.RAISE)


_AHEAD = 6
"""How many rows ahead of the current one the passes over the rows ask for memory."""
_AHEAD_ACTIONS = 24
"""How many actions ahead the pass absorbing them asks (an action's work is short)."""
_AHEAD_ENTRIES = 4
"""How many round entries ahead the pass over them asks (an entry's work is long)."""


@kernel
def _fetch(flat: npt.NDArray[Any], start: int, stop: int) -> None:
    """Ask for the cache lines of ``flat[start:stop]``."""
    for index in range(start, stop, max(1, 64 // flat.itemsize)):
        prefetch(flat, index)


def round_tables(current: Array) -> Array:
    """What entering round ``r`` on board ``beta`` reads, in one contiguous block
    ``[r, beta]``: ``P(C_k | F', board)`` of each earlier round ``k < r`` as ``(F, T)``, then
    that of round ``r`` itself as ``(T, F)``; ``(4, boards, 4, F * T)`` (blocks past ``r``
    unused), from ``Network.current`` ``(4, boards, 4, T, F)``."""
    rounds, boards, _, types, finals = current.shape
    packed = np.zeros((rounds, boards, 4, finals * types))
    for r in range(1, rounds):
        earlier = np.swapaxes(current[r, :, :r], -1, -2)  # (boards, r, F, T)
        packed[r, :, :r] = earlier.reshape(boards, r, -1)
        packed[r, :, r] = current[r, :, r].reshape(boards, -1)
    return packed


@kernel
def action_class(action: int, amount: int, bet_size: int) -> int:
    """``agents.bpp.opponent.classify`` of one log entry: the class, -1 for a fold."""
    if action == _CALL:
        return _CALL_CLASS if amount > 0 else _PASS_CLASS
    if action == _RAISE:
        return _RAISE_CLASS if amount > bet_size else _BET_CLASS
    return -1


@kernel
def absorb_action(
    likelihood: Array,
    counts: npt.NDArray[np.uint32],
    learn: bool,
    prior_rows: Array,
    m: float,
    slot: int,
    street: int,
    cls: int,
) -> None:
    """Multiply ``P(cls | street, type)`` of one opponent into its ``L_street`` (one table's
    ``likelihood (O, 4, T)`` and ``counts (O, 4, 4, T)``)."""
    row = likelihood[slot, street]
    prior = prior_rows[street * 4 + cls]
    if learn:
        own = counts[slot, street, cls]
        other = counts[slot, street, _PARTNER[cls]]
        for c in range(len(row)):  # not a constant: the loop stays a loop, in SIMD lanes
            n = np.float64(own[c])
            row[c] *= (n + m * prior[c]) / ((n + np.float64(other[c])) + m)
    else:
        for c in range(len(row)):
            row[c] *= (m * prior[c]) / m


@fast_kernel
def _ratio(u: Array, now: Array) -> float:
    """``(u_num . L_r) / (u_den . L_r)`` of one opponent (sums of non-negative terms)."""
    num, den = 0.0, 0.0
    for c in range(len(now)):
        num += u[0, c] * now[c]
        den += u[1, c] * now[c]
    return num / max(den, 1e-300)


@kernel
def _entering_order(keys: Ints, num_keys: int) -> Ints:
    """The entries sorted by key (a counting sort, stable), so that the rows entering a round
    on the same board read that board's tables one after the other, from cache."""
    starts = np.zeros(num_keys + 1, dtype=np.int64)
    for key in keys:
        starts[key + 1] += 1
    for key in range(num_keys):
        starts[key + 1] += starts[key]
    order = np.empty(len(keys), dtype=np.int64)
    for e in range(len(keys)):
        order[starts[keys[e]]] = e
        starts[keys[e]] += 1
    return order


@fast_kernel
def _enter_round(
    likelihood: Array, u: Array, earlier: Array, own: Array, terms: Array, lam: Array
) -> None:
    """``u`` of one opponent on entering round ``r = len(earlier) >= 1``:
    ``lambda(F') = prod_k<r L_k @ P(C_k | F')``, then ``u = (lambda * (num, den)) @ P(C_r |
    F')^T``. The sums are of non-negative terms (reassociated, in SIMD lanes, as BLAS would).

    Args:
        likelihood: The opponent's ``L_k``, ``(4, T)``.
        u: Its ``(2, T)``, written.
        earlier: ``P(C_k | F', board of round r)`` for ``k < r``, transposed: ``(r, F, T)``.
        own: ``P(C_r | F', board)``, ``(T, F)``.
        terms: ``(num, den)`` of BPP's type, ``(2, F)``.
        lam: Scratch, ``(2, F)``.
    """
    finals, types = earlier.shape[1], earlier.shape[2]  # not constants: loops stay loops
    for k in range(earlier.shape[0]):
        weights, table = likelihood[k], earlier[k]
        for f in range(finals):
            total = 0.0
            row = table[f]
            for c in range(types):
                total += weights[c] * row[c]
            lam[0, f] = total if k == 0 else lam[0, f] * total
    for f in range(finals):
        lam[1, f] = lam[0, f] * terms[1, f]
        lam[0, f] *= terms[0, f]
    for c in range(types):
        row = own[c]
        num, den = 0.0, 0.0
        for f in range(finals):
            num += lam[0, f] * row[f]
            den += lam[1, f] * row[f]
        u[0, c] = num
        u[1, c] = den


@kernel
def win_probabilities(
    tables: Ints,
    seat: Ints,
    hand_id: Ints,
    hole: Ints,
    board: Ints,
    street: Ints,
    folded: Bools,
    log_rows: Ints,
    log_len: Ints,
    log_street: Ints,
    log_seat: Ints,
    log_action: Ints,
    log_amount: Ints,
    bet_sizes: Ints,
    row_types: Ints,
    row_boards: Ints,
    likelihood: Array,
    u: Array,
    hand_street: Ints,
    hand_type: Ints,
    seen: Ints,
    hand_key: Ints,
    hand_hole: Ints,
    in_hand: Bools,
    counts: npt.NDArray[np.uint32],
    learn: bool,
    prior_rows: Array,
    prior_weight: Array,
    tables_of_round: Array,
    ratio_terms: Array,
    preflop_terms: Array,
    out: Array,
) -> None:
    """P(BPP wins) at each row of a decision batch into ``out`` (module docstring).

    The first thirteen arrays are the batch's (``DecisionBatch`` fields, the log's as
    ``ActionLogs``: row ``i``'s log is row ``log_rows[i]`` of the log arrays), ``bet_sizes`` the
    rules', ``row_types`` and ``row_boards`` BPP's current type and the board class at each
    row (``agents.bpp.batched_types.street_types``); then the belief's per-table state
    (updated in place), the model's counts, prior rows ``(round * 4 + class, T)`` and
    weights ``(N,)``, and the network's tables: ``tables_of_round`` (``round_tables``),
    ``ratio_terms (4, boards, T, 2, F)`` and ``preflop_terms (T, 2, T)``.
    """
    num_seats = folded.shape[1]
    slots = num_seats - 1
    boards = ratio_terms.shape[1]
    rows = len(tables)
    entering = np.empty(rows, dtype=np.int64)  # rows entering a round after the flop
    keys = np.empty(rows, dtype=np.int64)  # their (round, board)
    entries = 0
    # The opponents' new actions, absorbed after the pass over the rows.
    capacity = 0
    for i in range(rows):
        capacity += int(log_len[log_rows[i]])
    absorbing = np.empty((capacity, 4), dtype=np.int64)  # (table, slot, round, class)
    actions = 0
    flat_likelihood = likelihood.reshape(-1)
    for i in range(rows):
        ahead = i + _AHEAD
        if ahead < rows and (
            not in_hand[tables[ahead]] or hand_key[tables[ahead]] != hand_id[ahead]
        ):
            start = tables[ahead] * slots * 4 * _TYPES  # a new hand there: its likelihoods reset
            _fetch(flat_likelihood, start, start + slots * 4 * _TYPES)
        t, logged = tables[i], log_rows[i]
        me = np.int64(seat[i])
        n = np.int64(log_len[logged])
        if (
            not in_hand[t]
            or hand_key[t] != hand_id[i]
            or hand_hole[t, 0] != hole[i, 0]
            or hand_hole[t, 1] != hole[i, 1]
            or n < seen[t]
        ):
            for o in range(slots):
                for k in range(4):
                    for c in range(_TYPES):
                        likelihood[t, o, k, c] = 1.0
            seen[t] = 0
            hand_street[t] = -1
            hand_key[t] = hand_id[i]
            hand_hole[t, 0] = hole[i, 0]
            hand_hole[t, 1] = hole[i, 1]
            in_hand[t] = True
        for j in range(np.int64(seen[t]), n):
            acted = np.int64(log_seat[logged, j])
            if acted == me:
                continue
            s = np.int64(log_street[logged, j])
            cls = action_class(log_action[logged, j], log_amount[logged, j], bet_sizes[s])
            if cls >= 0:
                absorbing[actions, 0] = t
                absorbing[actions, 1] = (acted - me - 1 + num_seats) % num_seats
                absorbing[actions, 2] = s
                absorbing[actions, 3] = cls
                actions += 1
        seen[t] = n
        r = np.int64(street[i])
        if hand_street[t] != r:
            hand_street[t] = r
            if r == 0:  # u is BPP's type's row of preflop_terms, read there
                hand_type[t] = row_types[i]
            else:
                entering[entries] = i
                keys[entries] = r * boards + row_boards[i]
                entries += 1
    flat_u, flat_counts = u.reshape(-1), counts.reshape(-1)
    for a in range(actions):  # in log order at each table, as the scalar model multiplies
        ahead = a + _AHEAD_ACTIONS
        if ahead < actions:  # that action's likelihood row and counts
            t, slot, s, cls = (
                absorbing[ahead, 0],
                absorbing[ahead, 1],
                absorbing[ahead, 2],
                absorbing[ahead, 3],
            )
            row = ((t * slots + slot) * 4 + s) * _TYPES
            _fetch(flat_likelihood, row, row + _TYPES)
            if learn:
                for c in (cls, _PARTNER[cls]):
                    start = (row * 4) + c * _TYPES  # counts[t, slot, s, c]
                    _fetch(flat_counts, start, start + _TYPES)
        t, slot, s, cls = absorbing[a, 0], absorbing[a, 1], absorbing[a, 2], absorbing[a, 3]
        weight, table_counts = prior_weight[t], counts[t if learn else 0]
        absorb_action(likelihood[t], table_counts, learn, prior_rows, weight, slot, s, cls)
    lam = np.empty((2, _FINALS))
    order = _entering_order(keys[:entries], 4 * boards)
    flat_tables = tables_of_round.reshape(-1)
    block = tables_of_round.shape[2] * tables_of_round.shape[3]  # one (round, board)
    for q in range(entries):
        if q + _AHEAD_ENTRIES < entries:  # that table's likelihoods and u
            t = tables[entering[order[q + _AHEAD_ENTRIES]]]
            _fetch(flat_likelihood, t * slots * 4 * _TYPES, (t + 1) * slots * 4 * _TYPES)
            _fetch(flat_u, t * slots * 2 * _TYPES, (t + 1) * slots * 2 * _TYPES)
        if q + 2 < entries:
            key = keys[order[q + 2]]
            if key != keys[order[q + 1]]:  # and the network's tables of that new board
                size = (key // boards + 1) * _TYPES * _FINALS
                _fetch(flat_tables, key * block, key * block + size)
        e = order[q]
        i, r, beta = entering[e], keys[e] // boards, keys[e] % boards
        t, me = tables[i], np.int64(seat[i])
        network = tables_of_round[r, beta]
        for o in range(slots):
            if slots == 1 or not folded[i, (me + 1 + o) % num_seats]:
                _enter_round(
                    likelihood[t, o],
                    u[t, o],
                    network[:r].reshape((r, _FINALS, _TYPES)),
                    network[r].reshape((_TYPES, _FINALS)),
                    ratio_terms[r, beta, row_types[i]],
                    lam,
                )
    for i in range(rows):
        if i + _AHEAD < rows:  # that table's u and current likelihoods
            t, r = tables[i + _AHEAD], np.int64(street[i + _AHEAD])
            _fetch(flat_u, t * slots * 2 * _TYPES, (t + 1) * slots * 2 * _TYPES)
            for o in range(slots):
                row = ((t * slots + o) * 4 + r) * _TYPES
                _fetch(flat_likelihood, row, row + _TYPES)
        t, me, r = tables[i], np.int64(seat[i]), np.int64(street[i])
        p = 1.0
        for o in range(slots):
            if slots == 1 or not folded[i, (me + 1 + o) % num_seats]:
                if r > 0:
                    p *= _ratio(u[t, o], likelihood[t, o, r])
                else:
                    p *= _ratio(preflop_terms[hand_type[t]], likelihood[t, o, 0])
        out[i] = p


@kernel
def count_showdowns(
    rows: Ints,
    tables: Ints,
    seat: Ints,
    log_rows: Ints,
    log_len: Ints,
    log_street: Ints,
    log_seat: Ints,
    log_action: Ints,
    log_amount: Ints,
    bet_sizes: Ints,
    shown_types: Ints,
    counts: npt.NDArray[np.uint32],
) -> int:
    """Count every action of every opponent that showed down at the batch's ``rows``
    (``HandEndBatch`` fields, the log's as ``ActionLogs``; the type of each seat's shown cards
    per row of ``rows`` and round ``(len(rows), S, 4)``, -1 where it showed nothing, from
    ``agents.bpp.batched_types.shown_types``; the counts ``(N, O, 4, 4, T)`` updated in
    place); returns the number of actions counted."""
    num_seats = shown_types.shape[1]
    slots = num_seats - 1
    flat_counts = counts.reshape(-1)
    counted = 0
    for q in range(len(rows)):
        if q + _AHEAD < len(rows):  # the counts that row's opponents' actions land in
            ahead = rows[q + _AHEAD]
            base = tables[ahead] * slots
            for slot in range(slots):
                start = (base + slot) * 16 * _TYPES  # counts[table, slot]: (4, 4, T)
                _fetch(flat_counts, start, start + 16 * _TYPES)
        i = rows[q]
        me, logged = np.int64(seat[i]), log_rows[i]
        for j in range(np.int64(log_len[logged])):
            acted = np.int64(log_seat[logged, j])
            s = np.int64(log_street[logged, j])
            htype = shown_types[q, acted, s]
            if htype < 0:  # the agent's own action, or an opponent that showed nothing
                continue
            cls = action_class(log_action[logged, j], log_amount[logged, j], bet_sizes[s])
            if cls >= 0:
                slot = (acted - me - 1 + num_seats) % num_seats
                counts[tables[i], slot, s, cls, htype] += 1
                counted += 1
    return counted
