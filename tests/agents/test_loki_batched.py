"""The batched Loki against its scalar twins, decision by decision, learning included.

Many scalar ``Hand`` tables are played in lockstep. At every step each batched Loki gets one
``DecisionBatch`` of the tables where its seat is to act, and the scalar twin of that table
and seat (one ``Loki`` per table and seat, with that table's parameters) gets the same views;
the other seats are scalar agents (bots, BPP). The action played is drawn from the scalar
probabilities with the common random numbers of ``envs.crn``. The probabilities must agree to
1e-12 at every decision (they are equal), the weight tables of every opponent still in to the
last bit, and at the end each table's learned frequencies; ``play_match`` gives the same
figures on the batched engine as on the scalar one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pytest

from agents.loki import Loki, Loki2, LokiParams, Modelling, Tightness
from agents.loki.batched_loki import BatchedLoki
from envs.batched.views import decision_batch, hand_end_batch
from envs.crn import check_probabilities, decision_uniform, sample_action
from envs.deals import deal_deck
from envs.game import Hand
from envs.match import play_match
from envs.protocols import KnownPolicy, SeatAgent
from envs.registry import make_agent
from envs.rules import Rules, Street

TOLERANCE = 1e-12


@dataclass
class Role:
    """One seat of the lockstep play: its scalar agent at each table, and for a Loki the
    batched form."""

    scalar: Callable[[int], SeatAgent]
    """The scalar agent of table ``i``."""
    batched: Callable[[int], BatchedLoki] | None = None
    """The batched Loki of ``n`` tables (``None``: a scalar opponent only)."""


def loki_role(name: str) -> Role:
    """A registry Loki: every table with its parameters."""
    template = make_agent(name)
    assert isinstance(template, Loki)
    return Role(lambda i: make_agent(name), lambda n: _twin(template, n))


def _twin(template: Loki, tables: int) -> BatchedLoki:
    twin = template.batched(tables)
    assert isinstance(twin, BatchedLoki)
    return twin


def per_table_loki(tables: int, seed: int, base: LokiParams) -> Role:
    """Random knobs per table around ``base`` (the Loki studies' ranges)."""
    params = [random_params(np.random.default_rng([seed, i]), base) for i in range(tables)]
    return Role(lambda i: Loki(params[i]), lambda n: BatchedLoki(n, params[:n]))


def random_params(rng: np.random.Generator, base: LokiParams) -> LokiParams:
    make1 = float(rng.uniform(0.40, 0.60))
    return replace(
        base,
        tightness=Tightness(rng.choice([t.value for t in Tightness])),
        preflop_shift=float(rng.uniform(-150, 150)),
        make1=make1,
        make2=float(rng.uniform(0.75, 0.95)),
        preflop_sigma=float(rng.uniform(100, 1000)),
        sigma_slope=float(rng.uniform(0.1, 1.0)),
        triple_width=float(rng.uniform(0.0, 0.07)),
        lookahead=int(rng.choice([1, 1, 1, 2])),
        min_observations=int(rng.integers(1, 30)),
        semi_bluff=bool(rng.random() < 0.8),
        pot_odds=bool(rng.random() < 0.8),
        showdown_odds=bool(rng.random() < 0.8),
    )


def bot(name: str) -> Role:
    return Role(lambda i: make_agent(name))


def play_lockstep(
    roles: Sequence[Role],
    *,
    tables: int,
    hands: int,
    seed: int,
    rules: Rules | None = None,
) -> tuple[int, float]:
    """Play ``hands`` hands at each of ``tables`` tables of ``len(roles)`` seats in lockstep.

    Role ``j`` sits in seat ``(j + i) % S`` at table ``i``; the button moves every hand. Every
    Loki decision is compared (module docstring), and every Loki's frequencies at the end.
    Returns (decisions compared, largest difference seen).
    """
    seats = len(roles)
    rules = rules if rules is not None else Rules(num_seats=seats)
    seat_of = np.array([[(j + i) % seats for j in range(seats)] for i in range(tables)])
    role_at = np.argsort(seat_of, axis=1)
    scalar = [[role.scalar(i) for i in range(tables)] for role in roles]
    for j, agents in enumerate(scalar):
        for i, agent in enumerate(agents):
            agent.reset(np.random.default_rng([seed, i, j]))
    batched = [role.batched(tables) if role.batched else None for role in roles]
    for j, agent in enumerate(batched):
        if agent is not None:
            agent.start_tables(np.arange(tables), seat_of[:, j])
    decisions, worst = 0, 0.0
    for h in range(hands):
        deals = [i * hands + h for i in range(tables)]
        games = [
            Hand(rules, deal_deck(seed, d).tolist(), button=h % seats, hand_id=h) for d in deals
        ]
        counts = np.zeros((tables, seats), dtype=int)
        live = [i for i in range(tables) if not games[i].is_over]
        while live:
            acting = [int(role_at[i, games[i].actor]) for i in live]
            for j in range(seats):
                rows = [i for i, r in zip(live, acting, strict=True) if r == j]
                if not rows:
                    continue
                views = [games[i].view(int(seat_of[i, j])) for i in rows]
                twin = batched[j]
                played = None
                if twin is not None:
                    batch = decision_batch(views, rows)
                    played = twin.probabilities(batch)
                    check_probabilities(played, batch.legal, twin.name)
                for row, (i, view) in enumerate(zip(rows, views, strict=True)):
                    agent = scalar[j][i]
                    seat = view.seat
                    if isinstance(agent, KnownPolicy):
                        probabilities = agent.action_probabilities(view)
                        u = decision_uniform(seed, deals[i], seat, int(counts[i, seat]))
                        action = sample_action(probabilities, u)
                    else:
                        action = agent.act(view)
                    counts[i, seat] += 1
                    if played is not None and twin is not None:
                        assert isinstance(agent, Loki)
                        gap = float(np.abs(np.array(probabilities) - played[row]).max())
                        worst = max(worst, gap)
                        assert_same_hand_state(agent, twin, i, view.seat, view.folded)
                        decisions += 1
                    games[i].act(action)
            live = [i for i in live if not games[i].is_over]
        for j in range(seats):
            views = [games[i].view(int(seat_of[i, j])) for i in range(tables)]
            agent = batched[j]
            if agent is not None:
                agent.observe_ends(hand_end_batch(views, range(tables)))
            for i, view in enumerate(views):
                scalar[j][i].observe(view)
    for j, agent in enumerate(batched):
        if agent is not None:
            assert_same_frequencies(scalar[j], agent, seat_of[:, j])
    return decisions, worst


def assert_same_hand_state(
    twin: Loki, batched: BatchedLoki, table: int, me: int, folded: Sequence[bool]
) -> None:
    """The weight tables of the opponents still in, the pre-flop strategy and Loki-2's draw."""
    for seat in range(len(folded)):
        if seat != me and not folded[seat]:
            assert np.array_equal(batched.weights(table, seat), twin.weights(seat)), (
                table,
                seat,
            )
    assert batched.preflop_strategy(table) == twin.preflop_strategy
    assert batched.draw_interval(table) == twin.draw_interval


def assert_same_frequencies(
    twins: Sequence[SeatAgent], batched: BatchedLoki, seat_of: np.ndarray
) -> None:
    for i, twin in enumerate(twins):
        assert isinstance(twin, Loki)
        for seat in range(batched.num_seats):
            if seat == seat_of[i]:
                continue
            for street in Street:
                for bets in range(3):
                    expected = twin.frequencies(seat, street, bets)
                    assert np.array_equal(batched.frequencies(i, seat, street, bets), expected)


def test_heads_up_loki_against_rule() -> None:
    decisions, worst = play_lockstep([loki_role("loki"), bot("rule")], tables=6, hands=6, seed=1)
    assert decisions > 5 * 6
    assert worst <= TOLERANCE


# ------------------------------------------------------------------ through play_match

MATCHES = {
    "loki vs bpp-curves": (["loki", "bpp-curves"], None, 120, 4),
    "loki2 vs rule": (["loki2", "rule"], None, 120, 4),
    "3 seats, short stacks": (
        ["loki-som", "loki2", "loki-tight"],
        Rules(num_seats=3, stacks=(14, 30, 7)),
        60,
        2,
    ),
}


@pytest.mark.parametrize("case", list(MATCHES))
def test_play_match_batched_equals_scalar_deal_by_deal(case: str) -> None:
    """The same deals and figures; with AIVAT the same corrections to rounding (BPP's twin
    sums in another order)."""
    agents, rules, hands, sessions = MATCHES[case]
    for estimator in ("raw", "aivat"):
        scalar, batched = (
            play_match(
                agents,
                hands=hands,
                seed=13,
                rules=rules,
                sessions=sessions,
                engine=engine,
                estimator=estimator,
            )
            for engine in ("scalar", "batched")
        )
        assert (scalar.engine, batched.engine) == ("scalar", "batched")
        assert scalar.deal_chips is not None and batched.deal_chips is not None
        assert np.array_equal(scalar.deal_chips, batched.deal_chips)
        if estimator == "raw":
            assert scalar.results == batched.results
            one, two = scalar.to_dict(), batched.to_dict()
            assert one.pop("engine") == "scalar" and two.pop("engine") == "batched"
            assert json.dumps(one) == json.dumps(two)
        else:
            assert scalar.deal_aivat is not None and batched.deal_aivat is not None
            assert np.allclose(scalar.deal_aivat, batched.deal_aivat, rtol=0, atol=1e-9)


def test_a_memory_cap_plays_fewer_tables_with_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lokis declare their memory per table; the runner plays fewer tables at once when it
    would exceed ``TABLE_MEMORY``, and every figure stays the same. (One table playing the
    passes in turn once kept specific modelling's counts from one session to the next.)"""
    import envs.match as match

    agents = ["loki", "loki2", "rule", "loki-som"]
    assert 1 < match.table_cap([make_agent(a) for a in agents], 4) < match.MAX_TABLES
    assert match.table_cap([make_agent("rule"), make_agent("call")], 2) == match.MAX_TABLES
    full = play_match(agents, hands=96, seed=4, sessions=3, engine="batched")
    monkeypatch.setattr(match, "TABLE_MEMORY", 5 * make_agent("loki").table_bytes(4))
    assert match.table_cap([make_agent(a) for a in agents], 4) == 1
    capped = play_match(agents, hands=96, seed=4, sessions=3, engine="batched")
    assert json.dumps(full.to_dict()) == json.dumps(capped.to_dict())
    assert full.deal_chips is not None and capped.deal_chips is not None
    assert np.array_equal(full.deal_chips, capped.deal_chips)
    with pytest.raises(ValueError, match="num_seats"):
        make_agent("loki").table_bytes(1)


# ------------------------------------------------------------------ many hands, every variant

LOKI2 = Loki2.default_params()
SOM = LokiParams(modelling=Modelling.SPECIFIC)
SOM2 = replace(LOKI2, modelling=Modelling.SPECIFIC)
NONE = LokiParams(modelling=Modelling.NONE)
SHORT = {
    2: (9, 23),
    3: (14, 30, 7),
    6: (20, 9, 40, 13, 30, 25),
    10: (20, 9, 40, 13, 30, 25, 60, 11, 35, 18),
}


def seated(*specs: str | tuple[LokiParams, int]) -> Callable[[int], list[Role]]:
    """The roles of a table: registry names (a Loki's twin is compared, a bot plays), or
    ``(base, seed)`` for a Loki with random knobs per table; built for ``n`` tables."""

    def build(tables: int) -> list[Role]:
        roles = []
        for spec in specs:
            if isinstance(spec, tuple):
                roles.append(per_table_loki(tables, spec[1], spec[0]))
            else:
                roles.append(loki_role(spec) if spec.startswith("loki") else bot(spec))
        return roles

    return build


SlowCase = tuple[Callable[[int], list[Role]], int, int, bool]
"""The roles, tables, hands per table, short stacks."""
SLOW_CASES: dict[str, dict[str, SlowCase]] = {
    # per family 20,000 hands at HAND_SHARE 1, at 2, 3, 6 and 10 seats
    "loki-1": {
        "2 seats": (seated("loki", "rule"), 50, 100, False),
        "2 seats, short": (seated((LokiParams(), 1), "bpp"), 50, 100, True),
        "3 seats": (seated("loki-tight", "random", "loki-moderate"), 60, 80, True),
        "6 seats": (
            seated("loki", "call", "raise", "bpp", (NONE, 2), "rule"),
            40,
            80,
            True,
        ),
        "10 seats": (
            seated(
                "loki",
                "rule",
                "random",
                "call",
                "raise",
                "bpp",
                "loki-tight",
                "loki-moderate",
                (LokiParams(), 3),
                "loki2",
            ),
            20,
            100,
            True,
        ),
    },
    "loki-som": {
        "2 seats": (seated("loki-som", "bpp"), 50, 100, False),
        "2 seats, short": (seated((SOM, 4), "random"), 50, 100, True),
        "3 seats": (seated("loki-som", (SOM2, 5), "rule"), 60, 80, True),
        "6 seats": (
            seated("loki-som", "raise", "loki", "call", "random", (SOM, 6)),
            40,
            80,
            True,
        ),
        "10 seats": (
            seated(
                "loki-som",
                "rule",
                "random",
                "call",
                "raise",
                "bpp",
                (SOM, 7),
                "loki2",
                "rule",
                "loki",
            ),
            20,
            100,
            True,
        ),
    },
    "loki2": {
        "2 seats": (seated("loki2", "rule"), 50, 100, False),
        "2 seats, short": (seated((LOKI2, 8), "bpp"), 50, 100, True),
        "3 seats": (seated("loki2", "call", (SOM2, 9)), 60, 80, True),
        "6 seats": (
            seated("loki2", "random", "loki-som", "raise", "bpp", (LOKI2, 10)),
            40,
            80,
            True,
        ),
        "10 seats": (
            seated(
                "loki2",
                "rule",
                "random",
                "call",
                "raise",
                "bpp",
                (SOM2, 11),
                "loki",
                "rule",
                (LOKI2, 12),
            ),
            20,
            100,
            True,
        ),
    },
}
FULL_TWINS = os.environ.get("HOLDEM_LAB_FULL_TWINS") == "1"
HAND_SHARE = 1.0 if FULL_TWINS else 0.25
"""The share of each case's hands played: a quarter in ``make test`` (5,000 hands per family,
about a minute on two workers); all of them, 20,000 hands per family, with
``HOLDEM_LAB_FULL_TWINS=1`` (that run's outcome is recorded in results/loki.md)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("family", "case"), [(f, c) for f, cases in SLOW_CASES.items() for c in cases]
)
def test_many_hands_against_the_scalar_twins(family: str, case: str) -> None:
    roles, tables, hands, short = SLOW_CASES[family][case]
    built = roles(tables)
    seats = len(built)
    rules = Rules(num_seats=seats, stacks=SHORT[seats]) if short else Rules(num_seats=seats)
    played = max(2, round(hands * HAND_SHARE))
    decisions, worst = play_lockstep(built, tables=tables, hands=played, seed=21, rules=rules)
    assert decisions > tables * played
    assert worst <= TOLERANCE


def test_slow_cases_cover_twenty_thousand_hands_per_family() -> None:
    for family, cases in SLOW_CASES.items():
        total = sum(tables * hands for _, tables, hands, _ in cases.values())
        assert total >= 20_000, family
        assert {len(roles(1)) for roles, *_ in cases.values()} == {2, 3, 6, 10}
