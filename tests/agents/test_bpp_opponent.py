"""BPP's opponent model: action classes, learning from showdowns, convergence, the switch."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import Agent, legal_actions
from agents.baselines import CallAgent
from agents.bpp.hand_types import NUM_CURRENT_TYPES, hand_type
from agents.bpp.network import shipped_network
from agents.bpp.opponent import OppAction, OpponentModel, classify, generic_prior
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Action, Rules, Street
from envs.view import PlayerView


def _model(*, learn: bool = True, weight: float = 2.0) -> OpponentModel:
    return OpponentModel(
        generic_prior(shipped_network().strength), prior_weight=weight, learn=learn
    )


def test_classify_reads_the_decision_each_action_answered() -> None:
    """Heads-up with blinds 1/2 and bets 2/4: the button completes, the big blind raises
    (a bet: nothing was owed), the button re-raises, the big blind calls; on the flop the big
    blind checks, the button bets, the big blind folds."""
    hand = Hand(Rules(), deal_deck(3, 0).tolist(), button=0)
    script = [Action.CALL, Action.RAISE, Action.RAISE, Action.CALL]
    script += [Action.CALL, Action.RAISE, Action.FOLD]
    for action in script:
        hand.act(action)
    acted = hand.view(0).actions
    classes = [classify(a, Rules().bet_size(a.street)) for a in acted]
    assert classes == [
        OppAction.CALL,
        OppAction.BET,
        OppAction.RAISE,
        OppAction.CALL,
        OppAction.PASS,
        OppAction.BET,
        None,
    ]
    assert acted[4].street == Street.FLOP


def test_generic_prior_is_a_distribution_per_decision_rising_with_strength() -> None:
    prior = generic_prior(shipped_network().strength)
    assert np.allclose(prior[..., OppAction.PASS] + prior[..., OppAction.BET], 1.0)
    assert np.allclose(prior[..., OppAction.CALL] + prior[..., OppAction.RAISE], 1.0)
    assert prior.min() >= 0.05 and prior.max() <= 0.95
    pairs = prior[0, 5:18, OppAction.BET]  # pre-flop pairs, deuces to aces
    assert np.all(np.diff(pairs) > 0)


class TypeBot(Agent):
    """A synthetic opponent whose action depends only on its current hand type: it bets or
    raises with probability ``AGGRESSION[round][type]``, otherwise checks or calls."""

    name = "type-bot"
    AGGRESSION = np.random.default_rng(7).uniform(0.1, 0.9, size=(4, NUM_CURRENT_TYPES))

    def act(self, view: PlayerView) -> Action:
        legal = legal_actions(view)
        htype = hand_type((*view.hole, *view.board))
        aggressive = self.rng.random() < self.AGGRESSION[view.street, htype]
        return Action.RAISE if aggressive and Action.RAISE in legal else Action.CALL


def test_model_converges_to_a_synthetic_opponent_from_showdowns_alone() -> None:
    """The type bot plays the calling station, so every hand is shown down; the model, fed
    only the terminal views, must recover P(bet | type) and P(raise | type) wherever it saw
    enough decisions (the cap can force a call, so raises are read where uncapped)."""
    rules = Rules()
    bot, station = TypeBot(rng=np.random.default_rng(1)), CallAgent()
    model = _model(weight=2.0)
    for deal in range(3000):
        hand = Hand(rules, deal_deck(5, deal).tolist(), button=deal % 2)
        seats = (bot, station) if deal % 4 < 2 else (station, bot)
        while (seat := hand.actor) is not None:
            hand.act(seats[seat].act(hand.view(seat)))
        me = 1 - seats.index(bot)  # the model watches from the station's seat
        model.observe_hand(hand.view(me))
    checked = 0
    for seat in (0, 1):
        counts = model.counts(seat)
        table = model.likelihoods(seat)
        for street in range(4):
            for htype in range(NUM_CURRENT_TYPES):
                n = counts[street, htype, OppAction.BET] + counts[street, htype, OppAction.PASS]
                if n >= 60:
                    truth = TypeBot.AGGRESSION[street, htype]
                    # Four standard errors plus the pull of the two prior pseudo-counts.
                    tolerance = 4 * np.sqrt(truth * (1 - truth) / n) + 2 / (n + 2)
                    got = table[street, OppAction.BET, htype]
                    assert abs(got - truth) < tolerance, (street, htype, n, got, truth)
                    checked += 1
    assert checked >= 20


def test_learning_switch_and_forget() -> None:
    frozen, learner = _model(learn=False), _model(learn=True)
    generic = frozen.likelihoods(1).copy()
    for model in (frozen, learner):
        for _ in range(30):
            model.record(1, 2, 10, OppAction.BET)
    assert np.array_equal(frozen.likelihoods(1), generic)
    changed = learner.likelihoods(1)
    assert changed[2, OppAction.BET, 10] > generic[2, OppAction.BET, 10]
    assert changed[2, OppAction.BET, 10] + changed[2, OppAction.PASS, 10] == pytest.approx(1.0)
    # Other seats, rounds and types are untouched.
    assert np.array_equal(learner.likelihoods(0), generic)
    mask = np.ones_like(generic, dtype=bool)
    mask[2, :, 10] = False
    assert np.array_equal(changed[mask], generic[mask])
    learner.forget()
    assert np.array_equal(learner.likelihoods(1), generic)
    with pytest.raises(ValueError, match="read-only"):
        learner.likelihoods(1)[0, 0, 0] = 0.5


def test_bad_model_arguments() -> None:
    prior = generic_prior(shipped_network().strength)
    with pytest.raises(ValueError, match="prior_weight"):
        OpponentModel(prior, prior_weight=0.0)
    with pytest.raises(ValueError, match="shape"):
        OpponentModel(prior[:2], prior_weight=1.0)
