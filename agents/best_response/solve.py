"""Heads-up best response to a card-independent bot: ``compute_best_response``.

The bot's actions say nothing about its cards, so at each of the learner's information sets
(its hole cards, the board so far, the public betting) the bot's holding is uniform over those
consistent with the visible cards, and the best response is an expectimax. It is computed
street by street (``agents.best_response.flops``): exact river equities of every holding on
every completed board of a flop, river rounds tabulated over the equity grid, turn rounds
backed up per class of equivalent holdings after each turn card up to suit isomorphism, flop
rounds over all holdings at once. Pre-flop, each holding's value of reaching the flop
is its mean over all flops avoiding its cards; the 1,755 canonical flops stand for all 22,100
(suit isomorphism: a holding's value on a relabelled flop is that of the relabelled holding),
and the pre-flop round is backed up per holding.

Exact mode enumerates every canonical flop: nothing is sampled. Sampled mode (``flops=n``)
draws ``n`` random flops to choose the pre-flop decisions and ``n`` fresh ones to evaluate the
resulting strategy (exact after the flop): an unbiased estimate, with a confidence interval,
of a strategy's value, hence of a lower bound of the best-response value.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from agents.best_response.backup import QUANTITIES, Choices
from agents.best_response.bots import BotPolicy
from agents.best_response.deck import FULL_DECK, Deck
from agents.best_response.flops import FlopValues
from agents.best_response.preflop_round import preflop_backup, preflop_frequencies
from agents.best_response.public import LearnerSeat
from agents.best_response.result import BestResponse, SeatResult
from agents.best_response.river_numerators import flop_layout
from agents.best_response.tree import PublicGame, build_game, check_heads_up
from agents.jit import kernel
from envs.rules import Rules, Street
from envs.stats import mean_estimate

__all__ = ["compute_best_response"]

Array = npt.NDArray[np.float64]


def compute_best_response(
    policy: BotPolicy,
    rules: Rules | None = None,
    *,
    deck: Deck = FULL_DECK,
    flops: int | None = None,
    seed: int = 0,
    progress: bool = False,
) -> BestResponse:
    """The heads-up best response to ``policy`` in ``rules``, for both seats.

    Args:
        policy: The bot's card-independent policy (``agents.best_response.bots``).
        rules: A heads-up game with stacks that never bind; ``Rules()`` by default.
        deck: The cards dealt from (the full deck by default; small decks for tests).
        flops: ``None`` for the exact computation over all canonical flops; a number ``n`` to
            sample ``n`` flops for the decisions and ``n`` others for the evaluation.
        seed: Seed of the flop sample (unused when exact).
        progress: Show a progress bar over the flops on stderr.

    Raises:
        ValueError: on rules that are not heads-up with deep stacks, a policy that gives mass
            to illegal actions, or a flop sample too small to cover every holding.
    """
    rules = Rules() if rules is None else rules
    check_heads_up(rules)
    if flops is not None and (isinstance(flops, bool) or flops < 2):
        raise ValueError(f"flops must be at least 2 to estimate an interval, got {flops!r}")
    started = time.perf_counter()
    games = [build_game(policy, rules, seat) for seat in LearnerSeat]
    tolerance = 1e-9 * rules.big_bet
    values = FlopValues(games, deck, QUANTITIES, tolerance)
    if flops is None:
        canonical, orbits = deck.canonical_flops()
        weights = orbits / len(deck.symmetries)
        exits = _flop_means(values, canonical, weights, deck, progress, "flops")
        decided = [
            preflop_backup(g, e, quantities=QUANTITIES, tolerance=tolerance)
            for g, e in zip(games, exits, strict=True)
        ]
        seats = tuple(
            _seat(game, result.root.mean(axis=1), result.choices, None, rules)
            for game, result in zip(games, decided, strict=True)
        )
        ci = None
        method = (
            f"exact: all {len(canonical):,} canonical flops (suit isomorphism, "
            f"{int(orbits.sum()):,} flops), every turn and river card, every holding"
        )
        seed_used = None
    else:
        rng = np.random.default_rng(np.random.SeedSequence([seed]))
        decide = np.array([deck.canonical_flop(_random_flop(deck, rng)) for _ in range(flops)])
        exits = _flop_means(values, decide, np.ones(flops), deck, progress, "decision flops")
        chosen = [
            preflop_backup(g, e, quantities=QUANTITIES, tolerance=tolerance).choices
            for g, e in zip(games, exits, strict=True)
        ]
        evaluate = [_random_flop(deck, rng) for _ in range(flops)]
        per_flop = _evaluate(values, games, chosen, evaluate, deck, progress)
        seats = tuple(
            _seat(game, per_flop[:, s].mean(axis=0), choices, per_flop[:, s, 0], rules)
            for s, (game, choices) in enumerate(zip(games, chosen, strict=True))
        )
        average = mean_estimate(per_flop[:, :, 0].mean(axis=1) / rules.small_bet)
        ci = average.ci
        method = (
            f"sampled: pre-flop decisions from {flops:,} random flops, their value measured on "
            f"{flops:,} fresh random flops (an unbiased estimate of a lower bound of the best "
            "response); every turn and river card and every holding enumerated after the flop"
        )
        seed_used = seed
    continuation = tuple(
        {history: exit_values[round_id][0].copy() for history, round_id in game.preflop_exits}
        for game, exit_values in zip(games, exits, strict=True)
    )
    return BestResponse(
        policy=policy.name,
        rules=rules,
        deck=deck,
        seats=(seats[0], seats[1]),
        exact=flops is None,
        method=method,
        flops=len(canonical) if flops is None else 2 * flops,
        seed=seed_used,
        seconds=time.perf_counter() - started,
        ci=ci,
        continuation=continuation,
    )


def _random_flop(deck: Deck, rng: np.random.Generator) -> tuple[int, int, int]:
    a, b, c = sorted(int(card) for card in rng.choice(deck.cards, size=3, replace=False))
    return a, b, c


def _holding_ids(deck: Deck, remaining: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Deck holding index of each label pair of a flop, ``(P,)``."""
    pairs = remaining[flop_layout(len(remaining)).pairs]
    return deck.holding_index[pairs[:, 0], pairs[:, 1]]


