"""P(BPP wins) with each of its current hand types at once, for whoever must know how a BPP
would play every holding (the local best response, ``agents.lbr.batched_ranges``).

BPP's posterior (Korb, Nicholson and Jitnah 1999, section 3; ``agents.bpp.belief``) depends on
its own cards only through its current type ``c`` (of 27): the opponent's likelihoods ``L_k``
of its actions and ``lambda(F') = prod_{k<r} L_k @ P(C_k | F', board)`` are the same for every
type, and only the last factors, BPP's ``(num, den)(F')`` of its type, differ. So per table
this kernel keeps ``L_k`` and ``lambda`` (entering a round computes ``lambda`` once, not once
per type), and at each row returns, for every type,

    P(win | c) = sum_F' lambda(F') num_c(F') g(F') / sum_F' lambda(F') den_c(F') g(F'),
    g(F') = sum_C P(C_r | F', board) L_r(C),

multiplied over the opponents still in the hand (pre-flop: ``preflop_terms[c] . L_0``). This is
``agents.bpp.batched_kernels.win_probabilities``' ratio with its sums in another order (equal
to a few units in the last place); the restarts and the absorbing of actions are the same.

Arrays (N tables, O opponent slots, T = 27 types, F = 25 final types): ``likelihood (N, O, 4,
T)``, ``lam (N, O, F)``, per table the round entered, log entries absorbed, hand id and
whether a hand runs; the model's counts ``(N, O, 4, 4, T)`` (one table of zeros when not
learning). The kernel calls ``agents.bpp.batched_kernels``' kernels, so it is compiled in each
process (``agents.jit.uncached_kernel``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_kernels import absorb_action, action_class
from agents.jit import uncached_kernel

__all__ = ["type_win_probabilities"]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]
Bools = npt.NDArray[np.bool_]

_TYPES, _FINALS = 27, 25


@uncached_kernel
def type_win_probabilities(
    tables: Ints,
    seat: Ints,
    hand_id: Ints,
    street: Ints,
    folded: Bools,
    log_rows: Ints,
    log_len: Ints,
    log_street: Ints,
    log_seat: Ints,
    log_action: Ints,
    log_amount: Ints,
    bet_sizes: Ints,
    row_boards: Ints,
    likelihood: Array,
    lam: Array,
    hand_street: Ints,
    seen: Ints,
    hand_key: Ints,
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
    """P(BPP wins) with each type at each row of a decision batch into ``out (k, T)``.

    The first eleven arrays are the batch's (``DecisionBatch`` fields, the log's as
    ``ActionLogs``), ``bet_sizes`` the rules', ``row_boards`` the board class of each row;
    then the per-table state (updated in place), the model's counts, prior rows and weights,
    and the network's tables as ``win_probabilities`` takes them.
    """
    num_seats = folded.shape[1]
    slots = num_seats - 1
    g = np.empty(_FINALS)
    for i in range(len(tables)):
        t, logged = tables[i], log_rows[i]
        me = np.int64(seat[i])
        n = np.int64(log_len[logged])
        if not in_hand[t] or hand_key[t] != hand_id[i] or n < seen[t]:
            likelihood[t] = 1.0
            seen[t] = 0
            hand_street[t] = -1
            hand_key[t] = hand_id[i]
            in_hand[t] = True
        for j in range(np.int64(seen[t]), n):  # in log order, as the scalar model multiplies
            acted = np.int64(log_seat[logged, j])
            if acted == me:
                continue
            s = int(log_street[logged, j])
            cls = action_class(log_action[logged, j], log_amount[logged, j], bet_sizes[s])
            if cls >= 0:
                slot = int((acted - me - 1 + num_seats) % num_seats)
                table_counts = counts[t if learn else 0]
                weight = prior_weight[t]
                absorb_action(likelihood[t], table_counts, learn, prior_rows, weight, slot, s, cls)
        seen[t] = n
        r, beta = np.int64(street[i]), np.int64(row_boards[i])
        network = tables_of_round[r, beta]
        entering = hand_street[t] != r
        hand_street[t] = r
        out[i] = 1.0
        for o in range(slots):
            if slots > 1 and folded[i, (me + 1 + o) % num_seats]:
                continue
            now = likelihood[t, o, r]
            if r == 0:
                for c in range(_TYPES):
                    terms = preflop_terms[c]
                    num, den = 0.0, 0.0
                    for d in range(_TYPES):
                        num += terms[0, d] * now[d]
                        den += terms[1, d] * now[d]
                    out[i, c] *= num / max(den, 1e-300)
                continue
            if entering:  # lambda(F') over the rounds before this one
                earlier = network[:r].reshape((r, _FINALS, _TYPES))
                for k in range(r):
                    weights = likelihood[t, o, k]
                    for f in range(_FINALS):
                        total = 0.0
                        for d in range(_TYPES):
                            total += weights[d] * earlier[k, f, d]
                        lam[t, o, f] = total if k == 0 else lam[t, o, f] * total
            own = network[r].reshape((_TYPES, _FINALS))
            for f in range(_FINALS):
                g[f] = 0.0
            for d in range(_TYPES):
                for f in range(_FINALS):
                    g[f] += own[d, f] * now[d]
            for f in range(_FINALS):
                g[f] *= lam[t, o, f]
            for c in range(_TYPES):
                terms = ratio_terms[r, beta, c]
                num, den = 0.0, 0.0
                for f in range(_FINALS):
                    num += terms[0, f] * g[f]
                    den += terms[1, f] * g[f]
                out[i, c] *= num / max(den, 1e-300)
