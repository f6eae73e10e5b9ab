"""BPP, the Bayesian Poker Player, for fixed-limit hold'em: the public API in one place.

* ``BPPAgent`` (registry ``bpp``, mixed strategy; ``bpp-det``, deterministic) with
  ``BPPParams`` and ``Strategy``; ``BPPAgent.decide(view)`` returns a ``BPPDecision``.
* ``BPPCurvesAgent`` (registry ``bpp-curves``), the original betting-curve BPP, with
  ``CurvesParams``.
* ``fold_probability`` and ``pass_probability``: Carlton's curves, vectorised, for plots.
* ``expected_winnings``: the decision network's EW(bet) and EW(pass).
* ``shipped_network(structure)``: the network tables (``Structure.REFINED`` by default,
  ``Structure.PAPER`` for the stud BPP's arcs), to pass as ``network=``.

The modules behind it, one concept each: ``bpp_types`` (hand types, board classes),
``bpp_tables`` (counting the card-combinatorial tables), ``bpp_network`` (the network and exact
inference), ``bpp_opponent`` (the opponent model), ``bpp_belief`` (P(win) during a hand),
``bpp_decision`` (decision network and strategies), ``bpp_params``, ``bpp_agent``,
``bpp_curves``.
"""

from __future__ import annotations

from agents.bpp.agent import BPPAgent, BPPDecision, deterministic_bpp
from agents.bpp.curves import BPPCurvesAgent, CurvesDecision, CurvesParams
from agents.bpp.decision import (
    Strategy,
    action_probabilities,
    expected_winnings,
    fold_probability,
    pass_probability,
)
from agents.bpp.network import Structure, shipped_network
from agents.bpp.params import ROUND_NAMES, BPPParams

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
