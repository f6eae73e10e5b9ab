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
from agents.bpp.batched_decision import bluff
from agents.bpp.batched_params import CurvesParamArrays, check_num_tables
from agents.bpp.curves import CurvesParams
from agents.bpp.network import Network
from envs.batched.views import DecisionBatch
from envs.rules import Action, Street

__all__ = ["BatchedBPPCurves", "BatchedCurvesDecision", "curve_probabilities"]

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

_FOLD, _RAISE, _RIVER = int(Action.FOLD), int(Action.RAISE), int(Street.RIVER)


def curve_probabilities(
    x: Array,
    *,
    fold_shift: Array,
    call_shift: Array,
    bet_shift: Array,
    steepness: Array,
    can_fold: Mask,
    can_raise: Mask,
) -> Array:
    """``agents.bpp.curves.curve_probabilities`` of each row, ``(k, 3)``."""
    k = steepness
    exps = np.stack([-k * (x - fold_shift), -k * np.abs(x - call_shift), k * (x - bet_shift)])
    weights = np.exp(exps - exps.max(axis=0))
    fold, call, bet = weights
    call = np.where(can_fold, call, call + fold)
    fold = np.where(can_fold, fold, 0.0)
    call = np.where(can_raise, call, call + bet)
    bet = np.where(can_raise, bet, 0.0)
    total = (fold + call) + bet
    probabilities: Array = np.stack([fold / total, call / total, bet / total], axis=1)
    return probabilities


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
        p = self.win_probability(batch)
        street = batch.street.astype(np.intp)
        flat = batch.tables * 4 + street
        to_call = batch.to_call
        owing = to_call != 0
        theta = np.zeros(len(p))
        theta[owing] = to_call[owing] / (batch.pot[owing] + to_call[owing])
        params = self.params
        can_raise = batch.legal[:, _RAISE]
        probabilities = curve_probabilities(
            p - theta,
            fold_shift=params.fold_shift.reshape(-1)[flat],
            call_shift=params.call_shift.reshape(-1)[flat],
            bet_shift=params.bet_shift.reshape(-1)[flat],
            steepness=params.steepness[batch.tables],
            can_fold=batch.legal[:, _FOLD],
            can_raise=can_raise,
        )
        river = (street == _RIVER) & can_raise
        bluff(probabilities, params.bluff_rate[batch.tables], river)
        return BatchedCurvesDecision(p, theta, probabilities)
