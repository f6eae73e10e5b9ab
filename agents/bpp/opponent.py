"""BPP's opponent model: P(Opp Action | Opp Current) per round and per opponent.

Actions fall in Carlton's four classes (Carlton 2000, "Action Classification"): ``PASS`` (check),
``BET``, ``CALL`` and ``RAISE``. Which pair an opponent chose from is set by the others' actions
(it checks or bets when nothing is owed, calls or raises when facing a bet), not by its hand,
so the model is read within that pair: ``P(BET | C) + P(PASS | C) = 1`` and
``P(RAISE | C) + P(CALL | C) = 1``. Folds end the opponent's part in the hand and are never
shown down, so they are not modelled.

Learning (Carlton 2000, "Specific Opponent Modeling"): whenever an
opponent shows its cards down, its current type in every round is computed from them and each
of its actions in that hand is counted under that round and type. Counts persist across the
hands of a match (``forget`` drops them) and are kept per opponent seat.

Smoothing: every (round, type, decision) starts from the generic prior with ``prior_weight``
pseudo-observations, ``P = (n_a + m p0_a) / (n_pair + m)``. The generic prior is shared by all
opponents and is ours (the thesis does not give one): an opponent bets or raises with the
probability that its current type wins a showdown against a random hand, clipped to
[0.05, 0.95] -- stronger hands are more aggressive, and no action is ruled out.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import numpy.typing as npt

from agents.bpp.hand_types import NUM_CURRENT_TYPES, cached_hand_type
from envs.events import Acted
from envs.rules import Action
from envs.view import PlayerView

__all__ = ["OppAction", "OpponentModel", "classify", "generic_prior"]

Array = npt.NDArray[np.float64]

BOARD_WIDTH = (0, 3, 4, 5)


class OppAction(IntEnum):
    """Carlton's four classes of an opponent's (non-fold) action."""

    PASS = 0
    """Check: nothing was owed."""
    BET = 1
    """Bet: nothing was owed (includes the big blind raising a limped pot)."""
    CALL = 2
    """Call a bet."""
    RAISE = 3
    """Raise a bet."""


PARTNER = (OppAction.BET, OppAction.PASS, OppAction.RAISE, OppAction.CALL)
"""The other option of the same decision, per class."""


def classify(acted: Acted, bet_size: int) -> OppAction | None:
    """The class of a public action, ``None`` for a fold.

    A raise that puts in more than one bet was facing a bet (``RAISE``), else it opened the
    betting (``BET``). An all-in for less than a full raise can be misread as a bet; with the
    project's default (deep) stacks that never happens.
    """
    if acted.action == Action.CALL:
        return OppAction.CALL if acted.amount > 0 else OppAction.PASS
    if acted.action == Action.RAISE:
        return OppAction.RAISE if acted.amount > bet_size else OppAction.BET
    return None


def generic_prior(strength: Array) -> Array:
    """The generic ``P(action | round, type)``, ``(4, 27, 4)``, from ``strength`` ``(4, 27)``."""
    aggression = np.clip(strength, 0.05, 0.95)
    prior = np.empty((*strength.shape, 4))
    prior[..., OppAction.PASS] = 1.0 - aggression
    prior[..., OppAction.BET] = aggression
    prior[..., OppAction.CALL] = 1.0 - aggression
    prior[..., OppAction.RAISE] = aggression
    return prior


class OpponentModel:
    """Counts of each opponent's shown-down actions by round and current type, with a prior.

    Args:
        prior: The generic prior, ``(4, 27, 4)``, each decision's pair summing to one.
        prior_weight: Pseudo-observations of the prior per (round, type, decision), > 0.
        learn: Count showdowns; ``False`` keeps every opponent at the generic prior.
    """

    def __init__(self, prior: Array, *, prior_weight: float, learn: bool = True) -> None:
        if prior.shape != (4, NUM_CURRENT_TYPES, 4):
            raise ValueError(f"prior must have shape (4, 27, 4), got {prior.shape}")
        if not prior_weight > 0:
            raise ValueError(f"prior_weight must be positive, got {prior_weight}")
        self.prior = prior
        self.prior_weight = float(prior_weight)
        self.learn = learn
        self._prior_list: list[list[list[float]]] = prior.tolist()  # scalar reads, fast
        self._counts: dict[int, list[list[list[float]]]] = {}
        self._tables: dict[int, Array] = {}
        self._generic = self._likelihood_table(np.zeros_like(prior))

    def forget(self) -> None:
        """Drop everything learned (a new match)."""
        self._counts.clear()
        self._tables.clear()

    def counts(self, opponent: int) -> Array:
        """The counts of ``opponent`` as a new array, ``(round, type, action)``."""
        counts = self._counts.get(opponent)
        return np.zeros_like(self.prior) if counts is None else np.array(counts)

    def likelihoods(self, opponent: int) -> Array:
        """``P(action | type)`` within its decision, ``(round, action, type)``, read-only.

        The array is updated in place when ``opponent`` is observed again.
        """
        return self._tables.get(opponent, self._generic)

    def record(self, opponent: int, street: int, htype: int, action: OppAction) -> None:
        """Count one observed action of ``opponent`` (ignored when not learning)."""
        if not self.learn:
            return
        counts = self._counts.get(opponent)
        if counts is None:
            counts = self._counts[opponent] = np.zeros_like(self.prior).tolist()
            self._tables[opponent] = self._generic.copy()
        cell = counts[street][htype]
        cell[action] += 1.0
        # Only this decision's two entries change: update them rather than the whole table.
        partner = PARTNER[action]
        prior = self._prior_list[street][htype]
        m = self.prior_weight
        total = cell[action] + cell[partner] + m
        table = self._tables[opponent]
        table.flags.writeable = True
        table[street, action, htype] = (cell[action] + m * prior[action]) / total
        table[street, partner, htype] = (cell[partner] + m * prior[partner]) / total
        table.flags.writeable = False

    def observe_hand(self, view: PlayerView) -> int:
        """Retro-analyse every opponent that showed down in a finished hand; actions counted."""
        shown = view.shown
        if not self.learn or not any(shown):
            return 0
        recorded = 0
        types: dict[tuple[int, int], int] = {}
        for acted in view.actions:
            seat = acted.seat
            hole = shown[seat] if seat != view.seat else None
            if hole is None:
                continue
            cls = classify(acted, view.rules.bet_size(acted.street))
            if cls is None:
                continue
            key = (seat, int(acted.street))
            if key not in types:
                types[key] = cached_hand_type((*hole, *view.board[: BOARD_WIDTH[acted.street]]))
            self.record(seat, int(acted.street), types[key], cls)
            recorded += 1
        return recorded

    def _likelihood_table(self, counts: Array) -> Array:
        """The whole ``(round, action, type)`` table from counts (see the module docstring)."""
        m = self.prior_weight
        pair_totals = counts + counts[..., list(PARTNER)]
        table = (counts + m * self.prior) / (pair_totals + m)
        result: Array = np.ascontiguousarray(np.moveaxis(table, 2, 1))
        result.flags.writeable = False
        return result
