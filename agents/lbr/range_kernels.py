"""The batched local best response's per-holding arithmetic, one pass per row.

``agents.lbr.batched_lbr`` keeps every table's range as a row of 1,326 weights. At each of
the opponent's decisions the range is re-weighted by Bayes' rule, and at each of ours it is
summed against our equities and the opponent's answers to our raise (Lisy and Bowling 2017,
Algorithm 1; ``agents.lbr.values`` for the fixed-limit formula). Written with NumPy these are
a dozen passes over ``(k, 1326)`` temporaries per call; here each row is read once, the
opponent's probabilities straight from a ``RangeAnswer``'s distinct rows and its per-holding
row index, never spread out to 1,326 columns.

The Bayes update is the scalar agent's element by element (``w * (p / total)``); the values
divide weighted sums by the total weight once instead of weighting by the shares ``w / W``,
sum over holdings in another order (SIMD lanes) and take our raise's value per holding from
two coefficients per distinct answer, so values agree with the scalar agent's to about 1e-13
of a chip. The board's cards are cleared from a row in the same pass that reads it, while it
is in the cache: at a thousand tables the rows are several times the core's cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import fast_kernel, kernel

__all__ = ["absorb_actions", "check_down_values", "clear_cards"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]


@kernel
def _clear_row(row: Floats, cards: Ints, count: int, pair_index: Ints) -> None:
    """Zero the holdings of ``row`` through the first ``count`` of ``cards``."""
    for j in range(count):
        card = cards[j]
        for other in range(52):
            if other != card:
                row[pair_index[card, other]] = 0.0


@kernel
def clear_cards(
    weights: Floats, tables: Ints, cards: Ints, counts: Ints, pair_index: Ints
) -> None:
    """Zero, in row ``tables[i]`` of ``weights``, the holdings through the first
    ``counts[i]`` of ``cards[i]`` (those cards are seen: nobody holds them)."""
    for i in range(len(tables)):
        _clear_row(weights[tables[i]], cards[i], counts[i], pair_index)


@kernel
def absorb_actions(
    weights: Floats,
    tables: Ints,
    rows: Floats,
    group: Ints,
    actions: Ints,
    cards: Ints,
    counts: Ints,
    pair_index: Ints,
) -> npt.NDArray[np.bool_]:
    """Bayes' rule at one opponent decision per row: row ``tables[i]`` of ``weights``, its
    holdings through the first ``counts[i]`` of ``cards[i]`` zeroed first (as
    ``clear_cards``), times each holding's probability of ``actions[i]`` (``rows[i, group[i,
    h], actions[i]]``; row 0 for every holding when ``group`` has no rows), renormalised to
    sum to one. Where the action has probability zero with every holding left the row stays
    as it was (cleared); returns where it did not (``(k,)``).

    Each row is read while it is in the cache from its clearing, and the probability of the
    action is taken once per distinct row of ``rows``: ``p / total`` is then one division per
    distinct row, the same number the scalar agent divides each weight's factor into.
    """
    shared = group.shape[0] == 0
    possible = np.empty(len(tables), dtype=np.bool_)
    factor = np.empty(rows.shape[1])
    for i in range(len(tables)):
        row = weights[tables[i]]
        _clear_row(row, cards[i], counts[i], pair_index)
        action = actions[i]
        for g in range(rows.shape[1]):
            factor[g] = rows[i, g, action]
        total = 0.0
        if shared:
            for h in range(row.shape[0]):
                total += row[h] * factor[0]
        else:
            holding_group = group[i]
            for h in range(row.shape[0]):
                total += row[h] * factor[holding_group[h]]
        possible[i] = total > 0.0
        if not possible[i]:
            continue
        for g in range(rows.shape[1]):
            factor[g] = factor[g] / total
        if shared:
            for h in range(row.shape[0]):
                row[h] *= factor[0]
        else:
            holding_group = group[i]
            for h in range(row.shape[0]):
                row[h] *= factor[holding_group[h]]
    return possible


@fast_kernel
def check_down_values(
    weights: Floats,
    equity: Floats,
    tables: Ints,
    pot: Floats,
    to_call: Floats,
    raising: Ints,
    bet: Floats,
    answered: npt.NDArray[np.bool_],
    answer_row: Ints,
    rows: Floats,
    group: Ints,
    cards: Ints,
    counts: Ints,
    pair_index: Ints,
    wp_out: Floats,
    raise_out: Floats,
) -> None:
    """WP of each row against its range (``wp_out``, ``(k,)``) and, at the rows
    ``raising`` (ascending), the check-down value of our raise (``raise_out``): the range's
    weight of holding h is ``w_h`` of ``W``, its answer to our raise ``rows[a, group[a, h]]``
    with ``a = answer_row[j]`` where it answers (``answered[j]``), else a call (it is
    all-in). Weights and equities are rows ``tables[i]`` of ``weights`` and ``equity``; the
    weights' holdings through the first ``counts[i]`` of ``cards[i]`` are zeroed first (as
    ``clear_cards``).

    Each row is read once. A holding's value of our raise is linear in its equity, ``A_g +
    B_g e_h`` with coefficients per distinct answer row g, so the sums run over weights,
    equities and those few coefficients, and are divided by ``W`` at the end; where the
    opponent cannot answer, the value follows from ``W`` and the weighted equity alone.
    """
    shared = group.shape[0] == 0
    constant = np.empty(rows.shape[1])
    slope = np.empty(rows.shape[1])
    j = 0
    for i in range(len(tables)):
        w, e = weights[tables[i]], equity[tables[i]]
        _clear_row(w, cards[i], counts[i], pair_index)
        raises = j < len(raising) and raising[j] == i
        answers = raises and answered[j]
        p, c, b = 0.0, 0.0, 0.0
        if raises:
            p, c, b = pot[i], to_call[i], bet[j]
        if answers:  # fold, call or re-raise: per answer row, linear in the equity
            a = answer_row[j]
            for g in range(rows.shape[1]):
                fold, call, rise = rows[a, g, 0], rows[a, g, 1], rows[a, g, 2]
                constant[g] = fold * p - call * (c + b) - rise * (c + 2 * b)
                slope[g] = call * (p + c + 2 * b) + rise * (p + c + 4 * b)
        total, wins, value = 0.0, 0.0, 0.0
        if answers and not shared:
            holding_group = group[answer_row[j]]
            for h in range(w.shape[0]):
                total += w[h]
                wins += w[h] * e[h]
                g = holding_group[h]
                value += w[h] * (constant[g] + slope[g] * e[h])
        else:
            for h in range(w.shape[0]):
                total += w[h]
                wins += w[h] * e[h]
        if raises:
            if not answers:  # it is all-in: it calls
                value = wins * (p + c + 2 * b) - total * (c + b)
            elif shared:
                value = constant[0] * total + slope[0] * wins
            raise_out[j] = value / total
            j += 1
        wp_out[i] = wins / total
