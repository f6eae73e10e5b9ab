"""Loki's closed vocabularies and parameters, with the papers' defaults and their sources.

Sources: [PAPP-x] Papp (1998), *Dealing with Imperfect Information in Poker*, section x;
[PAPP-B] its Appendix B (expert-defined values); [PENA-x] Pena (1999), *Probabilities and
Simulations in Poker*. "Ours" marks a value the papers do not give, with how it was chosen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from envs.validation import whole_number

__all__ = [
    "DEFAULT_FREQUENCIES",
    "Betting",
    "LokiParams",
    "Modelling",
    "Reweighting",
    "Tightness",
]


class Tightness(Enum):
    """Pre-flop tightness [PAPP-6.1]: about 18% / 21% / 24% of hands played at ten seats."""

    TIGHT = "tight"
    MODERATE = "moderate"
    LOOSE = "loose"


class Modelling(Enum):
    """How Loki models its opponents [PAPP-7.2]."""

    NONE = "none"
    """No re-weighting: every opponent holds any holding (an ablation, not in the papers)."""
    GENERIC = "generic"
    """Re-weighting with the default action frequencies (Table B.2), never learned (GOM)."""
    SPECIFIC = "specific"
    """Re-weighting with each opponent's frequencies, learned across hands (SOM)."""


class Betting(Enum):
    """Post-flop betting [PENA-4]."""

    RULES = "rules"
    """Loki-1: the deterministic rules of Papp's chapter 6."""
    TRIPLES = "triples"
    """Loki-2: a draw from the probability triple, one random number per hand ("B")."""


class Reweighting(Enum):
    """Post-flop re-weighting after an opponent's action [PAPP-7.2.3], [PENA-4]."""

    THRESHOLD = "threshold"
    """Loki-1: the ramp around the threshold implied by the action frequencies."""
    TRIPLES = "triples"
    """Loki-2: weight times the probability triple's entry of the observed action ("R")."""


DEFAULT_FREQUENCIES: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.5, 0.5),
    (0.5, 0.3, 0.2),
    (0.7, 0.2, 0.1),
)
"""[PAPP-B] Table B.2: (fold, check/call, bet/raise) with 0, 1 and 2+ bets to call."""


