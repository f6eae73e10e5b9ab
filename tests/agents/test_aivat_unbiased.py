"""AIVAT is unbiased on long matches: over 300,000 hands each (a million with
``HOLDEM_LAB_FULL_TWINS=1``), the corrected and the raw means of bpp vs bpp-curves and of rule
vs call agree within their confidence intervals, and the per-deal difference between the two
estimates has mean zero within its own interval.

Seeded (the same figures every run); about 35 CPU-seconds for the pair on the batched engine
(two minutes for the million).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from envs.match import play_match
from envs.stats import mean_estimate

HANDS = 1_000_000 if os.environ.get("HOLDEM_LAB_FULL_TWINS") == "1" else 300_000


@pytest.mark.parametrize(
    ("first", "second", "seed"), [("bpp", "bpp-curves", 11), ("rule", "call", 12)]
)
def test_corrected_and_raw_means_agree_over_long_matches(
    first: str, second: str, seed: int
) -> None:
    result = play_match(
        [first, second],
        hands=HANDS,
        seed=seed,
        sessions=1000,
        engine="batched",
        estimator="aivat",
        keep_deals=True,
    )
    assert result.hands >= HANDS
    mine = result.results[0]
    assert mine.ci is not None and mine.aivat_ci is not None
    assert mine.aivat_sb_per_hand is not None and mine.aivat_std_error is not None
    assert mine.std_error is not None
    # Each mean lies inside the other's 95% interval.
    assert mine.ci[0] <= mine.aivat_sb_per_hand <= mine.ci[1]
    assert mine.aivat_ci[0] <= mine.sb_per_hand <= mine.aivat_ci[1]
    # The sharper test: the correction's own mean (raw minus corrected, per deal) is zero.
    assert result.deal_chips is not None and result.deal_aivat is not None
    correction = mean_estimate(result.deal_chips[:, 0] - result.deal_aivat[:, 0])
    assert correction.ci[0] <= 0.0 <= correction.ci[1], correction
    # And the correction earns its keep.
    assert mine.aivat_std_error < 0.9 * mine.std_error
    assert np.isfinite(result.deal_aivat).all()
