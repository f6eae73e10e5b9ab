"""BPP's Bayesian network for one betting round, and exact inference of P(BPP Win) in it.

Nodes (the hold'em BPP of Nicholson, Korb & Boulton 2006 with Carlton's 2000 refinements; all
tables indexed ``[round, board, ...]``):

* Board (observed): the board class of the round (``agents.bpp.hand_types.board_class``);
* BPP Final, Opp Final: the two final types, dependent through the shared board (the arc
  between the two hands, Carlton's first modification);
* BPP Current (observed): BPP's current type;
* Opp Current in every round ``k`` so far: ``P(C_k | F', board)``;
* Opp Action in round ``k`` (observed, possibly several actions): ``P(a | C_k)``, the learned
  opponent model, entering as the likelihood vector ``L_k(C_k) = prod_a P(a | C_k)``;
* BPP Win: won at the showdown, ties as half a win (ours; the paper's Win is boolean).

Inference is exact. Summing the hidden nodes out gives

    P(win | C = c, board, actions) = (lambda . num[c]) / (lambda . den[c]),
    lambda(F') = prod_k sum_C P(C_k = C | F', board) L_k(C),
    den[c](F') = P(F' | c, board),   num[c](F') = P(F', win | c, board),

so ``num`` and ``den`` are precomputed per round and board (``Network``), and a decision costs a
few 27 x 25 products. ``win_probability`` is the reference form of the same sum.

Two structures give ``num`` and ``den`` (``Structure``):

* ``PAPER``: the stud BPP's arcs, BPP Final -> BPP Current and P(win | F, F'):
  ``den[c](F') = sum_F P(c | F, board) P(F, F' | board)`` and ``num`` the same weighted by
  ``P(win | F, F')``. In hold'em the shared board makes this badly calibrated: most hands whose
  final type is "pair of aces" hold one ace paired by the board, so the network reads pocket
  aces as a 0.66 favourite pre-flop instead of 0.85, and 7-2 as 0.49 instead of 0.35 (measured
  in results/bpp.md), because it assumes BPP's current type tells nothing about the
  opponent's final type, or about the winner, beyond BPP's final type.
* ``REFINED`` (the default; ours): BPP Final is summed out when the tables are counted, so the
  arc between the hands runs from BPP Current to Opp Final and Win depends on BPP Current,
  Opp Final and the board: ``den[c](F') = P(F' | c, board)``, ``num[c](F') = P(F', win | c,
  board)``, both counted directly from random deals. The opponent's side (its current types and
  actions) is the same as in ``PAPER``.

The tables come from counts (``agents.bpp.tables``) smoothed towards their pooled values over
all boards, with ``BOARD_SMOOTHING`` pseudo-counts (ours: sparse board classes borrow from the
pooled table, frequent ones are left almost untouched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np
import numpy.typing as npt

from agents.bpp.tables import TableCounts, shipped_counts

__all__ = [
    "BOARD_SMOOTHING",
    "Network",
    "Structure",
    "paper_terms",
    "shipped_network",
    "win_probability",
]

Array = npt.NDArray[np.float64]

BOARD_SMOOTHING = 20.0
"""Pseudo-counts of the pooled table in each board class's table (ours)."""


class Structure(Enum):
    """Which arcs carry BPP's current type to the winner (module docstring)."""

    REFINED = "refined"
    """BPP Current -> Opp Final and Win; tables counted directly (the default)."""
    PAPER = "paper"
    """BPP Final -> BPP Current and Win | (BPP Final, Opp Final), as in the stud BPP."""


def paper_terms(joint: Array, current: Array, win: Array, bpp_type: int) -> tuple[Array, Array]:
    """``(num[c], den[c])`` of the ``PAPER`` structure for one board.

    Args:
        joint: ``P(F, F')``, shape ``(f, f)`` (rows BPP's final type).
        current: ``P(C | F)`` for BPP, shape ``(c, f)``.
        win: ``P(win | F, F')``, shape ``(f, f)``.
        bpp_type: BPP's observed current type ``c``.
    """
    weights = current[bpp_type][:, np.newaxis] * joint  # P(c, F, F')
    return (weights * win).sum(axis=0), weights.sum(axis=0)


def win_probability(
    numerator: Array,
    denominator: Array,
    opp_current: Sequence[Array],
    opp_likelihoods: Sequence[Array],
) -> float:
    """Exact P(BPP Win | BPP Current, the opponent's actions) in one round's network.

    Args:
        numerator: ``num[c](F')``, shape ``(f,)``.
        denominator: ``den[c](F')``, shape ``(f,)``.
        opp_current: per round ``k`` so far, ``P(C_k | F')``, each ``(c_k, f)``.
        opp_likelihoods: per round ``k``, ``P(observed actions in k | C_k)``, each ``(c_k,)``.

    Returns:
        The posterior probability that BPP wins (ties half); 0.5 if the evidence has
        probability zero in the network.
    """
    lam = np.ones(len(denominator))
    for table, likelihood in zip(opp_current, opp_likelihoods, strict=True):
        lam = lam * (likelihood @ table)
    total = float(denominator @ lam)
    return float(numerator @ lam) / total if total > 0.0 else 0.5


