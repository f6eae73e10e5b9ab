"""Loki (Papp 1998) and Loki-2 (Pena 1999): the agents, their parameters and their parts.

* ``params`` -- ``LokiParams`` and the closed vocabularies (tightness, modelling, betting);
* ``preflop`` -- income-rate strategy selection (Table B.1);
* ``postflop`` -- the betting rules on EHS', and Loki-2's probability triples;
* ``modelling`` -- action frequencies and re-weighting;
* ``action_contexts`` -- the situation behind every public action;
* ``agent`` -- ``Loki`` and ``Loki2``, known policies (``draw``: Loki-2's one draw per hand);
* ``weighting`` and ``triples`` -- the compiled per-holding arithmetic both Lokis share (their
  hand values come from the compiled street kernels, ``agents.strength.street``);
* ``batched_loki`` -- ``BatchedLoki``, the batched twin (``batched_*`` its parts).

The formulas, the gaps in the theses and our readings of them: ``agents/loki/README.md``.
"""

from __future__ import annotations

from agents.loki.agent import Loki, Loki2, loki_moderate, loki_som, loki_tight
from agents.loki.params import Betting, LokiParams, Modelling, Reweighting, Tightness

__all__ = [
    "Betting",
    "Loki",
    "Loki2",
    "LokiParams",
    "Modelling",
    "Reweighting",
    "Tightness",
    "loki_moderate",
    "loki_som",
    "loki_tight",
]
