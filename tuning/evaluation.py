"""How parameter points are scored: side-by-side passes of seeded deal blocks, AIVAT-corrected.

A block is a session: fresh agents play deals ``0 .. deals_per_block - 1`` of the block's seed
(``block_seed(seed, namespace, b)``) in order, so BPP learns its opponent within it. Every
block is played in both seatings (duplicate) against each opponent of the protocol (or, at a
table of more seats, in every seating of the candidate and its opponents), and every
candidate plays the same blocks: the same cards and, since decisions are drawn from common
random numbers keyed by (seed, deal, seat, decision index), the same uniforms at every
decision. Candidates whose probabilities are close then take the same actions, and their
paired differences are far less noisy than their values.

A block's value for a point is the candidate's chips over all seatings, in small bets per
hand, averaged over the opponents (each weighs the same); ``BlockValues`` holds it raw and
AIVAT-corrected (``envs.aivat``; unbiased, with less variance: the studies use the corrected
value). All points of a call play at once: one pass per (opponent, point, block, seating),
played by ``envs.match.seeded.play_seeded_passes`` on one batch of tables per opponent, the
candidate role a single batched agent with per-table parameters (``StudySpec.players``).
``EvaluationPasses`` lists them in a fixed order, so a share of them
(``EvaluationPasses.share``) can be played by another process and the results merged in order:
a pass's result does not depend on what plays beside it, so the values do not depend on how
the passes are shared out.

Namespaces keep the tuning deals, the re-evaluation deals and the confirmation deals apart, so
that the reported figures are not fitted to the deals the sampler saw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import IntEnum
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.batched.adapter import batched_form, per_table
from envs.batched.engine import HandBatch
from envs.match.seeded import play_seeded_passes
from envs.registry import available_agents, check_spec, make_agent
from envs.rules import Rules
from envs.validation import whole_number
from tuning.studies.spec import StudySpec

__all__ = [
    "BlockValues",
    "EvaluationPasses",
    "MatchProtocol",
    "Namespace",
    "block_seed",
    "evaluate_points",
    "play_share",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Point = Mapping[str, float]


class Namespace(IntEnum):
    """Seed namespaces of the deals: never reuse tuning deals to report a result."""

    TUNE = 0
    REEVALUATE = 1
    CONFIRM = 2
    HOLDOUT = 3
    """Held-out deals for comparisons between studies (e.g. samplers)."""


@dataclass(frozen=True, kw_only=True)
class MatchProtocol:
    """What one trial plays; stored with the study, because values of different protocols
    are not comparable."""

    opponents: tuple[str, ...] = ("bpp-curves",)
    """Registry names the candidate plays: heads-up against each, each weighing the same (the
    default: the curve BPP, which Carlton tuned BPP against); or, with ``seats`` above 2, the
    ``seats - 1`` opponents of one table (a name may repeat: several copies)."""
    seats: int = 2
    """Seats of the table: 2 (heads-up against each opponent in turn) to 10 (one table of the
    candidate and the opponents, every deal replayed with all of them rotated over the seats)."""
    deals_per_block: int = 250
    """Duplicate deals per block (a session: the agents learn within it); a deal is two
    hands."""
    blocks: int = 384
    """Blocks per trial. Measured against bpp-curves (AIVAT, results/tuning.md), the paired
    difference to the defaults has a standard deviation of about 0.03 sb/hand per block of
    250 deals for a candidate 5% of the ranges away, 0.055 for alpha = 0.8, and up to 0.09
    for the candidates a study keeps to the end (the fully evaluated trials of the default
    study: paired standard errors of 0.0043 to 0.0056 at 256 blocks). 384 blocks (192,000
    hands) bring those under the 0.005 a study should resolve (at most about 0.0046); racing
    drops most candidates after 24 blocks."""
    seed: int = 0
    """Root seed of every deal and every decision's common random number."""
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2
    big_bet: int = 4

    def __post_init__(self) -> None:
        if not self.opponents:
            raise ValueError("the protocol needs at least one opponent")
        seats = whole_number("seats", self.seats, minimum=2)
        if seats > 10:
            raise ValueError(f"seats must be 2 to 10, got {seats}")
        if seats > 2 and len(self.opponents) != seats - 1:
            raise ValueError(
                f"a {seats}-seat table needs {seats - 1} opponents besides the candidate, got "
                f"{len(self.opponents)}: {list(self.opponents)}"
            )
        known = available_agents()
        unknown = [name for name in self.opponents if name.partition(":")[0] not in known]
        if unknown:
            raise ValueError(
                f"unknown opponent {', '.join(map(repr, unknown))}; registered agents: "
                f"{', '.join(known)}"
            )
        for name in self.opponents:
            check_spec(name)  # NAME:FILE forms: a name that takes a file, and a file
        if self.seats == 2 and len(set(self.opponents)) != len(self.opponents):
            raise ValueError(f"opponents repeat: {list(self.opponents)}")
        for name in ("deals_per_block", "blocks"):
            whole_number(name, getattr(self, name), minimum=1, what="a positive integer")
        whole_number("seed", self.seed, minimum=0)
        self.rules  # noqa: B018 - validates the blinds and bets now

    @property
    def lineups(self) -> tuple[tuple[str, ...], ...]:
        """The opponents of each table the candidate plays, each weighing the same: one
        heads-up table per opponent, or the one table of ``seats`` seats."""
        if self.seats == 2:
            return tuple((name,) for name in self.opponents)
        return (self.opponents,)

    @property
    def rules(self) -> Rules:
        """The game every block is played in (``seats`` seats)."""
        return Rules(
            num_seats=self.seats,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
        )

    @property
    def hands_per_block(self) -> int:
        """Hands the candidate plays in one block: one per deal and seat, per lineup."""
        return self.seats * self.deals_per_block * len(self.lineups)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (stored as a study attribute)."""
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchProtocol:
        """Inverse of ``to_dict``."""
        return cls(**{**data, "opponents": tuple(data["opponents"])})  # older studies: 2 seats


def block_seed(seed: int, namespace: Namespace, block: int) -> int:
    """The match seed of block ``block`` in ``namespace`` (independent streams)."""
    state = np.random.SeedSequence([seed, int(namespace), block]).generate_state(1, np.uint32)
    return int(state[0])


@dataclass(frozen=True)
class BlockValues:
    """Points' values on blocks, in small bets per hand (see the module docstring)."""

    aivat: Floats
    """``(points, blocks)`` AIVAT-corrected values."""
    raw: Floats
    """``(points, blocks)`` the chips won, uncorrected."""
    blocks: tuple[int, ...]
    """The block ids of the columns."""
    hands: int
    """Hands each point played in all."""


