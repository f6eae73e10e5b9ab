"""A deeper look-ahead for the local best response: later streets' bets and folds.

The local best response of Lisy and Bowling ("Equilibrium approximation quality of current
no-limit poker bots", 2017, Algorithm 1; ours in ``agents.lbr.values``) values each action as
if the hand were then checked down to the showdown. Against an opponent that folds to bets
that ignores the pots that later bets win. ``Lookahead.LATER_BETS`` (ours) values the same actions
with two more steps, each chosen by us against the range that reaches it:

* after our raise and the opponent's re-raise we fold or call, whichever is worth more against
  the range that re-raised (``CHECK_DOWN`` always calls);
* once the round is closed (after decisions from the flop on: ``FROM_STREET``), on each later
  street we check or bet, whichever is worth more, and after the opponent's raise of our bet
  we fold or call; each holding answers our later bets as it answers our raise now (its fold,
  call and raise probabilities, asked of its policy; for a bot whose actions ignore its cards,
  such as ``random``, its real answers while the cap allows a raise), so the range that calls
  one bet calls the next; our equity against each holding is our equity now (its expectation
  over the cards to come). The opponent's own bets on later streets and the street's
  remaining action after a check are not modelled.

Within a round the values are the paper's branches; the continuation after the round replaces
the showdown's ``sum_h m_h e_h P`` (``m_h`` the mass of holding ``h`` that reaches it, pot
``P``) by ``V_1(m, P)``, street by street (bet ``b_k``; products of vectors are per holding;
one choice for all holdings, as we do not see its cards):

    V_k(m, P) = max( V_{k+1}(m, P),
                     sum(m f) P + V_{k+1}(m c, P + 2 b_k) - b_k sum(m c)
                     + max(-b_k sum(m r), V_{k+1}(m r, P + 4 b_k) - 2 b_k sum(m r)) )
    V_4(m, P) = sum(m e) P

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

__all__ = ["FROM_STREET", "Lookahead", "call_values", "continued_bets", "raise_values"]

Floats = npt.NDArray[np.float64]

LATER_STREETS = 3
"""Most streets after the current one (pre-flop: flop, turn, river)."""
FROM_STREET = Street.FLOP
"""Later streets are valued after decisions from this street on. Pre-flop the answers to our
raise are a poor guide to later ones (the rule bot folds its weak classes to a pre-flop raise,
its weak hand strengths after the flop), and continuing from pre-flop lost 0.057 sb/hand
against ``rule`` (``results/exploitability.md``, section 6)."""


class Lookahead(Enum):
    """What the local best response assumes after the action it values."""

    CHECK_DOWN = "check-down"
    """The hand is checked down (Lisy and Bowling 2017, Algorithm 1; ``agents.lbr.values``)."""
    LATER_BETS = "later-bets"
    """Fold or call a re-raise, then bet or check each later street (this module)."""
    PUBLIC_TREE = "public-tree"
    """Card-independent opponents: the best continuation blind to later cards, exact over the
    public betting tree (``agents.lbr.public_tree``)."""


def continued_bets(bet_sizes: tuple[int, ...], street: npt.ArrayLike) -> Floats:
    """``(k, 3)`` the bets of the streets the look-ahead continues over after ``street[i]``: the
    later ones, 0 past the river, and none after pre-flop (``FROM_STREET``)."""
    current = np.asarray(street, dtype=np.intp).reshape(-1)
    sizes = np.asarray(bet_sizes, dtype=np.float64)
    ahead = current[:, np.newaxis] + np.arange(1, LATER_STREETS + 1)
    later = np.where(ahead <= Street.RIVER, sizes[np.minimum(ahead, Street.RIVER)], 0.0)
    result: Floats = np.where(current[:, np.newaxis] >= FROM_STREET, later, 0.0)
    return result


def continuation(
    mass: Floats,
    equity: Floats,
    response: tuple[Floats, Floats, Floats],
    pot: Floats,
    later: Floats,
) -> Floats:
    """``(k,)`` ``V_1(mass, pot)`` of the module, chips collected minus chips added after the
    round summed over the holdings' masses: pot ``pot[i]``, each holding
    answering each later bet ``later[i]`` (0: no such street) as in ``response`` (its fold,
    call and raise probabilities, each ``(k, H)``), our equity against it ``equity``."""
    depth = int(np.flatnonzero((later > 0.0).any(axis=0)).max(initial=-1)) + 1
    fold, call, raise_ = response
    sums: dict[tuple[int, int], tuple[Floats, Floats, Floats]] = {}
    called = mass
    for calls in range(depth + 1):
        weights = called
        for raises in range(depth + 1 - calls):
            sums[calls, raises] = (
                weights.sum(axis=1),
                np.einsum("ij,ij->i", weights, equity),
                np.einsum("ij,ij->i", weights, fold),
            )
            weights = weights * raise_
        called = called * call
    return _street(0, 0, 0, pot, sums, later[:, :depth])


def _street(
    k: int,
    calls: int,
    raises: int,
    pot: Floats,
    sums: dict[tuple[int, int], tuple[Floats, Floats, Floats]],
    later: Floats,
) -> Floats:
    """``V_k`` of the holdings' masses after ``calls`` calls and ``raises`` raises of our
    bets: ``sums[calls, raises]`` are their mass, equity-weighted mass and fold mass."""
    _, wins, folds = sums[calls, raises]
    showdown: Floats = wins * pot
    if k == later.shape[1]:
        return showdown
    bet = later[:, k]
    hold = _street(k + 1, calls, raises, pot, sums, later)
    calling = sums[calls + 1, raises][0]
    called = _street(k + 1, calls + 1, raises, pot + 2 * bet, sums, later) - bet * calling
    raising = sums[calls, raises + 1][0]
    reraised = _street(k + 1, calls, raises + 1, pot + 4 * bet, sums, later)
    raised = np.maximum(-bet * raising, reraised - 2 * bet * raising)
    betting = folds * pot + called + raised
    result: Floats = np.where(bet > 0.0, np.maximum(hold, betting), hold)
    return result


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
        later: ``(k, 3)`` the later streets' bets (``continued_bets``); rows of zeros where the
            opponent's answers are not known (we may not raise) give the check-down value.
        response: the opponent's fold, call and raise probabilities after our raise, each
            ``(k, H)`` (any values on rows of zeros in ``later``).
    """
    return continuation(share, equity, response, pot + to_call, later) - to_call


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
    calling, reraising = share * call, share * reraise
    called = continuation(calling, equity, response, pot + cost + bet, later)
    called -= cost * calling.sum(axis=1)
    mass = reraising.sum(axis=1)
    calls = continuation(reraising, equity, response, pot + cost + 3 * bet, later)
    reraised = np.maximum(-cost * mass, calls - (cost + bet) * mass)
    result: Floats = folded + called + reraised
    return result
