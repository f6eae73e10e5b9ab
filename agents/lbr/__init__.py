"""Local best responses: lower bounds on the exploitability of agents with known policies.

* ``LocalBestResponse`` (registry ``lbr-bpp``, ``lbr-bpp-det``, ``lbr-bpp-curves``,
  ``lbr-rule``, ``lbr-loki``, ``lbr-loki2``, ``lbr-loki-tight``, ``lbr-loki-moderate``,
  ``lbr-loki-som``; ``lbr-call``, ``lbr-raise``, ``lbr-random`` for comparison with the exact best
  responses of ``agents.best_response``) with ``LBRParams``: plays, heads-up, the local best
  response of Lisy and Bowling 2017 against an opponent whose policy it knows
  (``agents.lbr.agent``); with deeper look-aheads (``Lookahead``, ``agents.lbr.lookahead``,
  ``agents.lbr.public_tree``) the ``lbr2-`` agents (``lbr2-bpp``, ``lbr2-bpp-det``,
  ``lbr2-bpp-curves``, ``lbr2-rule``, ``lbr2-call``, ``lbr2-raise``, ``lbr2-random``: later
  streets' bets) and ``lbr3-call``, ``lbr3-raise``, ``lbr3-random`` (the public betting tree)
  (``agents.lbr.deeper_agents``);
* the opponents' policies over every holding at once: ``CardIndependent``, ``VectorRule``,
  ``ShadowBayesian`` (``agents.lbr.range_policy``), ``ShadowLoki`` (``agents.lbr.loki_range``,
  with ``loki_holding_values``, ``agents.lbr.loki_boards``: HS1 and PPOT1 of all 1,326
  holdings in one compiled call);
* ``holding_equities`` (our equity against each holding, ``agents.lbr.holding_equity``),
  ``action_values`` and ``best_action`` (the fixed-limit valuation, ``agents.lbr.values``),
  ``Replay`` (the opponent's past views from the public log, ``agents.lbr.replay``);
* the batched twin ``BatchedLBR`` (``agents.lbr.batched_lbr``, built by
  ``LocalBestResponse.batched``), with the opponents' batched policies over every holding
  (``agents.lbr.batched_ranges``; a BPP answers for its 27 hand types at once,
  ``agents.bpp.type_belief``), the public logs replayed in an engine of its own that keeps
  each table's hand between our decisions (``agents.lbr.batched_replay``) and the Bayes
  updates and check-down values one pass per row (``agents.lbr.range_kernels``); the Loki
  family's keeps a ``ShadowLoki`` per table (``PerTableRanges``,
  ``agents.lbr.per_table_ranges``), the boards' arrays shared (``agents.lbr.loki_board_memo``).

Measure one with the duplicate match runner, e.g. ``holdem-lab match lbr-bpp bpp --hands N
--sessions S`` (the batched engine plays S sessions side by side).
"""

from __future__ import annotations

from agents.lbr.agent import (
    LBRParams,
    LocalBestResponse,
    lbr_bpp,
    lbr_bpp_curves,
    lbr_bpp_det,
    lbr_call,
    lbr_raise,
    lbr_random,
    lbr_rule,
)
from agents.lbr.deeper_agents import (
    lbr2_bpp,
    lbr2_bpp_curves,
    lbr2_bpp_det,
    lbr2_call,
    lbr2_raise,
    lbr2_random,
    lbr2_rule,
    lbr3_call,
    lbr3_raise,
    lbr3_random,
)
from agents.lbr.holding_equity import holding_equities
from agents.lbr.loki_boards import loki_holding_values
from agents.lbr.loki_range import (
    ShadowLoki,
    lbr_loki,
    lbr_loki2,
    lbr_loki_moderate,
    lbr_loki_som,
    lbr_loki_tight,
)
from agents.lbr.lookahead import Lookahead
from agents.lbr.range_policy import CardIndependent, RangePolicy, ShadowBayesian, VectorRule
from agents.lbr.replay import OpponentDecision, Replay
from agents.lbr.values import ActionValues, action_values, best_action

__all__ = [
    "ActionValues",
    "CardIndependent",
    "LBRParams",
    "LocalBestResponse",
    "Lookahead",
    "OpponentDecision",
    "RangePolicy",
    "Replay",
    "ShadowBayesian",
    "ShadowLoki",
    "VectorRule",
    "action_values",
    "best_action",
    "holding_equities",
    "lbr2_bpp",
    "lbr2_bpp_curves",
    "lbr2_bpp_det",
    "lbr2_call",
    "lbr2_raise",
    "lbr2_random",
    "lbr2_rule",
    "lbr3_call",
    "lbr3_raise",
    "lbr3_random",
    "lbr_bpp",
    "lbr_bpp_curves",
    "lbr_bpp_det",
    "lbr_call",
    "lbr_loki",
    "lbr_loki2",
    "lbr_loki_moderate",
    "lbr_loki_som",
    "lbr_loki_tight",
    "lbr_raise",
    "lbr_random",
    "lbr_rule",
    "loki_holding_values",
]
