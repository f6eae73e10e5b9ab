"""The views ``PerTableRanges`` rebuilds from batches equal the engine's, and it refuses
policies of different opponents."""

from __future__ import annotations

import numpy as np
import pytest

from agents.lbr import ShadowLoki
from agents.lbr.per_table_ranges import PerTableRanges, decision_views, end_views
from agents.loki import Loki, Loki2
from envs.batched.views import decision_batch, hand_end_batch
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Rules


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rebuilt_views_equal_the_engines(seed: int) -> None:
    rng = np.random.default_rng(seed)
    compared = 0
    for deal in range(12):
        hand = Hand(Rules(), deal_deck(seed, deal).tolist(), button=deal % 2, hand_id=deal)
        while not hand.is_over:
            view = hand.view(hand.actor)
            assert decision_views(decision_batch([view], [0])) == [view]
            legal = hand.legal_actions()
            hand.act(legal[int(rng.integers(len(legal)))])
            compared += 1
        for seat in (0, 1):
            end = hand.view(seat)
            (rebuilt,) = end_views(hand_end_batch([end], [0]))
            assert rebuilt == end
    assert compared >= 24


def test_policies_of_different_opponents_are_refused() -> None:
    with pytest.raises(ValueError, match="same opponent"):
        PerTableRanges([ShadowLoki(Loki()), ShadowLoki(Loki2())])
    with pytest.raises(ValueError, match="same opponent"):
        PerTableRanges([])
