"""Training sessions: tables start afresh (new opponents' memory) every ``session_hands``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tuning.training.config import TrainConfig
from tuning.training.sb3_env import HoldemVecEnv


def _play(env: HoldemVecEnv, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    env.seed(5)
    seen = [env.reset()]
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        features, _, _, _ = env.step(actions)
        seen.append(features)
    return seen


def test_tables_start_new_matches_every_session(monkeypatch: pytest.MonkeyPatch) -> None:
    env = HoldemVecEnv(3, ["bpp"], session_hands=4, session_seed=11)
    started: list[list[int]] = []
    original = env.tables.tables.new_matches

    def recording(rows: Any, generators: Any) -> None:
        started.append(sorted(np.asarray(rows).tolist()))
        original(rows, generators)

    monkeypatch.setattr(env.tables.tables, "new_matches", recording)
    _play(env, 80)
    first, later = started[0], [t for rows in started[1:] for t in rows]
    assert first == [0, 1, 2]  # SB3's reset
    assert set(later) == {0, 1, 2} and 4 * len(later) <= env.hands  # a session: >= 4 hands
    assert env._sessions.sum() == len(later)


def test_sessions_are_reproducible_and_observations_are_the_new_hands() -> None:
    runs = [_play(HoldemVecEnv(2, ["bpp"], session_hands=3, session_seed=7), 60) for _ in (0, 1)]
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    other = _play(HoldemVecEnv(2, ["bpp"], session_hands=3, session_seed=8), 60)
    assert not all(np.array_equal(a, b) for a, b in zip(runs[0], other, strict=True))
    plain = _play(HoldemVecEnv(2, ["bpp"]), 60)
    assert not all(np.array_equal(a, b) for a, b in zip(runs[0], plain, strict=True))


def test_session_hands_must_be_positive() -> None:
    with pytest.raises(ValueError, match="session_hands"):
        TrainConfig(opponents=("bpp",), steps=10, seed=1, session_hands=0)
    old = TrainConfig.from_dict({"opponents": ["bpp"], "steps": 1, "seed": 0})
    assert old.session_hands is None
