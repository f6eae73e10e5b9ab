"""What a tuning study tunes: ``StudySpec``, one object per agent (``tuning.studies.bpp``, ...).

A spec names the agent, lists the searched parameters with their bounds and scales, gives the
defaults (queued as trial 0), builds the agent of a parameter point (and, for the batched
engine, the players of many points at once: ``players``), and says how to report and draw a
point. Everything else (objective, evaluation, storage, re-evaluation, reports) reads the
spec and knows nothing of any agent. A parameter point is a flat ``{name: float}`` dict, the
form Optuna stores.

Specs are picklable (their functions live at module level), so they travel to worker
processes inside ``tuning.study.StudySettings``.

>>> ParamRange("x", 1.0, 1.0, log=False)
Traceback (most recent call last):
  ...
ValueError: empty range for x: low 1.0 must be below high 1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envs.protocols import BatchedAgent, SeatAgent

if TYPE_CHECKING:
    import optuna

__all__ = [
    "AgentFactory",
    "BatchedFactory",
    "ParamRange",
    "ParamsFigure",
    "StudySpec",
    "with_ranges",
]

Point = Mapping[str, float]
"""A point of a search space: one value per parameter name."""
AgentFactory = Callable[[Point], SeatAgent]
"""Builds the agent that plays with the parameters of a point."""
BatchedFactory = Callable[[Sequence[Point]], BatchedAgent]
"""Builds one batched agent playing ``points[t]`` at table ``t`` (fresh memory everywhere)."""
ParamsFigure = Callable[[Point, Point, Path, str], None]
"""Draws the defaults against a tuned point into a PNG file, under a title (the verdict)."""


@dataclass(frozen=True)
class ParamRange:
    """One searched parameter: its bounds and whether it is sampled on a log scale."""

    name: str
    low: float
    high: float
    log: bool

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            raise ValueError(f"range of {self.name} must be finite, got {self.low}..{self.high}")
        if not self.low < self.high:
            raise ValueError(
                f"empty range for {self.name}: low {self.low} must be below high {self.high}"
            )
        if self.log and self.low <= 0:
            raise ValueError(f"{self.name} is searched on a log scale: low must be > 0")

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the range (bounds included)."""
        return self.low <= value <= self.high


def with_ranges(
    params: tuple[ParamRange, ...], ranges: Mapping[str, tuple[float, float]]
) -> tuple[ParamRange, ...]:
    """``params`` with the bounds of ``ranges`` (``{name: (low, high)}``); scales are kept.

    Raises:
        ValueError: for a name ``params`` does not have, or an invalid range.
    """
    names = [p.name for p in params]
    unknown = set(ranges) - set(names)
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {sorted(unknown)} in the ranges; the study searches {names}"
        )
    return tuple(
        ParamRange(p.name, *ranges[p.name], log=p.log) if p.name in ranges else p for p in params
    )


@dataclass(frozen=True, kw_only=True)
class StudySpec:
    """What a study tunes (see the module docstring); built by a module of ``tuning.studies``."""

    agent: str
    """The name ``holdem-lab tune --agent`` selects; stored with the study."""
    title: str
    """The tuned agent as reports name it, e.g. ``"BPP (mixed strategy)"``."""
    params: tuple[ParamRange, ...]
    """The searched parameters, in the order they are drawn (the order fixes the samples)."""
    defaults: Mapping[str, float]
    """The published or hand-chosen values, queued as trial 0 and the reference of every
    paired difference."""
    factory: AgentFactory
    """The agent of a point, with a fresh state (built anew for every block)."""
    batched: BatchedFactory | None = None
    """The batched agent of many points (per-table parameters), when the agent has a batched
    form; without one, each table gets its own scalar agent (``players``)."""
    settings: Callable[[Point], dict[str, Any]]
    """The agent's whole parameter set at a point, JSON-friendly (``best_params.json`` and the
    summary's parameter table)."""
    default_opponents: tuple[str, ...]
    """Registry names the agent plays when the user names none."""
    figure: ParamsFigure | None = None
    """Draws the defaults against the tuned point (``figure_name`` in ``plots/``)."""
    figure_name: str = "parameters.png"
    options: Mapping[str, Any] = field(default_factory=dict)
    """The builder's options (e.g. BPP's ``per_round_alpha``), stored with the study so that
    the spec can be built again from the storage."""

    def __post_init__(self) -> None:
        names = self.names
        if len(set(names)) != len(names):
            raise ValueError(f"parameter names repeat in {names}")
        if set(self.defaults) != set(names):
            raise ValueError(
                f"the defaults of {self.agent} name {sorted(self.defaults)}, "
                f"the parameters are {sorted(names)}"
            )

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the searched parameters."""
        return tuple(p.name for p in self.params)

    def suggest(self, trial: optuna.Trial) -> dict[str, float]:
        """Draw one value per parameter from ``trial``, in the order of ``params``."""
        return {p.name: trial.suggest_float(p.name, p.low, p.high, log=p.log) for p in self.params}

    def agent_for(self, values: Point) -> SeatAgent:
        """The agent playing with ``values``; ``ValueError`` if a parameter is missing."""
        missing = set(self.names) - set(values)
        if missing:
            raise ValueError(f"missing parameter(s) {sorted(missing)}")
        return self.factory(values)

    def players(self, points: Sequence[Point]) -> BatchedAgent | list[SeatAgent]:
        """The agents of ``points``, table ``t`` playing ``points[t]``: one batched agent, or
        one scalar agent per table (``envs.batched.adapter.per_table`` seats either)."""
        if self.batched is not None:
            return self.batched(points)
        return [self.agent_for(point) for point in points]

    def outside(self, values: Point) -> list[str]:
        """Names of the parameters whose value in ``values`` lies outside its range."""
        return [p.name for p in self.params if not p.contains(values[p.name])]

    def describe(self) -> dict[str, Any]:
        """The search space as JSON-friendly data (stored with the study as ``space``)."""
        return {**self.options, "params": [[p.name, p.low, p.high, p.log] for p in self.params]}
