"""Fits of the Loki values the papers lost: Table B.1 (pre-flop) and the PPOTc weights.

**Table B.1** (Papp 1998 Appendix B) has 27 [base, increment] pairs; only tight / "3-4
players" survives: Make1 [50, 50], Make2 [200, 50], Make4 [580, 0] (in IR4 units). Our
reconstruction keeps that row exactly and derives the others with three numbers:

* each group's table is IR2, IR4 or IR7, so the known row is carried into IR2 and IR7 units by
  the least-squares line ``IRg = a + b IR4`` over the holdings with IR4 >= -100 (where
  thresholds live; ``agents.loki.preflop.group_lines``): ``base_g = a + b base``,
  ``increment_g = b increment``;
* a tightness shifts every base down by ``delta`` IR4 units (``b delta`` in group ``g``): the
  thresholds fall from tight to loose and Make1 < Make2 < Make4 holds everywhere;
* tight keeps the 3-4 row and fits one ``delta`` shared by its "2" and "5+" groups; moderate
  and loose fit one ``delta`` each for all groups;
* the small blind's fixed Call1 / Call2 thresholds are the Make1 line at the button and the
  midpoint of Make1 and Make2 there (it completes about what it would play last to act).

Each ``delta`` is found by bisection so that ten-handed self-play plays the target fraction of
hands (VPIP 18 / 21 / 24%, Papp section 6.1). Pre-flop decisions do not depend on anything after
the flop nor on opponent modelling, so the self-play stops at the flop, with the same seeded
deals for every trial (common random numbers make VPIP monotone in ``delta``).

**PPOTc**: the out weights of ``agents.strength.ppotc`` by non-negative least squares against exact
PPOT1 on random flops and turns, with the agreement measured on other boards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agents.loki.params import Tightness
from agents.loki.preflop import (
    Group,
    PreflopStrategy,
    PreflopTable,
    group_lines,
    preflop_action,
    select_strategy,
)
from envs.events import Acted
from envs.game import Hand
from envs.match import deal_deck
from envs.rules import Rules, Street
from envs.stats import mean_estimate

__all__ = ["KNOWN_ROW", "VpipEstimate", "fit_ppotc", "fit_preflop_table", "preflop_vpip"]

KNOWN_ROW = {
    PreflopStrategy.MAKE1: (50.0, 50.0),
    PreflopStrategy.MAKE2: (200.0, 50.0),
    PreflopStrategy.MAKE4: (580.0, 0.0),
}
"""[PAPP-6.1] Table B.1, tight / "3-4 players", in IR4 units."""
TARGETS = {Tightness.TIGHT: 0.18, Tightness.MODERATE: 0.21, Tightness.LOOSE: 0.24}
"""[PAPP-6.1] Hands played at a ten-player table."""


def build_table(deltas: dict[Tightness, float], tight_others: float, source: str) -> PreflopTable:
    """Table B.1 from the shifts (IR4 units) of each tightness; see the module docstring."""
    mapping = group_lines()
    lines = {}
    small = {}
    for tightness in Tightness:
        for group in Group:
            a, b = mapping[group]
            delta = deltas.get(tightness, 0.0)
            if tightness == Tightness.TIGHT:
                delta = 0.0 if group == Group.THREE_FOUR else tight_others
            for strategy, (base, increment) in KNOWN_ROW.items():
                lines[tightness, group, strategy] = (a + b * (base - delta), b * increment)
            make1 = lines[tightness, group, PreflopStrategy.MAKE1][0]
            make2 = lines[tightness, group, PreflopStrategy.MAKE2][0]
            small[tightness, group] = (make1, (make1 + make2) / 2)
    return PreflopTable(lines=lines, small_blind=small, source=source)


@dataclass(frozen=True)
class VpipEstimate:
    """Fraction of hands played, with the standard error over deals."""

    vpip: float
    std_error: float
    hands: int

    @property
    def ci(self) -> tuple[float, float]:
        """Normal 95% interval."""
        half = 1.96 * self.std_error
        return self.vpip - half, self.vpip + half


def preflop_vpip(
    table: PreflopTable, tightness: Tightness, *, deals: int, seed: int, seats: int = 10
) -> VpipEstimate:
    """VPIP of Loki self-play at ``seats`` seats, pre-flop rounds of ``deals`` seeded deals.

    The button moves every deal (deal ``d`` has the match runner's deck ``deal_deck(seed, d)``
    and button ``d % seats``), so every seat's position is equally represented.
    """
    rules = Rules(num_seats=seats)
    per_deal = np.zeros(deals)
    for deal in range(deals):
        hand = Hand(rules, deal_deck(seed, deal).tolist(), button=deal % seats, hand_id=deal)
        strategies: dict[int, PreflopStrategy] = {}
        while hand.actor is not None and hand.street == Street.PREFLOP:
            seat = hand.actor
            view = hand.view(seat)
            if seat not in strategies:
                strategies[seat] = select_strategy(view, table, tightness, 0.6)
            hand.act(preflop_action(strategies[seat], view))
        voluntary = {
            e.seat
            for e in hand.events
            if type(e) is Acted and e.street == Street.PREFLOP and e.amount > 0
        }
        per_deal[deal] = len(voluntary) / seats
    estimate = mean_estimate(per_deal)
    assert estimate.std_error is not None
    return VpipEstimate(estimate.mean, estimate.std_error, deals * seats)


def _bisect(
    vpip_of: Callable[[float], float], target: float, lo: float, hi: float, steps: int
) -> float:
    """Shift (IR4 units) at which VPIP, increasing in the shift, crosses ``target``."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        if vpip_of(mid) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def fit_preflop_table(
    *, deals: int, seed: int, steps: int = 12, on_step: Callable[[str], None] | None = None
) -> tuple[PreflopTable, dict[Tightness, VpipEstimate]]:
    """Fit the three shifts to the VPIP targets; returns the table and the VPIPs it achieves."""
    source = f"holdem-lab loki-fit preflop --deals {deals} --seed {seed} --steps {steps}"
    shifts: dict[Tightness, float] = {}
    tight_others = 0.0

    def vpip(tightness: Tightness, shift: float) -> float:
        if tightness == Tightness.TIGHT:
            table = build_table({}, shift, source)
        else:
            table = build_table({tightness: shift}, tight_others, source)
        value = preflop_vpip(table, tightness, deals=deals, seed=seed).vpip
        if on_step is not None:
            on_step(f"{tightness.value}: shift {shift:+.1f} -> VPIP {value:.4f}")
        return value

    tight_others = _bisect(
        lambda s: vpip(Tightness.TIGHT, s), TARGETS[Tightness.TIGHT], -400.0, 400.0, steps
    )
    for tightness in (Tightness.MODERATE, Tightness.LOOSE):
        shifts[tightness] = _bisect(
            functools.partial(vpip, tightness), TARGETS[tightness], -400.0, 400.0, steps
        )
    table = build_table(shifts, tight_others, source)
    achieved = {t: preflop_vpip(table, t, deals=deals, seed=seed) for t in Tightness}
    return table, achieved


