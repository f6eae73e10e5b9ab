"""``ppo:RUN`` and ``ppo-mixed:RUN``: a training run's model as a seat agent, by spec."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="needs the rl extra")

from envs.match import play_match
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


def test_a_learner_refuses_a_table_of_other_rules(tmp_path: Path) -> None:
    six = ["rule", "call", "raise", "random", "rule"]
    with pytest.raises(ValueError, match=r"trained at a table of 2 seats .* one of 6 seats"):
        play_match([f"ppo:{RUN}", *six], hands=12, seed=0)
    alone = tmp_path / "model.zip"  # no config.json beside it: the network's width decides
    shutil.copy(RUN / "model.zip", alone)
    with pytest.raises(ValueError, match="takes 164 features but a table of 6 seats gives 168"):
        play_match([f"ppo:{alone}", *six], hands=12, seed=0, engine="scalar")
    heads_up = play_match([f"ppo:{alone}", "call"], hands=12, seed=0)
    assert heads_up.results[0].hands == 12


def test_a_broken_run_configuration_is_refused(tmp_path: Path) -> None:
    shutil.copy(RUN / "model.zip", tmp_path / "model.zip")
    (tmp_path / "config.json").write_text('{"steps": 10}')
    with pytest.raises(ValueError, match="not a training run's configuration"):
        make_agent(f"ppo:{tmp_path}")
