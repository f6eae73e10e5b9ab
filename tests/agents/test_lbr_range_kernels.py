"""The batched local best response's range kernels against their formulas in NumPy.

``absorb_actions`` and ``check_down_values`` clear the board's cards from each row in the
pass that reads it, take the opponent's probabilities per distinct answer row, and (the
values) sum our raise's value from two coefficients per answer row. Here each is checked on
random ranges, equities and answers against the plain formulas: Bayes' rule element by
element, and the check-down value of a raise (Lisy and Bowling 2017, Algorithm 1) holding by
holding, in the three cases of an answer (per-holding rows, one row for every holding, and
no answer where the opponent is all-in).
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.lbr.range_kernels import absorb_actions, check_down_values, clear_cards
from agents.strength.holdings import NUM_HOLDINGS, PAIR_INDEX, dead_mask

TABLES, ROWS, GROUPS = 12, 9, 5


def _inputs(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    weights = rng.random((TABLES, NUM_HOLDINGS))
    weights[rng.random(weights.shape) < 0.2] = 0.0
    cards = np.stack([rng.permutation(52)[:5] for _ in range(ROWS)]).astype(np.uint8)
    answers = rng.random((ROWS, GROUPS, 3))
    answers[0, :, 1] = 0.0  # an action no holding plays at row 0's decision
    answers /= answers.sum(axis=2, keepdims=True)
    return {
        "weights": weights,
        "equity": rng.random((TABLES, NUM_HOLDINGS)),
        "tables": rng.permutation(TABLES)[:ROWS].astype(np.intp),
        "cards": cards,
        "counts": rng.choice([0, 3, 4, 5], ROWS).astype(np.int8),
        "answers": answers,
        "group": rng.integers(0, GROUPS, (ROWS, NUM_HOLDINGS)).astype(np.int8),
        "actions": np.array([1, *rng.integers(0, 3, ROWS - 1)], dtype=np.intp),
    }


def _cleared(x: dict[str, np.ndarray]) -> np.ndarray:
    """The weights with each row's first ``counts`` cards cleared, in NumPy."""
    weights = x["weights"].copy()
    for i, t in enumerate(x["tables"]):
        weights[t, dead_mask(x["cards"][i, : x["counts"][i]].tolist())] = 0.0
    return weights


def test_clear_cards_zeroes_exactly_the_holdings_through_the_cards() -> None:
    x = _inputs(0)
    weights = x["weights"].copy()
    clear_cards(weights, x["tables"], x["cards"], x["counts"], PAIR_INDEX)
    assert np.array_equal(weights, _cleared(x))


@pytest.mark.parametrize("shared", [False, True])
def test_absorb_actions_is_bayes_rule_after_clearing(shared: bool) -> None:
    x = _inputs(1)
    group = np.zeros((0, 0), dtype=np.int8) if shared else x["group"]
    weights = x["weights"].copy()
    possible = absorb_actions(
        weights, x["tables"], x["answers"], group, x["actions"], x["cards"], x["counts"],
        PAIR_INDEX,
    )  # fmt: skip
    expected = _cleared(x)
    for i, t in enumerate(x["tables"]):
        rows = np.zeros(NUM_HOLDINGS, dtype=np.intp) if shared else x["group"][i]
        p = x["answers"][i, rows, x["actions"][i]]
        total = (expected[t] * p).sum()
        assert possible[i] == (total > 0)
        if total > 0:
            expected[t] = expected[t] * (p / total)
    assert not possible[0]  # nobody plays row 0's action: the row is left cleared
    np.testing.assert_allclose(weights, expected, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize("shared", [False, True])
def test_check_down_values_follow_the_formula(shared: bool) -> None:
    x = _inputs(2)
    rng = np.random.default_rng(3)
    group = np.zeros((0, 0), dtype=np.int8) if shared else x["group"]
    pot, to_call = rng.integers(2, 40, ROWS) * 1.0, rng.choice([0.0, 2.0, 4.0], ROWS)
    raising = np.array([0, 2, 3, 5, 8], dtype=np.intp)
    bet = rng.choice([2.0, 4.0], len(raising))
    answered = np.array([True, False, True, True, True])
    answer_row = np.array([4, 0, 1, 0, 6], dtype=np.intp)
    weights = x["weights"].copy()
    wp, raised = np.empty(ROWS), np.empty(len(raising))
    check_down_values(
        weights, x["equity"], x["tables"], pot, to_call, raising, bet, answered, answer_row,
        x["answers"], group, x["cards"], x["counts"], PAIR_INDEX, wp, raised,
    )  # fmt: skip
    cleared = _cleared(x)
    np.testing.assert_array_equal(weights, cleared)
    for i, t in enumerate(x["tables"]):
        share, e = cleared[t] / cleared[t].sum(), x["equity"][t]
        assert wp[i] == pytest.approx(share @ e, rel=1e-12)
        if i not in raising:
            continue
        j = int(np.flatnonzero(raising == i)[0])
        p, c, b = pot[i], to_call[i], bet[j]
        called = e * (p + c + 2 * b) - (c + b)
        if answered[j]:
            a = answer_row[j]
            rows = x["answers"][a, 0 if shared else x["group"][a]]
            reraised = e * (p + c + 4 * b) - (c + 2 * b)
            called = rows[..., 0] * p + rows[..., 1] * called + rows[..., 2] * reraised
        assert raised[j] == pytest.approx(share @ called, rel=1e-12, abs=1e-12)
