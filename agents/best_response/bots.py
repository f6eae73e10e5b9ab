"""Card-independent bot policies as data: action probabilities per public betting state.

A bot whose actions do not depend on its cards reveals nothing about them, so the learner's
best response only needs the bot's probabilities at each public state (``BotPolicy``). The
baseline bots are such policies:

* ``call``: always checks or calls (``CallAgent``);
* ``raise``: bets or raises whenever it may, else calls (``RaiseAgent``);
* ``random``: uniform over the legal actions (``RandomAgent``): 1/3 each facing a bet below the
  cap, check or bet 1/2 each when checking is free, fold or call 1/2 each at the cap;
* ``fold``: folds whenever it faces a bet, checks otherwise;
* ``mix:F,C,R`` (or four such triples separated by ``/``, pre-flop/flop/turn/river): fold, call
  and raise with these probabilities. A mix's illegal actions pass their mass to check/call:
  folding when checking is free becomes a check, raising at the cap becomes a call (so
  ``mix:0,0,1`` is ``raise`` and ``mix:1,0,0`` is ``fold``). Note that ``random`` is not
  ``mix:1/3,1/3,1/3``: at the cap it folds half the time, where the mix would fold a third.

Policies that also depend on earlier public actions fit the same ``probabilities(state)``
interface (``PublicState`` carries the whole public history).

>>> parse_policy("mix:0.1,0.6,0.3").name
'mix:0.1,0.6,0.3'
>>> parse_policy("mix:0,0.5,0.5/0.1,0.6,0.3/0.1,0.6,0.3/0.2,0.8,0").weights[3]
(0.2, 0.8, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from agents.best_response.public import PublicState
from envs.rules import Action

__all__ = [
    "CALL",
    "FOLD",
    "NAMED_POLICIES",
    "RAISE",
    "RANDOM",
    "BotPolicy",
    "StreetMix",
    "UniformRandom",
    "check_triple",
    "parse_policy",
]

Triple = tuple[float, float, float]

_TOLERANCE = 1e-9
"""How far from 1 a probability triple may sum (decimal input such as 0.1,0.6,0.3)."""


def check_triple(triple: tuple[float, ...], where: str) -> None:
    """``ValueError`` unless ``triple`` is three finite non-negative numbers summing to 1.

    One bot's (fold, call, raise) triple, before any legal actions are known; the match
    runners check agents' rows against the legal actions (``envs.crn.check_probabilities``).
    """
    if len(triple) != 3:
        raise ValueError(f"{where}: need fold, call and raise probabilities, got {triple!r}")
    if not all(math.isfinite(p) and p >= 0.0 for p in triple):
        raise ValueError(f"{where}: probabilities must be finite and non-negative, got {triple}")
    if abs(sum(triple) - 1.0) > _TOLERANCE:
        raise ValueError(f"{where}: probabilities must sum to 1, got {triple} (sum {sum(triple)})")


class BotPolicy(Protocol):
    """A card-independent policy: (fold, call, raise) probabilities at each public state.

    Implementations are hashable values (frozen dataclasses), so that computations over them
    can be cached, and give zero probability to illegal actions.
    """

    def __hash__(self) -> int:
        """Policies are values: equal policies hash alike."""
        ...

    @property
    def name(self) -> str:
        """A short name that ``parse_policy`` reads back (``call``, ``mix:...``)."""
        ...

    def probabilities(self, state: PublicState) -> Triple:
        """Probabilities of fold, check/call and bet/raise for the bot to act in ``state``."""
        ...


@dataclass(frozen=True)
class StreetMix:
    """Fold, call and raise with fixed probabilities per street (see the module docstring).

    Illegal actions pass their mass to check/call: a fold when checking is free becomes a
    check, a raise at the cap becomes a call.
    """

    weights: tuple[Triple, Triple, Triple, Triple]
    """(fold, call, raise) probabilities pre-flop, on the flop, turn and river."""
    label: str = ""
    """Registry-style name (``call``, ``raise``, ``fold``); empty for a ``mix:`` spec."""

    def __post_init__(self) -> None:
        if len(self.weights) != 4:
            raise ValueError(f"a mix needs one triple per street (4), got {len(self.weights)}")
        for street, triple in enumerate(self.weights):
            check_triple(triple, f"street {street} of the mix")

    @classmethod
    def constant(cls, fold: float, call: float, raise_: float, label: str = "") -> StreetMix:
        """The same mix on every street."""
        triple = (float(fold), float(call), float(raise_))
        return cls((triple, triple, triple, triple), label)

    @property
    def name(self) -> str:
        """The label, or the ``mix:`` spec that ``parse_policy`` reads back."""
        if self.label:
            return self.label
        texts = [",".join(_number(p) for p in triple) for triple in self.weights]
        return "mix:" + (texts[0] if len(set(texts)) == 1 else "/".join(texts))

    def probabilities(self, state: PublicState) -> Triple:
        """The street's mix, with the mass of illegal actions moved to check/call."""
        fold, call, raise_ = self.weights[state.street]
        if Action.FOLD not in state.legal_actions:
            call, fold = call + fold, 0.0
        if Action.RAISE not in state.legal_actions:
            call, raise_ = call + raise_, 0.0
        return (fold, call, raise_)


