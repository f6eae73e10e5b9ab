"""Trained learners as seat agents by spec: ``ppo:RUN`` and ``ppo-mixed:RUN``.

``RUN`` is a training run's directory (``holdem-lab train --run-dir``; its ``model.zip``) or
the model file itself. ``ppo`` plays the most probable legal action of the policy
(deterministic), ``ppo-mixed`` states the masked distribution and the runners draw from it.
Registered under the entry-point group ``holdem_lab.agent_files``; each process loads a model
once (per path and modification time) and every agent built from it shares it, frozen.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tuning.training.policy import PolicyAgent

__all__ = ["ppo_file", "ppo_mixed_file"]

MODEL = "model.zip"


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


def _agent(path: str, *, deterministic: bool, name: str) -> PolicyAgent:
    file = _model_path(path)
    model = _load(file, file.stat().st_mtime)
    return PolicyAgent(model, deterministic=deterministic, name=f"{name}:{path}")


def ppo_file(path: str) -> PolicyAgent:
    """The trained policy of ``path``, its most probable legal action."""
    return _agent(path, deterministic=True, name="ppo")


def ppo_mixed_file(path: str) -> PolicyAgent:
    """The trained policy of ``path``, its masked distribution (the runner draws)."""
    return _agent(path, deterministic=False, name="ppo-mixed")
