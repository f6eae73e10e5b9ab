"""The original BPP's betting curves (Korb, Nicholson & Jitnah 1999): registry ``bpp-curves``.

The curves compare P(win) with the calling threshold ``theta``, the win probability at which
calling and folding have equal value (the pot odds, ``to_call / (pot + to_call)``; 0 when
checking is free). With ``x = P(win) - theta`` each action gets an unnormalised weight from an
exponential curve with a horizontal shift per round (Carlton 2000, section "Betting
Curves": "exponential functions with a parameter adjustable for each round ... the optimal
horizontal displacement of each curve"). The exact functions were not retrieved; ours are

    fold: exp(-k (x - s_fold))    call: exp(-k |x - s_call|)    bet: exp(k (x - s_bet))

so folding dominates below ``(s_fold + s_call) / 2``, betting above ``(s_call + s_bet) / 2``
and calling in between, each boundary blurred over about ``1 / k``. Shifting the fold curve
right folds more, shifting the bet curve left bets more, as the thesis describes. The weights
are normalised and an action is sampled; illegal options pass their weight on as in the
decision-network BPP (fold to check, bet to call).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from agents.base import legal_actions
from agents.bpp.agent import BayesianPlayer, bluffed
from agents.bpp.decision import Probabilities
from agents.bpp.network import Network
from agents.bpp.params import CurvesParams
from envs.rules import Action, Street
from envs.view import PlayerView

if TYPE_CHECKING:
    from envs.protocols import BatchedAgent

__all__ = ["BPPCurvesAgent", "CurvesDecision", "curve_probabilities"]


def curve_probabilities(
    x: float,
    *,
    fold_shift: float,
    call_shift: float,
    bet_shift: float,
    steepness: float,
    can_fold: bool = True,
    can_raise: bool = True,
) -> Probabilities:
    """``(P(fold), P(call), P(bet))`` from the three curves at ``x = P(win) - theta``."""
    k = steepness
    # Work relative to the largest exponent so that nothing overflows.
    exps = (-k * (x - fold_shift), -k * abs(x - call_shift), k * (x - bet_shift))
    top = max(exps)
    fold, call, bet = (math.exp(e - top) for e in exps)
    if not can_fold:
        fold, call = 0.0, call + fold
    if not can_raise:
        bet, call = 0.0, call + bet
    total = fold + call + bet
    return (fold / total, call / total, bet / total)


class CurvesDecision(NamedTuple):
    """The curve BPP's quantities at one decision."""

    p_win: float
    threshold: float
    """theta, the pot odds: ``to_call / (pot + to_call)``."""
    probabilities: Probabilities
    """``(P(fold), P(check/call), P(bet/raise))`` actually played, bluff included."""


class BPPCurvesAgent(BayesianPlayer):
    """Agent card: the original BPP's betting strategy on the same Bayesian network.

    P(win) comes from the same network and opponent model as ``BPPAgent``; the action is
    sampled from three exponential betting curves of P(win) minus the pot odds (see the module
    docstring), and on the river it bluffs with probability 5%. It is the opponent Carlton tuned
    the decision-network BPP against.

    Paper: Korb, Nicholson & Jitnah, "Bayesian poker", UAI 1999; Carlton 2000, sections
    "Betting Curves" and "Bluffing".

    Args:
        params: ``CurvesParams``.
        learn: Learn each opponent's P(action | type) from showdowns.
        network: The network; ``shipped_network()`` (refined) by default.
        rng: As for ``Agent``.

    Deviations from the paper: the curves' exact functions and their tuned shifts (12
    parameters, tuned against a rule-based player) are lost, so the functions and defaults are
    ours; the network is the refined hold'em one rather than the 1999 stud network; the same
    multi-way treatment and free-check rule as ``BPPAgent``.
    """

    name = "bpp-curves"

    def __init__(
        self,
        params: CurvesParams | None = None,
        *,
        learn: bool = True,
        network: Network | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.params = params if params is not None else CurvesParams()
        super().__init__(
            prior_weight=self.params.prior_weight, learn=learn, network=network, rng=rng
        )
        if not learn:
            self.name = "bpp-curves-nolearn"

    def decide(self, view: PlayerView) -> CurvesDecision:
        """P(win), the pot odds and the action probabilities for ``view``."""
        legal = legal_actions(view)
        params = self.params
        r = view.street
        p = self.belief.win_probability(view)
        to_call = view.to_call
        theta = to_call / (view.pot + to_call) if to_call else 0.0
        can_raise = Action.RAISE in legal
        probabilities = curve_probabilities(
            p - theta,
            fold_shift=params.fold_shift[r],
            call_shift=params.call_shift[r],
            bet_shift=params.bet_shift[r],
            steepness=params.steepness,
            can_fold=Action.FOLD in legal,
            can_raise=can_raise,
        )
        if r == Street.RIVER and can_raise and params.bluff_rate > 0.0:
            probabilities = bluffed(probabilities, params.bluff_rate)
        return CurvesDecision(p, theta, probabilities)

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """The probabilities of ``decide(view)``, bluff included."""
        return self.decide(view).probabilities

    def spawn(self) -> BPPCurvesAgent:
        """A fresh agent with the same settings, sharing the (read-only) network tables."""
        agent = BPPCurvesAgent(self.params, learn=self.learn, network=self.belief.network)
        agent.name = self.name
        return agent

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedBPPCurves`` playing these parameters, learning switch and network at each
        of ``num_tables`` tables (fresh memory: nothing this agent learned is copied);
        ``None`` for a subclass, which may play or remember differently."""
        if type(self) is not BPPCurvesAgent:
            return None
        # Imported on demand: the batched form loads numba, which scalar play never needs.
        from agents.bpp.batched_curves import BatchedBPPCurves

        return BatchedBPPCurves(
            num_tables, self.params, learn=self.learn, network=self.belief.network
        )
