"""The structure of a match, shared by both engines: sessions, rotations, deals and seeds.

A match of ``n`` agents has ``sessions`` independent sessions of ``deals_per_session`` deals.
Session ``k`` holds deals ``k * D .. (k + 1) * D - 1`` (global deal numbers). In duplicate mode
each deal is played once per rotation ``r = 0 .. n - 1``, rotation ``r`` seating agent ``j`` at
seat ``(j + r) % n``; otherwise once, agent ``j`` in seat ``j``. The button of deal ``d`` is
seat ``d % n`` whatever the rotation, and the hand number is ``r * deals + d``.

Every (session, rotation) pair is one pass of fresh agents over the session's deals in order:
at its start each agent ``j`` is reset with a generator from
``SeedSequence([seed, 1, session, rotation]).spawn(n)[j]``, and it keeps its memory from hand
to hand within the pass, so learning agents learn. The passes are independent, so an engine may
play them in any order, or side by side: that is what lets the batched engine play one table
per pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from envs.validation import whole_number

__all__ = ["AGENT_STREAM", "MatchPlan"]

AGENT_STREAM = 1
"""Seed namespace of the agents' generators, apart from the deals'."""


@dataclass(frozen=True)
class MatchPlan:
    """Sessions, rotations and deals of a match (see the module docstring)."""

    num_agents: int
    seed: int
    duplicate: bool
    sessions: int
    deals_per_session: int
    decision_seed: int | None = None
    """Seed of the decisions' common random numbers; ``None``: ``seed``."""

    @property
    def decisions(self) -> int:
        """The seed of the decisions' uniforms."""
        return self.seed if self.decision_seed is None else self.decision_seed

    @classmethod
    def for_hands(
        cls,
        num_agents: int,
        hands: int,
        *,
        seed: int,
        duplicate: bool,
        sessions: int,
        decision_seed: int | None = None,
    ) -> MatchPlan:
        """The smallest plan with at least ``hands`` hands in ``sessions`` equal sessions.

        Raises:
            ValueError: when ``sessions`` exceeds the deals the hands need.
        """
        hands = whole_number("hands", hands, minimum=1)
        sessions = whole_number("sessions", sessions, minimum=1)
        rotations = num_agents if duplicate else 1
        deals = math.ceil(hands / rotations)
        if sessions > deals:
            raise ValueError(
                f"{sessions} sessions need at least {sessions} deals, but {hands} hands make "
                f"only {deals} deal(s) of {rotations} hand(s)"
            )
        return cls(
            num_agents, seed, duplicate, sessions, math.ceil(deals / sessions), decision_seed
        )

    @property
    def rotations(self) -> int:
        """Seatings of each deal: ``n`` in duplicate mode, else 1."""
        return self.num_agents if self.duplicate else 1

    @property
    def deals(self) -> int:
        """Deals of the whole match."""
        return self.sessions * self.deals_per_session

    @property
    def hands(self) -> int:
        """Hands of the whole match."""
        return self.deals * self.rotations

    def seat_of(self, agent: int, rotation: int) -> int:
        """The seat of agent ``agent`` in rotation ``rotation``."""
        return (agent + rotation) % self.num_agents

    def seating(self, rotation: int) -> tuple[int, ...]:
        """The agent in each seat during rotation ``rotation``."""
        n = self.num_agents
        return tuple((s - rotation) % n for s in range(n))

    def hand_id(self, rotation: int, deal: int) -> int:
        """The number of the hand of ``deal`` in ``rotation`` (unique in the match)."""
        return rotation * self.deals + deal

    def agent_streams(self, session: int, rotation: int) -> list[np.random.SeedSequence]:
        """The seed sequences of the agents' generators for one pass."""
        return np.random.SeedSequence([self.seed, AGENT_STREAM, session, rotation]).spawn(
            self.num_agents
        )
