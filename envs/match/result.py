"""What a match reports: one ``AgentResult`` per agent inside a ``MatchResult``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from envs.rules import Rules

__all__ = ["AgentResult", "MatchResult", "ReportedFigures"]


class ReportedFigures(NamedTuple):
    """An agent's mean winnings as a report gives them (``AgentResult.reported``)."""

    estimator: str
    """``aivat`` or ``raw``."""
    sb_per_hand: float
    std_error: float | None
    ci: tuple[float, float] | None


@dataclass(frozen=True)
class AgentResult:
    """One agent's figures over a match (money in small bets per hand)."""

    name: str
    hands: int
    """Hands it played (every hand of the match: all agents sit at every hand)."""
    chips: int
    """Net chips won over the match."""
    sb_per_hand: float
    """Mean winnings, ``chips / hands / small_bet``."""
    std_error: float | None
    """Standard error of ``sb_per_hand`` over deals; ``None`` with a single deal."""
    ci: tuple[float, float] | None
    """95% Student-t confidence interval of ``sb_per_hand``; ``None`` with a single deal."""
    vpip: float
    """Fraction of hands it put chips in voluntarily pre-flop (see ``envs.stats``)."""
    pfr: float
    """Fraction of hands it raised pre-flop."""
    af: float | None
    """Post-flop aggression factor, (bets + raises) / calls; ``None`` if it never called."""
    wtsd: float | None
    """Went to showdown / saw the flop; ``None`` if it never saw a flop."""
    aivat_sb_per_hand: float | None = None
    """The AIVAT estimate of the same mean (``envs.aivat``), when the match computed it."""
    aivat_std_error: float | None = None
    """Its standard error over deals."""
    aivat_ci: tuple[float, float] | None = None
    """Its 95% Student-t confidence interval."""

    def reported(self) -> ReportedFigures:
        """The AIVAT estimate with its error and interval when the match computed it (it
        has the lower variance), else the raw winnings' figures."""
        if self.aivat_sb_per_hand is not None:
            aivat = self.aivat_sb_per_hand
            return ReportedFigures("aivat", aivat, self.aivat_std_error, self.aivat_ci)
        return ReportedFigures("raw", self.sb_per_hand, self.std_error, self.ci)

    @property
    def mbb_per_hand(self) -> float:
        """Mean winnings in milli-big-blinds per hand (ACPC's unit; 1 sb = 1 bb here)."""
        return 1000.0 * self.sb_per_hand


@dataclass(frozen=True)
class MatchResult:
    """The outcome of ``play_match``: its settings and one ``AgentResult`` per agent."""

    agents: tuple[str, ...]
    """Agent names in the order given (agent ``j`` sat in seat ``j`` in rotation 0)."""
    hands: int
    """Hands actually played: ``deals * num_seats`` in duplicate mode, else ``deals``."""
    deals: int
    """Distinct deals (card orders) played."""
    seed: int
    duplicate: bool
    rules: Rules
    results: tuple[AgentResult, ...]
    sessions: int = 1
    """Independent sessions: agents start each with fresh memory (``play_match``)."""
    deals_per_session: int = 0
    """Deals of each session (each played once per rotation)."""
    engine: str = "scalar"
    """The engine that played the hands: ``scalar`` or ``batched`` (same hands either way)."""
    estimator: str = "raw"
    """``raw``, or ``aivat`` when the AIVAT figures were computed too."""
    deal_chips: npt.NDArray[np.int64] | None = field(default=None, repr=False, compare=False)
    """Read-only ``(deals, agents)``: each agent's net chips per deal (summed over its seatings),
    for paired tests; ``None`` when the match did not keep them (see ``play_match``)."""
    deal_aivat: npt.NDArray[np.float64] | None = field(default=None, repr=False, compare=False)
    """Read-only ``(deals, agents)``: the same with the AIVAT corrections, when computed."""

    def result(self, name: str) -> AgentResult:
        """The result of the agent called ``name``; ``KeyError`` if there is none."""
        for result in self.results:
            if result.name == name:
                return result
        raise KeyError(f"no agent named {name!r} in this match; agents: {list(self.agents)}")

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON-serialisable values (``None`` where undefined)."""
        results = []
        for r in self.results:
            entry = {**asdict(r), "ci": list(r.ci) if r.ci else None}
            entry["aivat_ci"] = list(r.aivat_ci) if r.aivat_ci else None
            if self.estimator == "raw":
                for key in ("aivat_sb_per_hand", "aivat_std_error", "aivat_ci"):
                    del entry[key]
            entry["mbb_per_hand"] = r.mbb_per_hand
            results.append(entry)
        return {
            "agents": list(self.agents),
            "hands": self.hands,
            "deals": self.deals,
            "sessions": self.sessions,
            "deals_per_session": self.deals_per_session,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "engine": self.engine,
            "estimator": self.estimator,
            "rules": asdict(self.rules),
            "unit": "small bets per hand",
            "results": results,
        }

    def format_table(self) -> str:
        """A plain-text table of the results, one agent per row."""
        n = len(self.agents)
        mode = f"duplicate, {self.deals:,} deals x {n} seatings" if self.duplicate else "single"
        sessions = (
            f"{self.sessions:,} sessions of {self.deals_per_session:,} deals"
            if self.sessions > 1
            else "one session"
        )
        r = self.rules
        lines = [
            f"{self.hands:,} hands ({mode}; {sessions}), seed {self.seed}; blinds "
            f"{r.small_blind}/{r.big_blind}, bets {r.small_bet}/{r.big_bet}; "
            f"{self.engine} engine",
        ]
        width = max(5, *(len(name) for name in self.agents))
        aivat = self.estimator == "aivat"
        header = (
            f"{'agent':<{width}}  {'hands':>8}  {'chips':>9}  {'sb/hand':>8}  {'95% CI':>19}"
            + (f"  {'AIVAT':>8}  {'95% CI':>19}" if aivat else "")
            + f"  {'VPIP':>6}  {'PFR':>6}  {'AF':>5}  {'WTSD':>6}"
        )
        lines += [header, "-" * len(header)]
        for res in self.results:
            line = (
                f"{res.name:<{width}}  {res.hands:>8}  {res.chips:>+9}  "
                f"{res.sb_per_hand:>+8.3f}  {_ci(res.ci):>19}"
            )
            if aivat:
                mean = res.aivat_sb_per_hand
                shown = f"{mean:>+8.3f}" if mean is not None else f"{'n/a':>8}"
                line += f"  {shown}  {_ci(res.aivat_ci):>19}"
            line += (
                f"  {_pct(res.vpip):>6}  {_pct(res.pfr):>6}  {_num(res.af):>5}  "
                f"{_pct(res.wtsd):>6}"
            )
            lines.append(line)
        if aivat:
            lines.append(
                "AIVAT: the same winnings with chance and known-policy decisions corrected by a "
                "fixed equity value function (unbiased, lower variance; envs.aivat)."
            )
        return "\n".join(lines)


def _ci(ci: tuple[float, float] | None) -> str:
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci is not None else "n/a"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100.0 * value:.1f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
