"""A deeper look-ahead for the local best response: later streets' bets and folds.

The local best response of Lisy and Bowling ("Equilibrium approximation quality of current
no-limit poker bots", 2017, Algorithm 1; ours in ``agents.lbr.values``) values each action as
if the hand were then checked down to the showdown. Against an opponent that folds to bets
that ignores the pots later bets win. ``Lookahead.LATER_BETS`` (ours) values the same actions
with two more steps, each chosen by us against the range that reaches it:

* after our raise and the opponent's re-raise we fold or call, whichever is worth more against
  the range that re-raised (``CHECK_DOWN`` always calls);
* once the round is closed, on each later street we check or bet, whichever is worth more, and
  after the opponent's raise of our bet we fold or call; the opponent answers our later bets as
  the range that reaches that point answered our raise now (its range-weighted fold, call and
  raise probabilities, a card-independent approximation: exact for bots whose actions ignore
  their cards, such as ``random``, while the cap allows a raise); our equity there is our
  equity now against that range (its expectation over the cards to come). Its own bets on later
  streets and the street's remaining action after a check are not modelled.

Within a round the values are the paper's branches; the continuation after the round replaces
``e x pot`` at the showdown by ``W_1(pot)``, with, street by street (bet ``b_k``, answers
``F, C, R``, ``W_4(P) = e P``):

    W_k(P) = max( W_{k+1}(P),  F P + C (W_{k+1}(P + 2 b_k) - b_k)
                                   + R max(-b_k, W_{k+1}(P + 4 b_k) - 2 b_k) )

so no value is below ``CHECK_DOWN``'s for the same branch. It chooses actions only: whatever it
plays is a strategy, and its winnings, measured by play, are a lower bound on exploitability.
Every function here works on rows (k decisions at once) so that the scalar agent (k = 1) and
its batched twin compute the same numbers with the same code.
"""

from __future__ import annotations

from enum import Enum

import numpy as np
import numpy.typing as npt

from envs.rules import Street

__all__ = ["Lookahead", "call_values", "later_bets", "raise_values"]

Floats = npt.NDArray[np.float64]

LATER_STREETS = 3
"""Most streets after the current one (pre-flop: flop, turn, river)."""


class Lookahead(Enum):
    """What the local best response assumes after the action it values."""

    CHECK_DOWN = "check-down"
    """The hand is checked down (Lisy and Bowling 2017, Algorithm 1; ``agents.lbr.values``)."""
    LATER_BETS = "later-bets"
    """Fold or call a re-raise, then bet or check each later street (this module)."""
    PUBLIC_TREE = "public-tree"
    """Card-independent opponents: the best continuation blind to later cards, exact over the
    public betting tree (``agents.lbr.public_tree``)."""


def later_bets(bet_sizes: tuple[int, ...], street: npt.ArrayLike) -> Floats:
    """``(k, 3)`` the bet sizes of the streets after ``street[i]``, 0 past the river."""
    current = np.asarray(street, dtype=np.intp).reshape(-1)
    sizes = np.asarray(bet_sizes, dtype=np.float64)
    ahead = current[:, np.newaxis] + np.arange(1, LATER_STREETS + 1)
    return np.where(ahead <= Street.RIVER, sizes[np.minimum(ahead, Street.RIVER)], 0.0)


def continuation(pot: Floats, equity: Floats, answers: Floats, later: Floats) -> Floats:
    """``(k,)`` ``W_1(pot)`` of the module: chips collected minus chips added after the
    round, at equity ``equity[i]``, the opponent answering each later bet with ``answers[i]``
    (fold, call, raise) and the bets ``later[i]`` (0: no such street)."""
    return _street(0, pot, equity, answers, later)


def _street(k: int, pot: Floats, equity: Floats, answers: Floats, later: Floats) -> Floats:
    showdown: Floats = equity * pot
    if k == later.shape[1]:
        return showdown
    bet = later[:, k]
    hold = _street(k + 1, pot, equity, answers, later)
    if not (bet > 0.0).any():
        return hold
    called = _street(k + 1, pot + 2 * bet, equity, answers, later) - bet
    raised = np.maximum(-bet, _street(k + 1, pot + 4 * bet, equity, answers, later) - 2 * bet)
    betting = answers[:, 0] * pot + answers[:, 1] * called + answers[:, 2] * raised
    result: Floats = np.where(bet > 0.0, np.maximum(hold, betting), hold)
    return result


def _node(
    weights: Floats, equity: Floats, response: tuple[Floats, Floats, Floats]
) -> tuple[Floats, Floats, Floats]:
    """The range ``weights`` (k, H) at a point of the hand: its mass ``(k,)``, our equity
    against it ``(k,)`` and its answers ``(k, 3)`` (zeros where the mass is zero)."""
    mass = weights.sum(axis=1)
    scale = np.where(mass > 0.0, 1.0 / np.where(mass > 0.0, mass, 1.0), 0.0)
    wp = np.einsum("ij,ij->i", weights, equity) * scale
    answers = np.stack([np.einsum("ij,ij->i", weights, column) for column in response], axis=1)
    return mass, wp, answers * scale[:, np.newaxis]


def call_values(
    share: Floats,
    equity: Floats,
    *,
    pot: Floats,
    to_call: Floats,
    later: Floats,
    response: tuple[Floats, Floats, Floats],
) -> Floats:
    """``(k,)`` check/call: ``W_1(pot + to_call) - to_call`` against the whole range.

    Args:
        share: ``(k, H)`` the range, rows summing to one.
        equity: ``(k, H)`` our equity against each holding.
        pot: ``(k,)`` chips in the pot now; ``to_call``: ``(k,)`` chips we must add.
        later: ``(k, 3)`` the later streets' bets (``later_bets``); rows of zeros where the
            opponent's answers are not known (we may not raise) give the check-down value.
        response: the opponent's fold, call and raise probabilities after our raise, each
            ``(k, H)`` (any values on rows of zeros in ``later``).
    """
    _, wp, answers = _node(share, equity, response)
    return continuation(pot + to_call, wp, answers, later) - to_call


def raise_values(
    share: Floats,
    equity: Floats,
    *,
    pot: Floats,
    to_call: Floats,
    bet: Floats,
    later: Floats,
    response: tuple[Floats, Floats, Floats],
) -> Floats:
    """``(k,)`` bet/raise: the opponent folds (we win ``pot``), calls (we continue, pot
    ``pot + to_call + 2 bet``) or re-raises (we fold, losing ``to_call + bet``, or call and
    continue), each branch valued against the range that takes it; arguments as
    ``call_values``, ``bet`` ``(k,)`` the round's bet."""
    fold, call, reraise = response
    cost = to_call + bet
    folded = np.einsum("ij,ij->i", share, fold) * pot
    mass, wp, answers = _node(share * call, equity, response)
    called = mass * (continuation(pot + cost + bet, wp, answers, later) - cost)
    mass, wp, answers = _node(share * reraise, equity, response)
    calling = continuation(pot + cost + 3 * bet, wp, answers, later) - (cost + bet)
    reraised = mass * np.maximum(-cost, calling)
    result: Floats = folded + called + reraised
    return result
