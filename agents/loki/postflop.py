"""Loki's post-flop betting rules as array code, and Loki-2's probability triples from them.

The rules (Papp 1998 sections 6.2-6.6), most aggressive first, a rejected option
falling through to the next:

1. EHS' >= make2 (0.85): Make2 -- raise while fewer than two bets were made, else call;
2. EHS' >= make1 (0.50): Make1 -- bet if nobody has bet, else call, except that facing two bets
   or more without having put chips in this round it falls through;
3. semi-bluff: nobody has bet and PPOT >= Pot_Odds2 = 2 b / (pot + 4 b + 2 b), or Loki
   semi-bluffed in an earlier round and nobody has bet since: bet;
4. pot odds: call if PPOT (HSn on the river) >= to_call / (pot + to_call);
5. showdown odds: call if HSn >= what reaching the showdown costs over what it can win (ours,
   Papp's formula is lost: one bet per remaining round from Loki and from each opponent);
6. otherwise check if free, else fold.

``probability_triples`` evaluates them for many holdings at once (every holding an opponent may
hold, for Loki-2's re-weighting), and blends the actions on either side of the make1 and make2
boundaries linearly over ``+-width`` of EHS' (Pena 1999 section 4.1: Loki-1's rules translated
into pure triples, then smoothed; the width is ours). Width 0 gives Loki-1's
pure decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.rules import Action, Street

__all__ = ["BettingThresholds", "Spot", "probability_triples", "rule_action"]

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Spot:
    """The public situation of a post-flop decision, from the deciding seat's side."""

    street: Street
    to_call: int
    pot: int
    """Chips in the pot, the bets of the current round included."""
    bet_size: int
    num_bets: int
    """Bets made this round."""
    can_raise: bool
    invested: bool
    """Whether the seat already put chips in voluntarily this round."""
    opponents: int
    """Active opponents of the deciding seat."""
    later_bets: int
    """Sum of the bet sizes of the rounds still to come (for the showdown odds)."""
    semi_bluffing: bool = False
    """The seat semi-bluffed in an earlier round and nobody has bet since."""


@dataclass(frozen=True, slots=True)
class BettingThresholds:
    """Loki's post-flop EHS' thresholds (make1, make2) and which of the lower rules are on."""

    make1: float
    make2: float
    semi_bluff: bool = True
    pot_odds: bool = True
    showdown_odds: bool = True


def _lower_rules(
    hsn: Array, ppot: Array, spot: Spot, thresholds: BettingThresholds
) -> npt.NDArray[np.int64]:
    """Rules 3-6: the action of holdings below make1 (or Make1's fall-through)."""
    action = np.full(hsn.shape, int(Action.FOLD if spot.to_call else Action.CALL))
    if spot.to_call > 0:
        if thresholds.showdown_odds:
            cost = spot.to_call + spot.later_bets
            odds = cost / (spot.pot + cost + spot.opponents * spot.later_bets)
            action = np.where(hsn >= odds, int(Action.CALL), action)
        if thresholds.pot_odds:
            odds = spot.to_call / (spot.pot + spot.to_call)
            chance = hsn if spot.street == Street.RIVER else ppot
            action = np.where(chance >= odds, int(Action.CALL), action)
    elif thresholds.semi_bluff and spot.num_bets == 0:
        b = spot.bet_size
        odds = 2 * b / ((spot.pot + 4 * b) + 2 * b)
        bluff = (ppot >= odds) | spot.semi_bluffing
        action = np.where(bluff, int(Action.RAISE), action)
    return action


def _zone_actions(
    hsn: Array, ppot: Array, spot: Spot, thresholds: BettingThresholds
) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Actions of the Make2 zone (one for all), the Make1 zone and the zone below make1."""
    high = int(Action.RAISE if spot.num_bets < 2 else Action.CALL)
    low = _lower_rules(hsn, ppot, spot, thresholds)
    if spot.num_bets == 0:
        middle = np.full(hsn.shape, int(Action.RAISE))
    elif spot.to_call >= 2 * spot.bet_size and not spot.invested:
        middle = low  # Make1 declines two bets: fall through to the lower rules
    else:
        middle = np.full(hsn.shape, int(Action.CALL))
    return high, middle, low


def _legal(actions: npt.NDArray[np.int64], spot: Spot) -> npt.NDArray[np.int64]:
    if spot.to_call == 0:
        actions = np.where(actions == Action.FOLD, int(Action.CALL), actions)
    if not spot.can_raise:
        actions = np.where(actions == Action.RAISE, int(Action.CALL), actions)
    return actions


def probability_triples(
    hsn: Array, ppot: Array, ehs: Array, spot: Spot, thresholds: BettingThresholds, width: float
) -> Array:
    """``(k, 3)`` (fold, call, raise) probabilities of ``k`` holdings in ``spot``.

    Args:
        hsn: HSn of each holding (HS1 to the power of the opponents).
        ppot: PPOT of each holding (ignored on the river).
        ehs: EHS' = HSn + (1 - HSn) PPOT of each holding.
        spot: The situation, common to all holdings.
        thresholds: Thresholds and switches of the rules.
        width: Half-width of the linear blend at make1 and make2 (0: pure Loki-1 actions).
    """
    high, middle, low = _zone_actions(hsn, ppot, spot, thresholds)
    if width > 0:
        above2 = np.clip((ehs - (thresholds.make2 - width)) / (2 * width), 0.0, 1.0)
        above1 = np.clip((ehs - (thresholds.make1 - width)) / (2 * width), 0.0, 1.0)
    else:
        above2 = (ehs >= thresholds.make2).astype(np.float64)
        above1 = (ehs >= thresholds.make1).astype(np.float64)
    triples = np.zeros((len(ehs), 3))
    rows = np.arange(len(ehs))
    np.add.at(triples, (rows, _legal(np.full(len(ehs), high), spot)), above2)
    np.add.at(triples, (rows, _legal(middle, spot)), above1 - above2)
    np.add.at(triples, (rows, _legal(low, spot)), 1.0 - above1)
    return triples


def rule_action(
    hsn: float, ppot: float, ehs: float, spot: Spot, thresholds: BettingThresholds
) -> Action:
    """Loki-1's pure post-flop decision for one hand (always legal in ``spot``)."""
    triple = probability_triples(
        np.array([hsn]), np.array([ppot]), np.array([ehs]), spot, thresholds, width=0.0
    )[0]
    return Action(int(np.argmax(triple)))
