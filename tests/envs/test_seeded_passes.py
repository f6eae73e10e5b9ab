"""Independent seeded passes side by side (what tuning studies evaluate) equal matches hand by
hand."""

from __future__ import annotations

import numpy as np

from agents.batched_baselines import BatchedCall, BatchedRule
from agents.bpp import BPPAgent, BPPParams
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from envs.batched.engine import HandBatch
from envs.match import play_match
from envs.match.seeded import play_seeded_passes
from envs.rules import Rules


def test_a_pair_of_passes_is_a_one_session_duplicate_match() -> None:
    for seed in (3, 8):
        match = play_match(["bpp", "bpp-curves"], hands=160, seed=seed, estimator="aivat")
        totals = play_seeded_passes(
            HandBatch(Rules(), 2),
            [BatchedBPP(2), BatchedBPPCurves(2)],
            [seed, seed],
            80,
            [0, 1],
            aivat=True,
        )
        assert match.deal_chips is not None and match.deal_aivat is not None
        assert totals.chips.sum(axis=0).tolist() == match.deal_chips.sum(axis=0).tolist()
        assert totals.corrected is not None
        assert np.allclose(totals.corrected.sum(axis=0), match.deal_aivat.sum(axis=0))
        assert totals.hands.tolist() == [80, 80]


def test_passes_with_per_table_parameters_match_their_own_matches() -> None:
    params = [BPPParams(fp=2.0), BPPParams(fp=6.0, alpha=0.7)]
    seeds, rotations = [5, 5, 9, 9], [0, 1, 0, 1]
    per_table = [params[0], params[0], params[1], params[1]]
    totals = play_seeded_passes(
        HandBatch(Rules(), 4), [BatchedBPP(4, per_table), BatchedRule(4)], seeds, 40, rotations
    )
    for k, p in enumerate(params):
        match = play_match([BPPAgent(p), "rule"], hands=80, seed=seeds[2 * k])
        assert match.deal_chips is not None
        assert totals.chips[2 * k : 2 * k + 2].sum(axis=0).tolist() == (
            match.deal_chips.sum(axis=0).tolist()
        )


def test_corrections_are_zero_sum_and_passes_are_independent_of_their_neighbours() -> None:
    alone = play_seeded_passes(
        HandBatch(Rules(), 1), [BatchedCall(1), BatchedRule(1)], [4], 30, [1], aivat=True
    )
    crowd = play_seeded_passes(
        HandBatch(Rules(), 3),
        [BatchedCall(3), BatchedRule(3)],
        [7, 4, 7],
        30,
        [0, 1, 1],
        aivat=True,
    )
    assert alone.chips[0].tolist() == crowd.chips[1].tolist()
    assert crowd.corrected is not None
    assert np.allclose(crowd.corrected.sum(axis=1), 0.0)
