"""The match runner: seat agents, deal seeded cards, play hands, report honest statistics.

Cards. Deal ``d`` of a match with seed ``seed`` uses ``envs.deals.deal_deck(seed, d)``, a pure
function of ``(seed, d)``: the cards depend neither on the agents nor on their decisions, so
matches with the same seed share their deals (common random numbers) and comparisons between
agents are paired.

Decisions. An agent that states its action probabilities (``envs.protocols.KnownPolicy``; all
the project's bots and BPPs do) has its action drawn by inverse CDF from the uniform of
``(seed, deal, seat, decision index)`` (``envs.crn``): agents with close probabilities take
the same actions, and both engines play the same hands. Other agents (Loki, learners) choose
with their own generators.

Duplicate (the default; ACPC duplicate poker generalised to n seats). Every deal is replayed
``n`` times with the agents rotated over the seats, rotation ``r`` putting agent ``j`` at seat
``(j + r) % n``, while the cards and the button (seat ``d % n``) stay put, so most card luck
cancels within a deal. Without duplicate, agent ``j`` sits in seat ``j``.

Sessions. The deals form ``sessions`` independent sessions of equal length (one by default:
the whole match, as in ACPC duplicate matches). Each session is played once per rotation by
fresh agents (memory forgotten, generator from ``SeedSequence([seed, 1, session,
rotation])``) that keep their memory from hand to hand within it, so learning agents learn
(``envs.match.plan``). More sessions mean shorter memories and more independent passes: the
batched engine plays every (session, rotation) pass on a table of its own.

Engines. ``scalar`` plays one ``Hand`` at a time; ``batched`` plays every pass side by side on a
``envs.batched.HandBatch`` with batched agents (an agent without a batched form plays through
an adapter, one scalar copy per table). Both give identical hands and figures; ``auto`` (the
default) picks ``batched`` when every agent has a batched form and there are at least
``AUTO_MIN_TABLES`` passes (or every agent is memoryless), else ``scalar``.

Statistics. The unit is the small bet per hand (sb/hand; 1 sb/hand = 1,000 mbb/hand with the
usual big blind = small bet). One observation is a deal: an agent's chips summed over the deal's
rotations, divided by ``rotations * small_bet``; the mean, standard error and Student-t
interval are over deals. With ``estimator="aivat"`` the same figures are also given for the
AIVAT-corrected chips (``envs.aivat``): unbiased, with less variance.
"""

from __future__ import annotations

import copy
import logging
import sys
from collections.abc import Callable, Sequence
from enum import StrEnum

import numpy as np
from tqdm import tqdm

from envs.batched.adapter import batched_form, has_batched_form
from envs.batched.engine import HandBatch
from envs.deals import deal_deck
from envs.game import Hand
from envs.match.accounts import Accounts
from envs.match.batched import plan_passes, play_batched
from envs.match.plan import MatchPlan
from envs.match.result import AgentResult, MatchResult
from envs.match.scalar import play_scalar
from envs.protocols import BatchedAgent, HasTableBytes, KnownPolicy, SeatAgent
from envs.registry import make_agent
from envs.rules import Rules
from envs.seating import build_agents
from envs.validation import whole_number

__all__ = [
    "AgentResult",
    "Engine",
    "Estimator",
    "MatchResult",
    "deal_deck",
    "fresh_copy",
    "play_match",
]

logger = logging.getLogger(__name__)

AUTO_MIN_TABLES = 16
"""Passes from which ``engine="auto"`` prefers the batched engine (fewer tables run faster
one hand at a time)."""
MAX_TABLES = 16_384
"""Tables of the batched engine at most (passes beyond wait their turn)."""
TABLE_MEMORY = 1 << 30
"""Bytes the agents' per-table memory may take at once: agents that declare it
(``HasTableBytes``; a ten-seat table of five Lokis keeps about 610 KB) get fewer tables, so
that a match's memory does not grow with its sessions. Results do not depend on it."""
LOGGED_WINDOW = 8_192
"""Deals per window when every hand is passed to ``on_hand`` (the batched engine holds a
window's hands to pass them on in deal order)."""
KEEP_DEALS_UP_TO = 1_000_000
"""Matches of at most this many deals keep their per-deal arrays by default."""


class Engine(StrEnum):
    """Which engine plays the hands (the hands and figures are the same)."""

    AUTO = "auto"
    SCALAR = "scalar"
    BATCHED = "batched"


