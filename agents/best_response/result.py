"""The outcome of a best-response computation, as a frozen value with JSON and table views."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from agents.best_response.deck import Deck
from agents.best_response.public import LearnerSeat
from envs.rules import Rules

__all__ = ["BestResponse", "SeatResult"]


@dataclass(frozen=True)
class SeatResult:
    """The best response's value and statistics in one seat (money per hand)."""

    seat: LearnerSeat
    chips: float
    """Expected chips won per hand (exact, or the sample mean over evaluation flops)."""
    sb_per_hand: float
    """``chips / small_bet``."""
    mbb_per_hand: float
    """``1000 * chips / big_blind``: milli-big-blinds per hand, ACPC's unit."""
    ci: tuple[float, float] | None
    """95% Student-t interval of ``sb_per_hand`` over the evaluation flops; ``None`` if exact."""
    vpip: float
    """Probability that the best response puts chips in voluntarily pre-flop."""
    pfr: float
    """Probability that it raises pre-flop."""
    raises: float
    """Expected post-flop bets and raises per hand."""
    calls: float
    """Expected post-flop calls of a positive amount per hand."""

    @property
    def af(self) -> float | None:
        """Post-flop aggression factor, bets and raises over calls; ``None`` without calls."""
        return self.raises / self.calls if self.calls > 0.0 else None


@dataclass(frozen=True)
class BestResponse:
    """A heads-up best response to a card-independent bot: values, method and strategy data."""

    policy: str
    """The bot's policy name (``call``, ``raise``, ``random``, ``mix:...``)."""
    rules: Rules
    deck: Deck
    seats: tuple[SeatResult, SeatResult]
    """Button (small blind) first, then big blind."""
    exact: bool
    """Whether every deal was enumerated (else the flop was sampled; see ``method``)."""
    method: str
    """What was enumerated and what was sampled, in words."""
    flops: int
    """Canonical flops enumerated (exact) or random flops drawn (sampled, both halves)."""
    seed: int | None
    """Seed of the flop sample; ``None`` when nothing was sampled."""
    seconds: float
    """Wall-clock time of the computation."""
    ci: tuple[float, float] | None
    """95% interval of the seat average (sb/hand) over per-flop averages; ``None`` if exact."""
    continuation: tuple[dict[str, npt.NDArray[np.float64]], ...] = field(repr=False, compare=False)
    """Per seat, per pre-flop betting sequence reaching the flop (ACPC letters), the value in
    chips of each holding of the deck at the start of the flop; what the agent plays from."""

    @property
    def chips(self) -> float:
        """Chips per hand averaged over the two seats."""
        return (self.seats[0].chips + self.seats[1].chips) / 2.0

    @property
    def sb_per_hand(self) -> float:
        """Small bets per hand averaged over the two seats."""
        return self.chips / self.rules.small_bet

    @property
    def mbb_per_hand(self) -> float:
        """Milli-big-blinds per hand averaged over the two seats."""
        return 1000.0 * self.chips / self.rules.big_blind

    @property
    def vpip(self) -> float:
        """VPIP over both seats."""
        return (self.seats[0].vpip + self.seats[1].vpip) / 2.0

    @property
    def pfr(self) -> float:
        """PFR over both seats."""
        return (self.seats[0].pfr + self.seats[1].pfr) / 2.0

    @property
    def af(self) -> float | None:
        """Aggression factor over both seats (ratio of the expected counts)."""
        calls = self.seats[0].calls + self.seats[1].calls
        return (self.seats[0].raises + self.seats[1].raises) / calls if calls > 0.0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures; ``sb_per_hand`` and ``ci`` are the average over the two seats."""
        rules = asdict(self.rules)
        return {
            "policy": self.policy,
            "rules": rules,
            "deck_size": len(self.deck),
            "sb_per_hand": self.sb_per_hand,
            "mbb_per_hand": self.mbb_per_hand,
            "chips_per_hand": self.chips,
            "ci": None if self.ci is None else list(self.ci),
            "seats": [
                {
                    "seat": seat.seat.label,
                    "sb_per_hand": seat.sb_per_hand,
                    "mbb_per_hand": seat.mbb_per_hand,
                    "chips_per_hand": seat.chips,
                    "ci": None if seat.ci is None else list(seat.ci),
                    "vpip": seat.vpip,
                    "pfr": seat.pfr,
                    "af": seat.af,
                }
                for seat in self.seats
            ],
            "vpip": self.vpip,
            "pfr": self.pfr,
            "af": self.af,
            "exact": self.exact,
            "method": self.method,
            "flops": self.flops,
            "seed": self.seed,
            "seconds": self.seconds,
        }

    def format_table(self) -> str:
        """A plain-text report: value per seat and on average, then the statistics."""
        r = self.rules
        lines = [
            f"best response to {self.policy!r}: blinds {r.small_blind}/{r.big_blind}, bets "
            f"{r.small_bet}/{r.big_bet}, at most {'/'.join(map(str, r.max_bets))} bets per round",
            f"method: {self.method} ({self.seconds:.0f} s)",
            f"{'seat':<10}  {'sb/hand':>9}  {'mbb/hand':>9}  {'95% CI (sb/hand)':>20}  "
            f"{'VPIP':>6}  {'PFR':>6}  {'AF':>5}",
        ]
        lines.append("-" * len(lines[-1]))
        rows = [
            (
                seat.seat.label,
                seat.sb_per_hand,
                seat.mbb_per_hand,
                seat.ci,
                seat.vpip,
                seat.pfr,
                seat.af,
            )
            for seat in self.seats
        ]
        rows.append(
            ("average", self.sb_per_hand, self.mbb_per_hand, self.ci, self.vpip, self.pfr, self.af)
        )
        for label, sb, mbb, ci, vpip, pfr, af in rows:
            interval = "exact" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"
            lines.append(
                f"{label:<10}  {sb:>+9.4f}  {mbb:>+9.1f}  {interval:>20}  {100 * vpip:>5.1f}%  "
                f"{100 * pfr:>5.1f}%  {'-' if af is None else f'{af:.2f}':>5}"
            )
        return "\n".join(lines)
