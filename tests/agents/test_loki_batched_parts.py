"""The parts of the batched Loki: its compiled hand values against the NumPy references, the
compiled rules and re-weightings against their NumPy forms, the per-table parameters, the
contract (attributes, refusals, fresh memory) and the memory it states."""

from __future__ import annotations

from dataclasses import replace

import numba
import numpy as np
import pytest

from agents.loki import Loki, Loki2, LokiParams, Modelling, Tightness
from agents.loki.batched_loki import BatchedLoki
from agents.loki.modelling import ramp
from agents.loki.postflop import BettingThresholds, Spot, probability_triples
from agents.loki.preflop import Group, PreflopStrategy, load_preflop_table
from agents.loki.triples import triple
from agents.loki.weighting import field_of, threshold_weights
from agents.strength import (
    ehs_prime,
    field_weights,
    hand_potential,
    hand_strength,
    hand_strength_all,
    ppot_c,
)
from agents.strength.holdings import HOLDINGS
from agents.strength.income_rate import load_income_rates
from agents.strength.street import DEAD, field_potential2, field_values, street_tables
from envs.batched.views import decision_batch, hand_end_batch
from envs.deals import deal_deck
from envs.evaluator import evaluate_one
from envs.game import Hand
from envs.registry import make_agent
from envs.rules import Action, Rules, Street

# ------------------------------------------------------------------ hand values


def test_hand_values_equal_the_numpy_references() -> None:
    rng = np.random.default_rng(5)
    cards = np.array([rng.permutation(52)[:7] for _ in range(24)])
    holes, boards = cards[:, :2], cards[:, 2:]
    width = np.array([3, 4, 5] * 8)
    tables = street_tables(holes, boards, width)
    field = rng.random((24, 1326))
    field[::3] = 1.0
    opponents = rng.integers(1, 5, 24)
    hsn, ppot = field_values(tables, field, opponents)
    for i in range(24):
        hole, board = tuple(holes[i].tolist()), tuple(boards[i, : width[i]].tolist())
        np.testing.assert_array_equal(tables.hs1[i], hand_strength_all(board))
        river = np.where(np.isnan(tables.hs1[i]), np.nan, 0.0)
        reference = river if width[i] == 5 else ppot_c(board)
        np.testing.assert_allclose(tables.ppotc[i], reference, rtol=0.0, atol=1e-15)  # BLAS dot
        mine = evaluate_one((*hole, *board))
        for h in rng.choice(1326, 40, replace=False):
            a, b = (int(c) for c in HOLDINGS[h])
            if {a, b} & {*hole, *board}:
                assert tables.versus[i, h] == DEAD and not tables.after[i, h].any()
                continue
            assert tables.versus[i, h] == np.sign(mine - evaluate_one((a, b, *board)))
            expected = [0, 0, 0]
            if width[i] < 5:
                for card in set(range(52)) - {a, b, *hole, *board}:
                    diff = evaluate_one((*hole, *board, card)) - evaluate_one((a, b, *board, card))
                    expected[0 if diff > 0 else 1 if diff == 0 else 2] += 1
            assert tables.after[i, h].tolist() == expected
        # HSn = HS1 ** n: NumPy's vectorised power (AVX-512 machines) and Python's ** may
        # differ in the last bit.
        expected = hand_strength(hole, board, field[i], opponents=int(opponents[i]))
        assert hsn[i] == pytest.approx(expected, rel=1e-15, abs=0)
        expected_ppot = hand_potential(hole, board, field[i])[0] if width[i] < 5 else 0.0
        assert ppot[i] == expected_ppot
    flop = width == 3
    ppot2 = field_potential2(holes[flop], boards[flop], field[flop])
    for value, hole, board, weights in zip(
        ppot2, holes[flop], boards[flop], field[flop], strict=True
    ):
        assert value == hand_potential(hole.tolist(), board[:3].tolist(), weights, lookahead=2)[0]


# ------------------------------------------------------------------ compiled rules


def test_the_compiled_triple_equals_probability_triples() -> None:
    rng = np.random.default_rng(0)
    for _ in range(150):
        street = Street(int(rng.integers(1, 4)))
        spot = Spot(
            street=street,
            to_call=int(rng.choice([0, 0, 1, 2, 4, 6, 8])),
            pot=int(rng.integers(2, 60)),
            bet_size=int(rng.choice([2, 4])),
            num_bets=int(rng.integers(0, 5)),
            can_raise=bool(rng.random() < 0.8),
            invested=bool(rng.random() < 0.5),
            opponents=int(rng.integers(1, 5)),
            later_bets=int(rng.integers(0, 9)),
            semi_bluffing=bool(rng.random() < 0.3),
        )
        rules = BettingThresholds(
            make1=float(rng.uniform(0.3, 0.6)),
            make2=float(rng.uniform(0.7, 0.95)),
            semi_bluff=bool(rng.random() < 0.8),
            pot_odds=bool(rng.random() < 0.8),
            showdown_odds=bool(rng.random() < 0.8),
        )
        width = float(rng.choice([0.0, 0.03, 0.05]))
        hsn, ppot = rng.random(30), rng.random(30) * 0.5
        ehs = hsn + (1 - hsn) * ppot
        ehs[:4] = [rules.make1, rules.make2, rules.make1 - width, rules.make2 + width]
        expected = probability_triples(hsn, ppot, ehs, spot, rules, width)
        for h in range(30):
            got = triple(
                hsn[h], ppot[h], ehs[h], int(street), spot.to_call, spot.pot, spot.bet_size,
                spot.num_bets, spot.can_raise, spot.invested, spot.opponents, spot.later_bets,
                spot.semi_bluffing, rules.make1, rules.make2, rules.semi_bluff, rules.pot_odds,
                rules.showdown_odds, width,
            )  # fmt: skip
            assert got == tuple(expected[h])


