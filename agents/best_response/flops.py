"""Best-response values of every holding at the start of every flop round of one flop.

River: a river round's value depends on the learner's cards only through its showdown equity,
so each river round is backed up once on the grid of all equity numerators (0..1,980 in the
full deck): the river table. Where the learner's choices at every node of every river round
stay the same, each table is exactly linear in the numerator (showdown payoffs are linear in
the equity, the rest is fixed), so the grid splits into a few bins (about 24 in the default
game) on which every table is ``a + b * n``.

Turn: for each turn card and holding, a river round's continuation value is the mean of its
table over the 46 river cards, that is, per bin, ``a`` times how many rivers fall in the bin
plus ``b`` times the sum of their numerators (``agents.best_response.turn_kernels``); then
every turn round is backed up. Only one turn card per orbit of the flop's suit symmetries is
computed, with the numerators of one board per orbit of turn-river pairs
(``agents.best_response.flop_symmetry``; ``agents.best_response.board_numerators`` ranks and
counts each board per class of card types), and after a turn card one holding per class of
holdings that the board cannot tell apart. Flop: the continuation of a turn round is the mean
over the 47 turn cards, and every flop round is backed up over all holdings (compiled, as the
turn rounds: ``agents.best_response.round_program``). Everything is exact: averages of exact
equities, no sampling; the equivalences are exact relabellings of the cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from agents.best_response.backup import QUANTITIES, backup
from agents.best_response.board_numerators import board_numerators
from agents.best_response.deck import Deck
from agents.best_response.flop_symmetry import flop_symmetry
from agents.best_response.river_numerators import flop_layout
from agents.best_response.round_program import round_program
from agents.best_response.tree import PublicGame
from agents.best_response.turn_street import RiverLines, back_up_rounds, turn_values
from envs.rules import Street

__all__ = ["FlopValues", "river_tables"]

Array = npt.NDArray[np.float64]

_LINEAR_TOLERANCE = 1e-9
"""Chips by which the per-bin lines may miss a river table (rounding only)."""


def river_tables(
    game: PublicGame, deck: Deck, quantities: int, tolerance: float = 1e-9
) -> tuple[Array, npt.NDArray[np.bool_]]:
    """Every river round backed up on the equity grid.

    Returns:
        ``(rounds, quantities, grid + 1)`` tables, entry ``[j, :, n]`` being river round
        ``j``'s value (and counts) for a learner whose showdown numerator is ``n`` (equity
        ``n / (2 * opponents)``); and a ``(grid + 1,)`` mask of the numerators at which some
        learner choice differs from the one below.
    """
    grid = 2 * deck.river_opponents
    equity = np.arange(grid + 1) / grid

    def showdown(chips: int) -> Array:
        leaf = np.zeros((quantities, grid + 1))
        leaf[0] = chips * (2.0 * equity - 1.0)
        return leaf

    tables = []
    changes = np.zeros(grid + 1, dtype=bool)
    for round_ in game.rounds[Street.RIVER]:
        result = backup(round_, showdown=showdown, quantities=quantities, tolerance=tolerance)
        tables.append(np.broadcast_to(result.root, (quantities, grid + 1)))
        for choice in result.choices.values():
            changes[1:] |= choice[1:] != choice[:-1]
    return np.stack(tables), changes


class FlopValues:
    """Flop-round values of all holdings of a flop, for one or more learner seats.

    Args:
        games: The public trees (one per seat) that share the flop's equities.
        deck: The deck.
        quantities: 1 (values) or ``QUANTITIES`` (values and action counts).
        tolerance: Chips within which the learner's actions count as equally good.
    """

    def __init__(
        self,
        games: Sequence[PublicGame],
        deck: Deck,
        quantities: int = QUANTITIES,
        tolerance: float = 1e-9,
    ) -> None:
        self.games = tuple(games)
        self.deck = deck
        self.quantities = quantities
        self.tolerance = tolerance
        grid = 2 * deck.river_opponents
        tables, changes = zip(
            *(river_tables(g, deck, quantities, tolerance) for g in self.games), strict=True
        )
        self._offsets = np.cumsum([0] + [t.shape[0] * quantities for t in tables])
        columns = np.concatenate([t.reshape(-1, grid + 1) for t in tables])
        starts = np.flatnonzero(np.logical_or.reduce(changes) | (np.arange(grid + 1) == 0))
        bins = len(starts)
        # bin_of[n]: the bin of numerator n; the extra last entry stands for a (turn, river,
        # holding) whose cards clash, counted in an extra bin that no table reads.
        self._bin_of = np.append(np.searchsorted(starts, np.arange(grid + 1), "right") - 1, bins)
        self._bins = bins
        ends = np.append(starts[1:] - 1, grid)
        span = np.maximum(ends - starts, 1)
        self._slope = (columns[:, ends] - columns[:, starts]) / span
        self._intercept = columns[:, starts] - self._slope * starts
        lines = self._intercept[:, self._bin_of[:-1]] + self._slope[
            :, self._bin_of[:-1]
        ] * np.arange(grid + 1)
        if not np.allclose(lines, columns, rtol=0.0, atol=_LINEAR_TOLERANCE):
            raise AssertionError("a river table is not linear between choice changes")
        self._lines = _stored_once(self._bin_of, self._intercept, self._slope)
        turn_rounds = [g.rounds[Street.TURN] for g in self.games]
        self._turn_columns = np.cumsum([0] + [len(r) for r in turn_rounds])
        self._program = round_program(
            [round_ for rounds in turn_rounds for round_ in rounds],
            [int(self._offsets[s]) for s, rounds in enumerate(turn_rounds) for _ in rounds],
            quantities,
        )
        flop_rounds = [g.rounds[Street.FLOP] for g in self.games]
        self._flop_columns = np.cumsum([0] + [len(r) for r in flop_rounds])
        self._flop_program = round_program(
            [round_ for rounds in flop_rounds for round_ in rounds],
            [
                int(self._turn_columns[s]) * quantities
                for s, rounds in enumerate(flop_rounds)
                for _ in rounds
            ],
            quantities,
        )

    def compute(
        self, flop: tuple[int, int, int]
    ) -> tuple[npt.NDArray[np.int64], list[list[Array]]]:
        """Values at the start of each flop round, for every seat.

        Returns:
            The cards left after the flop (label -> card id; holding ``i`` is the label pair
            ``flop_layout(m).pairs[i]``) and, per seat, per flop round id, a
            ``(quantities, holdings)`` array.
        """
        remaining = self.deck.remaining(flop)
        m = len(remaining)
        pairs = flop_layout(m).pairs
        symmetry = flop_symmetry(self.deck, flop)
        numerators = board_numerators(flop, remaining, symmetry.boards, len(self._bin_of) - 1)
        per_turn = turn_values(
            symmetry,
            numerators,
            pairs,
            self._lines,
            self._program,
            self.quantities,
            self.tolerance,
        )
        # Turn cards of an orbit from its representative (``agents.best_response.flop_symmetry``).
        weighted = np.hstack([per_turn, np.zeros((len(per_turn), 1))])
        total = weighted[:, symmetry.pair_maps[0]]
        for images in symmetry.pair_maps[1:]:
            total += weighted[:, images]
        q = self.quantities
        roots = back_up_rounds(self._flop_program, q, self.tolerance, total[:, :-1] / (m - 2))
        values = [
            [
                roots[(first + j) * q : (first + j + 1) * q]
                for j in range(len(game.rounds[Street.FLOP]))
            ]
            for first, game in zip(self._flop_columns[:-1], self.games, strict=True)
        ]
        return remaining, values


def _stored_once(bin_of: npt.NDArray[np.int64], intercept: Array, slope: Array) -> RiverLines:
    """The lines with identical rows once (against ``call`` 18 of 96 rows differ), those with
    some slope first."""
    unique, row_of = np.unique(np.hstack([intercept, slope]), axis=0, return_inverse=True)
    bins = intercept.shape[1]
    rising = (unique[:, bins:] != 0.0).any(axis=1)
    order = np.argsort(~rising, kind="stable")
    place = np.empty_like(order)
    place[order] = np.arange(len(order))
    unique = unique[order]
    return RiverLines(
        bin_of=bin_of,
        intercept=np.ascontiguousarray(unique[:, :bins]),
        slope=np.ascontiguousarray(unique[: int(rising.sum()), bins:]),
        row_of=place[row_of.reshape(-1)],
    )
