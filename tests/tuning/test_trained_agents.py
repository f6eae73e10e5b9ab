"""``ppo:RUN`` and ``ppo-mixed:RUN``: a training run's model as a seat agent, by spec."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="needs the rl extra")

from envs.registry import check_spec, make_agent
from tuning.training.policy import PolicyAgent

RUN = Path(__file__).resolve().parents[2] / "results" / "ppo-call-s1"


def test_a_run_directory_and_its_model_file_give_the_same_policy() -> None:
    deterministic = make_agent(f"ppo:{RUN}")
    mixed = make_agent(f"ppo-mixed:{RUN / 'model.zip'}")
    assert isinstance(deterministic, PolicyAgent) and isinstance(mixed, PolicyAgent)
    assert deterministic.deterministic and not mixed.deterministic
    assert deterministic.model is mixed.model  # loaded once, shared, frozen
    assert deterministic.name == f"ppo:{RUN}"


def test_a_learner_needs_its_file_and_says_so(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="agent 'ppo' needs a file"):
        check_spec("ppo")
    with pytest.raises(ValueError, match="no trained model at"):
        make_agent(f"ppo:{tmp_path}")
