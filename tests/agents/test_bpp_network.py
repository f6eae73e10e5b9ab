"""BPP's network: exact inference against brute-force enumeration, and the fast path against
the reference form on real hands."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.bpp.belief import Belief
from agents.bpp.hand_types import HandType, board_class, hand_type
from agents.bpp.network import Structure, paper_terms, shipped_network, win_probability
from agents.bpp.opponent import OpponentModel, classify, generic_prior
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules
from envs.view import PlayerView


def _cpt(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """A random conditional table P(row | col), columns summing to one."""
    table = rng.random((rows, cols)) + 0.05
    return table / table.sum(axis=0)


@pytest.mark.parametrize("seed", range(5))
def test_paper_structure_matches_enumeration_of_the_joint(seed: int) -> None:
    """Sum P(F, F', C, C'_0, C'_1, actions, Win) over every hidden assignment by brute force."""
    rng = np.random.default_rng(seed)
    f, c = 3, 4
    joint = rng.random((f, f))
    joint /= joint.sum()
    current = _cpt(rng, c, f)  # P(C | F)
    opp_current = [_cpt(rng, c, f), _cpt(rng, c, f)]  # P(C'_k | F') for rounds 0 and 1
    actions = [[0, 1], [1]]  # indices into P(a | C'_k) per round: several actions a round
    action_cpt = [_cpt(rng, 2, c), _cpt(rng, 2, c)]  # P(a | C'_k)
    win = rng.random((f, f))
    bpp_type = int(rng.integers(c))

    weight_win = weight_all = 0.0
    for big_f, opp_f, opp_c0, opp_c1 in itertools.product(range(f), range(f), range(c), range(c)):
        p = joint[big_f, opp_f] * current[bpp_type, big_f]
        for k, opp_c in enumerate((opp_c0, opp_c1)):
            p *= opp_current[k][opp_c, opp_f]
            for a in actions[k]:
                p *= action_cpt[k][a, opp_c]
        weight_all += p
        weight_win += p * win[big_f, opp_f]
    likelihoods = [np.prod([action_cpt[k][a] for a in actions[k]], axis=0) for k in range(2)]
    num, den = paper_terms(joint, current, win, bpp_type)
    got = win_probability(num, den, opp_current, likelihoods)
    assert got == pytest.approx(weight_win / weight_all, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_refined_structure_matches_enumeration_of_the_joint(seed: int) -> None:
    """With P(F', win | c) given directly, enumerate F', Win and the opponent's types."""
    rng = np.random.default_rng(100 + seed)
    f, c = 4, 3
    opp_final = rng.dirichlet(np.ones(f))  # P(F' | c)
    win_given = rng.random(f)  # P(win | c, F')
    opp_current = [_cpt(rng, c, f) for _ in range(3)]
    action_cpt = [_cpt(rng, 4, c) for _ in range(3)]
    actions = [[2], [0, 3], []]  # no action yet in the last round
    weight_win = weight_all = 0.0
    for opp_f, *opp_cs in itertools.product(range(f), range(c), range(c), range(c)):
        p = opp_final[opp_f]
        for k, opp_c in enumerate(opp_cs):
            p *= opp_current[k][opp_c, opp_f]
            for a in actions[k]:
                p *= action_cpt[k][a, opp_c]
        weight_all += p
        weight_win += p * win_given[opp_f]
    likelihoods = [
        np.prod([action_cpt[k][a] for a in actions[k]], axis=0) if actions[k] else np.ones(c)
        for k in range(3)
    ]
    got = win_probability(opp_final * win_given, opp_final, opp_current, likelihoods)
    assert got == pytest.approx(weight_win / weight_all, rel=1e-12)


def test_pre_flop_win_probabilities_match_known_equities() -> None:
    """Pocket aces win 85.2% and pocket twos 50.3% against a random hand (ties half; the
    standard all-in equities), so the refined tables, counted from 20 million deals, must
    agree to within about 0.005 (the pairs are one type each)."""
    net = shipped_network()
    for htype, equity in ((HandType.PAIR_A, 0.852), (HandType.PAIR_2, 0.503)):
        num, den = net.preflop_terms[htype]
        assert num.sum() / den.sum() == pytest.approx(equity, abs=0.006)


def test_the_paper_structure_flattens_pocket_aces() -> None:
    """The documented reason for the refined default: BPP Final loses what the hole cards say."""
    refined = shipped_network(Structure.REFINED).preflop_terms[HandType.PAIR_A]
    paper = shipped_network(Structure.PAPER).preflop_terms[HandType.PAIR_A]
    assert paper[0].sum() / paper[1].sum() < refined[0].sum() / refined[1].sum() - 0.1


def _reference(view: PlayerView, belief: Belief) -> float:
    """P(win) of ``view`` recomputed from the network tables with the reference sum."""
    net = belief.network
    r = int(view.street)
    beta = board_class(view.board)
    mine = hand_type((*view.hole, *view.board))
    product = 1.0
    for seat in range(view.num_seats):
        if seat == view.seat or view.folded[seat]:
            continue
        model = belief.model.likelihoods(seat)
        likelihoods = [np.ones(27) for _ in range(r + 1)]
        for acted in view.actions:
            cls = classify(acted, view.rules.bet_size(acted.street))
            if acted.seat == seat and cls is not None:
                likelihoods[acted.street] = likelihoods[acted.street] * model[acted.street, cls]
        product *= win_probability(
            net.numerator[r, beta, mine],
            net.denominator[r, beta, mine],
            [net.current[r, beta, k] for k in range(r + 1)],
            likelihoods,
        )
    return product


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_fast_inference_equals_the_reference_sum_on_real_hands(seats: int) -> None:
    """The incremental per-decision computation of ``Belief`` against the plain formula, with
    a learned (non-generic) model, at 2, 3 and 6 seats, over whole random hands."""
    net = shipped_network()
    rng = np.random.default_rng(seats)
    model = OpponentModel(generic_prior(net.strength), prior_weight=3.0)
    for seat in range(seats):  # give every opponent some idiosyncratic counts
        for _ in range(200):
            model.record(seat, int(rng.integers(4)), int(rng.integers(27)), int(rng.integers(4)))
    belief = Belief(net, model)
    checked = 0
    for deal in range(40):
        hand = Hand(Rules(num_seats=seats), deal_deck(seats, deal).tolist(), button=deal % seats)
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            if seat == 0:
                assert belief.win_probability(view) == pytest.approx(
                    _reference(view, belief), rel=1e-9
                )
                checked += 1
            legal = hand.legal_actions()
            weights = [0.1 if a == Action.FOLD else 1.0 for a in legal]
            choice = rng.choice(len(legal), p=np.array(weights) / sum(weights))
            hand.act(legal[int(choice)])
    assert checked > 60
