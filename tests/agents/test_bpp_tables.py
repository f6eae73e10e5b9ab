"""BPP's card-combinatorial tables: seeded generation, storage, and the shipped file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.bpp.tables import TableCounts, count_deals, deal, generate_counts, shipped_counts
from tuning.cli import main


def test_generation_is_deterministic_for_a_seed_and_saves_losslessly(tmp_path: Path) -> None:
    first = generate_counts(3000, seed=9, chunk=1000)
    second = generate_counts(3000, seed=9, chunk=1000)
    other = generate_counts(3000, seed=10, chunk=1000)
    assert np.array_equal(first.joint, second.joint)
    assert not np.array_equal(first.joint, other.joint)
    path = tmp_path / "t.npz"
    first.save(path)
    loaded = TableCounts.load(path)
    assert (loaded.deals, loaded.seed, loaded.chunk) == (3000, 9, 1000)
    for name in ("joint", "current", "win2", "pairs", "opp_final", "opp_final_win2"):
        assert np.array_equal(getattr(loaded, name), getattr(first, name)), name


def test_counts_are_consistent_sums() -> None:
    counts = generate_counts(2000, seed=3)
    deals = counts.deals
    assert counts.joint.sum() == 4 * 2 * deals  # 4 rounds, both players
    assert counts.pairs.sum() == 2 * deals
    assert counts.win2.sum() == 2 * deals  # one pot per deal, two points per pot
    assert counts.current[3, 3].sum() == 2 * deals
    assert counts.current[0, 1].sum() == 0  # no current type of a later round
    assert counts.opp_final.sum() == 4 * 2 * deals
    assert np.array_equal(counts.opp_final.sum(axis=(1, 2)), counts.joint.sum(axis=(1, 2)))


def test_deals_are_distinct_cards() -> None:
    cards = deal(np.random.default_rng(0), 5000)
    assert cards.shape == (5000, 9)
    assert all(len(set(row)) == 9 for row in cards.tolist())
    assert np.bincount(cards.ravel(), minlength=52).min() > 0.8 * 5000 * 9 / 52


def test_a_fresh_sample_agrees_with_the_shipped_tables() -> None:
    """Regenerate 100,000 deals with another seed and compare the well-populated
    probabilities with the shipped ones (20 million deals): within five standard errors."""
    shipped = shipped_counts()
    sample = TableCounts.zeros(seed=77, chunk=100_000)
    count_deals(deal(np.random.default_rng(77), 100_000), sample)
    pairs = [
        (sample.strength_win2 / 2, sample.strength_pairs, shipped.strength_win2 / 2,
         shipped.strength_pairs),
        (sample.opp_final_win2[1] / 2, sample.opp_final[1], shipped.opp_final_win2[1] / 2,
         shipped.opp_final[1]),
    ]  # fmt: skip
    compared = 0
    for wins, n, ref_wins, ref_n in pairs:
        enough = (n >= 400) & (ref_n > 0)
        p = wins[enough] / n[enough]
        q = ref_wins[enough] / ref_n[enough]
        se = np.sqrt(np.maximum(q * (1 - q), 0.01) / n[enough])
        assert np.all(np.abs(p - q) < 5 * se + 1e-9)
        compared += int(enough.sum())
    # The distribution of current types given final types, pre-flop and on the flop.
    for r in (0, 1):
        got = sample.current[r, 0].sum(axis=0)  # (C, F) pooled over boards
        ref = shipped.current[r, 0].sum(axis=0)
        col = got.sum(axis=0)
        enough = col >= 2000
        p = got[:, enough] / col[enough]
        q = ref[:, enough] / ref[:, enough].sum(axis=0)
        assert np.all(np.abs(p - q) < 5 * np.sqrt(np.maximum(q * (1 - q), 1e-4) / col[enough]))
        compared += int(enough.sum())
    assert compared > 100
    assert shipped.deals >= 10_000_000


def test_cli_writes_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "small.npz"
    assert main(["bpp-tables", "--deals", "500", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    assert "500 deals" in capsys.readouterr().out
    assert TableCounts.load(out).deals == 500
    assert main(["bpp-tables", "--deals", "0", "--seed", "4", "--out", str(out)]) == 2
