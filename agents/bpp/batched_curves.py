"""The batched betting-curve BPP (``bpp-curves``): ``BPPCurvesAgent`` at N tables at once.

Same network, opponent model and belief as ``agents.bpp.batched_agent.BatchedBPP``; the
action probabilities come from the three exponential betting curves of P(win) minus the pot
odds (``agents.bpp.curves``), evaluated row by row in the scalar order of operations, with one
``CurvesParams`` per table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from agents.bpp.batched_agent import BatchedBayesianPlayer
from agents.bpp.batched_decision import curve_probabilities
from agents.bpp.batched_params import CurvesParamArrays, check_num_tables
from agents.bpp.network import Network
from agents.bpp.params import CurvesParams
from agents.jit import readonly
from envs.batched.views import DecisionBatch

__all__ = ["BatchedBPPCurves", "BatchedCurvesDecision"]

Array = npt.NDArray[np.float64]


class BatchedCurvesDecision(NamedTuple):
    """The curve BPP's quantities at each row."""

    p_win: Array
    threshold: Array
    """theta, the pot odds: ``to_call / (pot + to_call)`` (0 when checking is free)."""
    probabilities: Array
    """``(k, 3)``: ``(P(fold), P(check/call), P(bet/raise))`` played, bluff included."""


class BatchedBPPCurves(BatchedBayesianPlayer):
    """``BPPCurvesAgent`` (registry ``bpp-curves``) at N tables, parameters per table.

    Args:
        num_tables: N.
        params: One ``CurvesParams`` for every table, or a sequence of N (defaults if None).
        learn: ``False`` keeps every opponent at the generic prior.
        network: As for ``BPPCurvesAgent``.
    """

    def __init__(
        self,
        num_tables: int,
        params: CurvesParams | Sequence[CurvesParams] | None = None,
        *,
        learn: bool = True,
        network: Network | None = None,
    ) -> None:
        check_num_tables(num_tables)
        self.params = CurvesParamArrays.of(params, num_tables)
        super().__init__(
            num_tables, prior_weight=self.params.prior_weight, learn=learn, network=network
        )
        self.name = "bpp-curves" if learn else "bpp-curves-nolearn"

    @property
    def nbytes(self) -> int:
        """Bytes of all per-table state, parameters included (the prior weights, which the
        opponent model shares, once)."""
        return super().nbytes + self.params.nbytes - self.params.prior_weight.nbytes

    def probabilities(self, batch: DecisionBatch) -> Array:
        """``(k, 3)`` action probabilities (0 on illegal actions, rows summing to one)."""
        return self.decide(batch).probabilities

    def decide(self, batch: DecisionBatch) -> BatchedCurvesDecision:
        """P(win), the pot odds and the probabilities played at each row."""
        return self._decide(self.win_probability(batch), batch, 1)

    def _decide(self, p: Array, batch: DecisionBatch, per: int) -> BatchedCurvesDecision:
        theta = np.empty(len(p))
        probabilities = np.empty((len(p), 3))
        params = self.params
        curve_probabilities(
            p,
            per,
            readonly(batch.tables, np.intp),
            readonly(batch.street, np.int8),
            readonly(batch.pot, np.int64),
            readonly(batch.to_call, np.int64),
            readonly(batch.legal, np.bool_),
            params.fold_shift,
            params.call_shift,
            params.bet_shift,
            params.steepness,
            params.bluff_rate,
            theta,
            probabilities,
        )
        return BatchedCurvesDecision(p, theta, probabilities)
