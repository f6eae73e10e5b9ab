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
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.loki.action_contexts import Decision
from agents.loki.modelling import ActionFrequencies, board_values, ramp, threshold
from agents.loki.params import LokiParams, Modelling, Reweighting
from agents.loki.postflop import BettingThresholds, Spot, probability_triples
from agents.strength import ehs_prime, field_weights
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.income_rate import load_income_rates
from envs.rules import Action, Rules, Street

__all__ = ["OpponentModels", "later_bets", "shifted_thresholds"]

Array = npt.NDArray[np.float64]
_BOARD_SIZE = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}
UNIFORM = np.ones(NUM_HOLDINGS)
UNIFORM.flags.writeable = False


class OpponentModels:
    """Frequencies (per match) and weight tables (per hand) of every opponent seat."""

    def __init__(self, params: LokiParams, thresholds: BettingThresholds) -> None:
        self._params = params
        self._thresholds = thresholds
        self._ir7 = load_income_rates().of_holdings(7)
        self._ir7_sorted = np.sort(self._ir7)
        self._frequencies: dict[int, ActionFrequencies] = {}
        self.start_hand()

    def start_hand(self) -> None:
        """Uniform weight tables for every opponent (the frequencies are kept)."""
        self._weights: dict[int, Array] = {}
        # Per opponent: the round, its weights at the round's start, the highest mu applied.
        self._round_start: dict[int, tuple[Street, Array, float]] = {}

    def weights(self, seat: int) -> Array:
        """The current (read-only) weight table of ``seat``."""
        return self._weights.get(seat, UNIFORM)

    def field(self, seats: list[int]) -> Array | None:
        """The field array of ``seats`` (``None`` without modelling: uniform)."""
        if self._params.modelling == Modelling.NONE:
            return None
        return field_weights([self.weights(s) for s in seats])

    def frequencies(self, seat: int) -> ActionFrequencies:
        """The action frequencies of ``seat`` (created on first use)."""
        if seat not in self._frequencies:
            self._frequencies[seat] = ActionFrequencies(self._params)
        return self._frequencies[seat]

    def learn(self, d: Decision, board: tuple[int, ...], rules: Rules) -> None:
        """Update the model of ``d.seat`` after its action ``d`` (``board``: the full board)."""
        frequencies = self.frequencies(d.seat)
        frequencies.observe(d.street, d.bets_to_call, d.action)
        p = self._params
        if p.modelling == Modelling.NONE or d.action == Action.FOLD:
            return
        weights = self.weights(d.seat)
        if d.street != Street.PREFLOP and p.reweighting == Reweighting.TRIPLES:
            factor = self._triple_factor(d, board[: _BOARD_SIZE[d.street]], rules, frequencies)
            self._weights[d.seat] = np.maximum(weights * factor, p.low_weight)
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
        if d.street == Street.PREFLOP:
            if mu < p.preflop_skip_percentile:
                return
            index = min(len(self._ir7_sorted) - 1, round(mu * (len(self._ir7_sorted) - 1)))
            mu_ir = float(self._ir7_sorted[index])
            factor = ramp(self._ir7, mu_ir, p.preflop_sigma, low_mu_correction=False)
        else:
            hs1, ppot = board_values(board[: _BOARD_SIZE[d.street]])
            sigma = p.sigma_slope * (1.0 - mu)
            factor = ramp(ehs_prime(hs1, ppot), mu, sigma, low_mu_correction=True)
            pot_odds = d.amount / (d.pot + d.amount)
            factor = np.where(ppot >= pot_odds, 1.0, factor)  # drawing on pot odds: keep
        self._weights[d.seat] = np.maximum(start * factor, p.low_weight)

    def _triple_factor(
        self,
        d: Decision,
        board: tuple[int, ...],
        rules: Rules,
        frequencies: ActionFrequencies,
    ) -> Array:
        """Loki-2's factor: each holding's triple entry of the observed action [PENA-4.2]."""
        p = self._params
        hs1, ppot = board_values(board)
        opponents = max(1, d.active - 1)
        hsn = hs1**opponents
        spot = Spot(
            street=d.street,
            to_call=d.to_call,
            pot=d.pot,
            bet_size=d.bet_size,
            num_bets=d.num_bets,
            can_raise=d.num_bets < rules.max_bets[d.street],
            invested=d.invested,
            opponents=opponents,
            later_bets=later_bets(rules, d.street),
        )
        betting = self._thresholds
        if p.modelling == Modelling.SPECIFIC:
            observed = frequencies.frequencies(d.street, d.bets_to_call)
            default = np.array(p.default_frequencies[d.bets_to_call])
            betting = shifted_thresholds(betting, observed, default, d.bets_to_call)
        triples = probability_triples(
            hsn, ppot, ehs_prime(hsn, ppot), spot, betting, p.triple_width
        )
        factor: Array = triples[:, int(d.action)]
        return factor


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
