"""Heads-up best responses to card-independent bots: the computation and a playable agent.

    >>> from agents.best_response import RAISE, compute_best_response  # doctest: +SKIP
    >>> compute_best_response(RAISE).sb_per_hand  # exact: about a CPU-minute  # doctest: +SKIP

* ``compute_best_response(policy, rules)`` -> ``BestResponse``: the value per seat and averaged
  (chips, sb/hand, mbb/hand), what was enumerated or sampled, and the best response's VPIP,
  PFR and AF (``agents.best_response.solve``);
* the bots as data: ``CALL``, ``RAISE``, ``RANDOM``, ``FOLD``, ``StreetMix`` and
  ``parse_policy("mix:...")`` (``agents.best_response.bots``);
* ``BestResponseAgent`` (registered as ``br-call``, ``br-raise``, ``br-random``) and
  ``PolicyBot`` (``agents.best_response.agent``), playing pre-flop from ``FlopReachValues``,
  each holding's value of reaching the flop (``agents.best_response.flop_reach``).
"""

from __future__ import annotations

from agents.best_response.agent import (
    BestResponseAgent,
    PolicyBot,
    br_call,
    br_raise,
    br_random,
    load_table,
)
from agents.best_response.bots import (
    CALL,
    FOLD,
    NAMED_POLICIES,
    RAISE,
    RANDOM,
    BotPolicy,
    StreetMix,
    UniformRandom,
    parse_policy,
)
from agents.best_response.deck import FULL_DECK, Deck
from agents.best_response.flop_reach import FlopReachValues
from agents.best_response.public import LearnerSeat, PublicState, Role
from agents.best_response.result import BestResponse, SeatResult
from agents.best_response.solve import compute_best_response

__all__ = [
    "CALL",
    "FOLD",
    "FULL_DECK",
    "NAMED_POLICIES",
    "RAISE",
    "RANDOM",
    "BestResponse",
    "BestResponseAgent",
    "BotPolicy",
    "Deck",
    "FlopReachValues",
    "LearnerSeat",
    "PolicyBot",
    "PublicState",
    "Role",
    "SeatResult",
    "StreetMix",
    "UniformRandom",
    "br_call",
    "br_raise",
    "br_random",
    "compute_best_response",
    "load_table",
    "parse_policy",
]
