"""The best response as a policy: the action at one information set, computed on demand.

Pre-flop the decision comes from the flop-reach values (``agents.best_response.flop_reach``):
a backup of the pre-flop round for the one holding. After the flop it is computed exactly for the
holding alone: its showdown numerators over every completion of the board
(``agents.best_response.single``), the river rounds' tables on the equity grid, and backups of
the current street's round (and, on the flop, of the turn rounds it leads to). The result is
the same decision as the whole-game computation takes, by another route for the equities.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np
import numpy.typing as npt

from agents.best_response.backup import Backup, backup
from agents.best_response.bots import BotPolicy
from agents.best_response.deck import FULL_DECK, Deck
from agents.best_response.flops import river_tables
from agents.best_response.public import LearnerSeat, Role
from agents.best_response.single import completion_numerators
from agents.best_response.tree import PublicGame, Round, build_game
from envs.rules import Action, Rules, Street

__all__ = ["SeatStrategy"]

Array = npt.NDArray[np.float64]

_CACHE_SIZE = 16
"""Rounds whose choices are kept (a hand visits at most a few per street)."""


class SeatStrategy:
    """The best response of one seat to ``policy`` in ``rules``.

    Args:
        policy: The bot's policy.
        rules: A heads-up game with stacks that never bind.
        seat: The learner's seat.
        preflop: Per pre-flop sequence reaching the flop (ACPC letters), each holding's value
            in chips at the start of the flop (the deck's holdings); ``None`` to play after
            the flop only.
        deck: The deck (the full one in play; small ones in tests).
    """

    def __init__(
        self,
        policy: BotPolicy,
        rules: Rules,
        seat: LearnerSeat,
        preflop: dict[str, npt.NDArray[np.float64]] | None,
        deck: Deck = FULL_DECK,
    ) -> None:
        self.game: PublicGame = build_game(policy, rules, seat)
        self.deck = deck
        self.tolerance = 1e-9 * rules.big_bet
        self._preflop: list[Array] | None = None
        if preflop is not None:
            missing = {h for h, _ in self.game.preflop_exits} - set(preflop)
            if missing:
                raise ValueError(f"the pre-flop table lacks the sequences {sorted(missing)}")
            by_round = {i: np.asarray(preflop[h], np.float64) for h, i in self.game.preflop_exits}
            self._preflop = [by_round[i] for i in range(len(by_round))]
        self._recent: dict[tuple[object, ...], Backup] = {}

    @cached_property
    def _rivers(self) -> Array:
        """River tables ``(rounds, grid + 2)`` with a trailing 0 for impossible entries."""
        tables = river_tables(self.game, self.deck, 1, self.tolerance)[0][:, 0, :]
        return np.concatenate([tables, np.zeros((len(tables), 1))], axis=1)

    def action(
        self, hole: tuple[int, int], board: tuple[int, ...], moves: Sequence[tuple[Role, Action]]
    ) -> Action:
        """The best response's action after ``moves`` (from the start of the hand).

        Raises:
            ValueError: if the moves do not lead to a learner decision of this tree, the board
                does not have the street's number of cards, or (pre-flop) there is no table.
        """
        street, round_id, index = self.game.locate(moves)
        if self.game.rounds[street][round_id].nodes[index].actor != Role.LEARNER:
            raise ValueError("the moves lead to a decision of the bot, not of the learner")
        choices = self.round_backup(hole, board, street, round_id).choices
        return Action(int(choices[index].reshape(-1)[0]))

    def round_backup(
        self, hole: tuple[int, int], board: tuple[int, ...], street: Street, round_id: int
    ) -> Backup:
        """The value (chips, ``(1, 1)``) and choices of one round for one information set.

        Kept for the last few rounds asked, so a hand's later decisions in a round are free.
        """
        expected = (0, 3, 4, 5)[street]
        if len(board) != expected:
            raise ValueError(f"{street.name.lower()} needs {expected} board cards, got {board}")
        key = (hole, tuple(sorted(board)), street, round_id)
        result = self._recent.get(key)
        if result is None:
            result = self._compute(hole, board, self.game.rounds[street][round_id])
            if len(self._recent) >= _CACHE_SIZE:
                self._recent.pop(next(iter(self._recent)))
            self._recent[key] = result
        return result

    def _compute(self, hole: tuple[int, int], board: tuple[int, ...], round_: Round) -> Backup:
        if round_.street == Street.PREFLOP:
            holding = int(self.deck.holding_index[hole[0], hole[1]])
            if holding < 0:
                raise ValueError(f"hole cards {hole} are not a holding of {self.deck}")
            if self._preflop is None:
                raise ValueError("this strategy has no pre-flop table")
            exits = [values[holding : holding + 1] for values in self._preflop]
            return self._backup(round_, next_round=lambda i: exits[i][np.newaxis])
        coming, numerators = completion_numerators(self.deck, hole, board)
        if round_.street == Street.RIVER:
            equity = numerators / (2 * self.deck.river_opponents)

            def showdown(chips: int) -> Array:
                return (chips * (2.0 * equity - 1.0)).reshape(1, 1)

            return self._backup(round_, showdown=showdown)
        if round_.street == Street.TURN:
            rivers = self._rivers[:, numerators].mean(axis=1)
            return self._backup(round_, next_round=lambda j: rivers[j].reshape(1, 1))
        return self._backup(round_, next_round=self._turn_values(coming, numerators))

    def _turn_values(
        self, coming: npt.NDArray[np.int64], numerators: npt.NDArray[np.int64]
    ) -> Callable[[int], Array]:
        """Continuation values of the turn rounds, averaged over the turn card, on demand."""
        unseen = np.unique(coming)
        m = len(unseen)
        labels = np.searchsorted(unseen, coming)
        cube = np.full((m, m), self._rivers.shape[1] - 1, dtype=np.int64)
        cube[labels[:, 0], labels[:, 1]] = numerators
        cube[labels[:, 1], labels[:, 0]] = numerators
        rivers: dict[int, Array] = {}
        turns: dict[int, Array] = {}

        def river(round_id: int) -> Array:
            if round_id not in rivers:
                rivers[round_id] = (self._rivers[round_id][cube].sum(axis=1) / (m - 1))[np.newaxis]
            return rivers[round_id]

        def turn(round_id: int) -> Array:
            if round_id not in turns:
                round_ = self.game.rounds[Street.TURN][round_id]
                values = backup(round_, next_round=river, ndim=1, tolerance=self.tolerance).root
                turns[round_id] = values.mean(axis=1, keepdims=True)
            return turns[round_id]

        return turn

    def _backup(
        self,
        round_: Round,
        *,
        next_round: Callable[[int], Array] | None = None,
        showdown: Callable[[int], Array] | None = None,
    ) -> Backup:
        """A round backed up for one information set (arrays of one entry)."""
        return backup(
            round_, next_round=next_round, showdown=showdown, ndim=1, tolerance=self.tolerance
        )
