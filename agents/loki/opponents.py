"""Loki's model of the table: a weight table per opponent and what re-weights it.

``OpponentModels`` keeps, per opponent seat, the action frequencies (for the whole match) and
the weight table over the 1,326 holdings (for the current hand, uniform at its start). After an
opponent's action:

* Loki-1 (pre-flop always, post-flop with ``Reweighting.THRESHOLD``): the frequencies give a
  threshold mu; if it is higher than any mu already applied to that opponent this round, the
  round-start copy of the table is multiplied by the ramp around mu (IR7 pre-flop, sigma 330,
  skipped below the 5th percentile; EHS' post-flop, sigma = 0.4 (1 - mu), low-mu correction,
  holdings whose PPOTc pays the action's pot odds kept) and floored at 0.01 (Papp 7.2).
* Loki-2 (post-flop with ``Reweighting.TRIPLES``): every action, checks included, multiplies
  each holding's weight by the probability of that action in the opponent's probability triple
  (Pena 4.2), floored at 0.01; under specific modelling the triple's thresholds are shifted by
  the opponent's frequencies (Pena 4.3, ``shifted_thresholds``).

The per-holding arithmetic is the compiled loops of ``agents.loki.weighting`` and
``agents.loki.triples``, which the batched Loki runs too; the post-flop values (HS1 and PPOTc
of every holding) come from ``agents.strength.street``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from agents.jit import readonly
from agents.loki.action_contexts import Decision
from agents.loki.modelling import ActionFrequencies, threshold
from agents.loki.params import LokiParams, Modelling, Reweighting
from agents.loki.postflop import BettingThresholds
from agents.loki.triples import triple_weights
from agents.loki.weighting import field_of, threshold_weights
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.income_rate import load_income_rates
from envs.rules import Action, Rules, Street

__all__ = ["BoardValues", "OpponentModels", "later_bets", "shifted_thresholds"]

Array = npt.NDArray[np.float64]
BoardValues = Callable[[Street], tuple[Array, Array]]
"""HS1 and PPOTc of every holding on a post-flop street's board (NaN where it meets it)."""
UNIFORM = np.ones(NUM_HOLDINGS)
UNIFORM.flags.writeable = False
_NO_VALUES = readonly(np.zeros(NUM_HOLDINGS), np.float64)


