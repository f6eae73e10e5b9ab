"""Main and side pots, and who wins each: pure functions over the chips each seat put in."""

from __future__ import annotations

from collections.abc import Sequence

Pot = tuple[int, tuple[int, ...]]
"""(amount, seats) — the seats eligible for a pot, or the winners of an awarded pot."""


def side_pots(contributions: Sequence[int], contenders: Sequence[int]) -> list[Pot]:
    """Main pot then side pots, each with the contenders eligible for it.

    A pot is formed at every distinct contribution level; consecutive pots with the same
    eligible contenders are merged. ``contenders`` (seats still in, in odd-chip order) keeps its
    order in every pot.

    >>> side_pots([4, 12, 12], [1, 2, 0])
    [(12, (1, 2, 0)), (16, (1, 2))]
    """
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(contributions)):
        amount = sum(level - previous for c in contributions if c >= level)
        eligible = tuple(s for s in contenders if contributions[s] >= level)
        if pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        if amount and eligible:
            pots.append((amount, eligible))
        elif amount:
            # Only folded seats put in this much: their chips go to the pot below.
            pots[-1] = (pots[-1][0] + amount, pots[-1][1])
        previous = level
    return pots


def award_pots(
    contributions: Sequence[int], contenders: Sequence[int], ranks: Sequence[int]
) -> list[Pot]:
    """The pots as (amount, winners), winners in odd-chip order (first left of the button).

    Hands that win no pot at all are killed before the pots are split, as PokerKit does, so
    side pots whose remaining contenders coincide merge: this moves odd chips, never a pot.

    >>> award_pots([5, 5, 5], [1, 2, 0], ranks=[7, 1, 7])
    [(15, (2, 0))]
    """
    winners: set[int] = set()
    for _, eligible in side_pots(contributions, contenders):
        best = max(ranks[s] for s in eligible)
        winners.update(s for s in eligible if ranks[s] == best)
    awarded = []
    for amount, eligible in side_pots(contributions, [s for s in contenders if s in winners]):
        best = max(ranks[s] for s in eligible)
        awarded.append((amount, tuple(s for s in eligible if ranks[s] == best)))
    return awarded
