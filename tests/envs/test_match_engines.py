"""The scalar and the batched engine of the match runner play the same hands.

For the same seed and session structure both give identical per-deal chips, statistics and
JSON figures (the AIVAT figures agree to rounding: the batched agents compute the same
probabilities in another order of floating-point operations).
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from agents.baselines import RuleAgent
from agents.loki import Loki
from envs.game import Hand
from envs.match import play_match
from envs.protocols import SeatAgent
from envs.rules import Rules

PAIRS = [
    (["bpp", "bpp-curves"], 3_000, 6),
    (["bpp", "call"], 2_000, 5),
    (["rule", "raise"], 4_000, 1),
    (["bpp-det", "random"], 1_200, 3),
]


def _both(agents: list[str | SeatAgent], hands: int, sessions: int, **kwargs: object) -> tuple:
    scalar = play_match(agents, hands=hands, seed=11, sessions=sessions, engine="scalar", **kwargs)
    batched = play_match(
        agents, hands=hands, seed=11, sessions=sessions, engine="batched", **kwargs
    )
    return scalar, batched


@pytest.mark.parametrize(("agents", "hands", "sessions"), PAIRS)
def test_both_engines_give_identical_deals_and_figures(
    agents: list[str], hands: int, sessions: int
) -> None:
    scalar, batched = _both(agents, hands, sessions)
    assert (scalar.engine, batched.engine) == ("scalar", "batched")
    assert scalar.deal_chips is not None and batched.deal_chips is not None
    assert np.array_equal(scalar.deal_chips, batched.deal_chips)
    assert scalar.results == batched.results
    one, two = scalar.to_dict(), batched.to_dict()
    assert one.pop("engine") == "scalar" and two.pop("engine") == "batched"
    assert json.dumps(one) == json.dumps(two)


def test_aivat_figures_agree_between_engines_and_with_the_raw_ones() -> None:
    scalar, batched = _both(["bpp", "bpp-curves"], 2_000, 4, estimator="aivat")
    assert scalar.deal_aivat is not None and batched.deal_aivat is not None
    assert np.allclose(scalar.deal_aivat, batched.deal_aivat, atol=1e-9)
    for one, two in zip(scalar.results, batched.results, strict=True):
        assert one.aivat_sb_per_hand == pytest.approx(two.aivat_sb_per_hand, abs=1e-12)
        assert one.sb_per_hand == two.sb_per_hand
        assert one.aivat_ci is not None and one.ci is not None
        assert one.aivat_ci[1] - one.aivat_ci[0] < one.ci[1] - one.ci[0]  # narrower
        reported = one.reported()
        assert reported.estimator == "aivat" and reported.sb_per_hand == one.aivat_sb_per_hand
        assert reported.ci == one.aivat_ci and reported.std_error == one.aivat_std_error
    raw = replace(scalar.results[0], aivat_sb_per_hand=None)
    assert raw.reported() == ("raw", raw.sb_per_hand, raw.std_error, raw.ci)


class Wary(Loki):
    """A Loki subclass: no batched form (it may play differently), so the adapter plays it."""

    name = "wary"


def test_three_seats_with_finite_stacks_and_an_adapter() -> None:
    """The adapter: one scalar copy of the agent per table."""
    rules = Rules(num_seats=3, stacks=(30, 18, 44))
    scalar, batched = _both(["rule", Wary(), "random"], 240, 2, rules=rules)
    assert np.array_equal(scalar.deal_chips, batched.deal_chips)
    assert scalar.results == batched.results


def test_logged_hands_come_in_the_same_order() -> None:
    logs: dict[str, list[str]] = {"scalar": [], "batched": []}
    for engine, lines in logs.items():

        def log(hand: Hand, names: tuple[str, ...], lines: list[str] = lines) -> None:
            lines.append(hand.to_acpc(names))

        play_match(["rule", "raise", "call"], hands=300, seed=4, engine=engine, on_hand=log)
    assert logs["scalar"] == logs["batched"] and len(logs["scalar"]) == 300


def test_sessions_give_fresh_agents_and_report_the_structure() -> None:
    result = play_match(["bpp", "bpp-curves"], hands=1_000, seed=2, sessions=5)
    assert (result.sessions, result.deals_per_session, result.deals) == (5, 100, 500)
    assert "5 sessions of 100 deals" in result.format_table()
    data = result.to_dict()
    assert (data["sessions"], data["deals_per_session"]) == (5, 100)
    one = play_match(["bpp", "bpp-curves"], hands=1_000, seed=2, sessions=1)
    assert one.deal_chips is not None and result.deal_chips is not None
    # The same cards and decisions' uniforms: the first session's hands are identical, the
    # later ones differ because the agents start again with fresh memories.
    assert np.array_equal(one.deal_chips[:100], result.deal_chips[:100])
    assert not np.array_equal(one.deal_chips[100:], result.deal_chips[100:])


def test_auto_engine_and_bad_choices() -> None:
    assert play_match(["rule", "raise"], hands=10, seed=1).engine == "batched"  # memoryless
    assert play_match(["bpp", "call"], hands=10, seed=1).engine == "scalar"  # 2 passes
    assert play_match(["bpp", "call"], hands=64, seed=1, sessions=16).engine == "batched"
    assert play_match([Wary(), "call"], hands=4, seed=1).engine == "scalar"  # no batched form
    assert play_match(["loki", "call"], hands=4, seed=1).engine == "batched"  # memoryless
    with pytest.raises(ValueError, match="unknown engine 'gpu'; choose one of auto"):
        play_match(["call", "raise"], hands=4, seed=1, engine="gpu")
    with pytest.raises(ValueError, match="unknown estimator 'divat'"):
        play_match(["call", "raise"], hands=4, seed=1, estimator="divat")
    with pytest.raises(ValueError, match="5 sessions need at least 5 deals"):
        play_match(["call", "raise"], hands=4, seed=1, sessions=5)


def test_a_subclass_plays_as_itself_not_as_its_parents_batched_twin() -> None:
    class Timid(RuleAgent):
        name = "timid"

        def decide(self, view):  # type: ignore[no-untyped-def]
            return min(super().decide(view), max(view.legal_actions))

    result = play_match([Timid(), "raise"], hands=200, seed=3, sessions=20)
    assert result.engine == "scalar"
    forced = play_match([Timid(), "raise"], hands=200, seed=3, sessions=20, engine="batched")
    assert forced.results == result.results


def test_a_decision_seed_keeps_the_cards_and_changes_the_draws() -> None:
    same = play_match(["random", "call"], hands=400, seed=5, engine="scalar")
    other = play_match(["random", "call"], hands=400, seed=5, engine="scalar", decision_seed=9)
    again = play_match(["random", "call"], hands=400, seed=5, engine="batched", decision_seed=9)
    assert same.deal_chips is not None and other.deal_chips is not None
    assert not np.array_equal(same.deal_chips, other.deal_chips)
    assert again.deal_chips is not None and np.array_equal(other.deal_chips, again.deal_chips)
    explicit = play_match(["random", "call"], hands=400, seed=5, decision_seed=5)
    assert explicit.results == same.results
