"""AIVAT corrections of finished hands (Burch, Schmid, Moravcik, Morrill and Bowling, AAAI 2018).

For a hand with terminal history z, the corrected value of seat j is

    U_j(z) = u_j(z) + sum over chance nodes and known-policy decisions h on the way to z of
             ( E_{a ~ sigma(h)} v_j(h.a) - v_j(h.a*) )

where a* is what happened. Each term has mean zero given h whatever the fixed function v is, so
``U`` is unbiased; the better v predicts the outcome, the smaller its variance. Here

    v_j(h) = share_j(h) * pot(h) - contributed_j(h)

is the value of checking the hand down from h: ``share_j`` is seat j's expected share of the pot
among the seats still in (``envs.aivat.showdown_shares``: exact on the river and turn, an
independent unbiased sample estimate on the flop and pre-flop), a fold that leaves one seat is
the exact payoff. At a decision the cards do not change, so only the pot, the contributions and the
contenders differ between the children. At a chance node the pot does not change, so the term is
``pot * (E[share after the cards] - share after the actual cards)``; the expectation is the
current street's share (exact for the river card; for the turn card and the flop, the current
street's estimate, unbiased for it because its draws are independent of the actual cards), and
``1 / S`` for the deal of the hole cards (seats are exchangeable). Corrections sum to zero over
the seats, as the payoffs do.

The hand is replayed from its public log, so the batched and the scalar runner, which record
the same log and probabilities, get the same corrections.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.aivat.showdown_shares import pot_shares, street_ranks
from envs.rules import Action, Rules

__all__ = [
    "DECISIONS",
    "DEFAULT_SAMPLES",
    "PlayedHands",
    "aivat_corrections",
    "aivat_terms",
    "concatenate",
]

DEFAULT_SAMPLES = 32
"""Boards sampled for the pre-flop and flop shares."""
DECISIONS = 4
"""Index of the decisions' total in ``aivat_terms``; 0..3 are the chance nodes that deal the
hole cards, the flop, the turn and the river."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class PlayedHands:
    """What the estimator needs of ``m`` finished hands (arrays over hands, S seats)."""

    holes: npt.NDArray[np.uint8]
    """``(m, S, 2)`` every seat's hole cards."""
    board: npt.NDArray[np.uint8]
    """``(m, 5)`` the five board cards of each deal, dealt or not."""
    blinds: Ints
    """``(m, S)`` chips posted as blinds."""
    stacks: Ints
    """``(m, S)`` chips of each seat at the start of the hand, before the blinds."""
    log_len: Ints
    """``(m,)`` public actions of each hand."""
    log_street: Ints
    """``(m, L)`` street of each action."""
    log_seat: Ints
    """``(m, L)`` seat of each action."""
    log_action: Ints
    """``(m, L)`` ``Action`` of each action."""
    log_amount: Ints
    """``(m, L)`` chips put in by each action."""
    probabilities: Floats
    """``(m, L, 3)`` the acting agent's action probabilities at each action."""
    known: Bools
    """``(m, L)`` whether that agent's policy is known (only then is the decision corrected)."""
    deals: Ints
    """``(m,)`` deal index of each hand (key of the equity samples)."""
    seeds: npt.NDArray[np.uint64] | None = None
    """``(m,)`` the match seed of each hand (the other key of the samples); ``None``: the
    ``seed`` given to the estimator, for every hand."""


