"""Does tuning against one opponent transfer? Each study's tuned parameters against every
opponent, paired with the defaults.

For every opponent, the defaults and the tuned parameters of every study (its re-evaluation's
winner, ``winner``) play the same held-out blocks (a namespace no study tuned or confirmed on),
so each cell "tuned for X, played against Y" is a paired difference to the defaults with a 95%
t interval over blocks. The studies must tune the same agent and space.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import optuna

from envs.stats import mean_estimate
from tuning.evaluation import MatchProtocol, Namespace
from tuning.pool import EvaluationPool, OnHands
from tuning.studies import spec_from_attrs
from tuning.summary import format_ci

__all__ = ["cross_play", "transfer_markdown"]


def cross_play(
    studies: Sequence[optuna.Study],
    opponents: Sequence[str],
    *,
    blocks: int,
    deals_per_block: int,
    seed: int,
    workers: int = 1,
    on_hands: OnHands | None = None,
) -> dict[str, Any]:
    """Every study's tuned point and the defaults against every opponent (module docstring)."""
    if not studies:
        raise ValueError("name at least one study")
    specs = [spec_from_attrs(s.user_attrs) for s in studies]
    spec = specs[0]
    for study, other in zip(studies, specs, strict=True):
        if other.describe() != spec.describe() or other.agent != spec.agent:
            raise ValueError(
                f"study {study.study_name!r} tunes another agent or space than "
                f"{studies[0].study_name!r}: their tuned parameters cannot be compared"
            )
        if "winner" not in study.user_attrs:
            raise ValueError(f"study {study.study_name!r} is not finished: run holdem-lab tune")
    points = [dict(spec.defaults), *(dict(s.user_attrs["winner"]["values"]) for s in studies)]
    cells = []
    for opponent in opponents:
        protocol = MatchProtocol(
            opponents=(opponent,), deals_per_block=deals_per_block, blocks=blocks, seed=seed
        )
        with EvaluationPool(spec, protocol, workers) as pool:
            values = pool.evaluate(Namespace.HOLDOUT, points, range(blocks), on_hands)
        for k, study in enumerate(studies, start=1):
            gain = mean_estimate(values.aivat[k] - values.aivat[0])
            cells.append(
                {
                    "study": study.study_name,
                    "tuned_against": list(study.user_attrs["protocol"]["opponents"]),
                    "opponent": opponent,
                    "diff": gain.mean,
                    "ci": list(gain.ci) if gain.ci else None,
                    "defaults": float(values.aivat[0].mean()),
                    "hands": values.hands,
                }
            )
    return {
        "agent": spec.agent,
        "studies": [s.study_name for s in studies],
        "opponents": list(opponents),
        "blocks": blocks,
        "deals_per_block": deals_per_block,
        "seed": seed,
        "cells": cells,
    }


def transfer_markdown(data: dict[str, Any]) -> str:
    """The table: one row per study, one column per opponent (tuned minus defaults)."""
    opponents = data["opponents"]
    lines = [
        "| tuned in study (against) | " + " | ".join(f"vs {o}" for o in opponents) + " |",
        "|---|" + "---|" * len(opponents),
    ]
    for name in data["studies"]:
        row = [c for c in data["cells"] if c["study"] == name]
        against = ", ".join(row[0]["tuned_against"]) if row else ""
        cells = [
            f"{c['diff']:+.4f} {format_ci(c['ci'])}"
            for o in opponents
            for c in row
            if c["opponent"] == o
        ]
        lines.append(f"| {name} ({against}) | " + " | ".join(cells) + " |")
    hands = data["cells"][0]["hands"] if data["cells"] else 0
    lines += [
        "",
        f"Tuned minus defaults, AIVAT-corrected sb/hand on held-out deals ({hands:,} hands per "
        "cell and candidate), 95% t intervals over blocks (paired).",
    ]
    return "\n".join(lines) + "\n"
