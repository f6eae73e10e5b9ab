"""Decision-level common random numbers: scalar and vectorised uniforms agree, are uniform,
and sampling by inverse CDF follows the probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from envs.crn import (
    check_probabilities,
    decision_uniform,
    decision_uniforms,
    hand_key,
    sample_action,
    sample_actions,
    uniform_at,
)
from envs.rules import Action


def test_scalar_and_vectorised_uniforms_are_identical() -> None:
    rng = np.random.default_rng(1)
    seeds = rng.integers(0, 2**63, 500, dtype=np.uint64)
    deals = rng.integers(0, 10**9, 500)
    seats = rng.integers(0, 10, 500)
    decisions = rng.integers(0, 40, 500)
    scalar = [
        decision_uniform(int(s), int(d), int(t), int(k))
        for s, d, t, k in zip(seeds, deals, seats, decisions, strict=True)
    ]
    assert decision_uniforms(seeds, deals, seats, decisions).tolist() == scalar
    assert [
        uniform_at(hand_key(int(s), int(d)), int(t), int(k))
        for s, d, t, k in zip(seeds, deals, seats, decisions, strict=True)
    ] == scalar


def test_every_part_of_the_key_changes_the_uniform_and_streams_are_apart() -> None:
    base = decision_uniform(5, 10, 1, 2)
    assert base != decision_uniform(6, 10, 1, 2)
    assert base != decision_uniform(5, 11, 1, 2)
    assert base != decision_uniform(5, 10, 0, 2)
    assert base != decision_uniform(5, 10, 1, 3)
    assert base != decision_uniform(5, 10, 1, 2, stream=1)


def test_uniforms_are_uniform_and_uncorrelated_between_neighbours() -> None:
    u = decision_uniforms(2026, np.arange(400_000), 1, 0)
    counts = np.bincount((u * 20).astype(int), minlength=20)
    expected = len(u) / 20
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 43.8  # 99.9% quantile of chi-square with 19 degrees of freedom
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01
    seat1 = decision_uniforms(2026, np.arange(100_000), 1, 0)
    seat0 = decision_uniforms(2026, np.arange(100_000), 0, 0)
    assert abs(np.corrcoef(seat0, seat1)[0, 1]) < 0.02


def test_inverse_cdf_sampling_follows_the_probabilities() -> None:
    p = np.array([0.2, 0.5, 0.3])
    u = decision_uniforms(3, np.arange(200_000), 0, 0)
    actions = sample_actions(np.tile(p, (len(u), 1)), u)
    freq = np.bincount(actions, minlength=3) / len(u)
    assert np.allclose(freq, p, atol=0.005)
    assert [sample_action(p, float(x)) for x in u[:2000]] == [Action(a) for a in actions[:2000]]


@pytest.mark.parametrize(
    ("probabilities", "expected"),
    [((0.0, 1.0, 0.0), Action.CALL), ((1.0, 0.0, 0.0), Action.FOLD), ((0, 0, 1), Action.RAISE)],
)
def test_certain_actions_are_taken_whatever_the_uniform(
    probabilities: tuple[float, float, float], expected: Action
) -> None:
    for u in (0.0, 0.5, 1.0 - 2.0**-53):
        assert sample_action(probabilities, u) is expected


def test_probabilities_on_illegal_actions_or_not_summing_to_one_are_refused() -> None:
    legal = np.array([[False, True, True]])
    check_probabilities(np.array([[0.0, 0.4, 0.6]]), legal, "x")
    with pytest.raises(ValueError, match="not a distribution over its legal actions"):
        check_probabilities(np.array([[0.1, 0.3, 0.6]]), legal, "x")
    with pytest.raises(ValueError, match="agent 'x'"):
        check_probabilities(np.array([[0.0, 0.5, 0.6]]), legal, "x")
    with pytest.raises(ValueError):
        check_probabilities(np.array([[0.0, np.nan, 1.0]]), legal, "x")
