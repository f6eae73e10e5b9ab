"""The BPPs' tunable numbers: ``BPPParams`` of the decision-network BPP (what the Optuna study
tunes) and ``CurvesParams`` of the betting-curve BPP (``agents.bpp.curves``).

Carlton's tuned values (his Tables 4 and 5, Carlton 2000) and the curves' shifts are lost, so
every default below is ours (see ``agents/bpp/README.md``); together they are the baseline a
tuning study must beat. How each was chosen is in its field's docstring and in
``results/bpp.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Literal

__all__ = ["ROUND_NAMES", "BPPParams", "CurvesParams", "Rounds", "per_round"]

ROUND_NAMES = ("preflop", "flop", "turn", "river")
"""Round suffixes of the flat keys of ``BPPParams.to_dict``."""

Rounds = tuple[float, float, float, float]
"""One value per round, pre-flop to river."""
Sign = Literal["positive", "non-negative", "any"]
_PER_ROUND = ("alpha", "alpha_prime", "fp", "cp")
_SCALARS = ("bluff_rate", "prior_weight")
_CURVE_PER_ROUND = ("fold_shift", "call_shift", "bet_shift")
_CURVE_SCALARS = ("steepness", "bluff_rate", "prior_weight")


def per_round(name: str, value: object, *, sign: Sign) -> Rounds:
    """``value`` (a number, or four numbers) as four floats, one per round; else ValueError.

    ``sign`` is what each value must be: ``"positive"``, ``"non-negative"`` or ``"any"``.
    """
    values: tuple[object, ...]
    if isinstance(value, int | float) and not isinstance(value, bool):
        values = (value,) * 4
    elif isinstance(value, tuple | list):
        values = tuple(value)
    else:
        raise ValueError(f"{name} must be a number or 4 numbers (one per round), got {value!r}")
    if len(values) != 4:
        raise ValueError(f"{name} needs 4 values (one per round), got {len(values)}: {value!r}")
    out = []
    for round_name, v in zip(ROUND_NAMES, values, strict=True):
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{name}[{round_name}] must be a finite number, got {v!r}")
        if sign == "positive" and not v > 0:
            raise ValueError(f"{name}[{round_name}] must be positive, got {v!r}")
        if sign == "non-negative" and v < 0:
            raise ValueError(f"{name}[{round_name}] must not be negative, got {v!r}")
        out.append(float(v))
    return (out[0], out[1], out[2], out[3])


@dataclass(frozen=True, kw_only=True)
class BPPParams:
    """Parameters of ``BPPAgent``; the four per-round fields accept one number for all rounds.

    >>> BPPParams(alpha=0.5).alpha
    (0.5, 0.5, 0.5, 0.5)
    >>> BPPParams(fp=(1, 2, 3))
    Traceback (most recent call last):
      ...
    ValueError: fp needs 4 values (one per round), got 3: (1, 2, 3)
    """

    alpha: Rounds = (1.0, 1.0, 1.0, 1.0)
    """Future bets per remaining round if BPP passes (Carlton eq. 3); ours: one bet per
    remaining round, the best alpha of a 16-point pilot grid against bpp-curves
    (alpha in {0.5, 1, 1.5}, results/bpp.md)."""
    alpha_prime: Rounds = (1.0, 1.0, 1.0, 1.0)
    """Future bets per remaining round if BPP bets (Carlton eq. 2); ours: one full bet per
    remaining round (our reading of alpha' = 1), best of the pilot grid
    (alpha' in {1, 1.25, 1.5}); alpha' >= alpha as the thesis expects."""
    fp: Rounds = (4.0, 4.0, 4.0, 4.0)
    """Steepness of the fold curve per round (Carlton eq. 8); ours: 4 folds 1.8% of the time
    when passing is worth one bet more than folding; the pilot grid (fp = cp in {1, 2, 4, 8})
    lost with 1, broke even with 2 and won with 4 and 8 (equal within noise)."""
    cp: Rounds = (4.0, 4.0, 4.0, 4.0)
    """Steepness of the call curve per round (Carlton eq. 9); ours, chosen with fp."""
    bluff_rate: float = 0.05
    """Probability of betting or raising regardless on the river, the original BPP's bluff
    (Carlton 2000, section "Bluffing": 5% in the last round)."""
    prior_weight: float = 10.0
    """Pseudo-observations of the generic opponent prior per (round, type, decision); ours:
    a type seen ten times at showdown is half learned (``agents.bpp.opponent``)."""

    def __post_init__(self) -> None:
        for name in _PER_ROUND:
            sign: Sign = "positive" if name in ("fp", "cp") else "non-negative"
            object.__setattr__(self, name, per_round(name, getattr(self, name), sign=sign))
        rate = self.bluff_rate
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
            raise ValueError(f"bluff_rate must be a probability in [0, 1], got {rate!r}")
        weight = self.prior_weight
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise ValueError(f"prior_weight must be a number, got {weight!r}")
        if not (math.isfinite(weight) and weight > 0):
            raise ValueError(f"prior_weight must be positive and finite, got {weight!r}")
        object.__setattr__(self, "bluff_rate", float(rate))
        object.__setattr__(self, "prior_weight", float(weight))

    def to_dict(self) -> dict[str, float]:
        """Flat JSON-friendly values: ``alpha_preflop`` .. ``cp_river``, then the scalars."""
        return _flat(self, _PER_ROUND, _SCALARS)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BPPParams:
        """Inverse of ``to_dict``; missing keys keep their defaults, unknown keys raise."""
        return cls(**_unflat(cls, data, _PER_ROUND, _SCALARS))


def _flat(params: Any, per_round: tuple[str, ...], scalars: tuple[str, ...]) -> dict[str, float]:
    flat: dict[str, float] = {}
    for name in per_round:
        for round_name, value in zip(ROUND_NAMES, getattr(params, name), strict=True):
            flat[f"{name}_{round_name}"] = value
    for name in scalars:
        flat[name] = getattr(params, name)
    return flat


def _unflat(
    cls: type, data: dict[str, Any], per_round: tuple[str, ...], scalars: tuple[str, ...]
) -> dict[str, Any]:
    """Constructor arguments from flat keys (defaults where missing); unknown keys raise."""
    known = {f"{n}_{r}" for n in per_round for r in ROUND_NAMES} | set(scalars)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown {cls.__name__} keys {unknown}; known keys: {sorted(known)}")
    defaults = cls()
    kwargs: dict[str, Any] = {name: data.get(name, getattr(defaults, name)) for name in scalars}
    for name in per_round:
        kwargs[name] = tuple(
            data.get(f"{name}_{r}", getattr(defaults, name)[i]) for i, r in enumerate(ROUND_NAMES)
        )
    return kwargs


assert {f.name for f in fields(BPPParams)} == set(_PER_ROUND) | set(_SCALARS)


@dataclass(frozen=True, kw_only=True)
class CurvesParams:
    """Parameters of the betting-curve BPP (per-round fields accept one number for all)."""

    fold_shift: Rounds = (-0.1, -0.1, -0.1, -0.1)
    """Shift of the fold curve in P(win) - theta (Carlton 2000); ours: with ``call_shift``
    it puts the fold/call boundary at the pot odds, x = 0."""
    call_shift: Rounds = (0.1, 0.1, 0.1, 0.1)
    """Shift of the call curve (Carlton 2000); ours, see ``fold_shift``."""
    bet_shift: Rounds = (0.6, 0.6, 0.6, 0.6)
    """Shift of the bet/raise curve (Carlton 2000); ours: the call/bet boundary at
    x = 0.35, i.e. bet an unopened pot with P(win) > 0.35 (heads-up blinds make thin value)."""
    steepness: float = 10.0
    """``k``, shared by the three curves, per unit of P(win); ours: a boundary is blurred over
    about +-0.1 of P(win) (88% / 12% at +-0.1), the randomisation the original BPP wanted."""
    bluff_rate: float = 0.05
    """River bluff probability of the original BPP (Carlton, section "Bluffing": 5%)."""
    prior_weight: float = 10.0
    """Pseudo-observations of the generic opponent prior, as ``BPPParams.prior_weight``."""

    def __post_init__(self) -> None:
        for name in ("fold_shift", "call_shift", "bet_shift"):
            object.__setattr__(self, name, per_round(name, getattr(self, name), sign="any"))
        for r in range(4):
            if not self.fold_shift[r] <= self.call_shift[r] <= self.bet_shift[r]:
                raise ValueError(
                    "CurvesParams needs fold_shift <= call_shift <= bet_shift in every round, "
                    f"got {self.fold_shift}, {self.call_shift}, {self.bet_shift}"
                )
        for name in ("steepness", "prior_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be positive and finite, got {value!r}")
        if not 0 <= self.bluff_rate <= 1:
            raise ValueError(f"bluff_rate must be a probability in [0, 1], got {self.bluff_rate}")

    def to_dict(self) -> dict[str, float]:
        """Flat JSON-friendly values: ``fold_shift_preflop`` .. ``bet_shift_river``, then the
        scalars."""
        return _flat(self, _CURVE_PER_ROUND, _CURVE_SCALARS)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CurvesParams:
        """Inverse of ``to_dict``; missing keys keep their defaults, unknown keys raise."""
        return cls(**_unflat(cls, data, _CURVE_PER_ROUND, _CURVE_SCALARS))


assert {f.name for f in fields(CurvesParams)} == set(_CURVE_PER_ROUND) | set(_CURVE_SCALARS)