@pytest.mark.parametrize(
    ("street", "mu", "slope"),
    [
        (Street.PREFLOP, 0.8, 0.4),
        (Street.PREFLOP, 0.03, 0.4),  # below the 5th percentile: no re-weighting
        (Street.FLOP, 0.5, 0.4),
        (Street.TURN, 0.2, 0.5),  # sigma > mu: the low-mu correction
        (Street.RIVER, 0.7, 0.1),
    ],
)
def test_threshold_weights_are_the_ramps_of_papp_section_7_2(
    street: Street, mu: float, slope: float
) -> None:
    rng = np.random.default_rng(int(street))
    start = np.maximum(rng.random(1326), 0.01)
    ir7 = load_income_rates().of_holdings(7)
    board = tuple(int(c) for c in rng.permutation(52)[: (0, 3, 4, 5)[street]])
    hs1 = hand_strength_all(board) if board else np.zeros(1326)
    ppot = ppot_c(board) if len(board) in (3, 4) else np.zeros(1326)
    odds = 2 / (6 + 2)
    got = threshold_weights(
        start, int(street), mu, odds, ir7, np.sort(ir7), hs1, ppot, 330.0, 0.05, slope, 0.01
    )
    if street == Street.PREFLOP:
        mu_ir = np.sort(ir7)[round(mu * 1325)]
        factor = ramp(ir7, mu_ir, 330.0, low_mu_correction=False) if mu >= 0.05 else 1.0
    else:
        h, p = np.nan_to_num(hs1), np.nan_to_num(ppot)
        factor = ramp(ehs_prime(h, p), mu, slope * (1 - mu), low_mu_correction=True)
        factor = np.where(p >= odds, 1.0, factor)
    np.testing.assert_array_equal(got, np.maximum(start * factor, 0.01))


def test_the_field_array_is_the_average_of_the_scaled_tables() -> None:
    tables = np.maximum(np.random.default_rng(1).random((3, 1326)), 0.01)
    np.testing.assert_allclose(field_of(tables), field_weights(list(tables)), rtol=1e-14)


# ------------------------------------------------------------------ parameters and contract


