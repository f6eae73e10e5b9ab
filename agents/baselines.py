"""Baseline bots: the yardsticks every other agent is measured against.

Registered as ``random``, ``call``, ``raise`` and ``rule`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from agents.base import MemorylessBot, Probabilities, certain, legal_actions
from agents.rule_policy import RuleParams, preflop_class
from agents.strength import hand_strength
from envs.rules import Action, Street
from envs.view import PlayerView

if TYPE_CHECKING:
    from envs.protocols import BatchedAgent

__all__ = ["CallAgent", "RaiseAgent", "RandomAgent", "RuleAgent"]


_UNIFORM: dict[tuple[Action, ...], Probabilities] = {
    (Action.FOLD, Action.CALL, Action.RAISE): (1 / 3, 1 / 3, 1 / 3),
    (Action.FOLD, Action.CALL): (0.5, 0.5, 0.0),
    (Action.CALL, Action.RAISE): (0.0, 0.5, 0.5),
    (Action.CALL,): (0.0, 1.0, 0.0),
}


class RandomAgent(MemorylessBot):
    """Agent card: uniformly random legal actions.

    Plays each legal action with equal probability: facing a bet it folds, calls or raises
    with probability 1/3 each; when checking is free it checks or bets with probability 1/2
    each. Its own draws (``act``) come from its generator, so it raises ``RuntimeError`` until
    it has one; the match runners draw its actions from the common random numbers instead. A
    common baseline (OpenSpiel's ``UniformRandomBot``); no parameters, no memory.
    """

    name = "random"

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """Equal probabilities on ``view.legal_actions``."""
        return _UNIFORM[legal_actions(view)]

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedRandom`` at ``num_tables`` tables; ``None`` for a subclass, which may play or
        remember differently."""
        if type(self) is not RandomAgent:
            return None
        from agents.batched_baselines import BatchedRandom  # on demand: it loads numba

        return BatchedRandom(num_tables)


class CallAgent(MemorylessBot):
    """Agent card: the "calling station" -- always checks or calls, never folds or raises.

    Deterministic, no parameters. In self-play every hand goes to showdown, which makes it a
    convenient reference for exact tests. Source: the "always call" baseline of poker-agent
    evaluations (e.g. Billings et al., "The challenge of poker", AIJ 2002).
    """

    name = "call"

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """Check or call (always legal for the seat to act)."""
        legal_actions(view)
        return certain(Action.CALL)

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedCall`` at ``num_tables`` tables; ``None`` for a subclass, which may play or
        remember differently."""
        if type(self) is not CallAgent:
            return None
        from agents.batched_baselines import BatchedCall  # on demand: it loads numba

        return BatchedCall(num_tables)


class RaiseAgent(MemorylessBot):
    """Agent card: the "maniac" -- bets or raises whenever it may, else checks or calls.

    Deterministic, no parameters. It never folds; when the betting is capped (or every other
    seat is all-in) it calls. Source: the "always raise" baseline of poker-agent evaluations.
    """

    name = "raise"

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """Bet or raise if legal, check or call otherwise."""
        return certain(Action.RAISE if Action.RAISE in legal_actions(view) else Action.CALL)

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedRaise`` at ``num_tables`` tables; ``None`` for a subclass, which may play or
        remember differently."""
        if type(self) is not RaiseAgent:
            return None
        from agents.batched_baselines import BatchedRaise  # on demand: it loads numba

        return BatchedRaise(num_tables)


class RuleAgent(MemorylessBot):
    """Agent card: a simple hand-strength rule bot, deterministic.

    Pre-flop it follows ``preflop_class`` on its two hole cards: raise with the strong
    starting hands (calling once the betting is capped), call with the playable ones, and
    check if free or else fold with the rest. After the flop it computes the exact hand
    strength HS (``agents.strength.hand_strength``: the fraction of opponent holdings it beats
    now, ties half) and

    * bets or raises when HS >= ``raise_threshold`` (calls if the cap is reached);
    * checks or calls when HS >= ``call_threshold``, or when the pot odds justify a call,
      i.e. HS >= to_call / (pot + to_call);
    * otherwise checks when checking is free and folds when it is not.

    It never folds when checking is free. Source: the hand-strength rule of the Loki bots
    (Billings et al., AAAI 1998), simplified. Deviations: HS is measured against one opponent
    whatever the number of players (Loki raises it to the power of the opponents), without hand
    potential or opponent weighting.

    Args:
        params: The post-flop thresholds (``RuleParams()`` by default).
        rng: Unused (the bot is deterministic); accepted for the common contract.
    """

    name = "rule"

    def __init__(
        self, params: RuleParams | None = None, *, rng: np.random.Generator | None = None
    ) -> None:
        super().__init__(rng=rng)
        self.params = params if params is not None else RuleParams()

    def action_probabilities(self, view: PlayerView) -> Probabilities:
        """The rule's action for sure (``decide``)."""
        return certain(self.decide(view))

    def decide(self, view: PlayerView) -> Action:
        """Apply the pre-flop rule, or the hand-strength thresholds after the flop."""
        legal = legal_actions(view)
        if view.street == Street.PREFLOP:
            choice = preflop_class(view.hole)
        else:
            hs = hand_strength(view.hole, view.board)
            pot_odds = view.to_call / (view.pot + view.to_call) if view.to_call else 0.0
            if hs >= self.params.raise_threshold:
                choice = Action.RAISE
            elif hs >= self.params.call_threshold or hs >= pot_odds:
                choice = Action.CALL
            else:
                choice = Action.FOLD
        if choice not in legal:
            # RAISE beyond the cap -> CALL; FOLD when checking is free -> CALL (a check).
            choice = Action.CALL
        return choice

    def batched(self, num_tables: int) -> BatchedAgent | None:
        """``BatchedRule`` at ``num_tables`` tables; ``None`` for a subclass, which may play or
        remember differently."""
        if type(self) is not RuleAgent:
            return None
        from agents.batched_baselines import BatchedRule  # on demand: it loads numba

        return BatchedRule(num_tables, self.params)