@dataclass(frozen=True, kw_only=True)
class LokiParams:
    """Loki's parameters; the defaults are Loki-1 as published (loose, generic modelling)."""

    tightness: Tightness = Tightness.LOOSE
    """[PAPP-6.1] Selects the Table B.1 thresholds; loose is the default."""
    probability_play: float = 0.60
    """[PAPP-6.1], [PAPP-B] Chance that a player yet to act pre-flop plays (eq. 6.2)."""
    preflop_shift: float = 0.0
    """Ours (the Loki studies' pre-flop knob): ``tightness``'s Table B.1 thresholds [PAPP-6.1]
    lowered by this many IR4 units (x1000), in every group (``PreflopTable.shifted``);
    positive is looser, 0 is the table as given."""
    make1: float = 0.50
    """[PAPP-B] EHS' from which Loki bets or calls post-flop (Make1)."""
    make2: float = 0.85
    """[PAPP-B] EHS' from which Loki raises post-flop (Make2)."""
    lookahead: int = 1
    """Cards enumerated for Loki's own PPOT: ours, PPOT1 on the flop and the turn (Papp does
    not say which; see ``agents/loki/README.md``)."""
    semi_bluff: bool = True
    """[PAPP-6.4] Bet on PPOT >= Pot_Odds2 when nobody has bet; keep betting in later rounds."""
    pot_odds: bool = True
    """[PAPP-6.5] Call when PPOT (HS on the river) pays for the call."""
    showdown_odds: bool = True
    """[PAPP-6.6] Call when HSn pays for one bet per round to the showdown (ours: formula)."""
    modelling: Modelling = Modelling.GENERIC
    """[PAPP-7.2] Generic (GOM) or specific (SOM) opponent modelling, or none (ablation)."""
    betting: Betting = Betting.RULES
    """[PENA-4] Loki-1 rules or Loki-2 probability triples after the flop."""
    reweighting: Reweighting = Reweighting.THRESHOLD
    """[PENA-4] Loki-1 threshold ramp or Loki-2 probability-triple re-weighting."""
    triple_width: float = 0.05
    """Half-width of the linear blend at the make1/make2 boundaries of a probability triple:
    ours (Pena does not give it)."""
    min_observations: int = 20
    """[PAPP-7.1.2.1] Observations in a context below which frequencies blend with defaults."""
    default_frequencies: tuple[tuple[float, float, float], ...] = DEFAULT_FREQUENCIES
    """[PAPP-B] Table B.2, rows indexed by bets to call (0, 1, 2+)."""
    preflop_sigma: float = 330.0
    """[PAPP-7.2.2] Spread of the pre-flop re-weighting ramp, in IR7 units (x1000)."""
    preflop_skip_percentile: float = 0.05
    """[PAPP-7.2.2] No pre-flop re-weighting when the implied threshold is below this."""
    sigma_slope: float = 0.4
    """[PAPP-7.2.3] Post-flop spread sigma = sigma_slope * (1 - mu)."""
    low_weight: float = 0.01
    """[PAPP-7.2.1] Floor of every weight after re-weighting."""

    def __post_init__(self) -> None:
        _enum("tightness", self.tightness, Tightness)
        _enum("modelling", self.modelling, Modelling)
        _enum("betting", self.betting, Betting)
        _enum("reweighting", self.reweighting, Reweighting)
        if not 0.0 <= self.probability_play <= 1.0:
            raise ValueError(f"probability_play must be in [0, 1], got {self.probability_play}")
        shift: object = self.preflop_shift  # checked as the user may have passed it
        if (
            isinstance(shift, bool)
            or not isinstance(shift, int | float)
            or not math.isfinite(shift)
        ):
            raise ValueError(f"preflop_shift must be a finite number of IR4 units, got {shift!r}")
        if not 0.0 < self.make1 < self.make2 <= 1.0:
            raise ValueError(
                f"need 0 < make1 < make2 <= 1, got make1={self.make1}, make2={self.make2}"
            )
        if whole_number("lookahead", self.lookahead) not in (1, 2):
            raise ValueError(f"lookahead is 1 or 2 cards, got {self.lookahead}")
        if not 0.0 <= self.triple_width < (self.make2 - self.make1) / 2:
            raise ValueError(
                "triple_width must be non-negative and below half the make1..make2 gap, "
                f"got {self.triple_width}"
            )
        if whole_number("min_observations", self.min_observations) < 1:
            raise ValueError(f"min_observations must be at least 1, got {self.min_observations}")
        rows = self.default_frequencies
        if len(rows) != 3 or any(
            len(row) != 3 or min(row) < 0 or abs(sum(row) - 1.0) > 1e-9 for row in rows
        ):
            raise ValueError(
                "default_frequencies needs 3 rows (0, 1, 2+ bets to call) of 3 non-negative "
                f"frequencies summing to 1, got {rows!r}"
            )
        if self.preflop_sigma <= 0:
            raise ValueError(f"preflop_sigma must be positive, got {self.preflop_sigma}")
        if not 0.0 <= self.preflop_skip_percentile < 1.0:
            raise ValueError(
                f"preflop_skip_percentile must be in [0, 1), got {self.preflop_skip_percentile}"
            )
        if not 0.0 < self.sigma_slope <= 1.0:
            raise ValueError(f"sigma_slope must be in (0, 1], got {self.sigma_slope}")
        if not 0.0 < self.low_weight <= 1.0:
            raise ValueError(f"low_weight must be in (0, 1], got {self.low_weight}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly values: enums by their value, Table B.2 as lists."""
        data: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, Enum):
                value = value.value
            elif item.name == "default_frequencies":
                value = [list(row) for row in value]
            data[item.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LokiParams:
        """Inverse of ``to_dict``; missing keys keep their defaults; an unknown key, an
        unknown enum value or a bad value raises ``ValueError`` naming the field."""
        known = {item.name: item for item in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown LokiParams keys {unknown}; known keys: {sorted(known)}")
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            kind = _ENUMS.get(name)
            if kind is not None:
                choices = [member.value for member in kind]
                if value not in choices:
                    raise ValueError(f"{name} must be one of {choices}, got {value!r}")
                value = kind(value)
            elif name == "default_frequencies":
                try:
                    value = tuple(tuple(float(x) for x in row) for row in value)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"default_frequencies must be 3 rows of 3 numbers, got {value!r}"
                    ) from None
            elif isinstance(getattr(_DEFAULTS, name), bool):
                if not isinstance(value, bool):
                    raise ValueError(f"{name} must be true or false, got {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{name} must be a number, got {value!r}")
            kwargs[name] = value
        return cls(**kwargs)


_ENUMS: dict[str, type[Enum]] = {
    "tightness": Tightness,
    "modelling": Modelling,
    "betting": Betting,
    "reweighting": Reweighting,
}


def _enum(name: str, value: object, kind: type[Enum]) -> None:
    if not isinstance(value, kind):
        choices = ", ".join(f"{kind.__name__}.{m.name}" for m in kind)
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")


_DEFAULTS = LokiParams()
"""The defaults, whose types say what each field takes."""