class Estimator(StrEnum):
    """Which estimates a match reports besides the raw winnings."""

    RAW = "raw"
    AIVAT = "aivat"


def fresh_copy(agent: SeatAgent) -> SeatAgent:
    """A new agent configured as ``agent``: its ``spawn()`` if it has one, else a deep copy."""
    spawn = getattr(agent, "spawn", None)
    return spawn() if callable(spawn) else copy.deepcopy(agent)


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
    sessions: int = 1,
    engine: Engine | str = Engine.AUTO,
    estimator: Estimator | str = Estimator.RAW,
    keep_deals: bool | None = None,
    decision_seed: int | None = None,
) -> MatchResult:
    """Play a seeded match between 2 to 10 agents, one per seat (see the module docstring).

    Args:
        agents: Agent objects, or registry names built with ``envs.registry.make_agent``. An
            object plays the first pass (session 0, rotation 0) of the scalar engine itself;
            every other pass, and the batched engine, play fresh copies (``fresh_copy``).
        hands: Hands to play, at least 1; rounded up to whole deals and equal sessions.
        seed: Non-negative root seed of the cards, the decisions and the agents' generators.
        rules: The game; ``Rules(num_seats=len(agents))`` by default.
        duplicate: Replay every deal with the agents rotated over all seats.
        names: Labels of the agents in the results (default: their ``name``, made unique).
        progress: Show a tqdm progress bar on stderr.
        on_hand: Called with every finished hand and the agent names per seat (e.g. to log
            its ACPC ``STATE`` line with ``hand.to_acpc(names)``).
        sessions: Independent sessions of equal length (fresh agents in each).
        engine: ``auto``, ``scalar`` or ``batched``.
        estimator: ``raw``, or ``aivat`` to report AIVAT estimates too.
        keep_deals: Keep the per-deal arrays (``MatchResult.deal_chips``); by default when
            the match has at most ``KEEP_DEALS_UP_TO`` deals.
        decision_seed: Seed of the decisions' common random numbers (default: ``seed``);
            another one gives two matches the same cards but independent decision draws
            (to measure what decision-level common random numbers buy).

    Raises:
        ValueError: on bad arguments (seat count, hands, seed, sessions, engine, estimator,
            unknown agent name, repeated agent object), or when an agent returns an illegal
            action or probabilities that are not a distribution over its legal actions.
    """
    templates = build_agents(agents)
    n = len(templates)
    seed = whole_number("seed", seed, minimum=0)
    rules = _check_args(templates, rules)
    labels = _labels(templates, names)
    chosen = Engine(_choice(Engine, engine, "engine"))
    estimate = Estimator(_choice(Estimator, estimator, "estimator"))
    if decision_seed is not None:
        decision_seed = whole_number("decision_seed", decision_seed, minimum=0)
    plan = MatchPlan.for_hands(
        n, hands, seed=seed, duplicate=duplicate, sessions=sessions, decision_seed=decision_seed
    )
    keep = plan.deals <= KEEP_DEALS_UP_TO if keep_deals is None else bool(keep_deals)
    accounts = Accounts(
        plan,
        rules,
        aivat=estimate is Estimator.AIVAT,
        keep_deals=keep,
        window=LOGGED_WINDOW if on_hand is not None else None,
    )
    use = _engine(chosen, templates, plan)
    logger.info(
        "match %s: %d sessions x %d deals x %d rotations, seed %d, %s engine",
        labels,
        plan.sessions,
        plan.deals_per_session,
        plan.rotations,
        seed,
        use,
    )
    bar = tqdm(total=plan.hands, unit="hand", file=sys.stderr, disable=not progress)
    with bar:
        bar.refresh()  # shown at once, before the first hand
        if use is Engine.SCALAR:
            play_scalar(
                plan,
                rules,
                lambda session, rotation: _pass_agents(templates, agents, plan, session, rotation),
                accounts,
                labels,
                on_hand=on_hand,
                progress=bar.update,
            )
        else:
            split = all(_memoryless(a) and isinstance(a, KnownPolicy) for a in templates)
            most = table_cap(templates, rules.num_seats)
            passes = plan_passes(plan, split, most, accounts.window)
            batch = HandBatch(rules, max(1, min(len(passes), most)))
            batched = [_batched_form(t, a, batch) for t, a in zip(templates, agents, strict=True)]
            play_batched(
                plan,
                rules,
                batch,
                batched,
                passes,
                accounts,
                labels,
                on_hand=on_hand,
                progress=bar.update,
            )
    return _result(plan, rules, labels, accounts, use, estimate)


