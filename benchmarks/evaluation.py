"""How much noise each evaluation technique removes: the figures of results/evaluation.md.

Two measurements, both in small bets per hand and seeded:

1. Per matchup (bpp vs bpp-curves, bpp vs call, bpp vs raise, rule vs call): the variance of
   one duplicate deal's result (the mean of its two seatings), raw and AIVAT-corrected, and
   their ratio; and the two means with their 95% intervals (the correction is unbiased, so
   they agree).
2. Paired candidate differences against bpp-curves (what a tuning study compares): a
   candidate parameter set minus the BPP defaults, per deal, under a ladder of techniques,
   each adding one to the previous:

   * independent: the candidate and the defaults on different cards (no pairing at all);
   * same cards: the same deals, one seating each (no duplicate), independent decisions;
   * duplicate: each deal played in both seatings (the previous protocol of the studies);
   * decision CRN: both also draw their decisions from the same uniforms;
   * AIVAT: both corrected.

   The variance of the per-deal difference under each, and the factor against
   "independent" and against "duplicate".

Run: ``python benchmarks/evaluation.py --write results/evaluation.md`` (about ten minutes on
two cores; ``--hands`` scales it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from agents.bpp import BPPAgent, BPPParams
from envs.match import play_match
from envs.stats import mean_estimate

MATCHUPS = (("bpp", "bpp-curves"), ("bpp", "call"), ("bpp", "raise"), ("rule", "call"))
CANDIDATES = {
    "fp, cp x 1.25": BPPParams(fp=5.0, cp=5.0),
    "alpha 0.8": BPPParams(alpha=0.8),
    "alpha' 1.3, fp 3": BPPParams(alpha_prime=1.3, fp=3.0),
    "far: alpha 1.6, alpha' 0.4, fp 0.5, cp 9": BPPParams(
        alpha=1.6, alpha_prime=0.4, fp=0.5, cp=9.0
    ),
}
UNBIASED = (("bpp", "bpp-curves"), ("rule", "call"))
SMALL_BET = 2


def per_deal(agent: object, opponent: str, hands: int, **kwargs: object) -> tuple:
    """Per-deal sb/hand of the first agent: raw, AIVAT (mean over the deal's seatings)."""
    result = play_match(
        [agent, opponent],  # type: ignore[list-item]
        hands=hands,
        estimator="aivat",
        keep_deals=True,
        sessions=kwargs.pop("sessions", 1000),  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )
    assert result.deal_chips is not None and result.deal_aivat is not None
    rotations = 2 if result.duplicate else 1
    unit = rotations * SMALL_BET
    return result.deal_chips[:, 0] / unit, result.deal_aivat[:, 0] / unit


def matchups(hands: int) -> list[str]:
    lines = [
        "| matchup | hands | raw sb/hand (95% CI) | AIVAT sb/hand (95% CI) | per-deal variance "
        "raw | AIVAT | reduction |",
        "|---|---:|---|---|---:|---:|---:|",
    ]
    for first, second in MATCHUPS:
        start = time.process_time()
        raw, corrected = per_deal(first, second, hands, seed=101)
        a, b = mean_estimate(raw), mean_estimate(corrected)
        lines.append(
            f"| {first} vs {second} | {2 * len(raw):,} | {_est(a)} | {_est(b)} | "
            f"{raw.var():.3f} | {corrected.var():.3f} | **{raw.var() / corrected.var():.2f}x** |"
        )
        print(f"{first} vs {second}: {time.process_time() - start:.0f} s", file=sys.stderr)
    return lines


def ladder(hands: int) -> list[str]:
    defaults = BPPAgent(BPPParams())
    base_dup, base_dup_aivat = per_deal(defaults, "bpp-curves", hands, seed=7)
    base_single, _ = per_deal(defaults, "bpp-curves", hands // 2, seed=7, duplicate=False)
    lines = [
        "| candidate | mean difference (AIVAT, 95% CI) | independent | same cards | duplicate | "
        "+ decision CRN | + AIVAT | factor vs independent | factor vs duplicate |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, params in CANDIDATES.items():
        cand = BPPAgent(params)
        crn_raw, crn_aivat = per_deal(cand, "bpp-curves", hands, seed=7)
        dup_raw, _ = per_deal(cand, "bpp-curves", hands, seed=7, decision_seed=8)
        single, _ = per_deal(
            cand, "bpp-curves", hands // 2, seed=7, duplicate=False, decision_seed=8
        )
        other, _ = per_deal(cand, "bpp-curves", hands // 2, seed=9, duplicate=False)
        # One deal observation is two hands in duplicate, one without: variances per hand.
        variances = [
            (other.var() + base_single.var()),  # independent: no covariance at all
            (single - base_single).var(),
            2 * (dup_raw - base_dup).var(),
            2 * (crn_raw - base_dup).var(),
            2 * (crn_aivat - base_dup_aivat).var(),
        ]
        diff = mean_estimate(crn_aivat - base_dup_aivat)
        cells = " | ".join(f"{v:.3f}" for v in variances)
        lines.append(
            f"| {label} | {_est(diff)} | {cells} | **{variances[0] / variances[-1]:.1f}x** | "
            f"**{variances[2] / variances[-1]:.1f}x** |"
        )
        print(f"ladder {label} done", file=sys.stderr)
    return lines


def unbiased(hands: int) -> list[str]:
    """The million-hand check of ``tests/agents/test_aivat_unbiased.py``, as a table."""
    lines = [
        "| matchup | hands | raw sb/hand (95% CI) | AIVAT sb/hand (95% CI) | raw minus AIVAT per "
        "deal (95% CI) | standard error raw / AIVAT |",
        "|---|---:|---|---|---|---:|",
    ]
    for (first, second), seed in zip(UNBIASED, (11, 12), strict=True):
        raw, corrected = per_deal(first, second, hands, seed=seed)
        a, b = mean_estimate(raw), mean_estimate(corrected)
        gap = mean_estimate(raw - corrected)
        lines.append(
            f"| {first} vs {second} | {2 * len(raw):,} | {_est(a)} | {_est(b)} | {_est(gap)} | "
            f"{a.std_error / b.std_error:.2f} |"
        )
    return lines


def _est(estimate: object) -> str:
    mean = estimate.mean  # type: ignore[attr-defined]
    ci = estimate.ci  # type: ignore[attr-defined]
    return f"{mean:+.4f} [{ci[0]:+.4f}, {ci[1]:+.4f}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per match")
    parser.add_argument("--write", type=Path, help="write the tables into this markdown file")
    parser.add_argument(
        "--unbiased",
        type=int,
        metavar="HANDS",
        help="only the unbiasedness table, over HANDS hands per matchup (the test: 1,000,000)",
    )
    args = parser.parse_args()
    if args.unbiased is not None:
        print("\n".join(unbiased(args.unbiased)))
        return 0
    started = time.strftime("%Y-%m-%d")
    first = matchups(args.hands)
    second = ladder(args.hands)
    text = "\n".join(
        [
            f"Measured {started}, {args.hands:,} hands per match (1,000 sessions, duplicate "
            "unless said), seeds 101 and 7.",
            "",
            "### Per matchup: one duplicate deal's result, raw and AIVAT",
            "",
            *first,
            "",
            "### Paired differences against bpp-curves: candidate minus BPP defaults",
            "",
            "Variance of the difference per hand (sb^2), each column adding one technique:",
            "",
            *second,
        ]
    )
    print(text)
    if args.write is not None:
        from bench_engine import write_section  # type: ignore[import-not-found]

        write_section(args.write, "evaluation", text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