def concatenate(parts: list[PlayedHands]) -> PlayedHands:
    """The hands of several records as one (logs padded to the longest)."""
    width = max(part.log_street.shape[1] for part in parts)

    def padded(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        pad = [(0, 0), (0, width - array.shape[1])] + [(0, 0)] * (array.ndim - 2)
        return np.pad(array, pad)

    seeds = None
    if all(part.seeds is not None for part in parts):
        seeds = np.concatenate([part.seeds for part in parts if part.seeds is not None])
    return PlayedHands(
        holes=np.concatenate([p.holes for p in parts]),
        board=np.concatenate([p.board for p in parts]),
        blinds=np.concatenate([p.blinds for p in parts]),
        stacks=np.concatenate([p.stacks for p in parts]),
        log_len=np.concatenate([p.log_len for p in parts]),
        log_street=np.concatenate([padded(p.log_street) for p in parts]),
        log_seat=np.concatenate([padded(p.log_seat) for p in parts]),
        log_action=np.concatenate([padded(p.log_action) for p in parts]),
        log_amount=np.concatenate([padded(p.log_amount) for p in parts]),
        probabilities=np.concatenate([padded(p.probabilities) for p in parts]),
        known=np.concatenate([padded(p.known) for p in parts]),
        deals=np.concatenate([p.deals for p in parts]),
        seeds=seeds,
    )


def aivat_corrections(
    rules: Rules, hands: PlayedHands, *, seed: int = 0, samples: int = DEFAULT_SAMPLES
) -> Floats:
    """``(m, S)`` corrections in chips; ``payoffs + corrections`` is the AIVAT value."""
    terms: Floats = aivat_terms(rules, hands, seed=seed, samples=samples).sum(axis=1)
    return terms


def aivat_terms(
    rules: Rules, hands: PlayedHands, *, seed: int = 0, samples: int = DEFAULT_SAMPLES
) -> Floats:
    """``(m, 5, S)`` the corrections by kind: the chance nodes dealing the hole cards, the flop,
    the turn and the river (0..3), and all known-policy decisions (``DECISIONS``)."""
    return _Replay(rules, hands, seed, samples).run()


class _Replay:
    """The public state of every hand, replayed action by action, correcting as it goes."""

    def __init__(self, rules: Rules, hands: PlayedHands, seed: int, samples: int) -> None:
        self.rules = rules
        self.hands = hands
        m, seats = hands.blinds.shape
        self.m, self.seats = m, seats
        self.contrib = hands.blinds.astype(np.int64).copy()
        self.bets = self.contrib.copy()
        self.stacks = hands.stacks.astype(np.int64) - self.contrib
        self.folded = np.zeros((m, seats), dtype=bool)
        self.street = np.zeros(m, dtype=np.int64)
        self.corrections = np.zeros((m, 5, seats))
        self.bet_sizes = np.array(rules.bet_sizes, dtype=np.int64)
        self.ranks = self._ranks(seed, samples)
        # Each hand's shares for its current street and contenders, kept until either changes.
        self.current = np.zeros((m, seats))
        self.fresh = np.zeros(m, dtype=bool)

    def _ranks(self, seed: int, samples: int) -> list[npt.NDArray[np.int32]]:
        """Per street, the ranks of each hand that reaches it (zeros elsewhere)."""
        h = self.hands
        seeds = h.seeds if h.seeds is not None else np.full(self.m, seed, dtype=np.uint64)
        last = np.arange(h.log_street.shape[1]) < h.log_len[:, np.newaxis]
        final_folded = np.zeros((self.m, self.seats), dtype=bool)
        folds = last & (h.log_action == Action.FOLD)
        rows, cols = np.nonzero(folds)
        final_folded[rows, h.log_seat[rows, cols]] = True
        showdown = (~final_folded).sum(axis=1) >= 2
        last_street = np.where(last, h.log_street, 0).max(axis=1, initial=0)
        self.reached = np.where(showdown, 3, last_street)
        ranks = []
        for street in range(4):
            rows_in = np.flatnonzero(self.reached >= street)
            if not rows_in.size:
                ranks.append(np.zeros((self.m, 1, self.seats), dtype=np.int32))
                continue
            computed = street_ranks(
                h.holes[rows_in],
                h.board[rows_in],
                street,
                seed=seeds[rows_in],
                deals=h.deals[rows_in],
                samples=samples,
            )
            full = np.zeros((self.m, *computed.shape[1:]), dtype=np.int32)
            full[rows_in] = computed
            ranks.append(full)
        return ranks

    def _shares(self, rows: Ints, street: int, contenders: Bools) -> Floats:
        return pot_shares(self.ranks[street][rows], contenders)

    def _current(self, rows: Ints) -> Floats:
        """The shares of ``rows`` on their current street among their current contenders."""
        stale = rows[~self.fresh[rows]]
        streets = self.street[stale]
        for s in range(4):
            on = stale[streets == s]
            if on.size:
                self.current[on] = self._shares(on, s, ~self.folded[on])
        self.fresh[stale] = True
        result: Floats = self.current[rows]
        return result

    def run(self) -> Floats:
        h = self.hands
        pot0 = self.contrib.sum(axis=1, keepdims=True).astype(np.float64)
        self.corrections[:, 0] += pot0 * (1.0 / self.seats - self._current(np.arange(self.m)))
        for p in range(int(h.log_len.max(initial=0))):
            active = np.flatnonzero(p < h.log_len)
            street_p = h.log_street[active, p]
            while True:
                behind = active[self.street[active] < street_p]
                if not behind.size:
                    break
                self._next_street(behind)
                street_p = h.log_street[active, p]
            self._decide(active, p)
        showdown = np.flatnonzero(self.reached == 3)
        while True:
            behind = showdown[self.street[showdown] < 3]
            if not behind.size:
                break
            self._next_street(behind)
        return self.corrections

    def _next_street(self, rows: Ints) -> None:
        """End the round at ``rows`` (uncalled chips back), then correct the cards dealt."""
        bets = self.bets[rows]
        cutoff = np.sort(bets, axis=1)[:, -2:-1]
        excess = np.maximum(bets - cutoff, 0)
        self.contrib[rows] -= excess
        self.stacks[rows] += excess
        self.bets[rows] = 0
        contenders = ~self.folded[rows]
        pot = self.contrib[rows].sum(axis=1, keepdims=True).astype(np.float64)
        for street in range(3):
            at = self.street[rows] == street
            if at.any():
                sub = rows[at]
                before = self._current(sub)
                after = self._shares(sub, street + 1, contenders[at])
                self.corrections[sub, street + 1] += pot[at] * (before - after)
                self.current[sub] = after
        self.street[rows] += 1

    def _decide(self, rows: Ints, p: int) -> None:
        """Correct the known-policy decisions at log position ``p`` of ``rows``, then apply."""
        h = self.hands
        seat = h.log_seat[rows, p]
        action = h.log_action[rows, p]
        amount = h.log_amount[rows, p]
        known = h.known[rows, p]
        if known.any():
            self._correct_decision(rows[known], seat[known], action[known], p)
        self.contrib[rows, seat] += amount
        self.bets[rows, seat] += amount
        self.stacks[rows, seat] -= amount
        folds = action == Action.FOLD
        self.folded[rows[folds], seat[folds]] = True
        self.fresh[rows[folds]] = False

    def _correct_decision(self, rows: Ints, seat: Ints, action: Ints, p: int) -> None:
        k = len(rows)
        at = np.arange(k)
        contenders = ~self.folded[rows]
        contrib = self.contrib[rows].astype(np.float64)
        pot = contrib.sum(axis=1, keepdims=True)
        bets = self.bets[rows]
        owed = bets.max(axis=1) - bets[at, seat]
        stack = self.stacks[rows, seat]
        street = self.street[rows]
        call = np.minimum(stack, owed)
        raise_ = np.minimum(stack, owed + self.bet_sizes[street])
        shares = self._current(rows)
        left = contenders.copy()
        left[at, seat] = False
        fold_shares = left.astype(np.float64)  # a fold leaving one seat: it takes the pot
        several = np.flatnonzero(left.sum(axis=1) >= 2)
        for s in range(4):
            on = several[street[several] == s]
            if on.size:
                fold_shares[on] = self._shares(rows[on], s, left[on])
        actor = np.zeros((k, self.seats))
        actor[at, seat] = 1.0
        values = np.empty((3, k, self.seats))
        values[Action.FOLD] = fold_shares * pot - contrib
        for a, put in ((Action.CALL, call), (Action.RAISE, raise_)):
            extra = put.astype(np.float64)[:, np.newaxis]
            values[a] = shares * (pot + extra) - contrib - actor * extra
        sigma = self.hands.probabilities[rows, p]
        expected = np.einsum("ka,aks->ks", sigma, values)
        self.corrections[rows, DECISIONS] += expected - values[action, at]
