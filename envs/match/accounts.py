"""The match's books: chips per deal and agent, running statistics, player statistics.

Hands arrive in any order (the batched engine finishes them table by table). Their chips go
into a window of deals, one cell per (deal, rotation, agent); once every hand of the window has
arrived the window is summed over rotations in a fixed order and folded into running means and
sums of squared deviations (Chan, Golub and LeVeque's pairwise update), window after window in
deal order. So the figures depend only on the hands, not on the order in which an engine
finished them, and memory stays flat however many hands a match has. Per-deal arrays are kept
on request only.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from envs.match.corrections import PendingCorrections, Where
from envs.match.hands import FinishedHands, seat_flags
from envs.match.plan import MatchPlan
from envs.rules import Rules
from envs.stats import MeanEstimate, t_quantile

__all__ = ["Accounts", "window_deals"]

CELLS_PER_WINDOW = 1 << 22
"""Cells (deal x rotation x agent) of a window: 32 MiB of floats at most."""
Ints = npt.NDArray[np.int64]
FLAGS = ("vpip", "pfr", "saw_flop", "showdowns", "aggressive", "calls")


def window_deals(plan: MatchPlan) -> int:
    """Deals per window: as many as fit in ``CELLS_PER_WINDOW`` (at least 1,024)."""
    per_deal = plan.rotations * plan.num_agents
    return max(1024, CELLS_PER_WINDOW // per_deal)


class _Moments:
    """Count, means and sums of squared deviations of per-deal values, per agent."""

    def __init__(self, agents: int) -> None:
        self.count = 0
        self.mean = np.zeros(agents)
        self.m2 = np.zeros(agents)

    def add(self, values: npt.NDArray[np.float64]) -> None:
        count = len(values)
        if not count:
            return
        mean = values.mean(axis=0)
        m2 = ((values - mean) ** 2).sum(axis=0)
        total = self.count + count
        delta = mean - self.mean
        self.m2 = self.m2 + m2 + delta**2 * (self.count * count / total)
        self.mean = self.mean + delta * (count / total)
        self.count = total

    def estimate(self, agent: int) -> MeanEstimate:
        mean = float(self.mean[agent])
        if self.count < 2:
            return MeanEstimate(mean, None, None, self.count)
        error = math.sqrt(float(self.m2[agent]) / (self.count - 1)) / math.sqrt(self.count)
        half = t_quantile(0.975, self.count - 1) * error
        return MeanEstimate(mean, error, (mean - half, mean + half), self.count)


class Accounts:
    """Everything a match reports, accumulated hand by hand (see the module docstring)."""

    def __init__(
        self,
        plan: MatchPlan,
        rules: Rules,
        *,
        aivat: bool,
        keep_deals: bool,
        samples: int = 32,
        window: int | None = None,
    ) -> None:
        self.plan, self.rules = plan, rules
        self.aivat, self.samples = aivat, samples
        self.window = min(window or window_deals(plan), plan.deals)
        n, rotations = plan.num_agents, plan.rotations
        self.start = 0
        self.chips = np.zeros((self.window, rotations, n), dtype=np.int64)
        self.corrected = np.zeros((self.window, rotations, n)) if aivat else None
        self.arrived = np.zeros(self.window, dtype=np.int64)
        self.window_hands = 0  # hands booked in the current window
        self.raw = _Moments(n)
        self.estimated = _Moments(n)
        self.total_chips = np.zeros(n, dtype=np.int64)
        self.hands = 0
        self.counts = {name: np.zeros(n, dtype=np.int64) for name in FLAGS}
        self.kept: list[npt.NDArray[np.int64]] | None = [] if keep_deals else None
        self.kept_aivat: list[npt.NDArray[np.float64]] | None = (
            [] if keep_deals and aivat else None
        )
        self.pending = PendingCorrections(rules, self._corrected, seed=plan.seed, samples=samples)

    @property
    def window_end(self) -> int:
        """First deal after the current window."""
        return min(self.start + self.window, self.plan.deals)

    def add(self, hands: FinishedHands, passes: Ints | None = None) -> None:
        """Book finished hands (all of them within the current window); ``passes`` (the pass
        of each hand) is not needed: the deal and rotation say where a hand goes."""
        k = len(hands.deals)
        if not k:
            return
        offset = hands.deals - self.start
        if int(offset.min()) < 0 or int(hands.deals.max()) >= self.window_end:
            raise RuntimeError("a hand outside the current window of deals reached the accounts")
        n = self.plan.num_agents
        agents = (np.arange(n)[np.newaxis, :] - hands.rotations[:, np.newaxis]) % n
        rows = offset[:, np.newaxis]
        rot = hands.rotations[:, np.newaxis]
        self.chips[rows, rot, agents] = hands.payoffs
        if self.corrected is not None:
            if hands.played is None:
                raise RuntimeError("AIVAT was requested but the hands carry no record for it")
            self.pending.add((rows, rot, agents), hands.payoffs, hands.played)
        # Only the deals just booked are touched: a bincount spans the whole window, which
        # with thousands of sessions costs more than the rest of the step's bookkeeping.
        np.add.at(self.arrived, offset, 1)
        self.window_hands += k
        flags = seat_flags(hands, n)
        who = agents.reshape(-1)
        for name in FLAGS:
            counts = np.bincount(who, weights=getattr(flags, name).reshape(-1), minlength=n)
            self.counts[name] += counts.astype(np.int64)
        self.hands += k

    def _corrected(self, where: Where, values: npt.NDArray[np.float64]) -> None:
        assert self.corrected is not None  # only hands queued for AIVAT arrive here
        rows, rot, agents = where
        self.corrected[rows, rot, agents] = values

    @property
    def window_complete(self) -> bool:
        """Whether every hand of the current window has been booked."""
        size = self.window_end - self.start
        if self.window_hands < size * self.plan.rotations:  # cheap: most calls end here
            return False
        return bool((self.arrived[:size] == self.plan.rotations).all())

    def close_window(self) -> None:
        """Fold the complete current window into the running figures and open the next."""
        size = self.window_end - self.start
        if not self.window_complete:
            raise RuntimeError("the window of deals is not complete")
        self.pending.flush()
        unit = self.plan.rotations * self.rules.small_bet
        chips = self.chips[:size].sum(axis=1)
        self.total_chips += chips.sum(axis=0)
        self.raw.add(chips / unit)
        if self.kept is not None:
            self.kept.append(chips.copy())
        if self.corrected is not None:
            corrected = self.corrected[:size].sum(axis=1)
            self.estimated.add(corrected / unit)
            if self.kept_aivat is not None:
                self.kept_aivat.append(corrected.copy())
            self.corrected[:] = 0.0
        self.chips[:] = 0
        self.arrived[:] = 0
        self.window_hands = 0
        self.start += size

    @property
    def done(self) -> bool:
        """Whether every window has been closed."""
        return self.start >= self.plan.deals

    def deal_arrays(
        self,
    ) -> tuple[npt.NDArray[np.int64] | None, npt.NDArray[np.float64] | None]:
        """The kept per-deal arrays (read-only), or ``None``."""
        chips = corrected = None
        if self.kept is not None:
            chips = np.concatenate(self.kept)
            chips.flags.writeable = False
        if self.kept_aivat is not None:
            corrected = np.concatenate(self.kept_aivat)
            corrected.flags.writeable = False
        return chips, corrected
