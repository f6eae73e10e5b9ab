"""BPP's card-combinatorial tables: counted by dealing random hands, saved as package data.

Every node of BPP's network except the opponent's actions has a conditional probability table
that follows from the cards alone, so it is estimated by dealing many random heads-up hands,
as the hold'em BPP does (Nicholson, Korb & Boulton 2006; Korb & Nicholson, *Bayesian
Artificial Intelligence*, the BPP case study). One deal is two hole-card pairs and a five-card
board; for every round ``r`` (0 = pre-flop .. 3 = river) it adds, for both players (the two
are exchangeable):

* ``joint[r, board, F, F']``: the two final types given the board class of round ``r`` (the
  dependence between the hands that the shared board creates);
* ``current[r, k, board, C, F]``: a player's current type in round ``k <= r`` given its final
  type and the board class of round ``r`` (BPP's own type at ``k = r``; the opponent's at every
  ``k`` for the actions it took then);
* ``win2[F, F']`` and ``pairs[F, F']``: twice the wins of ``F`` against ``F'`` (ties count one,
  i.e. half a win: ours, the paper's Win node is boolean) and the number of such deals;
* ``strength_win2[k, C]``, ``strength_pairs[k, C]``: the same by current type in round ``k``
  against a random hand (used for the opponent model's generic prior);
* ``opp_final[r, board, C, F']`` and ``opp_final_win2[r, board, C, F']``: the opponent's final
  type given a player's current type and the board in round ``r``, and that player's doubled
  wins in those deals (for the refined network, ``agents.bpp.network``).

Deals are drawn chunk by chunk, chunk ``i`` from ``SeedSequence([seed, i])``, so the counts
depend only on ``(deals, seed, chunk)``. The shipped file ``agents/data/bpp_tables.npz`` was
made with ``holdem-lab bpp-tables --deals 20000000 --seed 2000`` (see ``SHIPPED``).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, fields, replace
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from agents.bpp.hand_types import (
    NUM_BOARD_CLASSES,
    NUM_CURRENT_TYPES,
    NUM_FINAL_TYPES,
    board_classes,
    hand_types,
    type_by_rank,
)
from envs.evaluator import evaluate
from envs.validation import whole_number

__all__ = ["SHIPPED", "TableCounts", "count_deals", "generate_counts", "shipped_counts"]

logger = logging.getLogger(__name__)

SHIPPED = "bpp_tables.npz"
"""File name of the shipped tables under ``agents/data``."""
FORMAT_VERSION = 2
CHUNK = 100_000
"""Deals per chunk (part of what fixes the counts for a seed)."""
BOARD_WIDTH = (0, 3, 4, 5)
"""Board cards seen in each round."""

Counts = npt.NDArray[np.int64]


@dataclass(frozen=True)
class TableCounts:
    """Raw counts from random deals (see the module docstring for each array)."""

    joint: Counts
    """``(4, boards, 25, 25)``."""
    current: Counts
    """``(4, 4, boards, 27, 25)``; zero where ``k > r``."""
    win2: Counts
    """``(25, 25)``."""
    pairs: Counts
    """``(25, 25)``."""
    strength_win2: Counts
    """``(4, 27)``."""
    strength_pairs: Counts
    """``(4, 27)``."""
    opp_final: Counts
    """``(4, boards, 27, 25)``."""
    opp_final_win2: Counts
    """``(4, boards, 27, 25)``."""
    deals: int
    seed: int
    chunk: int

    @classmethod
    def zeros(cls, *, seed: int, chunk: int) -> TableCounts:
        """Empty counts, to be summed into."""
        b, c, f = NUM_BOARD_CLASSES, NUM_CURRENT_TYPES, NUM_FINAL_TYPES
        z = np.zeros
        return cls(
            joint=z((4, b, f, f), np.int64),
            current=z((4, 4, b, c, f), np.int64),
            win2=z((f, f), np.int64),
            pairs=z((f, f), np.int64),
            strength_win2=z((4, c), np.int64),
            strength_pairs=z((4, c), np.int64),
            opp_final=z((4, b, c, f), np.int64),
            opp_final_win2=z((4, b, c, f), np.int64),
            deals=0,
            seed=seed,
            chunk=chunk,
        )

    def save(self, path: Path) -> None:
        """Write the counts as a compressed ``.npz`` (counts stored as ``uint32``)."""
        arrays = {
            f.name: getattr(self, f.name).astype(np.uint32)
            for f in fields(self)
            if isinstance(getattr(self, f.name), np.ndarray)
        }
        if any(int(a.max()) >= 2**32 - 1 for a in arrays.values()):
            raise ValueError("counts overflow uint32: use fewer deals")
        meta = np.array([FORMAT_VERSION, self.deals, self.seed, self.chunk], dtype=np.int64)
        np.savez_compressed(path, meta=meta, **arrays)

    @classmethod
    def load(cls, path: Path) -> TableCounts:
        """Read counts written by ``save``; ``ValueError`` on another format."""
        with np.load(path) as data:
            version, deals, seed, chunk = (int(v) for v in data["meta"])
            if version != FORMAT_VERSION:
                raise ValueError(f"{path}: table format {version}, expected {FORMAT_VERSION}")
            arrays = {
                f.name: data[f.name].astype(np.int64)
                for f in fields(cls)
                if f.name not in ("deals", "seed", "chunk")
            }
        return cls(**arrays, deals=deals, seed=seed, chunk=chunk)


def deal(rng: np.random.Generator, n: int) -> npt.NDArray[np.uint8]:
    """``n`` random deals of 9 distinct cards: hole A, hole B, then the five board cards."""
    deck = np.tile(np.arange(52, dtype=np.uint8), (n, 1))
    rows = np.arange(n)
    for i in range(9):  # a partial Fisher-Yates shuffle of every row at once
        j = rng.integers(i, 52, size=n)
        picked = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :9].copy()


def count_deals(cards: npt.NDArray[np.uint8], into: TableCounts) -> None:
    """Add the deals ``cards`` (``(n, 9)``, as from ``deal``) to the counts ``into``."""
    b, c, f = NUM_BOARD_CLASSES, NUM_CURRENT_TYPES, NUM_FINAL_TYPES
    holes = (cards[:, 0:2], cards[:, 2:4])
    board = cards[:, 4:9]
    ranks = [evaluate(np.concatenate([hole, board], axis=1)) for hole in holes]
    finals = [type_by_rank()[r].astype(np.int64) for r in ranks]
    win2 = 2 * (ranks[0] > ranks[1]).astype(np.int64) + (ranks[0] == ranks[1])
    wins = (win2, 2 - win2)  # each player's doubled result
    currents = [
        [
            hand_types(np.concatenate([hole, board[:, :width]], axis=1)).astype(np.int64)
            for width in BOARD_WIDTH
        ]
        for hole in holes
    ]
    for r, width in enumerate(BOARD_WIDTH):
        boards = board_classes(board[:, :width]).astype(np.int64)
        for me, other in ((0, 1), (1, 0)):
            index = (boards * f + finals[me]) * f + finals[other]
            into.joint[r] += np.bincount(index, minlength=b * f * f).reshape(b, f, f)
            for k in range(r + 1):
                index = (boards * c + currents[me][k]) * f + finals[me]
                into.current[r, k] += np.bincount(index, minlength=b * c * f).reshape(b, c, f)
            index = (boards * c + currents[me][r]) * f + finals[other]
            into.opp_final[r] += np.bincount(index, minlength=b * c * f).reshape(b, c, f)
            into.opp_final_win2[r] += (
                np.bincount(index, weights=wins[me], minlength=b * c * f)
                .astype(np.int64)
                .reshape(b, c, f)
            )
    for me, other in ((0, 1), (1, 0)):
        index = finals[me] * f + finals[other]
        into.win2[...] += (
            np.bincount(index, weights=wins[me], minlength=f * f).astype(np.int64).reshape(f, f)
        )
        into.pairs[...] += np.bincount(index, minlength=f * f).reshape(f, f)
        for k in range(4):
            into.strength_win2[k] += np.bincount(
                currents[me][k], weights=wins[me], minlength=c
            ).astype(np.int64)
            into.strength_pairs[k] += np.bincount(currents[me][k], minlength=c)


def generate_counts(
    deals: int, seed: int, *, chunk: int = CHUNK, progress: bool = False
) -> TableCounts:
    """Count ``deals`` random deals drawn from ``seed`` (see the module docstring).

    Raises:
        ValueError: if ``deals`` or ``chunk`` is not positive or ``seed`` is negative.
    """
    deals = whole_number("deals", deals, minimum=1)
    chunk = whole_number("chunk", chunk, minimum=1)
    seed = whole_number("seed", seed, minimum=0)
    counts = TableCounts.zeros(seed=seed, chunk=chunk)
    with tqdm(total=deals, unit="deal", file=sys.stderr, disable=not progress) as bar:
        for i, start in enumerate(range(0, deals, chunk)):
            n = min(chunk, deals - start)
            rng = np.random.default_rng(np.random.SeedSequence([seed, i]))
            count_deals(deal(rng, n), counts)
            bar.update(n)
    logger.info("counted %d deals (seed %d)", deals, seed)
    return replace(counts, deals=deals)


def shipped_path() -> Path:
    """Where the shipped tables live (inside the installed ``agents`` package)."""
    return Path(str(resources.files("agents") / "data" / SHIPPED))


@cache
def shipped_counts() -> TableCounts:
    """The shipped counts, loaded once per process."""
    path = shipped_path()
    if not path.exists():
        raise FileNotFoundError(
            f"BPP tables not found at {path}: generate them with "
            "`holdem-lab bpp-tables --deals 20000000 --seed 2000`"
        )
    return TableCounts.load(path)