def _nnls(a: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Non-negative least squares by dropping negative coefficients and refitting."""
    active = np.ones(a.shape[1], dtype=bool)
    coef = np.zeros(a.shape[1])
    for _ in range(a.shape[1] + 1):
        coef = np.zeros(a.shape[1])
        coef[active] = np.linalg.lstsq(a[:, active], y, rcond=None)[0]
        if (coef >= 0).all():
            break
        active &= coef > 0
    return coef


def fit_ppotc(
    *, boards: int, seed: int, on_board: Callable[[], None] | None = None
) -> dict[int, tuple[npt.NDArray[np.float64], float, float]]:
    """Out weights per board size (3: flop, 4: turn), fitted on ``boards`` random boards.

    Returns ``{size: (weights, within, mae)}`` where ``within`` is the fraction of holdings
    of ``boards`` *other* boards whose PPOTc is within 0.05 of exact PPOT1, ``mae`` the mean
    absolute difference.
    """
    from agents.strength.potential import ppot1_all
    from agents.strength.ppotc import out_features

    rng = np.random.default_rng(np.random.SeedSequence([seed, 7]))
    result = {}
    for size in (3, 4):
        samples = []
        for _ in range(2 * boards):
            board = tuple(int(c) for c in rng.choice(52, size, replace=False))
            exact = ppot1_all(board)[0]
            features, live = out_features(board)
            samples.append((features[live], exact[live]))
            if on_board is not None:
                on_board()
        x = np.concatenate([s[0] for s in samples[:boards]])
        y = np.concatenate([s[1] for s in samples[:boards]])
        weights = _nnls(x, y)
        x_test = np.concatenate([s[0] for s in samples[boards:]])
        y_test = np.concatenate([s[1] for s in samples[boards:]])
        error = np.abs(np.clip(x_test @ weights, 0.0, 1.0) - y_test)
        result[size] = (weights, float(np.mean(error <= 0.05)), float(error.mean()))
    return result
