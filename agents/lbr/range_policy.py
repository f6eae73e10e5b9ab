"""An opponent's known policy at every one of its candidate holdings at once.

A local best response (Lisy and Bowling, "Equilibrium approximation quality of current no-limit
poker bots", AAAI Computer Poker Workshop 2017, section "Local Best Response") re-weights the
opponent's range at each of its actions by the probability of that action given each holding.
A ``RangePolicy`` answers that question for all candidate holdings in one call: given the
opponent's view at its decision (its hole cards there are ignored) and the indices of the
holdings (``agents.strength.holdings.HOLDINGS``), the ``(H, 3)`` probabilities of fold,
check/call and bet/raise.

The policy is the opponent's own, white-box: ``ShadowBayesian`` keeps a copy of a BPP that is
told every hand end the real opponent is told (BPP learns only from the cards shown down, which
are public), so its opponent model is the real one's at every hand.

* ``CardIndependent``: a bot whose actions ignore its cards (``call``, ``raise``, ``random``).
* ``VectorRule``: the ``rule`` bot, vectorised (pre-flop class table, hand strength of every
  holding at once).
* ``ShadowBayesian``: ``bpp``, ``bpp-det``, ``bpp-curves``. Their probabilities depend on the
  hole cards only through BPP's current hand type (at most 27 per round,
  ``agents.bpp.hand_types``), so the scalar agent is asked once per type present.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from agents.base import KnownPolicyAgent
from agents.baselines import RuleAgent
from agents.bpp.agent import BayesianPlayer
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.batched_types import street_types
from agents.bpp.type_belief import TypeBelief
from agents.lbr.batched_ranges import (
    BatchedCardIndependent,
    BatchedRangePolicy,
    BatchedShadowBayesian,
    BatchedVectorRule,
)
from agents.rule_policy import holding_classes
from agents.strength import hand_strength_all
from agents.strength.holdings import HOLDINGS
from envs.protocols import HasBatchedForm
from envs.rules import Action, Street
from envs.view import PlayerView

__all__ = ["CardIndependent", "RangePolicy", "ShadowBayesian", "VectorRule"]

Floats = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]


class RangePolicy(Protocol):
    """An opponent's action probabilities for many holdings at once (see the module)."""

    name: str
    """The opponent's registry name."""
    memoryless: bool
    """Whether the policy never changes between hands (no learning)."""

    def probabilities(self, view: PlayerView, holdings: Index, *, probe: bool = False) -> Floats:
        """``(len(holdings), 3)`` probabilities at the opponent's decision ``view``; ``probe``
        marks a view that did not happen (after a raise only considered), which a policy with
        memory of the hand in progress must not keep."""
        ...

    def batched(self, num_tables: int) -> BatchedRangePolicy | None:
        """The same policy at ``num_tables`` tables (``agents.lbr.batched_ranges``), fresh;
        ``None`` when there is none."""
        ...

    def table_bytes(self, num_seats: int) -> int:
        """Bytes the batched form keeps per table."""
        ...

    def observe(self, view: PlayerView) -> None:
        """The opponent's terminal view of a hand (its hole cards there are ignored)."""
        ...

    def forget(self) -> None:
        """A new match: drop what the opponent learned."""
        ...


class CardIndependent:
    """A bot whose probabilities do not depend on its cards (``call``, ``raise``, ``random``).

    Args:
        bot: The bot; it must be memoryless (its ``memoryless`` attribute true).
    """

    memoryless = True

    def __init__(self, bot: KnownPolicyAgent) -> None:
        if not bot.memoryless:
            raise ValueError(f"{bot.name!r} learns between hands; it is not card-independent")
        self.bot = bot
        self.name = bot.name

    def probabilities(self, view: PlayerView, holdings: Index, *, probe: bool = False) -> Floats:
        """The bot's probabilities at ``view``, the same for every holding."""
        row = np.asarray(self.bot.action_probabilities(view), dtype=np.float64)
        return np.broadcast_to(row, (len(holdings), 3)).copy()

    def batched(self, num_tables: int) -> BatchedRangePolicy | None:
        """The bot's batched form, asked once per decision (None if it has none)."""
        twin = self.bot.batched(num_tables) if isinstance(self.bot, HasBatchedForm) else None
        return None if twin is None else BatchedCardIndependent(twin, self.name)

    def table_bytes(self, num_seats: int) -> int:
        """Nothing per table."""
        return 0

    def observe(self, view: PlayerView) -> None:
        """Nothing to learn."""

    def forget(self) -> None:
        """Nothing to forget."""


