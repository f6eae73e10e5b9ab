"""A training run's saved progress (``summary.json``) and its final evaluation."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from envs.match import AgentResult
from tuning.training.ceiling import Ceiling, fraction_of

__all__ = ["FinalEvaluation", "RunState"]


@dataclass(frozen=True)
class FinalEvaluation:
    """The final model's held-out match, as ``summary.json`` keeps it."""

    hands: int
    sb_per_hand: float
    """The learner's winnings, by ``estimator``."""
    ci: tuple[float, float] | None
    """95% Student-t interval of ``sb_per_hand`` over deals."""
    std_error: float | None
    vpip: float
    pfr: float
    ceiling: float | None = None
    """The most the learner can win, or a lower bound on it, in sb/hand, where known
    (``tuning.training.ceiling``)."""
    fraction: float | None = None
    """``sb_per_hand / ceiling``: how much of it was won."""
    estimator: str = "raw"
    """``aivat`` when ``sb_per_hand`` is the AIVAT estimate, else ``raw`` (plain winnings)."""
    ceiling_kind: str | None = None
    """``best response`` (exact) or ``LBR lower bound``."""
    sessions: int = 1
    """Sessions of the match (learning opponents start each fresh)."""

    @classmethod
    def of(
        cls, result: AgentResult, ceiling: Ceiling | None = None, *, sessions: int = 1
    ) -> FinalEvaluation:
        """The figures of the learner's match result (its AIVAT estimate when the match
        computed one), and their fraction of ``ceiling``."""
        figures = result.reported()
        value = ceiling.value if ceiling is not None else None
        return cls(
            result.hands,
            figures.sb_per_hand,
            figures.ci,
            figures.std_error,
            result.vpip,
            result.pfr,
            value,
            fraction_of(figures.sb_per_hand, value),
            figures.estimator,
            ceiling.kind.value if ceiling is not None else None,
            sessions,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {**asdict(self), "ci": list(self.ci) if self.ci else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FinalEvaluation:
        """Inverse of ``to_dict`` (summaries saved before ceilings had kinds name the exact
        best response ``best_response``)."""
        ci = data["ci"]
        old = data.get("best_response")
        return cls(
            hands=data["hands"],
            sb_per_hand=data["sb_per_hand"],
            ci=(ci[0], ci[1]) if ci else None,
            std_error=data["std_error"],
            vpip=data["vpip"],
            pfr=data["pfr"],
            ceiling=data.get("ceiling", old),
            fraction=data.get("fraction"),
            estimator=data.get("estimator", "raw"),
            ceiling_kind=data.get("ceiling_kind", "best response" if old is not None else None),
            sessions=data.get("sessions", 1),
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
