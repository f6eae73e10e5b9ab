"""The local best responses with a deeper look-ahead (``agents.lbr.lookahead``), by name.

* ``lbr2-bpp``, ``lbr2-bpp-det``, ``lbr2-bpp-curves``, ``lbr2-rule``, ``lbr2-call``,
  ``lbr2-raise``, ``lbr2-random``: ``Lookahead.LATER_BETS`` (fold or call a re-raise, bet or
  check each later street against the range's answers now);
* ``lbr3-call``, ``lbr3-raise``, ``lbr3-random``: ``Lookahead.PUBLIC_TREE`` (the best
  continuation blind to later cards, exact over the public tree; card-independent bots only).

Each is the ``lbr-`` agent of the same opponent with the default ``LBRParams`` but the
look-ahead.
"""

from __future__ import annotations

from agents.baselines import CallAgent, RaiseAgent, RandomAgent, RuleAgent
from agents.bpp import BPPAgent, BPPCurvesAgent, deterministic_bpp
from agents.lbr.agent import LocalBestResponse
from agents.lbr.equity_cache import LBRParams
from agents.lbr.lookahead import Lookahead
from agents.lbr.range_policy import CardIndependent, ShadowBayesian, VectorRule

__all__ = [
    "LATER_BETS",
    "PUBLIC_TREE",
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
]


LATER_BETS = LBRParams(lookahead=Lookahead.LATER_BETS)
"""The default settings with the deeper look-ahead (the ``lbr2-`` agents)."""


def lbr2_bpp() -> LocalBestResponse:
    """Registry factory: ``lbr-bpp`` with the deeper look-ahead (``agents.lbr.lookahead``)."""
    return LocalBestResponse(ShadowBayesian(BPPAgent()), name="lbr2-bpp", params=LATER_BETS)


def lbr2_bpp_det() -> LocalBestResponse:
    """Registry factory: ``lbr-bpp-det`` with the deeper look-ahead."""
    bpp = ShadowBayesian(deterministic_bpp())
    return LocalBestResponse(bpp, name="lbr2-bpp-det", params=LATER_BETS)


def lbr2_bpp_curves() -> LocalBestResponse:
    """Registry factory: ``lbr-bpp-curves`` with the deeper look-ahead."""
    bpp = ShadowBayesian(BPPCurvesAgent())
    return LocalBestResponse(bpp, name="lbr2-bpp-curves", params=LATER_BETS)


def lbr2_rule() -> LocalBestResponse:
    """Registry factory: ``lbr-rule`` with the deeper look-ahead."""
    return LocalBestResponse(VectorRule(RuleAgent()), name="lbr2-rule", params=LATER_BETS)


def lbr2_call() -> LocalBestResponse:
    """Registry factory: ``lbr-call`` with the deeper look-ahead."""
    return LocalBestResponse(CardIndependent(CallAgent()), name="lbr2-call", params=LATER_BETS)


def lbr2_raise() -> LocalBestResponse:
    """Registry factory: ``lbr-raise`` with the deeper look-ahead."""
    return LocalBestResponse(CardIndependent(RaiseAgent()), name="lbr2-raise", params=LATER_BETS)


def lbr2_random() -> LocalBestResponse:
    """Registry factory: ``lbr-random`` with the deeper look-ahead."""
    random = CardIndependent(RandomAgent())
    return LocalBestResponse(random, name="lbr2-random", params=LATER_BETS)


PUBLIC_TREE = LBRParams(lookahead=Lookahead.PUBLIC_TREE)
"""The default settings with the public-tree look-ahead (the ``lbr3-`` agents)."""


def lbr3_call() -> LocalBestResponse:
    """Registry factory: ``lbr-call`` with the public-tree look-ahead."""
    return LocalBestResponse(CardIndependent(CallAgent()), name="lbr3-call", params=PUBLIC_TREE)


def lbr3_raise() -> LocalBestResponse:
    """Registry factory: ``lbr-raise`` with the public-tree look-ahead."""
    raiser = CardIndependent(RaiseAgent())
    return LocalBestResponse(raiser, name="lbr3-raise", params=PUBLIC_TREE)


def lbr3_random() -> LocalBestResponse:
    """Registry factory: ``lbr-random`` with the public-tree look-ahead."""
    random = CardIndependent(RandomAgent())
    return LocalBestResponse(random, name="lbr3-random", params=PUBLIC_TREE)
