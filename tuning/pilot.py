"""Sizing a study: how noisy is a candidate's paired difference to the defaults?

A study should give a candidate's paired difference to the defaults a standard error of at
most ``target`` (0.005 sb/hand) by the end. That error is the standard deviation of the
per-block differences over the square root of the blocks, so the pilot measures that
standard deviation: the defaults and candidates at growing distances from them (each moved
by a fraction of every parameter's range, on its own scale, in a seeded random direction)
play the same blocks, and the pilot reports each one's per-block paired SD (raw and
AIVAT-corrected), its per-deal equivalent (times the square root of the deals per block) and
the blocks it needs. Near candidates are what a study has to tell apart; far ones are pruned
by racing long before they need that many.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from tuning.evaluation import Namespace
from tuning.pool import EvaluationPool, OnHands
from tuning.studies import StudySpec

__all__ = ["DISTANCES", "PilotRow", "moved", "run_pilot"]

DISTANCES = (0.05, 0.15, 0.5)
"""How far the pilot's candidates lie from the defaults, as fractions of each range."""


def moved(spec: StudySpec, distance: float, seed: int) -> dict[str, float]:
    """The defaults moved by ``distance`` of every range (log scale for log parameters) in a
    random direction (``seed``), folded back into the ranges."""
    rng = np.random.default_rng([seed, int(distance * 1e6)])
    point = {}
    for p in spec.params:
        lo, hi = (math.log(p.low), math.log(p.high)) if p.log else (p.low, p.high)
        x = spec.defaults[p.name]
        u = ((math.log(x) if p.log else x) - lo) / (hi - lo)
        u = abs(u + distance * float(rng.choice([-1.0, 1.0]))) % 2.0
        u = 2.0 - u if u > 1.0 else u
        value = lo + u * (hi - lo)
        point[p.name] = min(max(math.exp(value) if p.log else value, p.low), p.high)
    return point


@dataclass(frozen=True)
class PilotRow:
    """One candidate's paired noise against the defaults."""

    distance: float
    diff: float
    """Mean paired difference (AIVAT), sb/hand."""
    block_sd: float
    """SD of the per-block AIVAT differences."""
    raw_block_sd: float
    deal_sd: float
    """``block_sd`` times the square root of the deals per block."""
    raw_deal_sd: float
    blocks_needed: int
    """Blocks for a paired standard error of ``target`` (AIVAT)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return dict(self.__dict__)


def run_pilot(
    pool: EvaluationPool,
    *,
    blocks: int,
    target: float = 0.005,
    seed: int = 0,
    on_hands: OnHands | None = None,
) -> tuple[list[dict[str, float]], list[PilotRow]]:
    """The pilot's candidates and their rows (see the module docstring)."""
    spec, protocol = pool.spec, pool.protocol
    points = [dict(spec.defaults), *(moved(spec, d, seed) for d in DISTANCES)]
    values = pool.evaluate(Namespace.TUNE, points, range(blocks), on_hands)
    scale = math.sqrt(protocol.deals_per_block)
    rows = []
    for k, distance in enumerate(DISTANCES, start=1):
        diff = values.aivat[k] - values.aivat[0]
        raw = values.raw[k] - values.raw[0]
        sd, raw_sd = float(np.std(diff, ddof=1)), float(np.std(raw, ddof=1))
        rows.append(
            PilotRow(
                distance=distance,
                diff=float(diff.mean()),
                block_sd=sd,
                raw_block_sd=raw_sd,
                deal_sd=sd * scale,
                raw_deal_sd=raw_sd * scale,
                blocks_needed=math.ceil((sd / target) ** 2),
            )
        )
    return points, rows