@dataclass(frozen=True)
class UniformRandom:
    """Each legal action with equal probability, as ``agents.baselines.RandomAgent`` plays."""

    @property
    def name(self) -> str:
        """``random``, the registry name of the bot it describes."""
        return "random"

    def probabilities(self, state: PublicState) -> Triple:
        """1 / (number of legal actions) for each legal action."""
        share = 1.0 / len(state.legal_actions)
        fold, call, raise_ = (share if a in state.legal_actions else 0.0 for a in Action)
        return (fold, call, raise_)


CALL = StreetMix.constant(0.0, 1.0, 0.0, "call")
"""The calling station (``agents.baselines.CallAgent``)."""
RAISE = StreetMix.constant(0.0, 0.0, 1.0, "raise")
"""The maniac (``agents.baselines.RaiseAgent``)."""
FOLD = StreetMix.constant(1.0, 0.0, 0.0, "fold")
"""Folds to every bet, checks when free: the ``always-fold`` strategy of the literature."""
RANDOM = UniformRandom()
"""Uniform over the legal actions (``agents.baselines.RandomAgent``)."""
NAMED_POLICIES: dict[str, BotPolicy] = {
    "call": CALL,
    "raise": RAISE,
    "random": RANDOM,
    "fold": FOLD,
}
"""The policies ``parse_policy`` knows by name."""


def parse_policy(text: str) -> BotPolicy:
    """A policy from its name: ``call``, ``raise``, ``random``, ``fold`` or a ``mix:`` spec.

    Raises:
        ValueError: on an unknown name or a malformed mix, with the expected syntax.
    """
    if text in NAMED_POLICIES:
        return NAMED_POLICIES[text]
    if not text.startswith("mix:"):
        known = ", ".join(NAMED_POLICIES)
        raise ValueError(f"unknown bot {text!r}: expected one of {known} or mix:F,C,R")
    groups = text[len("mix:") :].split("/")
    if len(groups) not in (1, 4):
        raise ValueError(
            f"{text!r}: a mix is one F,C,R triple for every street or four triples "
            "separated by '/' (pre-flop/flop/turn/river)"
        )
    triples = [_triple(group, text) for group in groups]
    if len(triples) == 1:
        return StreetMix.constant(*triples[0])
    return StreetMix((triples[0], triples[1], triples[2], triples[3]))


def _triple(group: str, text: str) -> Triple:
    parts = group.split(",")
    if len(parts) != 3:
        raise ValueError(f"{text!r}: {group!r} is not three comma-separated numbers F,C,R")
    try:
        fold, call, raise_ = (float(part) for part in parts)
    except ValueError:
        raise ValueError(f"{text!r}: {group!r} is not three numbers F,C,R") from None
    return (fold, call, raise_)


def _number(value: float) -> str:
    """Shortest text that reads back as the same float (``0.1``, ``1``)."""
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text
