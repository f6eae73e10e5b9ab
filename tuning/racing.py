"""Racing: drop a candidate as soon as it is clearly worse than the incumbent on paired blocks.

A batch of candidates is evaluated round by round of blocks (irace's racing; Birattari et al.,
"F-Race and iterated F-Race", 2010). After each round but the last, every surviving candidate
is compared with the reference (the best fully evaluated trial so far, or the defaults while
there is none) on the blocks both have played: the same deals and decision uniforms, so the
comparison is paired. The one-sided Wilcoxon signed-rank test (the test of Optuna's
``WilcoxonPruner``) asks whether the candidate's block values are lower; below
``p_threshold`` it is pruned. The reference has been selected for its high value on these
same blocks, which makes the test somewhat eager: the threshold is strict for that reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

__all__ = ["Pruning", "Racing", "pruner_kind", "stored_pruner"]


class Pruning(StrEnum):
    """Pruning options of ``holdem-lab tune --pruner``: ``racing`` (``Racing``) or none."""

    NONE = "none"
    RACING = "racing"


_STORED_BEFORE_RENAME = {"wilcoxon": Pruning.RACING}
"""Studies created before racing had its name stored its test's name instead."""


def pruner_kind(name: Pruning | str) -> Pruning:
    """The pruning ``name`` names; ``ValueError`` listing the choices if unknown."""
    try:
        return Pruning(name)
    except ValueError:
        known = ", ".join(p.value for p in Pruning)
        raise ValueError(f"unknown pruner {name!r}; choose one of {known}") from None


def stored_pruner(name: str) -> Pruning:
    """The pruning a stored study's attributes name (older studies say ``wilcoxon``)."""
    return _STORED_BEFORE_RENAME.get(name) or pruner_kind(name)


@dataclass(frozen=True)
class Racing:
    """When a candidate is dropped (see the module docstring)."""

    p_threshold: float = 0.05
    """One-sided p-value below which a candidate is clearly worse."""
    min_blocks: int = 8
    """Paired blocks needed before any test (with fewer, no p-value can be small)."""

    def clearly_worse(
        self, candidate: npt.NDArray[np.float64], reference: npt.NDArray[np.float64]
    ) -> bool:
        """Whether ``candidate``'s block values are significantly below ``reference``'s
        (the same blocks, in the same order)."""
        from scipy.stats import wilcoxon  # type: ignore[import-untyped]  # slow: on use

        diff = np.asarray(candidate, dtype=float) - np.asarray(reference, dtype=float)
        if len(diff) < self.min_blocks or not np.any(diff):
            return False
        p = float(wilcoxon(diff, alternative="less").pvalue)
        return p < self.p_threshold
