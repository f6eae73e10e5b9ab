"""The hand-strength toolkit shared by the agents: holdings, HS/HSn, PPOT/NPOT, EHS, PPOTc, IR.

* ``holdings`` -- the 1,326 two-card holdings, weight tables, dead cards;
* ``measures`` -- hand strength HS1/HSn, EHS and EHS', the field array, HS of all holdings;
* ``potential`` -- PPOT/NPOT by one- or two-card look-ahead, exact PPOT1 of all holdings;
* ``ppotc`` -- Papp's fast PPOTc estimate;
* ``street`` -- all of these for many (own hand, board) rows in compiled loops: the
  weight-independent ``StreetTables`` of a street, then HSn and PPOT1 against field weights;
* ``income_rate`` -- pre-flop income-rate tables IR2..IR10 (the shipped data and roll-outs).

The formulas, their sources and the reference values the tests check:
``agents/strength/README.md``.

>>> from envs.cards import parse_cards
>>> round(hand_strength(parse_cards("AhQc"), parse_cards("3h4cJh")), 3)  # Papp Table 5.1
0.585
"""

from __future__ import annotations

from agents.strength.holdings import HOLDINGS, NUM_HOLDINGS, board_ranks, dead_mask
from agents.strength.measures import (
    ehs,
    ehs_prime,
    field_weights,
    hand_strength,
    hand_strength_all,
)
from agents.strength.potential import hand_potential, potential_counts, ppot1_all
from agents.strength.ppotc import ppot_c
from agents.strength.street import StreetTables, field_potential2, field_values, street_tables

__all__ = [
    "HOLDINGS",
    "NUM_HOLDINGS",
    "StreetTables",
    "board_ranks",
    "dead_mask",
    "ehs",
    "ehs_prime",
    "field_potential2",
    "field_values",
    "field_weights",
    "hand_potential",
    "hand_strength",
    "hand_strength_all",
    "potential_counts",
    "ppot1_all",
    "ppot_c",
    "street_tables",
]
