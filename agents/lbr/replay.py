"""The opponent's views at its decisions, rebuilt from our own view and the public log.

To re-weight the opponent's range we need, at each of its past decisions, exactly what it saw
then except its cards: the board so far, the betting, the legal actions. Everything but its
cards is public, so replaying the public action log in a ``Hand`` dealt with our cards, the
board we know and placeholder cards elsewhere gives those views; the opponent's hole cards in
them are the placeholders and are replaced per holding by the ``RangePolicy``.
"""

from __future__ import annotations

from typing import NamedTuple

from envs.events import Acted
from envs.game import Hand
from envs.rules import Action
from envs.view import PlayerView

__all__ = ["OpponentDecision", "Replay"]


class OpponentDecision(NamedTuple):
    """One past decision of the opponent: its log position, its view, its action."""

    position: int
    view: PlayerView
    action: Action


class Replay:
    """The hand of ``view`` (heads-up, ours) replayed from its public log.

    Args:
        view: Our view at one of our decisions, or at the end of the hand.

    Raises:
        ValueError: if the log does not replay (it is not a heads-up hand of these rules).
    """

    def __init__(self, view: PlayerView) -> None:
        if view.num_seats != 2:
            raise ValueError(f"a replay is heads-up only; the table has {view.num_seats} seats")
        me, other = view.seat, 1 - view.seat
        known = {*view.hole, *view.board}
        filler = [card for card in range(52) if card not in known]
        deck = [0] * 9
        deck[2 * me : 2 * me + 2] = view.hole
        deck[2 * other : 2 * other + 2] = filler[:2]
        deck[4:9] = [*view.board, *filler[2 : 7 - len(view.board)]]
        stacks = tuple(s + c for s, c in zip(view.stacks, view.contributions, strict=True))
        self.view = view
        self.opponent = other
        self._deck = deck
        self._stacks = stacks

    def _hand(self) -> Hand:
        view = self.view
        return Hand(
            view.rules, self._deck, button=view.button, hand_id=view.hand_id, stacks=self._stacks
        )

    def decisions(self, start: int = 0) -> list[OpponentDecision]:
        """The opponent's decisions at log positions ``start`` and later, in order."""
        hand = self._hand()
        found = []
        for index, acted in enumerate(self.view.actions):
            self._check(hand, acted)
            if acted.seat == self.opponent and index >= start:
                found.append(OpponentDecision(index, hand.view(self.opponent), acted.action))
            hand.act(acted.action)
        return found

    def after_our_raise(self) -> PlayerView | None:
        """The opponent's view after we bet or raise now (None if it would not act)."""
        hand = self._hand()
        for acted in self.view.actions:
            self._check(hand, acted)
            hand.act(acted.action)
        if hand.actor != self.view.seat:
            raise ValueError(f"the replayed log leaves seat {hand.actor} to act, not ours")
        hand.act(Action.RAISE)
        return hand.view(self.opponent) if hand.actor == self.opponent else None

    def _check(self, hand: Hand, acted: Acted) -> None:
        if hand.actor != acted.seat or hand.street != acted.street:
            raise ValueError(
                f"the public log does not replay: seat {acted.seat} acted on street "
                f"{acted.street.name}, the replay has seat {hand.actor} on {hand.street.name}"
            )
