"""Trained learners as seat agents by spec: ``ppo:RUN`` and ``ppo-mixed:RUN``.

``RUN`` is a training run's directory (``holdem-lab train --run-dir``; its ``model.zip``) or
the model file itself. ``ppo`` plays the most probable legal action of the policy
(deterministic), ``ppo-mixed`` states the masked distribution and the runners draw from it.
A model refuses to sit at a table of other rules than its run's (``config.json`` beside it)
or whose features do not fit its network. Registered under the entry-point group
``holdem_lab.agent_files``; each process loads a model once (per path and modification
time) and every agent built from it shares it, frozen.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from envs.rules import Rules
from tuning.training.policy import PolicyAgent

__all__ = ["ppo_file", "ppo_mixed_file"]

MODEL = "model.zip"
CONFIG = "config.json"


def _model_path(path: str) -> Path:
    file = Path(path)
    if file.is_dir():
        file = file / MODEL
    if not file.is_file():
        raise ValueError(f"no trained model at {path!r} (a training run directory or its {MODEL})")
    return file.resolve()


@cache
def _load(file: Path, modified: float) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ValueError(
            "playing a trained model needs the rl extra: pip install 'holdem-lab[rl]'"
        ) from None
    return MaskablePPO.load(file, device="cpu")


def _trained_for(file: Path) -> Rules | None:
    """The rules of the run that saved ``file``: its opponents plus the learner's seat, read
    from the run's ``config.json`` beside it (None for a model file without one)."""
    config = file.parent / CONFIG
    if not config.is_file():
        return None
    try:
        opponents = json.loads(config.read_text())["opponents"]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise ValueError(f"{config} is not a training run's configuration: {error}") from None
    return Rules(num_seats=1 + len(opponents))


def _agent(path: str, *, deterministic: bool, name: str) -> PolicyAgent:
    file = _model_path(path)
    model = _load(file, file.stat().st_mtime)
    return PolicyAgent(
        model, deterministic=deterministic, name=f"{name}:{path}", trained_for=_trained_for(file)
    )


def ppo_file(path: str) -> PolicyAgent:
    """The trained policy of ``path``, its most probable legal action."""
    return _agent(path, deterministic=True, name="ppo")


def ppo_mixed_file(path: str) -> PolicyAgent:
    """The trained policy of ``path``, its masked distribution (the runner draws)."""
    return _agent(path, deterministic=False, name="ppo-mixed")
