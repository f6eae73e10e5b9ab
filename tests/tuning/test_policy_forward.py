"""The learner's probabilities come from a NumPy copy of its actor network: the same logits as
torch's forward pass, for any hidden layers SB3 builds, and current after training steps."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl extra")

from tuning.training.policy import policy_probabilities  # noqa: E402
from tuning.training.sb3_env import HoldemVecEnv  # noqa: E402


def torch_probabilities(model: object, features: np.ndarray, legal: np.ndarray) -> np.ndarray:
    policy = model.policy  # type: ignore[attr-defined]
    with torch.no_grad():
        latent = policy.mlp_extractor.forward_actor(torch.as_tensor(features))
        logits = policy.action_net(latent).numpy().astype(np.float64)
    logits = np.where(legal, logits, -np.inf)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


def a_model(activation: type[torch.nn.Module], layers: list[int]) -> object:
    venv = HoldemVecEnv(2, ["call"])
    kwargs = {"net_arch": layers, "activation_fn": activation}
    return sb3_contrib.MaskablePPO(
        "MlpPolicy", venv, n_steps=16, batch_size=16, seed=3, device="cpu", policy_kwargs=kwargs
    )


def rows(model: object, count: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    size = model.observation_space.shape[0]  # type: ignore[attr-defined]
    features = rng.normal(size=(count, size)).astype(np.float32)
    legal = rng.random((count, 3)) < 0.8
    legal[:, 1] = True  # check or call is always legal
    return features, legal


@pytest.mark.parametrize(
    ("activation", "layers"),
    [(torch.nn.Tanh, [64, 64]), (torch.nn.ReLU, [32]), (torch.nn.Tanh, [])],
)
def test_the_numpy_actor_gives_torch_probabilities(
    activation: type[torch.nn.Module], layers: list[int]
) -> None:
    model = a_model(activation, layers)
    features, legal = rows(model, 50)
    expected = torch_probabilities(model, features, legal)
    for count in (1, 50):  # one decision (the scalar engine) and a batch
        got = policy_probabilities(model, features[:count], legal[:count])
        np.testing.assert_allclose(got, expected[:count], rtol=0, atol=1e-6)
        assert (got[~legal[:count]] == 0).all()


def test_the_numpy_actor_follows_training_and_copies_keep_their_own_weights() -> None:
    model = a_model(torch.nn.Tanh, [16])
    features, legal = rows(model, 20)
    before = policy_probabilities(model, features, legal)
    twin = copy.deepcopy(model)
    with torch.no_grad():  # what an optimiser step does: the tensors change in place
        for parameter in model.policy.parameters():  # type: ignore[attr-defined]
            parameter.add_(0.5)
    after = policy_probabilities(model, features, legal)
    assert np.abs(after - before).max() > 1e-3
    np.testing.assert_allclose(after, torch_probabilities(model, features, legal), atol=1e-6)
    np.testing.assert_allclose(policy_probabilities(twin, features, legal), before, atol=1e-6)
