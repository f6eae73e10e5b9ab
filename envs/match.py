"""The match runner: seat agents, deal seeded cards, play hands, report honest statistics.

Cards. Deal ``d`` of a match with seed ``seed`` uses the deck ``deal_deck(seed, d)``, a
permutation drawn from ``SeedSequence([seed, d])`` alone. The cards therefore depend neither on
the agents nor on their decisions: matches with the same seed share their deals (common random
numbers), which makes comparisons between agents paired.

Duplicate (the default; ACPC duplicate poker generalised to n seats). Every deal is replayed
``n`` times with the agents rotated over the seats, rotation ``r`` putting agent ``j`` at seat
``(j + r) % n``, while the cards and the button (seat ``d % n``) stay put. So each agent holds
each seat's cards in each position once, and most card luck cancels within a deal. As in ACPC
duplicate matches, each rotation is a separate pass over all the deals, with every agent reset
(memory forgotten, fresh generator) at the start of a pass. The runner plays
``ceil(hands / n)`` deals, hence ``n * ceil(hands / n)`` hands (``MatchResult.hands``).
Without duplicate, hand ``d`` is deal ``d`` with agent ``j`` in seat ``j`` and the button at
``d % n``.

Statistics. The unit is the small bet per hand (sb/hand; 1 sb/hand = 1,000 mbb/hand with the
usual big blind = small bet). One observation is a deal: an agent's chips summed over the deal's
rotations, divided by ``n * small_bet``; the mean, standard error and Student-t confidence
interval are taken over deals (over hands without duplicate).

Randomness of the agents. At the start of pass ``r`` every agent is reset with its own
generator from ``SeedSequence([seed, 1, r]).spawn(n)``, a stream separate from the deals'.
Within a pass agents keep their memory from hand to hand, so learning agents can learn.
"""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from envs.game import Hand
from envs.protocols import SeatAgent
from envs.rules import Rules
from envs.seating import build_agents, play_turns, tell_hand_end
from envs.stats import PlayerTally, mean_estimate
from envs.validation import whole_number

__all__ = ["AgentResult", "MatchResult", "deal_deck", "play_match"]

logger = logging.getLogger(__name__)

_AGENT_STREAM = 1
"""Seed namespace of the agents' generators, apart from the deals' ``[seed, deal]``."""


