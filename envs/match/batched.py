"""The batched engine of the match runner: every pass of the match side by side on a HandBatch.

A pass (``envs.match.passes``) here is one session in one rotation (``MatchPlan``): fresh
agents play the session's deals in order, so passes are independent and each gets a table of
its own; the agents are batched agents (``envs.protocols.BatchedAgent``) deciding for all
tables at once. When every agent is memoryless and states its policy, a pass's deals may be
split over several tables too. Tables never run past the accounts' current window of deals;
when the window is complete it is closed and the tables go on. Actions are drawn from the
same common random numbers as in the scalar engine, so both engines play the same hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from envs.batched.engine import HandBatch
from envs.deals import deal_decks
from envs.game import Hand
from envs.match.accounts import Accounts
from envs.match.hands import FinishedHands
from envs.match.passes import Ledger, Progress, run_passes
from envs.match.plan import MatchPlan
from envs.protocols import BatchedAgent
from envs.rules import Action, Rules

__all__ = ["MatchPasses", "plan_passes", "play_batched"]

Ints = npt.NDArray[np.int64]
Seeds = npt.NDArray[np.uint64]
OnHand = Callable[[Hand, tuple[str, ...]], None]


@dataclass(frozen=True)
class MatchPasses:
    """The passes of a match, in deal order, computed from their index (no arrays held); a
    ``envs.match.passes.PassSchedule``.

    A pass plays deals ``first .. last - 1`` of one session in one rotation with fresh agents.
    Unsplit, pass ``i`` is session ``i // R`` in rotation ``i % R`` (``R`` rotations). Split
    (only when no agent remembers anything between hands), each window of ``window`` deals is
    cut into ``pieces`` runs of deals, and pass ``i`` is run ``(i // R) % pieces`` of window
    ``i // (R * pieces)`` in rotation ``i % R``.
    """

    plan: MatchPlan
    pieces: int = 0
    """Runs per window when split; 0 when not split."""
    window: int = 0

    def __len__(self) -> int:
        plan = self.plan
        if not self.pieces:
            return plan.sessions * plan.rotations
        windows = -(-plan.deals // self.window)
        return windows * self.pieces * plan.rotations

    def rotation(self, index: Ints) -> Ints:
        """The rotation of each pass."""
        return index % self.plan.rotations

    def bounds(self, index: Ints) -> tuple[Ints, Ints]:
        """``(first, last)``: the deals of each pass (``last`` excluded)."""
        plan = self.plan
        group = index // plan.rotations
        if not self.pieces:
            first = group * plan.deals_per_session
            return first, first + plan.deals_per_session
        window, piece = group // self.pieces, group % self.pieces
        start = window * self.window
        size = np.minimum(self.window, plan.deals - start)
        return start + piece * size // self.pieces, start + (piece + 1) * size // self.pieces

    def session(self, index: Ints) -> Ints:
        """The session of each pass (of its first deal when split)."""
        return self.bounds(index)[0] // self.plan.deals_per_session

    def card_seeds(self, index: Ints) -> Seeds:
        """The match's seed, for every pass."""
        return np.full(len(index), self.plan.seed, dtype=np.uint64)

    def decision_seeds(self, index: Ints) -> Seeds:
        """The seed of the match's decision uniforms, for every pass."""
        return np.full(len(index), self.plan.decisions, dtype=np.uint64)

    def hand_ids(self, index: Ints, deals: Ints) -> Ints:
        """``rotation * deals + deal`` (``MatchPlan.hand_id``)."""
        return self.rotation(index) * self.plan.deals + deals

    def generator(self, index: int, role: int) -> np.random.Generator:
        """The generator of the pass's session and rotation (``MatchPlan.agent_streams``)."""
        at = np.array([index], dtype=np.int64)
        session, rotation = int(self.session(at)[0]), int(self.rotation(at)[0])
        return np.random.default_rng(self.plan.agent_streams(session, rotation)[role])


def plan_passes(plan: MatchPlan, split: bool, num_tables: int, window: int) -> MatchPasses:
    """The passes of the match; with ``split``, each window of deals is cut into about
    ``num_tables / rotations`` runs per rotation, so every table has work in every window."""
    if not split:
        return MatchPasses(plan)
    pieces = max(1, min(num_tables // plan.rotations, window))
    return MatchPasses(plan, pieces, window)


def play_batched(
    plan: MatchPlan,
    rules: Rules,
    batch: HandBatch,
    agents: Sequence[BatchedAgent],
    passes: MatchPasses,
    accounts: Accounts,
    labels: Sequence[str],
    *,
    on_hand: OnHand | None = None,
    progress: Progress | None = None,
) -> None:
    """Play every hand of ``passes`` on ``batch`` and book it in ``accounts``.

    Args:
        plan: The match structure.
        rules: The game (``batch.rules``).
        batch: The tables, all idle.
        agents: Agent ``j``'s batched form, serving every table.
        passes: The work (``plan_passes``), each pass given to one table.
        accounts: Where finished hands go.
        labels: The agents' names (for ``on_hand``).
        on_hand: Called with every finished hand (rebuilt as a ``Hand``) and the names per
            seat, in the scalar engine's order (deal by deal, rotation by rotation).
        progress: Called with the number of hands just finished.
    """
    ledger: Ledger = accounts
    if on_hand is not None:
        ledger = _Logged(accounts, plan, rules, labels, on_hand)
    run_passes(batch, agents, passes, ledger, progress=progress)


class _Logged:
    """The accounts, passing every finished hand on as a ``Hand`` in the scalar engine's
    order: a window's hands are held until it closes, then replayed sorted by deal and
    rotation (the cards from the deal's seed, the actions from the log)."""

    def __init__(
        self,
        accounts: Accounts,
        plan: MatchPlan,
        rules: Rules,
        labels: Sequence[str],
        on_hand: OnHand,
    ) -> None:
        self.accounts, self.plan, self.rules, self.on_hand = accounts, plan, rules, on_hand
        self.aivat = accounts.aivat
        self.seat_labels = [
            tuple(labels[j] for j in plan.seating(r)) for r in range(plan.rotations)
        ]
        self.held: list[tuple[int, int, list[int]]] = []

    @property
    def window_end(self) -> int:
        return self.accounts.window_end

    @property
    def window_complete(self) -> bool:
        return self.accounts.window_complete

    @property
    def done(self) -> bool:
        return self.accounts.done

    def add(self, hands: FinishedHands, passes: Ints) -> None:
        self.accounts.add(hands, passes)
        deals, rotations = hands.deals.tolist(), hands.rotations.tolist()
        for i, length in enumerate(hands.log_len.tolist()):
            self.held.append((deals[i], rotations[i], hands.log_action[i, :length].tolist()))

    def close_window(self) -> None:
        self.held.sort(key=lambda item: (item[0], item[1]))
        n, plan = self.rules.num_seats, self.plan
        deals = np.array([deal for deal, _, _ in self.held], dtype=np.int64)
        decks = deal_decks(plan.seed, deals, cards=2 * n + 5)
        for (deal, rotation, actions), deck in zip(self.held, decks, strict=True):
            hand = Hand(self.rules, deck, button=deal % n, hand_id=plan.hand_id(rotation, deal))
            for action in actions:
                hand.act(Action(action))
            self.on_hand(hand, self.seat_labels[rotation])
        self.held.clear()
        self.accounts.close_window()
