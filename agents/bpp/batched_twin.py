"""The batched form of a scalar BPP: what ``BPPAgent.batched`` and ``BPPCurvesAgent.batched``
of the batched-agent contract return (the scalar classes will delegate here)."""

from __future__ import annotations

from agents.bpp.agent import BPPAgent
from agents.bpp.batched_agent import BatchedBPP
from agents.bpp.batched_curves import BatchedBPPCurves
from agents.bpp.curves import BPPCurvesAgent

__all__ = ["batched_twin"]


def batched_twin(
    agent: BPPAgent | BPPCurvesAgent, num_tables: int
) -> BatchedBPP | BatchedBPPCurves:
    """A batched agent playing ``agent``'s parameters, strategy, learning switch and network
    at each of ``num_tables`` tables (fresh memory: nothing ``agent`` learned is copied)."""
    if isinstance(agent, BPPAgent):
        return BatchedBPP(
            num_tables,
            agent.params,
            strategy=agent.strategy,
            learn=agent.learn,
            network=agent.belief.network,
        )
    if isinstance(agent, BPPCurvesAgent):
        return BatchedBPPCurves(
            num_tables, agent.params, learn=agent.learn, network=agent.belief.network
        )
    raise TypeError(f"no batched form of {type(agent).__name__}")
