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
and sums over holdings run in another order, so values agree with the scalar agent's to
about 1e-15 of a chip.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.jit import kernel

__all__ = ["absorb_actions", "check_down_values", "clear_cards"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.integer]


@kernel
def clear_cards(
    weights: Floats, tables: Ints, cards: Ints, counts: Ints, pair_index: Ints
) -> None:
    """Zero, in row ``tables[i]`` of ``weights``, the holdings through the first
    ``counts[i]`` of ``cards[i]`` (those cards are seen: nobody holds them)."""
    for i in range(len(tables)):
        row = weights[tables[i]]
        for j in range(counts[i]):
            card = cards[i, j]
            for other in range(52):
                if other != card:
                    row[pair_index[card, other]] = 0.0


@kernel
def absorb_actions(
    weights: Floats, tables: Ints, rows: Floats, group: Ints, actions: Ints
) -> npt.NDArray[np.bool_]:
    """Bayes' rule at one opponent decision per row: row ``tables[i]`` of ``weights`` times
    each holding's probability of ``actions[i]`` (``rows[i, group[i, h], actions[i]]``; row
    0 for every holding when ``group`` has no rows), renormalised to sum to one. Where the
    action has probability zero with every holding left the row stays as it was; returns
    where it did not (``(k,)``)."""
    shared = group.shape[0] == 0
    possible = np.empty(len(tables), dtype=np.bool_)
    for i in range(len(tables)):
        row = weights[tables[i]]
        action = actions[i]
        total = 0.0
        for h in range(row.shape[0]):
            p = rows[i, 0, action] if shared else rows[i, group[i, h], action]
            total += row[h] * p
        possible[i] = total > 0.0
        if not possible[i]:
            continue
        for h in range(row.shape[0]):
            p = rows[i, 0, action] if shared else rows[i, group[i, h], action]
            row[h] *= p / total
    return possible


@kernel
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
    wp_out: Floats,
    raise_out: Floats,
) -> None:
    """WP of each row against its range (``wp_out``, ``(k,)``) and, at the rows
    ``raising`` (ascending), the check-down value of our raise (``raise_out``): the range's
    weight of holding h is ``w_h`` of ``W``, its answer to our raise ``rows[a, group[a, h]]``
    with ``a = answer_row[j]`` where it answers (``answered[j]``), else a call (it is
    all-in). Weights and equities are rows ``tables[i]`` of ``weights`` and ``equity``. Each
    row is read once; the sums are divided by ``W`` at the end."""
    shared = group.shape[0] == 0
    j = 0
    for i in range(len(tables)):
        w, e = weights[tables[i]], equity[tables[i]]
        total, wins = 0.0, 0.0
        if j < len(raising) and raising[j] == i:
            p, c, b = pot[i], to_call[i], bet[j]
            a = answer_row[j]
            value = 0.0
            for h in range(w.shape[0]):
                total += w[h]
                wins += w[h] * e[h]
                term = e[h] * (p + c + 2 * b) - (c + b)  # called
                if answered[j]:
                    g = 0 if shared else group[a, h]
                    reraised = e[h] * (p + c + 4 * b) - (c + 2 * b)
                    term = rows[a, g, 0] * p + rows[a, g, 1] * term + rows[a, g, 2] * reraised
                value += w[h] * term
            raise_out[j] = value / total
            j += 1
        else:
            for h in range(w.shape[0]):
                total += w[h]
                wins += w[h] * e[h]
        wp_out[i] = wins / total