def _flop_means(
    values: FlopValues,
    flops: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    deck: Deck,
    progress: bool,
    unit: str,
) -> list[list[Array]]:
    """Per seat, per flop round: ``(QUANTITIES, holdings)`` mean over the flops of each holding.

    Each flop stands for its images under the deck's suit symmetries, ``weights[i]`` times each.
    """
    rounds = [len(g.rounds[Street.FLOP]) for g in values.games]
    sums = np.zeros((deck.num_holdings, sum(rounds) * QUANTITIES))  # every seat's rows
    mass = np.zeros(deck.num_holdings)
    for flop, weight in tqdm(
        zip(flops, weights, strict=True),
        total=len(flops),
        unit=unit,
        file=sys.stderr,
        disable=not progress,
    ):
        remaining, seat_values = values.compute((int(flop[0]), int(flop[1]), int(flop[2])))
        pairs = remaining[flop_layout(len(remaining)).pairs]
        stacked = np.vstack([v for seat in seat_values for v in seat]).T.copy()
        # Symmetries that give the same image of the flop differ by one that fixes the flop,
        # under which its values are invariant: each image is added once, times its count.
        images = np.sort(deck.symmetries[:, flop], axis=1)
        _, first, repeats = np.unique(images, axis=0, return_index=True, return_counts=True)
        _add_images(
            deck.symmetries[first],
            weight * repeats,
            pairs,
            deck.holding_index,
            stacked,
            sums,
            mass,
        )
    if (mass == 0.0).any():
        raise ValueError(
            f"{int((mass == 0.0).sum())} holdings meet none of the {len(flops)} flops: "
            "sample more flops"
        )
    means = list((sums.T / mass).reshape(-1, QUANTITIES, deck.num_holdings))
    return [means[sum(rounds[:s]) : sum(rounds[: s + 1])] for s in range(len(rounds))]


@kernel
def _add_images(
    maps: npt.NDArray[np.int64],
    factors: Array,
    pairs: npt.NDArray[np.int64],
    holding_index: npt.NDArray[np.int64],
    stacked: Array,
    sums: Array,
    mass: Array,
) -> None:
    """Per image ``u`` of a flop: ``sums[h] += factors[u] * stacked[p]`` and ``mass[h] +=
    factors[u]``, ``h`` the deck holding of label pair ``p``'s cards under ``maps[u]`` (the
    same additions, in the same order, as indexing the whole arrays image by image)."""
    for u in range(maps.shape[0]):
        factor, mapping = factors[u], maps[u]
        for p in range(pairs.shape[0]):
            h = holding_index[mapping[pairs[p, 0]], mapping[pairs[p, 1]]]
            mass[h] += factor
            total, values = sums[h], stacked[p]
            for r in range(values.shape[0]):
                total[r] += factor * values[r]


def _evaluate(
    values: FlopValues,
    games: Sequence[PublicGame],
    chosen: Sequence[dict[int, Choices]],
    flops: Sequence[tuple[int, int, int]],
    deck: Deck,
    progress: bool,
) -> npt.NDArray[np.float64]:
    """``(flops, seats, QUANTITIES)``: the mean over holdings of the fixed pre-flop policy."""
    out = np.empty((len(flops), len(games), QUANTITIES))
    for i, flop in enumerate(
        tqdm(flops, unit="evaluation flops", file=sys.stderr, disable=not progress)
    ):
        remaining, seat_values = values.compute(flop)
        ids = _holding_ids(deck, remaining)
        for s, (game, choices) in enumerate(zip(games, chosen, strict=True)):
            fixed = {node: choice[ids] for node, choice in choices.items()}
            root = preflop_backup(game, seat_values[s], quantities=QUANTITIES, fixed=fixed).root
            out[i, s] = root.mean(axis=1)
    return out


def _seat(
    game: PublicGame,
    means: Array,
    choices: dict[int, Choices],
    per_flop: Array | None,
    rules: Rules,
) -> SeatResult:
    """A seat's figures from its mean (value, raises, calls) per hand and pre-flop choices."""
    vpip, pfr = preflop_frequencies(game.rounds[Street.PREFLOP][0], choices)
    ci = None if per_flop is None else mean_estimate(per_flop / rules.small_bet).ci
    chips = float(means[0])
    return SeatResult(
        seat=game.seat,
        chips=chips,
        sb_per_hand=chips / rules.small_bet,
        mbb_per_hand=1000.0 * chips / rules.big_blind,
        ci=ci,
        vpip=float(vpip.mean()),
        pfr=float(pfr.mean()),
        raises=float(means[1]),
        calls=float(means[2]),
    )
