"""The local best response's value of each action, adapted to fixed-limit betting.

Lisy and Bowling ("Equilibrium approximation quality of current no-limit poker bots", 2017,
section "Local Best Response", Algorithm 1) value each action of the LBR player against the
opponent's range, relative to folding now (0), assuming that after it the hand is checked and
called down to the showdown:

* check/call: ``WP x (pot + to_call) - to_call``, WP the win probability against the range;
* bet/raise: ``fp x pot + (1 - fp) x (WP' x pot' - cost)``, fp the range-weighted probability
  that the opponent folds to it, WP' the win probability against the range that does not fold.

In fixed-limit there is one raise size (``bet``), and the opponent's answer to our raise may
itself be a raise (until the cap): ours keeps that third branch instead of folding it into the
call, with us calling it and the hand then checked down. Per opponent holding ``h`` with
weight ``w_h``, our equity ``e_h`` against it and its answer probabilities ``(f_h, c_h, r_h)``
to our raise (``c`` = to_call, ``b`` = bet):

    V(raise) = sum_h w_h [ f_h pot + c_h (e_h (pot + c + 2b) - (c + b))
                                   + r_h (e_h (pot + c + 4b) - (c + 2b)) ] / sum_h w_h

which is the paper's formula when the opponent never re-raises.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from envs.rules import Action

__all__ = ["ActionValues", "action_values", "best_action"]

Floats = npt.NDArray[np.float64]

TIE = 1e-9
"""Values within this many chips are equal; then check/call beats bet/raise beats fold."""


class ActionValues(NamedTuple):
    """Chips each action is worth relative to folding now (NaN where it is illegal)."""

    fold: float
    call: float
    raise_: float
    win_probability: float
    """WP against the whole range."""
    fold_probability: float
    """fp: the range's probability of folding to our raise (NaN if we may not raise)."""


def action_values(
    weights: Floats,
    equity: Floats,
    *,
    pot: int,
    to_call: int,
    bet: int,
    can_fold: bool,
    response: Floats | None,
) -> ActionValues:
    """The values of the module docstring.

    Args:
        weights: ``(H,)`` the range over the opponent's candidate holdings (any scale, > 0 sum).
        equity: ``(H,)`` our equity against each of them.
        pot: Chips in the pot now, both seats, the current round included.
        to_call: Chips we must add to call.
        bet: The round's bet size.
        can_fold: Whether folding is legal.
        response: ``(H, 3)`` the opponent's (fold, call, raise) probabilities after our raise,
            None when we may not raise.
    """
    total = float(weights.sum())
    if not total > 0.0:
        raise ValueError("the opponent's range is empty (its weights sum to zero)")
    share = weights / total
    wp = float(share @ equity)
    call = wp * (pot + to_call) - to_call
    fold = 0.0 if can_fold else float("nan")
    if response is None:
        return ActionValues(fold, call, float("nan"), wp, float("nan"))
    f, c, r = response[:, 0], response[:, 1], response[:, 2]
    called = equity * (pot + to_call + 2 * bet) - (to_call + bet)
    reraised = equity * (pot + to_call + 4 * bet) - (to_call + 2 * bet)
    raise_ = float(share @ (f * pot + c * called + r * reraised))
    return ActionValues(fold, call, raise_, wp, float(share @ f))


def best_action(values: ActionValues) -> Action:
    """The legal action of largest value; within ``TIE``: call, then raise, then fold."""
    best, top = Action.CALL, values.call
    if not np.isnan(values.raise_) and values.raise_ > top + TIE:
        best, top = Action.RAISE, values.raise_
    if not np.isnan(values.fold) and values.fold > top + TIE:
        best = Action.FOLD
    return best
