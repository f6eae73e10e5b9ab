"""The scalar engine of the match runner: one ``Hand`` at a time, deal after deal.

Each (session, rotation) pass has its own fresh set of agents (``MatchPlan``), so the runner
can play a deal's rotations one after the other and book the deal at once. Decisions are drawn
with the hand's common random numbers (``envs.seating.HandDraws``); finished hands are booked
in small groups (``FLUSH`` hands), which changes nothing but the cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from envs.aivat import PlayedHands
from envs.deals import deal_decks
from envs.game import Hand
from envs.match.accounts import Accounts
from envs.match.hands import from_hands
from envs.match.plan import MatchPlan
from envs.protocols import SeatAgent
from envs.rules import Rules
from envs.seating import HandDraws, play_turns, tell_hand_end

__all__ = ["play_scalar"]

FLUSH = 512
"""Finished hands booked together."""
DECKS = 1024
"""Deals whose cards are drawn together."""

OnHand = Callable[[Hand, tuple[str, ...]], None]
Progress = Callable[[int], None]


def play_scalar(
    plan: MatchPlan,
    rules: Rules,
    passes: Callable[[int, int], list[SeatAgent]],
    accounts: Accounts,
    labels: Sequence[str],
    *,
    on_hand: OnHand | None = None,
    progress: Progress | None = None,
) -> None:
    """Play every hand of ``plan`` and book it in ``accounts``.

    Args:
        plan: The match structure.
        rules: The game.
        passes: ``passes(session, rotation)``: the fresh, reset agents of that pass (agent
            ``j`` at index ``j``).
        accounts: Where finished hands go.
        labels: The agents' names (for ``on_hand``).
        on_hand: Called with every finished hand and the agent names per seat.
        progress: Called with the number of hands just finished.
    """
    n = rules.num_seats
    cards = 2 * n + 5
    book = _Book(rules, accounts, plan.seed)
    seat_labels = [tuple(labels[j] for j in plan.seating(r)) for r in range(plan.rotations)]
    for session in range(plan.sessions):
        seated = []
        for r in range(plan.rotations):
            agents = passes(session, r)
            seated.append([agents[j] for j in plan.seating(r)])
        first = session * plan.deals_per_session
        for chunk in range(first, first + plan.deals_per_session, DECKS):
            last = min(chunk + DECKS, first + plan.deals_per_session)
            decks = deal_decks(plan.seed, np.arange(chunk, last), cards=cards)
            for deal, deck in zip(range(chunk, last), decks, strict=True):
                for r in range(plan.rotations):
                    draws = HandDraws(plan.decisions, deal, n)
                    hand = Hand(rules, deck, button=deal % n, hand_id=plan.hand_id(r, deal))
                    play_turns(hand, seated[r], draws)
                    tell_hand_end(hand, seated[r])
                    book.hand(hand, deal, r, draws, deck)
                    if on_hand is not None:
                        on_hand(hand, seat_labels[r])
                if progress is not None:
                    progress(plan.rotations)
                if deal + 1 == accounts.window_end or len(book) >= FLUSH:
                    book.flush()
                if deal + 1 == accounts.window_end:
                    accounts.close_window()
    book.flush()


class _Book:
    """Finished hands waiting to be booked together."""

    def __init__(self, rules: Rules, accounts: Accounts, seed: int) -> None:
        self.rules, self.accounts, self.seed = rules, accounts, seed
        self.hands: list[Hand] = []
        self.deals: list[int] = []
        self.rotations: list[int] = []
        self.draws: list[HandDraws] = []
        self.boards: list[np.ndarray] = []

    def __len__(self) -> int:
        return len(self.hands)

    def hand(
        self, hand: Hand, deal: int, rotation: int, draws: HandDraws, deck: np.ndarray
    ) -> None:
        n2 = 2 * self.rules.num_seats
        self.boards.append(deck[n2 : n2 + 5])
        self.hands.append(hand)
        self.deals.append(deal)
        self.rotations.append(rotation)
        self.draws.append(draws)

    def flush(self) -> None:
        if not self.hands:
            return
        played = None
        if self.accounts.aivat:
            played = _played(self.rules, self.hands, self.boards, self.deals, self.draws)
        self.accounts.add(from_hands(self.rules, self.hands, self.deals, self.rotations, played))
        self.hands, self.deals, self.rotations, self.draws, self.boards = [], [], [], [], []


def _played(
    rules: Rules,
    hands: Sequence[Hand],
    boards: Sequence[np.ndarray],
    deals: Sequence[int],
    draws: Sequence[HandDraws],
) -> PlayedHands:
    """The AIVAT record of scalar hands (cards, blinds, log, probabilities played)."""
    k, n = len(hands), rules.num_seats
    width = max(1, max(len(d.probabilities) for d in draws))
    probabilities = np.zeros((k, width, 3))
    known = np.zeros((k, width), dtype=bool)
    log = np.zeros((4, k, width), dtype=np.int64)
    holes = np.zeros((k, n, 2), dtype=np.uint8)
    board = np.array(boards, dtype=np.uint8).reshape(k, 5)
    blinds = np.zeros((k, n), dtype=np.int64)
    for i, (hand, record) in enumerate(zip(hands, draws, strict=True)):
        view = hand.view(0)
        size = len(record.probabilities)
        probabilities[i, :size] = record.probabilities
        known[i, :size] = record.known
        for j, acted in enumerate(view.actions):
            log[:, i, j] = (acted.street, acted.seat, acted.action, acted.amount)
        holes[i] = [hand.hole(s) for s in range(n)]
        blinds[i] = view.blinds
    return PlayedHands(
        holes=holes,
        board=board,
        blinds=blinds,
        stacks=np.tile(np.array(rules.starting_stacks, dtype=np.int64), (k, 1)),
        log_len=np.array([len(d.probabilities) for d in draws], dtype=np.int64),
        log_street=log[0],
        log_seat=log[1],
        log_action=log[2],
        log_amount=log[3],
        probabilities=probabilities,
        known=known,
        deals=np.asarray(deals, dtype=np.int64),
    )
