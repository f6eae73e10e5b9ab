"""Scoring points on the batched engine: passes, shares, processes, racing, trial values."""

from __future__ import annotations

import os
import signal
from dataclasses import replace

import numpy as np
import pytest

from agents.bpp import BPPParams
from agents.loki.batched_loki import BatchedLoki
from envs.batched.adapter import ScalarTables
from envs.batched.engine import HandBatch
from envs.match.seeded import pass_generator, play_seeded_passes
from envs.registry import make_agent
from tuning.evaluation import (
    EvaluationPasses,
    MatchProtocol,
    Namespace,
    block_values,
    evaluate_points,
    play_share,
)
from tuning.objective import DefaultsBlocks, TrialScore
from tuning.pool import EvaluationPool
from tuning.racing import Racing
from tuning.studies import bpp
from tuning.studies.loki import loki2_spec, loki_spec
from tuning.studies.spec import StudySpec

TINY = MatchProtocol(opponents=("call",), deals_per_block=4, blocks=6, seed=11)
BPP = bpp.spec()
OTHER = bpp.from_params(BPPParams(alpha=0.6, fp=(0.5, 2.0, 2.0, 4.0)))


def test_candidates_share_blocks_and_namespaces_differ() -> None:
    values = evaluate_points(BPP, TINY, Namespace.TUNE, [BPP.defaults, BPP.defaults], range(3))
    assert values.aivat.shape == (2, 3) and values.hands == 3 * TINY.hands_per_block
    assert np.array_equal(values.aivat[0], values.aivat[1])
    assert np.array_equal(values.raw[0], values.raw[1])
    confirm = evaluate_points(BPP, TINY, Namespace.CONFIRM, [BPP.defaults], range(3))
    assert not np.array_equal(values.raw[0], confirm.raw[0])


def test_a_pass_result_does_not_depend_on_what_plays_beside_it() -> None:
    """What makes the values independent of batch sizes, shares and worker counts."""
    protocol = MatchProtocol(opponents=("call", "rule"), deals_per_block=5, blocks=4, seed=2)
    points = [BPP.defaults, OTHER]
    together = evaluate_points(BPP, protocol, Namespace.TUNE, points, [0, 2, 3])
    alone = evaluate_points(BPP, protocol, Namespace.TUNE, [OTHER], [2])
    assert together.aivat[1, 1] == alone.aivat[0, 0] and together.raw[1, 1] == alone.raw[0, 0]
    passes = EvaluationPasses.of(2, [0, 2, 3], 2)
    parts = [
        play_share(BPP, protocol, Namespace.TUNE, points, passes.share(k, 3)) for k in range(3)
    ]
    raw = np.concatenate([p[0] for p in parts])
    corrected = np.concatenate([p[1] for p in parts])
    merged = block_values(protocol, 2, [0, 2, 3], passes, raw, corrected)
    assert np.array_equal(merged.aivat, together.aivat)
    assert np.array_equal(merged.raw, together.raw)


def test_a_pool_of_two_processes_gives_the_values_of_one() -> None:
    points = [BPP.defaults, OTHER]
    with EvaluationPool(BPP, TINY, workers=2) as pool:
        hands: list[int] = []
        shared = pool.evaluate(Namespace.TUNE, points, range(4), hands.append)
        assert pool.cpu_seconds > 0
    local = evaluate_points(BPP, TINY, Namespace.TUNE, points, range(4))
    assert np.array_equal(shared.aivat, local.aivat) and np.array_equal(shared.raw, local.raw)
    assert sum(hands) == 2 * 4 * TINY.hands_per_block


@pytest.mark.parametrize("spec", [loki_spec(), loki2_spec()], ids=["loki", "loki2"])
def test_a_loki_study_plays_its_batched_form_as_one_scalar_agent_per_table(
    spec: StudySpec,
) -> None:
    """Without its batched form a study seats one scalar agent per table (the adapter, each
    agent seeded from (stream seed, role)); the Loki studies' ``BatchedLoki`` with one
    parameter set per table gives the same values."""
    protocol = MatchProtocol(opponents=(spec.agent,), deals_per_block=5, blocks=3, seed=4)
    looser = {**spec.defaults, "preflop_shift": 150.0, "make1": 0.4}
    points = [spec.defaults, looser]
    scalar = replace(spec, batched=None)
    assert isinstance(spec.players(points), BatchedLoki)
    assert isinstance(scalar.players(points), list)
    both = evaluate_points(spec, protocol, Namespace.TUNE, points, range(3))
    one_each = evaluate_points(scalar, protocol, Namespace.TUNE, points, range(3))
    assert np.array_equal(both.raw, one_each.raw)
    assert np.allclose(both.aivat, one_each.aivat, rtol=0, atol=1e-12)
    if spec.agent == "loki":  # deterministic Loki-1 against itself, seats swapped: even
        assert np.all(both.raw[0] == 0.0)
    alone = evaluate_points(spec, protocol, Namespace.TUNE, [looser], range(3))
    assert np.array_equal(alone.raw[0], both.raw[1])