@dataclass(frozen=True)
class Network:
    """Smoothed CPTs of the four rounds' networks and their precomputed products."""

    joint: Array
    """``P(F, F' | board)``, ``(4, boards, 25, 25)``."""
    current: Array
    """``P(C_k | F, board of round r)``, ``(4 r, boards, 4 k, 27, 25)``; zero for ``k > r``."""
    win: Array
    """``P(win | F, F')``, ``(25, 25)``."""
    strength: Array
    """``P(win | C_k)`` against a random hand, ``(4, 27)``; 0.5 for types never seen."""
    numerator: Array
    """``num[c](F')`` of the module docstring, ``(4, boards, 27, 25)``."""
    denominator: Array
    """``den[c](F')``, ``(4, boards, 27, 25)``."""
    ratio_terms: Array
    """``num`` and ``den`` stacked, ``(4, boards, 27, 2, 25)`` (one product per decision)."""
    current_t: Array
    """``current`` with its last two axes swapped, C-contiguous, for fast products."""
    preflop_terms: Array
    """Pre-flop ``u[c] = (num[c], den[c]) @ P(C_0 | F')^T``, ``(27, 2, 27)``: before the
    flop no earlier round weighs on the opponent's final type, so this is all there is."""

    @classmethod
    def from_counts(
        cls,
        counts: TableCounts,
        structure: Structure = Structure.REFINED,
        smoothing: float = BOARD_SMOOTHING,
    ) -> Network:
        """Smooth raw counts into CPTs and precompute the inference products."""
        joint = np.stack([_smooth(j.astype(float), smoothing, axes=(1, 2)) for j in counts.joint])
        current = np.zeros(counts.current.shape)  # (r, k, board, C, F) while filling
        for r in range(4):
            for k in range(r + 1):
                current[r, k] = _smooth(counts.current[r, k].astype(float), smoothing, axes=(1,))
        # (r, board, k, C, F): what one decision reads is contiguous.
        current = np.ascontiguousarray(np.swapaxes(current, 1, 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            win = np.where(counts.pairs > 0, counts.win2 / (2.0 * counts.pairs), 0.5)
            strength = np.where(
                counts.strength_pairs > 0,
                counts.strength_win2 / (2.0 * np.maximum(counts.strength_pairs, 1)),
                0.5,
            )
        if structure is Structure.PAPER:
            own = np.stack([current[r, :, r] for r in range(4)])  # (4, boards, 27, 25)
            denominator = np.einsum("rbcf,rbfo->rbco", own, joint)
            numerator = np.einsum("rbcf,rbfo,fo->rbco", own, joint, win)
        else:
            denominator, numerator = _refined_terms(counts, smoothing)
        ratio_terms = np.ascontiguousarray(np.stack([numerator, denominator], axis=3))
        current_t = np.ascontiguousarray(np.swapaxes(current, -1, -2))
        preflop_terms = ratio_terms[0, 0] @ current_t[0, 0, 0]  # the pre-flop board class is 0
        return cls(
            joint,
            current,
            win,
            strength,
            numerator,
            denominator,
            ratio_terms,
            current_t,
            preflop_terms,
        )


def _refined_terms(counts: TableCounts, smoothing: float) -> tuple[Array, Array]:
    """``(den, num)`` of ``REFINED``: ``P(F' | c, board)`` and ``P(F', win | c, board)``."""
    seen = counts.opp_final.astype(float)
    wins = counts.opp_final_win2 / 2.0
    denominator = np.stack([_smooth(seen[r], smoothing, axes=(2,)) for r in range(4)])
    # P(win | c, F', board), shrunk towards the same over all boards (0.5 where never seen).
    pooled_seen = seen.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.where(pooled_seen > 0, wins.sum(axis=1, keepdims=True) / pooled_seen, 0.5)
    win = (wins + smoothing * pooled) / (seen + smoothing)
    return denominator, denominator * win


def _smooth(counts: Array, strength: float, *, axes: tuple[int, ...]) -> Array:
    """Normalise ``counts`` over ``axes`` per board (axis 0), shrunk to the pooled table.

    ``(n + s * pooled) / (N + s)``: the pooled table sums the counts over all boards. Columns
    that were never seen at all stay uniform.
    """
    pooled = counts.sum(axis=0, keepdims=True)
    pooled_total = pooled.sum(axis=axes, keepdims=True)
    size = int(np.prod([counts.shape[a] for a in axes]))
    with np.errstate(invalid="ignore", divide="ignore"):
        prior = np.where(pooled_total > 0, pooled / pooled_total, 1.0 / size)
    totals = counts.sum(axis=axes, keepdims=True)
    result: Array = (counts + strength * prior) / (totals + strength)
    return result


@cache
def shipped_network(structure: Structure = Structure.REFINED) -> Network:
    """The network of the shipped tables, built once per process and structure."""
    return Network.from_counts(shipped_counts(), structure)
