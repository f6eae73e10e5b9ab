"""A training run's saved progress (``summary.json``) and its final evaluation."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from envs.match import AgentResult
from tuning.training.ceiling import fraction_of

__all__ = ["FinalEvaluation", "RunState"]


@dataclass(frozen=True)
class FinalEvaluation:
    """The final model's held-out match, as ``summary.json`` keeps it."""

    hands: int
    sb_per_hand: float
    ci: tuple[float, float] | None
    """95% Student-t interval of ``sb_per_hand`` over deals."""
    std_error: float | None
    vpip: float
    pfr: float
    best_response: float | None = None
    """The opponent's best-response value in sb/hand, where known (``tuning.training.ceiling``)."""
    fraction: float | None = None
    """``sb_per_hand / best_response``: how much of the most that can be won was won."""

    @classmethod
    def of(cls, result: AgentResult, best_response: float | None = None) -> FinalEvaluation:
        """The figures of the learner's match result, and its fraction of ``best_response``."""
        return cls(
            result.hands,
            result.sb_per_hand,
            result.ci,
            result.std_error,
            result.vpip,
            result.pfr,
            best_response,
            fraction_of(result.sb_per_hand, best_response),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {**asdict(self), "ci": list(self.ci) if self.ci else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FinalEvaluation:
        """Inverse of ``to_dict``."""
        ci = data["ci"]
        return cls(
            hands=data["hands"],
            sb_per_hand=data["sb_per_hand"],
            ci=(ci[0], ci[1]) if ci else None,
            std_error=data["std_error"],
            vpip=data["vpip"],
            pfr=data["pfr"],
            best_response=data.get("best_response"),
            fraction=data.get("fraction"),
        )


@dataclass(frozen=True)
class RunState:
    """A run's progress, saved as ``summary.json`` at every checkpoint."""

    timesteps: int = 0
    """Learner decisions trained on so far (the saved model's)."""
    hands: int = 0
    """Training hands played so far."""
    segments: int = 0
    """Starts and resumptions of the run so far (each draws fresh table seeds)."""
    final: FinalEvaluation | None = None
    """The last segment's final evaluation; ``None`` until a segment finishes."""

    def to_json(self) -> str:
        """The ``summary.json`` text."""
        data = {**asdict(self), "final": self.final.to_dict() if self.final else None}
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def load(cls, path: Path) -> RunState:
        """Read a ``summary.json``; ``ValueError`` if it is not one."""
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            final = data["final"]
            return cls(
                timesteps=int(data["timesteps"]),
                hands=int(data["hands"]),
                segments=int(data["segments"]),
                final=FinalEvaluation.from_dict(final) if final is not None else None,
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"{path} is not a run summary: {error!r}") from None
