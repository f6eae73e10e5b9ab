"""The batched form of a scalar BPP: what ``BPPAgent.batched`` and ``BPPCurvesAgent.batched``
of the batched-agent contract return (the scalar classes will delegate here)."""

from __future__ import annotations

from agents.bpp.agent import BayesianPlayer, BPPAgent
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.curves import BPPCurvesAgent

__all__ = ["batched_twin"]


def batched_twin(agent: BayesianPlayer, num_tables: int) -> BatchedBPP | BatchedBPPCurves | None:
    """A batched agent playing ``agent``'s parameters, strategy, learning switch and network
    at each of ``num_tables`` tables (fresh memory: nothing ``agent`` learned is copied);
    ``None`` for a subclass, which may play or remember differently."""
    if type(agent) is BPPAgent:
        return BatchedBPP(
            num_tables,
            agent.params,
            strategy=agent.strategy,
            learn=agent.learn,
            network=agent.belief.network,
        )
    if type(agent) is BPPCurvesAgent:
        return BatchedBPPCurves(
            num_tables, agent.params, learn=agent.learn, network=agent.belief.network
        )
    return None