class OpponentModels:
    """Frequencies (per match) and weight tables (per hand) of every opponent seat."""

    def __init__(self, params: LokiParams, thresholds: BettingThresholds) -> None:
        self._params = params
        self._thresholds = thresholds
        self._switches = np.array(
            [thresholds.semi_bluff, thresholds.pot_odds, thresholds.showdown_odds]
        )
        ir7 = load_income_rates().of_holdings(7)
        self._ir7 = readonly(ir7, np.float64)
        self._ir7_sorted = readonly(np.sort(ir7), np.float64)
        self._frequencies: dict[int, ActionFrequencies] = {}
        self.start_hand()

    def start_hand(self) -> None:
        """Uniform weight tables for every opponent (the frequencies are kept)."""
        self._weights: dict[int, Array] = {}
        # Per opponent: the round, its weights at the round's start, the highest mu applied.
        self._round_start: dict[int, tuple[Street, Array, float]] = {}

    def copy(self) -> OpponentModels:
        """An independent copy: the same frequencies and weight tables, which the copy and
        this object then learn apart (the tables are never changed in place, only replaced;
        the frequencies only count under specific modelling, so only then are they copied)."""
        twin = copy.copy(self)
        if self._params.modelling == Modelling.SPECIFIC:
            twin._frequencies = {seat: f.copy() for seat, f in self._frequencies.items()}
        else:
            twin._frequencies = dict(self._frequencies)
        twin._weights = dict(self._weights)
        twin._round_start = dict(self._round_start)
        return twin

    def weights(self, seat: int) -> Array:
        """The current (read-only) weight table of ``seat``."""
        return self._weights.get(seat, UNIFORM)

    def field(self, seats: list[int]) -> Array:
        """The field array of ``seats`` (all ones without modelling: uniform)."""
        if self._params.modelling == Modelling.NONE:
            return UNIFORM
        field: Array = field_of(np.stack([self.weights(s) for s in seats]))
        return field

    def frequencies(self, seat: int) -> ActionFrequencies:
        """The action frequencies of ``seat`` (created on first use)."""
        if seat not in self._frequencies:
            self._frequencies[seat] = ActionFrequencies(self._params)
        return self._frequencies[seat]

    def learn(
        self, d: Decision, values: BoardValues, rules: Rules, *, reweight: bool = True
    ) -> None:
        """Update the model of ``d.seat`` after its action ``d`` (``values``: the board values
        of a street; ``reweight=False`` counts the action only, as at the end of a hand)."""
        frequencies = self.frequencies(d.seat)
        frequencies.observe(d.street, d.bets_to_call, d.action)
        p = self._params
        if p.modelling == Modelling.NONE or d.action == Action.FOLD or not reweight:
            return
        weights = self.weights(d.seat)
        if d.street != Street.PREFLOP and p.reweighting == Reweighting.TRIPLES:
            self._weights[d.seat] = self._triple_reweighted(d, weights, values, rules)
            return
        if d.action == Action.CALL and d.to_call == 0:
            return  # a check: Loki-1 learns nothing from it
        mu = threshold(frequencies.frequencies(d.street, d.bets_to_call), d.action)
        assert mu is not None
        street, start, best = self._round_start.get(d.seat, (None, weights, -np.inf))
        if street != d.street:
            start, best = weights, -np.inf
        if mu <= best:
            self._round_start[d.seat] = (d.street, start, best)
            return  # at most one re-weighting per round: only a higher threshold counts
        self._round_start[d.seat] = (d.street, start, mu)
        hs1, ppot = (_NO_VALUES, _NO_VALUES) if d.street == Street.PREFLOP else values(d.street)
        self._weights[d.seat] = threshold_weights(
            start,
            int(d.street),
            mu,
            d.amount / (d.pot + d.amount),
            self._ir7,
            self._ir7_sorted,
            hs1,
            ppot,
            p.preflop_sigma,
            p.preflop_skip_percentile,
            p.sigma_slope,
            p.low_weight,
        )

    def _triple_reweighted(
        self, d: Decision, weights: Array, values: BoardValues, rules: Rules
    ) -> Array:
        """Loki-2's re-weighting: each holding's triple entry of the observed action [PENA-4.2]."""
        p = self._params
        betting = self._thresholds
        if p.modelling == Modelling.SPECIFIC:
            observed = self.frequencies(d.seat).frequencies(d.street, d.bets_to_call)
            default = np.array(p.default_frequencies[d.bets_to_call])
            betting = shifted_thresholds(betting, observed, default, d.bets_to_call)
        hs1, ppot = values(d.street)
        result = np.array(weights)
        triple_weights(
            result,
            hs1,
            ppot,
            int(d.action),
            int(d.street),
            d.to_call,
            d.pot,
            d.bet_size,
            d.num_bets,
            d.num_bets < rules.max_bets[d.street],
            d.invested,
            max(1, d.active - 1),
            later_bets(rules, d.street),
            betting.make1,
            betting.make2,
            self._switches,
            p.triple_width,
            p.low_weight,
        )
        return result


def later_bets(rules: Rules, street: Street) -> int:
    """One bet per round still to come (for the showdown odds)."""
    return sum(rules.bet_size(s) for s in Street if s > street)


def shifted_thresholds(
    thresholds: BettingThresholds, observed: Array, default: Array, bets_to_call: int
) -> BettingThresholds:
    """Thresholds moved by the opponent's deviation from the default frequencies [PENA-4.3].

    With nothing to call a bet means EHS' >= make1, so make1 moves by how much less often
    than the default the opponent bets. Facing a bet a call means EHS' >= make1 and a raise
    EHS' >= make2: make1 moves with the folding fraction, make2 with folding + calling.
    A tight opponent (folds more, raises less) gets higher thresholds.
    """
    if bets_to_call == 0:
        make1 = thresholds.make1 + (default[2] - observed[2])
        make2 = thresholds.make2
    else:
        make1 = thresholds.make1 + (observed[0] - default[0])
        make2 = thresholds.make2 + (observed[0] + observed[1]) - (default[0] + default[1])
    make1 = float(np.clip(make1, 0.05, 0.95))
    make2 = float(np.clip(make2, make1 + 0.01, 0.99))
    return BettingThresholds(
        make1=make1,
        make2=make2,
        semi_bluff=thresholds.semi_bluff,
        pot_odds=thresholds.pot_odds,
        showdown_odds=thresholds.showdown_odds,
    )