def test_parameters_per_table_resolve_the_preflop_table() -> None:
    sets = [
        LokiParams(),
        LokiParams(tightness=Tightness.TIGHT, preflop_shift=40.0, make1=0.45),
        Loki2.default_params(),
    ]
    agent = BatchedLoki(3, sets)
    p = agent.params
    assert p.make1.tolist() == [0.5, 0.45, 0.5]
    assert p.triple_betting.tolist() == [False, False, True]
    shifted = load_preflop_table().shifted(Tightness.TIGHT, 40.0)
    base, increment = shifted.lines[Tightness.TIGHT, Group.FIVE_PLUS, PreflopStrategy.MAKE2]
    assert (p.preflop_base[1, 2, 1], p.preflop_increment[1, 2, 1]) == (base, increment)
    assert tuple(p.small_blind[1, 0]) == shifted.small_blind[Tightness.TIGHT, Group.TWO]
    assert agent.hand_uniform and agent.memoryless and agent.known_policy


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ([LokiParams()], ValueError, r"one LokiParams per table \(2\)"),
        ([LokiParams(), {"make1": 0.5}], TypeError, r"params\[1\] must be a LokiParams"),
        (3, TypeError, "a LokiParams or a sequence"),
    ],
)
def test_bad_parameters_are_refused(params: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        BatchedLoki(2, params)  # type: ignore[arg-type]


def test_an_altered_parameter_set_is_refused_naming_its_table_and_field() -> None:
    altered = LokiParams()
    object.__setattr__(altered, "make1", 0.9)  # frozen, but not proof against this
    with pytest.raises(
        ValueError, match=r"params\[1\]: need 0 < make1 < make2 <= 1, got make1=0.9"
    ):
        BatchedLoki(2, [LokiParams(), altered])
    with pytest.raises(ValueError, match="positive"):
        BatchedLoki(0)


@pytest.mark.parametrize("name", ["loki", "loki-tight", "loki-moderate", "loki-som", "loki2"])
def test_every_registry_loki_has_its_batched_twin(name: str) -> None:
    scalar = make_agent(name)
    assert isinstance(scalar, Loki)
    twin = scalar.batched(3)
    assert isinstance(twin, BatchedLoki) and twin.name == name
    assert (twin.memoryless, twin.hand_uniform) == (scalar.memoryless, scalar.hand_uniform)
    assert twin.params.make2.tolist() == [scalar.params.make2] * 3
    assert twin.params.specific.tolist() == [scalar.params.modelling == Modelling.SPECIFIC] * 3

    class Tweaked(Loki):  # a subclass may play or remember differently: no twin
        pass

    assert Tweaked().batched(2) is None


def _first_decision(table: int = 0, seat: int = 0, seats: int = 2) -> object:
    hand = Hand(Rules(num_seats=seats), deal_deck(1, 3).tolist(), button=seat, hand_id=1)
    while hand.actor != seat:
        hand.act(Action.CALL)
    return decision_batch([hand.view(seat)], [table])


def test_batches_the_agent_cannot_serve_are_refused() -> None:
    agent = BatchedLoki(4)
    with pytest.raises(ValueError, match="start_tables first"):
        agent.probabilities(_first_decision())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"lie in 0\.\.3"):
        agent.start_tables([4], [0])
    agent.start_tables([0, 1, 2, 3], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="sits in seat 1"):
        agent.probabilities(_first_decision(table=1, seat=0))  # type: ignore[arg-type]
    hand = Hand(Rules(), deal_deck(1, 3).tolist(), button=0)
    with pytest.raises(ValueError, match="twice"):
        agent.probabilities(decision_batch([hand.view(0)] * 2, [0, 0]))
    assert agent.probabilities(_first_decision()).shape == (1, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-seat tables"):
        agent.probabilities(_first_decision(seats=3))  # type: ignore[arg-type]


def test_start_tables_forgets_what_a_table_learned() -> None:
    agent = BatchedLoki(2, LokiParams(modelling=Modelling.SPECIFIC))
    agent.start_tables([0, 1], [0, 0])
    hand = Hand(Rules(), deal_deck(2, 0).tolist(), button=1, hand_id=5)
    hand.act(Action.RAISE)
    hand.act(Action.CALL)
    while not hand.is_over:
        hand.act(Action.CALL)
    agent.observe_ends(hand_end_batch([hand.view(0), hand.view(0)], [0, 1]))
    learned = agent.frequencies(0, 1, Street.PREFLOP, 1)  # the small blind's raise
    twin = Loki(LokiParams(modelling=Modelling.SPECIFIC))
    twin.observe(hand.view(0))
    assert learned.tolist() == twin.frequencies(1, Street.PREFLOP, 1).tolist() != [0.5, 0.3, 0.2]
    agent.start_tables([0], [0])
    assert agent.frequencies(0, 1, Street.PREFLOP, 1).tolist() == [0.5, 0.3, 0.2]
    assert agent.frequencies(1, 1, Street.PREFLOP, 1).tolist() == learned.tolist()


@pytest.mark.parametrize(
    ("seats", "specific", "per_table"),
    [(2, False, 37_570), (2, True, 37_713), (10, False, 122_582)],
)
def test_memory_per_table(seats: int, specific: bool, per_table: int) -> None:
    """The weight tables (10,608 bytes per opponent) and the street values (26,520 bytes) make
    nearly all of it (``agents.loki.batched_state``)."""
    tables = 100
    params = replace(LokiParams(), modelling=Modelling.SPECIFIC if specific else Modelling.GENERIC)
    agent = BatchedLoki(tables, params)
    agent.start_tables(np.arange(tables), np.zeros(tables, dtype=int))
    agent.probabilities(_first_decision(seats=seats))  # type: ignore[arg-type]
    assert abs(agent.nbytes / tables - per_table) < 1, agent.nbytes / tables


def test_kernels_call_only_kernels_of_their_own_module() -> None:
    """numba's disk cache of a kernel sees its own module's source only (``agents.jit``)."""
    import agents.lbr.loki_board_kernels
    import agents.lbr.loki_kernels
    import agents.lbr.loki_sweep_kernels
    import agents.loki.batched_history
    import agents.loki.batched_preflop
    import agents.loki.triples
    import agents.loki.weighting

    modules = [
        agents.lbr.loki_board_kernels,
        agents.lbr.loki_kernels,
        agents.lbr.loki_sweep_kernels,
        agents.loki.batched_history,
        agents.loki.batched_preflop,
        agents.loki.triples,
        agents.loki.weighting,
    ]
    kernels = 0
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, numba.core.registry.CPUDispatcher):
                continue
            assert value.py_func.__module__ == module.__name__, value  # none imported
            kernels += 1
            for name in value.py_func.__code__.co_names:
                callee = getattr(module, name, None)
                if isinstance(callee, numba.core.registry.CPUDispatcher):
                    assert callee.py_func.__module__ == module.__name__, (value, name)
    assert kernels >= 15