def test_pass_generators_depend_on_the_seed_and_the_role_only() -> None:
    assert pass_generator(5, 1).random() == pass_generator(5, 1).random()
    assert pass_generator(5, 0).random() != pass_generator(5, 1).random()
    assert pass_generator(6, 1).random() != pass_generator(5, 1).random()
    batch = HandBatch(TINY.rules, 2)
    agents = ScalarTables(batch, [make_agent("random") for _ in range(2)])
    call = make_agent("call").batched(2)
    assert call is not None
    totals = play_seeded_passes(batch, [agents, call], [3, 3], 6, [0, 0])
    assert totals.chips[0, 0] == totals.chips[1, 0]  # same seed, same role: same play


def test_racing_drops_only_clearly_worse_candidates() -> None:
    rng = np.random.default_rng(0)
    reference = rng.normal(0.1, 0.05, 32)
    racing = Racing(p_threshold=0.05, min_blocks=8)
    assert racing.clearly_worse(reference - 0.05 + rng.normal(0, 0.01, 32), reference)
    assert not racing.clearly_worse(reference + rng.normal(0, 0.01, 32), reference)
    assert not racing.clearly_worse(reference[:7] - 1.0, reference[:7])  # too few blocks
    assert not racing.clearly_worse(reference, reference)  # no difference at all


def test_a_trial_value_is_its_mean_or_the_defaults_corrected_partial_mean() -> None:
    defaults = DefaultsBlocks(np.array([0.1, 0.3, 0.2, 0.4]), np.array([0.0, 0.4, 0.2, 0.6]))
    full = TrialScore.of(np.array([0.2, 0.3, 0.1, 0.6]), defaults.raw + 0.1, range(4), defaults)
    assert full.value == pytest.approx(0.3) and full.diff == pytest.approx(0.05)
    assert full.raw_diff == pytest.approx(0.1) and full.blocks == 4
    assert full.paired_se == pytest.approx(np.std([0.1, 0.0, -0.1, 0.2], ddof=1) / 2)
    partial = TrialScore.of(np.array([0.2, 0.5]), np.array([0.0, 0.4]), [0, 1], defaults)
    # the defaults' mean over every block (0.25) plus the paired gain on the blocks played
    assert partial.value == pytest.approx(0.25 + 0.15)
    again = DefaultsBlocks.from_attr(defaults.to_attr(), 4)
    assert again is not None and np.array_equal(again.aivat, defaults.aivat)
    assert DefaultsBlocks.from_attr(defaults.to_attr(), 5) is None  # another protocol's


def test_pool_workers_ignore_ctrl_c_while_they_start() -> None:
    """Issue 16: Ctrl-C reaches the whole process group; a worker still importing the agents
    (before it could ignore SIGINT) died with a ``KeyboardInterrupt`` traceback."""
    with EvaluationPool(BPP, TINY, workers=2) as pool:
        for process in pool._processes:
            os.kill(process.pid, signal.SIGINT)  # at once: the worker is starting up
        shared = pool.evaluate(Namespace.TUNE, [BPP.defaults], range(2))
        assert all(process.is_alive() for process in pool._processes)
    local = evaluate_points(BPP, TINY, Namespace.TUNE, [BPP.defaults], range(2))
    assert np.array_equal(shared.raw, local.raw)


def test_a_table_of_more_seats_scores_the_candidate_over_every_seating() -> None:
    from envs.match import play_match
    from tuning.evaluation import block_seed

    protocol = MatchProtocol(
        opponents=("call", "rule", "call"), seats=4, deals_per_block=6, blocks=3, seed=5
    )
    assert protocol.lineups == (("call", "rule", "call"),)
    assert protocol.rules.num_seats == 4 and protocol.hands_per_block == 24
    values = evaluate_points(BPP, protocol, Namespace.TUNE, [BPP.defaults], range(3))
    assert values.hands == 3 * 24
    for block in range(3):
        # A block is a one-session duplicate match at the table, seeded by the block.
        seed = block_seed(protocol.seed, Namespace.TUNE, block)
        match = play_match(
            ["bpp", "call", "rule", "call"], hands=24, seed=seed, rules=protocol.rules
        )
        assert match.deal_chips is not None
        chips = match.deal_chips[:, 0].sum() / (24 * protocol.small_bet)
        assert values.raw[0, block] == pytest.approx(chips, abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": ("call", "rule"), "seats": 4}, "a 4-seat table needs 3 opponents"),
        ({"opponents": ("call",) * 10, "seats": 11}, "seats must be 2 to 10"),
        ({"opponents": ("call",), "seats": 1}, "seats must be"),
        ({"opponents": ("call", "call")}, "opponents repeat"),
    ],
)
def test_bad_tables_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MatchProtocol(**kwargs)  # type: ignore[arg-type]
