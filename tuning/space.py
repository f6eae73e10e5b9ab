"""The search space of the BPP tuning study: alpha, alpha' and the fp / cp curve parameters.

Ten parameters by default (papers.md section 7 item 2): ``alpha`` and ``alpha_prime`` in
[0, 2] on a linear scale (1 means "one full bet per remaining round"), and ``fp_<round>``,
``cp_<round>`` for the four betting rounds in [0.01, 10] on a log scale (Carlton's curves need
positive steepness; 0.01 is near-uniform play, 10 is nearly deterministic). With
``per_round_alpha`` the two alphas become eight, one per round.

>>> space = SearchSpace()
>>> space.names[:4]
('alpha', 'alpha_prime', 'fp_preflop', 'fp_flop')
>>> SearchSpace(ranges={"alpha": (1.0, 1.0)})
Traceback (most recent call last):
  ...
ValueError: empty range for alpha: low 1.0 must be below high 1.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import optuna

from agents.bpp import BPPParams

ROUNDS = ("preflop", "flop", "turn", "river")
ALPHA_RANGE = (0.0, 2.0)
STEEPNESS_RANGE = (0.01, 10.0)


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


@dataclass(frozen=True)
class SearchSpace:
    """The parameters a study searches, with their ranges (see the module docstring).

    Args:
        per_round_alpha: Search ``alpha_<round>`` and ``alpha_prime_<round>`` instead of two
            global alphas.
        ranges: Overrides ``{name: (low, high)}`` of the default ranges; unknown names raise.
    """

    per_round_alpha: bool = False
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.ranges) - {p.name for p in self._defaults()}
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {sorted(unknown)} in the ranges; "
                f"the study searches {list(self.names)}"
            )
        self.params  # noqa: B018 - validates every range now, not at the first trial

    def _defaults(self) -> tuple[ParamRange, ...]:
        if self.per_round_alpha:
            alphas = [
                ParamRange(f"{a}_{r}", *ALPHA_RANGE, log=False)
                for a in ("alpha", "alpha_prime")
                for r in ROUNDS
            ]
        else:
            alphas = [ParamRange(a, *ALPHA_RANGE, log=False) for a in ("alpha", "alpha_prime")]
        curves = [
            ParamRange(f"{c}_{r}", *STEEPNESS_RANGE, log=True)
            for c in ("fp", "cp")
            for r in ROUNDS
        ]
        return (*alphas, *curves)

    @property
    def params(self) -> tuple[ParamRange, ...]:
        """The searched parameters in a fixed order."""
        return tuple(
            ParamRange(p.name, *self.ranges[p.name], log=p.log) if p.name in self.ranges else p
            for p in self._defaults()
        )

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the searched parameters."""
        return tuple(p.name for p in self._defaults())

    def suggest(self, trial: optuna.Trial) -> dict[str, float]:
        """Draw one value per parameter from ``trial``."""
        return {p.name: trial.suggest_float(p.name, p.low, p.high, log=p.log) for p in self.params}

    def to_params(self, values: Mapping[str, Any]) -> BPPParams:
        """The ``BPPParams`` of a point of the space (other fields keep their defaults)."""
        missing = set(self.names) - set(values)
        if missing:
            raise ValueError(f"missing parameter(s) {sorted(missing)}")
        if self.per_round_alpha:
            alpha: float | tuple[float, ...] = tuple(float(values[f"alpha_{r}"]) for r in ROUNDS)
            alpha_prime: float | tuple[float, ...] = tuple(
                float(values[f"alpha_prime_{r}"]) for r in ROUNDS
            )
        else:
            alpha, alpha_prime = float(values["alpha"]), float(values["alpha_prime"])
        return BPPParams(
            alpha=alpha,  # type: ignore[arg-type]
            alpha_prime=alpha_prime,  # type: ignore[arg-type]
            fp=tuple(float(values[f"fp_{r}"]) for r in ROUNDS),  # type: ignore[arg-type]
            cp=tuple(float(values[f"cp_{r}"]) for r in ROUNDS),  # type: ignore[arg-type]
        )

    def from_params(self, params: BPPParams) -> dict[str, float]:
        """The point of the space that ``params`` is (the inverse of ``to_params``).

        Raises:
            ValueError: with global alphas, if ``params`` has different alphas per round.
        """
        values: dict[str, float] = {}
        if self.per_round_alpha:
            for r, round_ in enumerate(ROUNDS):
                values[f"alpha_{round_}"] = params.alpha[r]
                values[f"alpha_prime_{round_}"] = params.alpha_prime[r]
        else:
            if len(set(params.alpha)) > 1 or len(set(params.alpha_prime)) > 1:
                raise ValueError("these parameters have per-round alphas: use per_round_alpha")
            values["alpha"], values["alpha_prime"] = params.alpha[0], params.alpha_prime[0]
        for r, round_ in enumerate(ROUNDS):
            values[f"fp_{round_}"] = params.fp[r]
            values[f"cp_{round_}"] = params.cp[r]
        return values

    def outside(self, values: Mapping[str, float]) -> list[str]:
        """Names of the parameters whose value in ``values`` lies outside its range."""
        return [p.name for p in self.params if not p.contains(values[p.name])]

    def describe(self) -> dict[str, Any]:
        """The space as JSON-friendly data (stored with the study)."""
        return {
            "per_round_alpha": self.per_round_alpha,
            "params": [[p.name, p.low, p.high, p.log] for p in self.params],
        }