class VectorRule:
    """``RuleAgent`` (registry ``rule``) at every holding at once, deterministic.

    Pre-flop its class per holding (``agents.rule_policy.preflop_class``, tabulated once); after
    the flop the hand strength of every holding (``agents.strength.hand_strength_all``, the
    same HS1 the bot computes) against its thresholds and the pot odds.

    Args:
        bot: The rule bot whose thresholds to use (the default one if None).
    """

    memoryless = True

    def __init__(self, bot: RuleAgent | None = None) -> None:
        self.params = (bot if bot is not None else RuleAgent()).params
        self.name = "rule"

    def probabilities(self, view: PlayerView, holdings: Index, *, probe: bool = False) -> Floats:
        """One-hot ``(H, 3)``: the rule's action with each holding."""
        legal = view.legal_actions
        if view.street == Street.PREFLOP:
            choice = holding_classes()[holdings].astype(np.intp)
        else:
            hs = hand_strength_all(view.board)[holdings]
            pot_odds = view.to_call / (view.pot + view.to_call) if view.to_call else 0.0
            params = self.params
            choice = np.where(
                hs >= params.raise_threshold,
                Action.RAISE,
                np.where(
                    (hs >= params.call_threshold) | (hs >= pot_odds), Action.CALL, Action.FOLD
                ),
            ).astype(np.intp)
        for action in (Action.FOLD, Action.RAISE):
            if action not in legal:
                choice[choice == action] = Action.CALL
        result = np.zeros((len(holdings), 3))
        result[np.arange(len(holdings)), choice] = 1.0
        return result

    def observe(self, view: PlayerView) -> None:
        """Nothing to learn."""

    def forget(self) -> None:
        """Nothing to forget."""

    def batched(self, num_tables: int) -> BatchedRangePolicy | None:
        """``BatchedVectorRule`` with these thresholds."""
        return BatchedVectorRule(self.params)

    def table_bytes(self, num_seats: int) -> int:
        """Nothing per table."""
        return 0


class ShadowBayesian:
    """A BPP (``BPPAgent`` or ``BPPCurvesAgent``) followed hand by hand (see the module).

    Args:
        agent: A fresh agent with the opponent's settings; this object owns it from now on
            and tells it every hand end the opponent sees.
    """

    def __init__(self, agent: BayesianPlayer) -> None:
        self.agent = agent
        self.name = agent.name
        self.memoryless = not agent.learn

    def probabilities(self, view: PlayerView, holdings: Index, *, probe: bool = False) -> Floats:
        """BPP's probabilities at ``view`` with each holding: once per current hand type."""
        count = len(holdings)
        cards = HOLDINGS[holdings].astype(np.uint8)
        board = np.zeros((count, 5), dtype=np.uint8)
        board[:, : len(view.board)] = view.board
        width = np.full(count, len(view.board), dtype=np.intp)
        types, _ = street_types(cards, board, width)
        _, first, inverse = np.unique(types, return_index=True, return_inverse=True)
        rows = [
            self.agent.action_probabilities(view._replace(hole=(int(a), int(b))))
            for a, b in cards[first]
        ]
        if probe:  # a hand that did not happen: the belief must not keep it
            self.agent.belief.drop_hand()
        return np.asarray(rows, dtype=np.float64)[inverse.reshape(-1)]

    def batched(self, num_tables: int) -> BatchedRangePolicy | None:
        """``BatchedShadowBayesian`` over the BPP's batched twin (None if it has none)."""
        twin = self.agent.batched(num_tables)
        if not isinstance(twin, BatchedBPP | BatchedBPPCurves):
            return None
        return BatchedShadowBayesian(twin, self.name, memoryless=self.memoryless)

    def table_bytes(self, num_seats: int) -> int:
        """The batched BPP's bytes at one table, its ``TypeBelief`` included."""
        twin = self.agent.batched(1)
        if not isinstance(twin, BatchedBPP | BatchedBPPCurves):
            return 0
        twin.model.allocate(num_seats)
        twin.belief.allocate(num_seats)
        return twin.nbytes + TypeBelief(twin.belief.tables, twin.model, num_seats).nbytes

    def observe(self, view: PlayerView) -> None:
        """Tell the shadow the opponent's end of the hand (what it learns from)."""
        self.agent.observe(view)

    def forget(self) -> None:
        """A new match: the shadow forgets its opponent model, as the opponent does."""
        self.agent.belief.forget()