def deal_deck(seed: int, deal: int) -> npt.NDArray[np.int64]:
    """The shuffled deck of deal ``deal`` in matches seeded with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence([seed, deal])).permutation(52)


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
    deal_chips: npt.NDArray[np.int64] = field(repr=False, compare=False)
    """Read-only ``(deals, agents)`` array: each agent's net chips per deal, for paired tests."""

    def result(self, name: str) -> AgentResult:
        """The result of the agent called ``name``; ``KeyError`` if there is none."""
        for result in self.results:
            if result.name == name:
                return result
        raise KeyError(f"no agent named {name!r} in this match; agents: {list(self.agents)}")

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON-serialisable values (``None`` where undefined)."""
        return {
            "agents": list(self.agents),
            "hands": self.hands,
            "deals": self.deals,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "rules": asdict(self.rules),
            "unit": "small bets per hand",
            "results": [
                {**asdict(r), "ci": list(r.ci) if r.ci else None, "mbb_per_hand": r.mbb_per_hand}
                for r in self.results
            ],
        }

    def format_table(self) -> str:
        """A plain-text table of the results, one agent per row."""
        mode = f"duplicate, {self.deals:,} deals x {len(self.agents)} seatings"
        if not self.duplicate:
            mode = "not duplicate"
        r = self.rules
        lines = [
            f"{self.hands:,} hands ({mode}), seed {self.seed}; blinds "
            f"{r.small_blind}/{r.big_blind}, bets {r.small_bet}/{r.big_bet}",
        ]
        width = max(5, *(len(name) for name in self.agents))
        header = (
            f"{'agent':<{width}}  {'hands':>8}  {'chips':>9}  {'sb/hand':>8}  "
            f"{'95% CI':>19}  {'VPIP':>6}  {'PFR':>6}  {'AF':>5}  {'WTSD':>6}"
        )
        lines += [header, "-" * len(header)]
        for res in self.results:
            ci = f"[{res.ci[0]:+.3f}, {res.ci[1]:+.3f}]" if res.ci is not None else "n/a"
            lines.append(
                f"{res.name:<{width}}  {res.hands:>8}  {res.chips:>+9}  {res.sb_per_hand:>+8.3f}  "
                f"{ci:>19}  {_pct(res.vpip):>6}  {_pct(res.pfr):>6}  "
                f"{_num(res.af):>5}  {_pct(res.wtsd):>6}"
            )
        return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100.0 * value:.1f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def play_match(
    agents: Sequence[SeatAgent | str],
    *,
    hands: int,
    seed: int,
    rules: Rules | None = None,
    duplicate: bool = True,
    names: Sequence[str] | None = None,
    progress: bool = False,
    on_hand: Callable[[Hand, tuple[str, ...]], None] | None = None,
) -> MatchResult:
    """Play a seeded match between 2 to 10 agents, one per seat (see the module docstring).

    Args:
        agents: Agent objects, or registry names built with ``envs.registry.make_agent``.
        hands: Hands to play, at least 1; in duplicate mode rounded up to whole deals.
        seed: Non-negative root seed of the cards and of the agents' generators.
        rules: The game; ``Rules(num_seats=len(agents))`` by default.
        duplicate: Replay every deal with the agents rotated over all seats.
        names: Labels of the agents in the results (default: their ``name``, made unique).
        progress: Show a tqdm progress bar on stderr.
        on_hand: Called with every finished hand and the agent names per seat (e.g. to log
            its ACPC ``STATE`` line with ``hand.to_acpc(names)``).

    Raises:
        ValueError: on bad arguments (seat count, hands, seed, repeated agent object, unknown
            agent name), or when an agent returns an illegal action.
    """
    seated = build_agents(agents)
    n = len(seated)
    hands = whole_number("hands", hands, minimum=1)
    seed = whole_number("seed", seed, minimum=0)
    rules = _check_args(seated, rules)
    labels = _labels(seated, names)
    rotations = n if duplicate else 1
    deals = math.ceil(hands / rotations)
    logger.info("match %s: %d deals x %d rotations, seed %d", labels, deals, rotations, seed)
    # seatings[r][s]: index of the agent sitting in seat s during rotation r.
    seatings = [[(s - r) % n for s in range(n)] for r in range(rotations)]
    deal_chips = np.zeros((deals, n), dtype=np.int64)
    tallies = [PlayerTally() for _ in range(n)]
    tables = [
        (seating, [seated[j] for j in seating], [tallies[j] for j in seating])
        for seating in seatings
    ]
    # Arrays, not lists: Hand checks an integer array's cards faster than a list's.
    decks = [deal_deck(seed, deal) for deal in range(deals)]
    seat_labels = [tuple(labels[j] for j in seating) for seating in seatings]
    hand_id = 0
    bar = tqdm(total=deals * rotations, unit="hand", file=sys.stderr, disable=not progress)
    with bar:
        for rotation, (seating, seat_agents, seat_tallies) in enumerate(tables):
            # ACPC duplicate: every seating is a separate pass over the deals, and the agents'
            # memories are reset between passes, so no agent replays cards it has seen.
            streams = np.random.SeedSequence([seed, _AGENT_STREAM, rotation]).spawn(n)
            for agent, stream in zip(seated, streams, strict=True):
                agent.reset(np.random.default_rng(stream))
            for deal, deck in enumerate(decks):
                hand = _play_hand(rules, deck, deal % n, hand_id, seat_agents)
                chips = deal_chips[deal]
                for j, payoff in zip(seating, hand.payoffs, strict=True):
                    chips[j] += payoff
                PlayerTally.add_hand(seat_tallies, hand.events)
                if on_hand is not None:
                    on_hand(hand, seat_labels[rotation])
                hand_id += 1
                if hand_id % 256 == 0:
                    bar.update(256)
        bar.update(hand_id % 256)
    deal_chips.flags.writeable = False
    per_deal_sb = deal_chips / (rotations * rules.small_bet)
    results = []
    for j, label in enumerate(labels):
        estimate = mean_estimate(per_deal_sb[:, j])
        vpip, pfr, af, wtsd = tallies[j].stats
        assert vpip is not None and pfr is not None  # at least one hand was played
        results.append(
            AgentResult(
                name=label,
                hands=hand_id,
                chips=int(deal_chips[:, j].sum()),
                sb_per_hand=estimate.mean,
                std_error=estimate.std_error,
                ci=estimate.ci,
                vpip=vpip,
                pfr=pfr,
                af=af,
                wtsd=wtsd,
            )
        )
    return MatchResult(
        agents=tuple(labels),
        hands=hand_id,
        deals=deals,
        seed=seed,
        duplicate=duplicate,
        rules=rules,
        results=tuple(results),
        deal_chips=deal_chips,
    )


def _play_hand(
    rules: Rules,
    deck: npt.NDArray[np.int64],
    button: int,
    hand_id: int,
    seated: list[SeatAgent],
) -> Hand:
    """Play one hand to its end, then show every agent its terminal view."""
    hand = Hand(rules, deck, button=button, hand_id=hand_id)
    play_turns(hand, seated)
    tell_hand_end(hand, seated)
    return hand


def _check_args(seated: list[SeatAgent], rules: Rules | None) -> Rules:
    n = len(seated)
    if not 2 <= n <= 10:
        raise ValueError(f"a match needs 2 to 10 agents (one per seat), got {n}")
    if rules is None:
        return Rules(num_seats=n)
    if rules.num_seats != n:
        raise ValueError(f"rules are for {rules.num_seats} seats but {n} agents were given")
    return rules


def _labels(seated: Sequence[SeatAgent], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        labels = list(names)
        if len(labels) != len(seated):
            raise ValueError(f"{len(labels)} names given for {len(seated)} agents")
        if len(set(labels)) != len(labels) or not all(labels):
            raise ValueError(f"agent names must be distinct and non-empty, got {labels}")
        return labels
    labels = [agent.name for agent in seated]
    counts = {label: labels.count(label) for label in labels}
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        if counts[label] > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label}#{seen[label]}"
        unique.append(label)
    if len(set(unique)) != len(unique):
        raise ValueError(f"cannot make the agent names {labels} distinct: pass names=")
    return unique
