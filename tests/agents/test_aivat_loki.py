"""AIVAT at Loki's decisions: Loki-1's rules are certain (no decision term), and Loki-2's
conditioned triples give decision terms of mean zero, as the corrections must for the
estimate to stay unbiased. They do because the runners draw each action from the stated
probabilities with a uniform independent of the hand so far (the residual of the per-hand
uniform, ``envs.crn``); that the actions are then those of Pena's single draw is tested in
``tests/envs/test_hand_uniform.py`` and ``tests/agents/test_loki_known_policy.py``.

The hands are played by the batched runners' loop (``envs.match.passes.run_passes``) against
the deterministic ``rule`` bot, so every decision term of a hand comes from Loki's seat.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from agents.loki import Betting, Loki, Loki2, LokiParams, Reweighting
from envs.aivat import PlayedHands, concatenate
from envs.aivat.estimator import DECISIONS, aivat_terms
from envs.batched.engine import HandBatch
from envs.match.hands import FinishedHands
from envs.match.passes import run_passes
from envs.match.seeded import SeededPasses
from envs.protocols import BatchedAgent
from envs.registry import make_agent
from envs.rules import Rules

TABLES, DEALS = 1500, 24


class Collected:
    """Books that keep every finished hand's AIVAT record (one window: all deals)."""

    aivat = True

    def __init__(self, passes: SeededPasses) -> None:
        self.window_end = passes.deals
        self.expected = len(passes) * passes.deals
        self.records: list[PlayedHands] = []
        self.booked = 0
        self.closed = False

    @property
    def window_complete(self) -> bool:
        return self.booked == self.expected

    @property
    def done(self) -> bool:
        return self.closed

    def add(self, hands: FinishedHands, passes: npt.NDArray[np.int64]) -> None:
        assert hands.played is not None
        self.records.append(hands.played)
        self.booked += len(passes)

    def close_window(self) -> None:
        self.closed = True


WIDE = LokiParams(betting=Betting.TRIPLES, reweighting=Reweighting.TRIPLES, triple_width=0.15)
"""A Loki-2 whose triples blend over three times the published width: more mixed decisions."""


def decision_terms(loki: Loki, seed: int) -> npt.NDArray[np.float64]:
    """Per hand, the decision terms of Loki's value (seat 0, against ``rule`` in seat 1)."""
    rules = Rules()
    batch = HandBatch(rules, TABLES)
    agents: list[BatchedAgent] = []
    for agent in (loki, make_agent("rule")):
        twin = agent.batched(TABLES)  # type: ignore[attr-defined]
        assert twin is not None
        agents.append(twin)
    seeds = np.arange(TABLES, dtype=np.uint64) + np.uint64(seed * TABLES)
    passes = SeededPasses(seeds, np.zeros(TABLES, dtype=np.int64), DEALS)
    books = Collected(passes)
    run_passes(batch, agents, passes, books)
    terms = aivat_terms(rules, concatenate(books.records), samples=4)
    return terms[:, DECISIONS, 0]


def test_loki1_decisions_get_no_term() -> None:
    terms = decision_terms(Loki(), 1)
    assert np.array_equal(terms, np.zeros_like(terms))


@pytest.mark.parametrize(("loki", "seed"), [(Loki2(), 2), (Loki2(WIDE), 3)], ids=["loki2", "wide"])
def test_loki2_decision_terms_have_mean_zero(loki: Loki, seed: int) -> None:
    terms = decision_terms(loki, seed)
    mixed = terms[terms != 0.0]
    assert len(mixed) > 500  # decisions where the triples mix
    error = mixed.std(ddof=1) / np.sqrt(len(mixed))
    assert abs(mixed.mean()) < 4 * error, (mixed.mean(), error)
