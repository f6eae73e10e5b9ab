"""The decision-network BPP (Carlton 2000): registry ``bpp`` (mixed) and ``bpp-det``."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from agents.base import KnownPolicyAgent, legal_actions
from agents.bpp.belief import Belief
from agents.bpp.decision import (
    Probabilities,
    Strategy,
    action_probabilities,
    expected_winnings,
)
from agents.bpp.network import Network, shipped_network
from agents.bpp.opponent import OpponentModel, generic_prior
from agents.bpp.params import BPPParams
from envs.rules import Action, Street
from envs.view import PlayerView

if TYPE_CHECKING:
    from envs.protocols import BatchedAgent

__all__ = ["BPPAgent", "BPPDecision", "BayesianPlayer", "bluffed", "deterministic_bpp"]


class BPPDecision(NamedTuple):
    """The decision network's quantities at one decision (chips; ``EW(fold)`` is 0)."""

    p_win: float
    """P(BPP wins at the showdown) against every opponent still in the hand."""
    ew_bet: float
    """Expected winnings of betting or raising (computed even when the cap forbids it)."""
    ew_pass: float
    """Expected winnings of checking or calling."""
    ew_fold: float
    """Expected winnings of folding: always 0."""
    probabilities: Probabilities
    """``(P(fold), P(check/call), P(bet/raise))`` actually played, bluff included."""


def bluffed(probabilities: Probabilities, rate: float) -> Probabilities:
    """Mix in a bet with probability ``rate`` (the original BPP's river bluff)."""
    keep = 1.0 - rate
    fold, call, raise_ = probabilities
    return (keep * fold, keep * call, keep * raise_ + rate)


