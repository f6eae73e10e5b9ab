"""A trial's value: its AIVAT-corrected winnings, paired with the defaults on the same blocks.

The defaults are evaluated once on all of a study's tuning blocks (``defaults_blocks``, a study
attribute) and reused by every trial. A trial that played blocks ``S`` (all of them, or the
first rounds when racing pruned it) gets

    value = mean over all blocks of the defaults + mean over S of (trial - defaults),

which is its own mean when ``S`` is every block, and otherwise the same estimate with the block
luck of ``S`` taken out by the defaults' values (a control variate): values of pruned and full
trials stay comparable for the sampler. Each trial also records its paired difference to the
defaults and that difference's standard error over blocks (the figure a study is sized by), in
both the corrected and the raw chips.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DefaultsBlocks", "TrialScore"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class DefaultsBlocks:
    """The defaults' value on every tuning block (sb/hand), corrected and raw."""

    aivat: Floats
    raw: Floats

    def to_attr(self) -> dict[str, list[float]]:
        """JSON-friendly form (the study attribute ``defaults_blocks``)."""
        return {"aivat": self.aivat.tolist(), "raw": self.raw.tolist()}

    @classmethod
    def from_attr(cls, data: Mapping[str, Sequence[float]], blocks: int) -> DefaultsBlocks | None:
        """Inverse of ``to_attr``; ``None`` when absent or for another number of blocks."""
        if not data or len(data.get("aivat", ())) != blocks:
            return None
        return cls(np.asarray(data["aivat"], dtype=float), np.asarray(data["raw"], dtype=float))


@dataclass(frozen=True)
class TrialScore:
    """What a trial measured on the blocks it played (see the module docstring)."""

    value: float
    raw_value: float
    diff: float
    """Mean paired difference to the defaults, AIVAT-corrected (sb/hand)."""
    paired_se: float | None
    """Its standard error over blocks (``None`` with one block)."""
    raw_diff: float
    raw_paired_se: float | None
    std_error: float | None
    """Standard error of the trial's own corrected block values."""
    blocks: int

    @classmethod
    def of(
        cls, aivat: Floats, raw: Floats, blocks: npt.ArrayLike, defaults: DefaultsBlocks
    ) -> TrialScore:
        """The score of block values ``aivat`` and ``raw`` on the tuning blocks ``blocks``."""
        at = np.asarray(blocks, dtype=np.intp)
        diff = np.asarray(aivat, dtype=float) - defaults.aivat[at]
        raw_diff = np.asarray(raw, dtype=float) - defaults.raw[at]
        return cls(
            value=float(defaults.aivat.mean() + diff.mean()),
            raw_value=float(defaults.raw.mean() + raw_diff.mean()),
            diff=float(diff.mean()),
            paired_se=_se(diff),
            raw_diff=float(raw_diff.mean()),
            raw_paired_se=_se(raw_diff),
            std_error=_se(np.asarray(aivat, dtype=float)),
            blocks=len(at),
        )

    def attrs(self) -> dict[str, Any]:
        """The trial's user attributes (``trials.csv``, the summary)."""
        return {
            "blocks": self.blocks,
            "diff": self.diff,
            "paired_se": self.paired_se,
            "raw_value": self.raw_value,
            "raw_diff": self.raw_diff,
            "raw_paired_se": self.raw_paired_se,
            "std_error": self.std_error,
        }


def _se(values: Floats) -> float | None:
    if len(values) < 2:
        return None
    return float(np.std(values, ddof=1) / math.sqrt(len(values)))