@dataclass(frozen=True)
class EvaluationPasses:
    """The passes of one evaluation, in order: lineup (``opponent``), point, block, seating
    (slowest to fastest)."""

    opponent: Ints
    point: Ints
    block: Ints
    rotation: Ints

    @classmethod
    def of(
        cls, points: int, blocks: Sequence[int], opponents: int, seats: int = 2
    ) -> EvaluationPasses:
        """Every (lineup, point, block, seating) of an evaluation (``seats`` seatings)."""
        grid = np.meshgrid(
            np.arange(opponents),
            np.arange(points),
            np.asarray(blocks, dtype=np.int64),
            np.arange(seats),
            indexing="ij",
        )
        o, p, b, r = (axis.reshape(-1).astype(np.int64) for axis in grid)
        return cls(o, p, b, r)

    def __len__(self) -> int:
        return len(self.point)

    def share(self, k: int, shares: int) -> EvaluationPasses:
        """The ``k``-th of ``shares`` contiguous, nearly equal slices."""
        lo, hi = len(self) * k // shares, len(self) * (k + 1) // shares
        return EvaluationPasses(
            self.opponent[lo:hi], self.point[lo:hi], self.block[lo:hi], self.rotation[lo:hi]
        )


def play_share(
    spec: StudySpec,
    protocol: MatchProtocol,
    namespace: Namespace,
    points: Sequence[Point],
    passes: EvaluationPasses,
    on_hands: Callable[[int], None] | None = None,
    seed: int | None = None,
) -> tuple[Ints, Floats]:
    """The candidate's chips on each of ``passes``: ``(raw, AIVAT-corrected)``, in order.
    ``seed`` replaces the protocol's root seed of the deals."""
    raw = np.zeros(len(passes), dtype=np.int64)
    corrected = np.zeros(len(passes))
    root = protocol.seed if seed is None else seed
    seeds = np.array([block_seed(root, namespace, int(b)) for b in passes.block], dtype=np.uint64)
    for o, lineup in enumerate(protocol.lineups):
        rows = np.flatnonzero(passes.opponent == o)
        if not rows.size:
            continue
        batch = HandBatch(protocol.rules, len(rows))
        candidates = per_table(spec.players([points[int(p)] for p in passes.point[rows]]), batch)
        others = [
            batched_form(make_agent(name), batch, partial(make_agent, name)) for name in lineup
        ]
        totals = play_seeded_passes(
            batch,
            [candidates, *others],
            seeds[rows],
            protocol.deals_per_block,
            passes.rotation[rows],
            aivat=True,
            on_hands=on_hands,
        )
        assert totals.corrected is not None  # asked for
        raw[rows] = totals.chips[:, 0]
        corrected[rows] = totals.corrected[:, 0]
    return raw, corrected


def block_values(
    protocol: MatchProtocol,
    points: int,
    blocks: Sequence[int],
    passes: EvaluationPasses,
    raw: Ints,
    corrected: Floats,
) -> BlockValues:
    """Fold the passes' chips (in the order of ``EvaluationPasses.of``) into each point's block
    values."""
    shape = (len(protocol.lineups), points, len(blocks), protocol.seats)
    hands = protocol.seats * protocol.deals_per_block  # per block, lineup and point
    scale = 1.0 / (hands * protocol.small_bet)
    aivat = corrected.reshape(shape).sum(axis=3).mean(axis=0) * scale
    chips = raw.reshape(shape).sum(axis=3).mean(axis=0) * scale
    return BlockValues(
        aivat=aivat,
        raw=chips,
        blocks=tuple(int(b) for b in blocks),
        hands=protocol.hands_per_block * len(blocks),
    )


def evaluate_points(
    spec: StudySpec,
    protocol: MatchProtocol,
    namespace: Namespace,
    points: Sequence[Point],
    blocks: Sequence[int],
) -> BlockValues:
    """Every point on the same ``blocks`` of ``namespace``, in this process (see
    ``tuning.pool.EvaluationPool`` for several processes)."""
    passes = EvaluationPasses.of(len(points), blocks, len(protocol.lineups), protocol.seats)
    raw, corrected = play_share(spec, protocol, namespace, points, passes)
    return block_values(protocol, len(points), blocks, passes, raw, corrected)