class BayesianPlayer(KnownPolicyAgent):
    """What both BPPs share: the network, the opponent model and sampling an action.

    Args:
        prior_weight: Pseudo-observations of the generic opponent prior.
        learn: Learn each opponent's P(action | type) from showdowns.
        network: The tables (the shipped ones by default).
        rng: As for ``Agent``.
    """

    def __init__(
        self,
        *,
        prior_weight: float,
        learn: bool,
        network: Network | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        super().__init__(rng=rng)
        net = network if network is not None else shipped_network()
        model = OpponentModel(generic_prior(net.strength), prior_weight=prior_weight, learn=learn)
        self.learn = learn
        self.belief = Belief(net, model)

    def _forget(self) -> None:
        self.belief.forget()

    def observe(self, view: PlayerView) -> None:
        """Learn from the opponents' shown cards (retro-analysis of their actions)."""
        self.belief.end_hand(view)

    @property
    def memoryless(self) -> bool:  # type: ignore[override]
        """Without learning, nothing carries over from one hand to the next."""
        return not self.learn

    def spawn(self) -> BayesianPlayer:
        """A fresh agent with the same settings, sharing the (read-only) network tables."""
        raise NotImplementedError

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """The batched twin playing these settings at ``num_tables`` tables; ``None`` unless
        the class builds one (``BPPAgent``, ``BPPCurvesAgent``)."""
        return None


class BPPAgent(BayesianPlayer):
    """Agent card: the Bayesian Poker Player with Carlton's decision network.

    BPP infers P(win) from a Bayesian network over hand types (``agents.bpp.network``: 25 final
    types, current types per round with draws, the board class, the opponent's current type
    and actions in every round), with a per-opponent model of P(action | type) learned from
    showdowns (``agents.bpp.opponent``). The decision network turns P(win) into expected
    winnings of betting, passing and folding (``agents.bpp.decision``); the mixed strategy
    samples from Carlton's logistic fold and call curves, the deterministic one takes the
    largest expected winnings. Both bluff on the river at ``bluff_rate``.

    Paper: Korb, Nicholson & Jitnah, "Bayesian poker", UAI 1999; Carlton, honours thesis,
    Monash 2000 (sections "Action Selection", "Deterministic Strategy" and "Mixed Strategy");
    hold'em network after Nicholson, Korb & Boulton 2006. The gaps and our readings of them
    are in ``agents/bpp/README.md``.

    Args:
        params: ``BPPParams`` (alpha, alpha', fp and cp per round, bluff rate, prior weight).
        strategy: ``Strategy.MIXED`` (registry ``bpp``) or ``DETERMINISTIC`` (``bpp-det``).
        learn: ``False`` freezes the opponent model at its generic prior.
        network: The network; ``shipped_network()`` (refined) by default,
            ``shipped_network(Structure.PAPER)`` for the stud arcs.
        rng: As for ``Agent``.

    Deviations from the paper:

    * Limit hold'em instead of five-card stud: ``R x B`` is the sum of the remaining rounds'
      bet sizes, ``delta`` is the amount to call and ``B`` the current bet.
    * The network's arc between the hands runs from BPP Current (not BPP Final) to Opp Final
      and Win (``Structure.REFINED``): with the stud arcs the shared board made pocket aces a
      0.66 favourite instead of 0.85 (``agents.bpp.network``; ``Structure.PAPER`` keeps them).
    * Current types add two draw types (four to a flush or a straight) on the flop and turn;
      the board enters as a class (its own type and its flush texture).
    * Multi-way: the field is one opponent (P(beating all of them), each contributing to the
      pot); heads-up this is Carlton's network exactly.
    * When checking is free the fold probability goes to checking.
    * The generic opponent prior and every default parameter are ours (Carlton's Tables 4
      and 5 are lost); the opponent model is read within each decision (check or bet, call
      or raise) and ignores folds, which showdowns never reveal.
    * The deterministic strategy bluffs too unless ``bluff_rate=0`` (then it never draws).
    """

    name = "bpp"

    def __init__(
        self,
        params: BPPParams | None = None,
        *,
        strategy: Strategy = Strategy.MIXED,
        learn: bool = True,
        network: Network | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.params = params if params is not None else BPPParams()
        if not isinstance(self.params, BPPParams):
            raise TypeError(f"params must be BPPParams, got {type(self.params).__name__}")
        if not isinstance(strategy, Strategy):
            raise TypeError(f"strategy must be a Strategy, got {strategy!r}")
        super().__init__(
            prior_weight=self.params.prior_weight, learn=learn, network=network, rng=rng
        )
        self.strategy = strategy
        base = "bpp" if strategy is Strategy.MIXED else "bpp-det"
        self.name = base if learn else f"{base}-nolearn"

    def decide(self, view: PlayerView) -> BPPDecision:
        """The decision network's quantities and action probabilities for ``view``."""
        legal = legal_actions(view)
        params = self.params
        r = view.street
        p = self.belief.win_probability(view)
        bets, folded, me = view.bets, view.folded, view.seat
        top = max(bets)
        opponents, owed = 0, 0
        for s, chips in enumerate(bets):
            if s != me and not folded[s]:
                opponents += 1
                owed += top - chips
        sizes = view.rules.bet_sizes
        bet = sizes[r]
        ew_bet, ew_pass = expected_winnings(
            p,
            pot=view.pot,
            to_call=view.to_call,
            bet=bet,
            remaining=sum(sizes[r + 1 :]),
            alpha=params.alpha[r],
            alpha_prime=params.alpha_prime[r],
            opponents=opponents,
            owed=owed,
        )
        can_raise = Action.RAISE in legal
        probabilities = action_probabilities(
            self.strategy,
            ew_bet,
            ew_pass,
            bet=bet,
            fp=params.fp[r],
            cp=params.cp[r],
            can_fold=Action.FOLD in legal,
            can_raise=can_raise,
        )
        if r == Street.RIVER and can_raise and params.bluff_rate > 0.0:
            probabilities = bluffed(probabilities, params.bluff_rate)
        return BPPDecision(p, ew_bet, ew_pass, 0.0, probabilities)

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """The probabilities of ``decide(view)``, bluff included."""
        return self.decide(view).probabilities

    def spawn(self) -> BPPAgent:
        """A fresh agent with the same settings, sharing the (read-only) network tables."""
        agent = BPPAgent(
            self.params, strategy=self.strategy, learn=self.learn, network=self.belief.network
        )
        agent.name = self.name
        return agent

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedBPP`` playing these parameters, strategy, learning switch and network at
        each of ``num_tables`` tables (fresh memory: nothing this agent learned is copied);
        ``None`` for a subclass, which may play or remember differently."""
        if type(self) is not BPPAgent:
            return None
        # Imported on demand: the batched form loads numba, which scalar play never needs.
        from agents.bpp.batched_agent import BatchedBPP

        return BatchedBPP(
            num_tables,
            self.params,
            strategy=self.strategy,
            learn=self.learn,
            network=self.belief.network,
        )


def deterministic_bpp() -> BPPAgent:
    """Registry factory of ``bpp-det``."""
    return BPPAgent(strategy=Strategy.DETERMINISTIC)
