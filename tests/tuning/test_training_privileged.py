"""The asymmetric actor-critic: the value network reads the opponents' own features, the
policy network only the learner's, in training and at play time alike."""

from __future__ import annotations

import numpy as np
import pytest
import torch

sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl extra")

from envs.rules import Rules  # noqa: E402
from tuning.training.observation_features import FeatureEncoder  # noqa: E402
from tuning.training.policy import fitting_encoder, policy_probabilities  # noqa: E402
from tuning.training.privileged import AsymmetricPolicy, PublicColumns  # noqa: E402
from tuning.training.sb3_env import HoldemVecEnv  # noqa: E402


def a_model(venv: HoldemVecEnv) -> object:
    return sb3_contrib.MaskablePPO(
        AsymmetricPolicy,
        venv,
        n_steps=16,
        batch_size=16,
        seed=3,
        device="cpu",
        policy_kwargs={"features_extractor_kwargs": {"public": venv.public_size}},
    )


@pytest.mark.parametrize("opponents", [["call"], ["rule", "call"]])
def test_the_critics_columns_are_each_opponents_own_features(opponents: list[str]) -> None:
    venv = HoldemVecEnv(6, opponents, privileged_critic=True)
    venv.seed(11)
    features = venv.reset()
    size = FeatureEncoder(venv.tables.rules).size
    assert venv.public_size == size
    assert features.shape == (6, size * (1 + len(opponents)))
    batch = venv.tables.tables.batch
    cards = FeatureEncoder(venv.tables.rules).blocks["cards"]
    for seat in range(len(opponents) + 1):  # seat 0: the learner's own columns
        block = features[:, seat * size : (seat + 1) * size]
        for table in range(6):
            holes = np.flatnonzero(block[table, cards][:52]).tolist()
            assert holes == sorted(batch.deck[table, 2 * seat : 2 * seat + 2].tolist())
    for _ in range(20):  # the block follows the tables through hands and their ends
        masks = venv.action_masks()
        features, _, done, infos = venv.step(masks.argmax(axis=1))
        for i in np.flatnonzero(done):
            assert infos[i]["terminal_observation"].shape == features[i].shape
            assert not infos[i]["terminal_observation"][size:].any()


def test_the_policy_ignores_the_critics_columns_and_the_critic_reads_them() -> None:
    venv = HoldemVecEnv(2, ["call"], privileged_critic=True)
    model = a_model(venv)
    policy = model.policy  # type: ignore[attr-defined]
    size = venv.public_size
    rng = np.random.default_rng(4)
    rows = rng.normal(size=(32, 2 * size)).astype(np.float32)
    other = rows.copy()
    other[:, size:] = rng.normal(size=(32, size))
    legal = np.ones((32, 3), dtype=bool)
    with torch.no_grad():
        a = policy.get_distribution(torch.as_tensor(rows)).distribution.probs.numpy()
        b = policy.get_distribution(torch.as_tensor(other)).distribution.probs.numpy()
        va = policy.predict_values(torch.as_tensor(rows)).numpy()
        vb = policy.predict_values(torch.as_tensor(other)).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(va, vb)
    # At play time the actor is fed the learner's columns alone: the same distribution.
    np.testing.assert_allclose(policy_probabilities(model, rows[:, :size], legal), a, atol=1e-6)
    assert fitting_encoder(model, Rules(), None, "ppo").size == size


def test_public_columns_are_checked() -> None:
    space = HoldemVecEnv(1, ["call"]).observation_space
    with pytest.raises(ValueError, match="public columns"):
        PublicColumns(space, 0)  # type: ignore[arg-type]
