"""BPP, the Bayesian Poker Player, for fixed-limit hold'em: the public API in one place.

* ``BPPAgent`` (registry ``bpp``, mixed strategy; ``bpp-det``, deterministic) with
  ``BPPParams`` and ``Strategy``; ``BPPAgent.decide(view)`` returns a ``BPPDecision``.
* ``BPPCurvesAgent`` (registry ``bpp-curves``), the original betting-curve BPP, with
  ``CurvesParams``.
* ``fold_probability`` and ``pass_probability``: Carlton's curves, vectorised, for plots.
* ``expected_winnings``: the decision network's EW(bet) and EW(pass).
* ``shipped_network(structure)``: the network tables (``Structure.REFINED`` by default,
  ``Structure.PAPER`` for the stud BPP's arcs), to pass as ``network=``.

The modules behind it, one concept each: ``hand_types`` (hand types, board classes),
``tables`` (counting the card-combinatorial tables), ``network`` (the network and exact
inference), ``opponent`` (the opponent model), ``belief`` (P(win) during a hand), ``decision``
(decision network and strategies), ``params`` (both BPPs' parameters), ``agent``,
``curves``, and the batched forms (``batched_*``, built by ``BPPAgent.batched`` and
``BPPCurvesAgent.batched``). The formulas, the gaps in the sources and our readings of them
are in ``agents/bpp/README.md``.
"""

from __future__ import annotations

from agents.bpp.agent import BPPAgent, BPPDecision, deterministic_bpp
from agents.bpp.curves import BPPCurvesAgent, CurvesDecision
from agents.bpp.decision import (
    Strategy,
    action_probabilities,
    expected_winnings,
    fold_probability,
    pass_probability,
)
from agents.bpp.network import Structure, shipped_network
from agents.bpp.params import ROUND_NAMES, BPPParams, CurvesParams

__all__ = [
    "ROUND_NAMES",
    "BPPAgent",
    "BPPCurvesAgent",
    "BPPDecision",
    "BPPParams",
    "CurvesDecision",
    "CurvesParams",
    "Strategy",
    "Structure",
    "action_probabilities",
    "deterministic_bpp",
    "expected_winnings",
    "fold_probability",
    "pass_probability",
    "shipped_network",
]
