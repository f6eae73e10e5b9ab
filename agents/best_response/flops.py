"""Best-response values of every holding at the start of every flop round of one flop.

River: a river round's value depends on the learner's cards only through its showdown equity,
so each river round is backed up once on the grid of all equity numerators (0..1,980 in the
full deck): the river table. Where the learner's choices at every node of every river round
stay the same, each table is exactly linear in the numerator (showdown payoffs are linear in
the equity, the rest is fixed), so the grid splits into a few bins (about 24 in the default
game) on which every table is ``a + b * n``.

Turn: for each turn card and holding, a river round's continuation value is the mean of its
table over the 46 river cards, that is, per bin, ``a`` times how many rivers fall in the bin
plus ``b`` times the sum of their numerators: two histograms per flop and one matrix product
serve every river round of every seat. Then every turn round is backed up over all (turn card,
holding) pairs at once. Flop: the continuation of a turn round is the mean over the 47 turn
cards, and every flop round is backed up over all holdings. Everything is exact: averages of
exact equities, no sampling.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from agents.best_response.backup import QUANTITIES, backup
from agents.best_response.deck import Deck
from agents.best_response.river_numerators import flop_layout, river_numerators
from agents.best_response.tree import PublicGame
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


@cache
def _cell_of(m: int, count: int) -> npt.NDArray[np.int64]:
    """For the flattened ``(turn, river, holding)`` cube, the index ``turn * count + holding``."""
    cells = np.arange(m)[:, np.newaxis, np.newaxis] * count + np.arange(count)
    flat = np.broadcast_to(cells, (m, m, count)).reshape(-1)
    flat.flags.writeable = False
    return flat


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

    def compute(
        self, flop: tuple[int, int, int]
    ) -> tuple[npt.NDArray[np.int64], list[list[Array]]]:
        """Values at the start of each flop round, for every seat.

        Returns:
            The cards left after the flop (label -> card id; holding ``i`` is the label pair
            ``flop_layout(m).pairs[i]``) and, per seat, per flop round id, a
            ``(quantities, holdings)`` array.
        """
        remaining, numerators = river_numerators(self.deck, flop)
        m = len(remaining)
        layout = flop_layout(m)
        count = len(layout.pairs)
        turn, river = layout.pairs[:, 0], layout.pairs[:, 1]
        # cube[t, r, h]: numerator of holding h with turn t and river r (either order), or the
        # sentinel where the cards clash.
        grid = self._bin_of.size - 2
        cube = np.full(m * m * count, grid + 1, dtype=np.int32)
        for first, second in ((turn, river), (river, turn)):
            cube[((first * m + second)[:, None] * count + layout.live).reshape(-1)] = (
                numerators.reshape(-1)
            )
        # Histograms per (turn, holding): how many rivers fall in each bin, and their sum; the
        # bin is the leading axis so that the matrix product reads contiguous rows.
        cells = m * count
        index = self._bin_of[cube] * cells + _cell_of(m, count)
        size = (self._bins + 1) * cells
        rivers = np.bincount(index, minlength=size)[: self._bins * cells].astype(np.float64)
        sums = np.bincount(index, weights=cube, minlength=size)[: self._bins * cells]
        continuation = self._intercept @ rivers.reshape(self._bins, cells)
        continuation += self._slope @ sums.reshape(self._bins, cells)
        continuation = continuation.reshape(-1, m, count) / (m - 3)
        return remaining, [
            self._seat_values(seat, game, continuation, layout.turn_ok, m)
            for seat, game in enumerate(self.games)
        ]

    def _seat_values(
        self, seat: int, game: PublicGame, rivers: Array, turn_ok: npt.NDArray[np.bool_], m: int
    ) -> list[Array]:
        q = self.quantities
        start = self._offsets[seat]

        def river(round_id: int) -> Array:
            first = start + round_id * q
            return rivers[first : first + q]

        turn_values = []
        for round_ in game.rounds[Street.TURN]:
            root = backup(
                round_, next_round=river, quantities=q, ndim=2, tolerance=self.tolerance
            ).root
            turn_values.append(np.where(turn_ok, root, 0.0).sum(axis=1) / (m - 2))
        return [
            backup(
                round_, next_round=turn_values.__getitem__, quantities=q, tolerance=self.tolerance
            ).root
            for round_ in game.rounds[Street.FLOP]
        ]
