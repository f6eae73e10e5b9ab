"""Golden features and policy: a saved learner plays as it did when it was recorded.

``golden/policy.npz`` holds, for seeded decisions, the features the learner policy computes
(scalar ``PolicyAgent`` and batched ``BatchedPolicy``) at 2, 3, 6 and 10 seats, and the
probabilities and actions of the saved ``results/ppo-call-s1/model.zip`` at heads-up decisions,
all recorded by the code of the commit that added the file. After a deliberate change to the
observation or the features, regenerate it with ``HOLDEM_LAB_UPDATE_GOLDEN=1 pytest`` and
review the change like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from envs.batched.views import decision_batch
from envs.deals import deal_deck
from envs.game import Hand
from envs.rules import Action, Rules
from envs.view import PlayerView

sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl extra")

from tuning.training.policy import BatchedPolicy, PolicyAgent  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "policy.npz"
MODEL = Path(__file__).parents[2] / "results" / "ppo-call-s1" / "model.zip"


def decisions(num_seats: int, count: int) -> list[PlayerView]:
    """The actor's view at ``count`` decisions of seeded hands (every seat, every street)."""
    rules = Rules(num_seats=num_seats)
    rng = np.random.default_rng(num_seats + 100)
    views: list[PlayerView] = []
    h = 0
    while len(views) < count:
        hand = Hand(rules, deal_deck(31, h), button=h % num_seats, hand_id=h)
        h += 1
        while (actor := hand.actor) is not None and len(views) < count:
            views.append(hand.view(actor))
            legal = hand.legal_actions()
            u = float(rng.random())
            if Action.FOLD in legal and u < 0.1:
                hand.act(Action.FOLD)
            else:
                hand.act(Action.RAISE if Action.RAISE in legal and u > 0.6 else Action.CALL)
    return views


def scalar_features(views: list[PlayerView]) -> np.ndarray:
    """The features ``PolicyAgent`` computes for each view, stacked."""
    agent = PolicyAgent(model=None)
    return np.concatenate([agent.features(view) for view in views])


def batched_features(views: list[PlayerView]) -> np.ndarray:
    """The features ``BatchedPolicy`` computes for the views as one decision batch."""
    return BatchedPolicy(None, len(views)).features(decision_batch(views, range(len(views))))


def current() -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    for num_seats in (2, 3, 6, 10):
        views = decisions(num_seats, 80)
        arrays[f"features/{num_seats}/scalar"] = scalar_features(views)
        arrays[f"features/{num_seats}/batched"] = batched_features(views)
    model = sb3_contrib.MaskablePPO.load(MODEL, device="cpu")
    views = decisions(2, 200)
    batch = decision_batch(views, range(len(views)))
    for deterministic in (False, True):
        mode = "deterministic" if deterministic else "stochastic"
        agent = PolicyAgent(model, deterministic=deterministic)
        arrays[f"model/{mode}/scalar"] = np.array(
            [agent.action_probabilities(view) for view in views]
        )
        batched = BatchedPolicy(model, len(views), deterministic=deterministic)
        arrays[f"model/{mode}/batched"] = batched.probabilities(batch)
    return arrays


def test_the_policy_computes_the_recorded_features_and_probabilities() -> None:
    got = current()
    if os.environ.get("HOLDEM_LAB_UPDATE_GOLDEN") == "1":
        np.savez_compressed(GOLDEN, **got)
    with np.load(GOLDEN) as golden:
        assert sorted(golden.files) == sorted(got)
        for name in golden.files:
            assert got[name].dtype == golden[name].dtype, name
            if name.startswith("features/"):
                np.testing.assert_array_equal(got[name], golden[name], err_msg=name)
            else:  # float32 network: summation order may vary with the BLAS build
                np.testing.assert_allclose(got[name], golden[name], rtol=0, atol=1e-6)
        for mode in ("scalar", "batched"):
            actions = golden[f"model/deterministic/{mode}"].argmax(axis=1)
            assert (got[f"model/deterministic/{mode}"].argmax(axis=1) == actions).all(), mode
            assert (got[f"model/stochastic/{mode}"].argmax(axis=1) == actions).all(), mode
    # The recorded decisions are not all alike: the saved model checks or calls at some, bets
    # or raises at others (against a calling station it never folds).
    assert set(got["model/deterministic/scalar"].argmax(axis=1).tolist()) == {1, 2}