def table_cap(agents: Sequence[SeatAgent], num_seats: int) -> int:
    """Tables the batched engine plays at once for ``agents``: ``MAX_TABLES``, fewer when
    their per-table memory would exceed ``TABLE_MEMORY``."""
    per_table = sum(a.table_bytes(num_seats) for a in agents if isinstance(a, HasTableBytes))
    return max(1, min(MAX_TABLES, TABLE_MEMORY // per_table)) if per_table else MAX_TABLES


def _pass_agents(
    templates: Sequence[SeatAgent],
    given: Sequence[SeatAgent | str],
    plan: MatchPlan,
    session: int,
    rotation: int,
) -> list[SeatAgent]:
    """Fresh agents for one pass, reset with the pass's generators. The agent objects given
    play the first pass themselves (so they hold what they learned in it afterwards)."""
    streams = plan.agent_streams(session, rotation)
    first = session == 0 and rotation == 0
    fresh = []
    for template, spec, stream in zip(templates, given, streams, strict=True):
        if isinstance(spec, str):
            agent = make_agent(spec)
        else:
            agent = template if first else fresh_copy(template)
        agent.reset(np.random.default_rng(stream))
        fresh.append(agent)
    return fresh


def _batched_form(template: SeatAgent, spec: SeatAgent | str, batch: HandBatch) -> BatchedAgent:
    """The batched engine plays fresh copies, never the agent object given."""

    def copy() -> SeatAgent:
        return make_agent(spec) if isinstance(spec, str) else fresh_copy(template)

    return batched_form(template, batch, copy)


def _memoryless(agent: SeatAgent) -> bool:
    return bool(getattr(agent, "memoryless", False))


def _engine(chosen: Engine, templates: Sequence[SeatAgent], plan: MatchPlan) -> Engine:
    if chosen is not Engine.AUTO:
        return chosen
    if not all(has_batched_form(agent) for agent in templates):
        return Engine.SCALAR
    memoryless = all(_memoryless(a) and isinstance(a, KnownPolicy) for a in templates)
    passes = plan.sessions * plan.rotations
    if memoryless or passes >= AUTO_MIN_TABLES:
        return Engine.BATCHED
    return Engine.SCALAR


def _result(
    plan: MatchPlan,
    rules: Rules,
    labels: Sequence[str],
    accounts: Accounts,
    engine: Engine,
    estimator: Estimator,
) -> MatchResult:
    hands = accounts.hands
    counts = accounts.counts
    results = []
    for j, label in enumerate(labels):
        raw = accounts.raw.estimate(j)
        corrected = accounts.estimated.estimate(j) if estimator is Estimator.AIVAT else None
        calls, saw_flop = int(counts["calls"][j]), int(counts["saw_flop"][j])
        results.append(
            AgentResult(
                name=label,
                hands=hands,
                chips=int(accounts.total_chips[j]),
                sb_per_hand=raw.mean,
                std_error=raw.std_error,
                ci=raw.ci,
                vpip=int(counts["vpip"][j]) / hands,
                pfr=int(counts["pfr"][j]) / hands,
                af=int(counts["aggressive"][j]) / calls if calls else None,
                wtsd=int(counts["showdowns"][j]) / saw_flop if saw_flop else None,
                aivat_sb_per_hand=corrected.mean if corrected else None,
                aivat_std_error=corrected.std_error if corrected else None,
                aivat_ci=corrected.ci if corrected else None,
            )
        )
    chips, aivat = accounts.deal_arrays()
    return MatchResult(
        agents=tuple(labels),
        hands=hands,
        deals=plan.deals,
        seed=plan.seed,
        duplicate=plan.duplicate,
        rules=rules,
        results=tuple(results),
        sessions=plan.sessions,
        deals_per_session=plan.deals_per_session,
        engine=str(engine),
        estimator=str(estimator),
        deal_chips=chips,
        deal_aivat=aivat,
    )


def _choice(kind: type[StrEnum], value: object, name: str) -> str:
    choices = [member.value for member in kind]
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(choices)}")
    return str(value)


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
