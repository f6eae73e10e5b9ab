"""The papers' agents as learners: winnings over a match with opponent modelling on and off.

BPP learns each opponent's P(action | hand type) from showdowns; Loki with specific opponent
modelling learns each opponent's action frequencies. ``learning_curves`` measures what that
buys over the first hands of a match: it plays ``matches`` duplicate matches of ``hands`` hands
per seating (each seating is a fresh match: agents are reset between the runner's passes) with
learning on, and the same matches (same seeds, so the same cards) with learning off, and
averages the winnings of every block of ``block`` hands over the matches. The CIs are Student-t
over matches (independent), and the difference on - off is paired by match.

Nothing is trained here (no network, no torch): the agents learn by their own rules while they
play. ``holdem-lab learning-curve`` runs it.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from envs.match import play_match
from envs.protocols import SeatAgent
from envs.registry import make_agent
from envs.stats import MeanEstimate, mean_estimate
from envs.validation import whole_number

__all__ = ["SWITCHES", "SwitchCurves", "learning_curves", "plot_switch", "write_switch"]


# The agents are imported by the factories: ``holdem-lab`` builds its parser from SWITCHES at
# every start, and importing them there would slow every command down.


def _bpp(learn: bool) -> SeatAgent:
    from agents.bpp import BPPAgent

    return BPPAgent(learn=learn)


def _bpp_det(learn: bool) -> SeatAgent:
    from agents.bpp import BPPAgent, Strategy

    return BPPAgent(strategy=Strategy.DETERMINISTIC, learn=learn)


def _loki(learn: bool) -> SeatAgent:
    from agents.loki import Loki, LokiParams, Modelling

    modelling = Modelling.SPECIFIC if learn else Modelling.GENERIC
    return Loki(LokiParams(modelling=modelling), name="loki-som" if learn else "loki-gom")


def _loki2(learn: bool) -> SeatAgent:
    from agents.loki import Loki2, Modelling

    modelling = Modelling.SPECIFIC if learn else Modelling.GENERIC
    params = replace(Loki2.default_params(), modelling=modelling)
    return Loki2(params, name="loki2-som" if learn else "loki2-gom")


SWITCHES: dict[str, Callable[[bool], SeatAgent]] = {
    "bpp": _bpp,
    "bpp-det": _bpp_det,
    "loki": _loki,
    "loki2": _loki2,
}
"""Agents with a learning switch: ``factory(learn)`` builds the learning or the frozen one.
Loki's switch is specific (learned per opponent) against generic (Table B.2) modelling."""


@dataclass(frozen=True)
class SwitchCurves:
    """Block-by-block winnings (small bets per hand) with learning on, off, and on - off."""

    agent: str
    opponent: str
    hands: int
    """Hands per match (per seating of the duplicate match)."""
    matches: int
    block: int
    seed: int
    starts: tuple[int, ...]
    """First hand (0-based) of every block."""
    on: tuple[MeanEstimate, ...]
    off: tuple[MeanEstimate, ...]
    gain: tuple[MeanEstimate, ...]
    """Paired difference on - off per block."""
    total_on: MeanEstimate
    total_off: MeanEstimate
    total_gain: MeanEstimate
    """The same over all hands of the matches."""


def learning_curves(
    agent: str,
    opponent: str,
    *,
    hands: int,
    matches: int,
    block: int,
    seed: int,
    progress: bool = False,
) -> SwitchCurves:
    """Play the matches (see the module docstring) and average them block by block.

    Raises:
        ValueError: for an agent without a switch, an unknown opponent, ``hands`` not a
            multiple of ``block``, or fewer than 2 matches.
    """
    if agent not in SWITCHES:
        raise ValueError(f"no learning switch for {agent!r}; known: {', '.join(SWITCHES)}")
    whole_number("matches", matches, minimum=2)
    whole_number("block", block, minimum=1)
    if whole_number("hands", hands, minimum=block) % block:
        raise ValueError(f"hands must be a multiple of block, got hands={hands}, block={block}")
    make_agent(opponent)  # fails early, listing the registered names
    per_block: dict[bool, list[np.ndarray]] = {True: [], False: []}
    with tqdm(total=2 * matches, unit="match", file=sys.stderr, disable=not progress) as bar:
        for m in range(matches):
            for learn in (True, False):
                learner = SWITCHES[agent](learn)
                result = play_match(
                    [learner, make_agent(opponent)],
                    hands=2 * hands,
                    seed=seed + m,
                    keep_deals=True,
                )
                assert result.deal_chips is not None  # kept on request
                # deal d of each seating is hand d of a fresh match: sum of both seatings.
                sb = result.deal_chips[:, 0] / (2 * result.rules.small_bet)
                per_block[learn].append(sb.reshape(-1, block).mean(axis=1))
                bar.update()
    on, off = np.array(per_block[True]), np.array(per_block[False])
    return SwitchCurves(
        agent=agent,
        opponent=opponent,
        hands=hands,
        matches=matches,
        block=block,
        seed=seed,
        starts=tuple(range(0, hands, block)),
        on=tuple(mean_estimate(column) for column in on.T),
        off=tuple(mean_estimate(column) for column in off.T),
        gain=tuple(mean_estimate(column) for column in (on - off).T),
        total_on=mean_estimate(on.mean(axis=1)),
        total_off=mean_estimate(off.mean(axis=1)),
        total_gain=mean_estimate((on - off).mean(axis=1)),
    )


def write_switch(path: Path, curves: SwitchCurves) -> None:
    """The blocks as CSV: start, and mean / CI low / CI high for on, off and gain."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        header = ["block_start", "block_end"]
        for name in ("on", "off", "gain"):
            header += [f"{name}_sb_per_hand", f"{name}_ci_low", f"{name}_ci_high"]
        writer.writerow(header)
        for i, start in enumerate(curves.starts):
            row: list[object] = [start, start + curves.block]
            for series in (curves.on, curves.off, curves.gain):
                estimate = series[i]
                assert estimate.ci is not None
                row += [estimate.mean, *estimate.ci]
            writer.writerow(row)


def plot_switch(path: Path, curves: SwitchCurves) -> None:
    """Two panels: winnings per block with learning on and off, and their paired difference."""
    from matplotlib.figure import Figure  # slow to import: only when drawing

    x = np.array(curves.starts) + curves.block / 2
    fig = Figure(figsize=(6.4, 6.0), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 2))
    for series, label in ((curves.on, "learning on"), (curves.off, "learning off")):
        _band(top, x, series, label)
    top.set_ylabel("small bets per hand")
    top.legend()
    top.set_title(
        f"{curves.agent} vs {curves.opponent}: {curves.matches} duplicate matches, "
        f"blocks of {curves.block} hands, 95% CI"
    )
    _band(bottom, x, curves.gain, "on - off (paired)")
    bottom.axhline(0.0, color="0.6", linewidth=0.8)
    bottom.set_ylabel("gain, sb/hand")
    bottom.set_xlabel("hand of the match")
    bottom.legend()
    fig.savefig(path, dpi=110)


def _band(ax: Any, x: np.ndarray, series: tuple[MeanEstimate, ...], label: str) -> None:
    low = [e.ci[0] if e.ci else e.mean for e in series]
    high = [e.ci[1] if e.ci else e.mean for e in series]
    (line,) = ax.plot(x, [e.mean for e in series], marker="o", markersize=3, label=label)
    ax.fill_between(x, low, high, alpha=0.2, color=line.get_color())
