"""Best-response speed: one flop of the whole-game computation, and the agent's decisions.

Times are CPU seconds (``time.process_time``), best and median over random flops or hands,
so that other jobs on a shared machine inflate them less than wall-clock times.

* ``flop``: ``FlopValues.compute`` for both seats (exact equities of all 1,081 holdings on
  all 1,176 turn-river boards, river sums, turn and flop backups); the exact computation
  does this for 1,755 canonical flops.
* ``agent``: ``BestResponseAgent.act`` per street, from the first decision of a round (the
  agent keeps a round's choices for the rest of it).

    python benchmarks/bench_best_response.py [--bot random] [--flops 6] [--hands 60] [--seed 0]

The agent needs its pre-flop table: the shipped one for call, raise and random.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agents.best_response import FULL_DECK, BestResponseAgent, LearnerSeat, parse_policy
from agents.best_response.flops import FlopValues
from agents.best_response.tree import build_game
from envs.game import Hand
from envs.rules import Rules, Street


def time_flops(bot: str, flops: int, seed: int) -> list[float]:
    """CPU seconds of ``FlopValues.compute`` on random flops (after one warm-up)."""
    policy = parse_policy(bot)
    values = FlopValues([build_game(policy, Rules(), seat) for seat in LearnerSeat], FULL_DECK)
    rng = np.random.default_rng(seed)
    values.compute((0, 17, 42))
    times = []
    for _ in range(flops):
        a, b, c = sorted(int(x) for x in rng.choice(52, 3, replace=False))
        start = time.process_time()
        values.compute((a, b, c))
        times.append(time.process_time() - start)
    return times


def time_decisions(bot: str, hands: int, seed: int) -> dict[Street, list[float]]:
    """CPU seconds of the agent's first decision in each round, per street."""
    agent = BestResponseAgent(parse_policy(bot))
    rng = np.random.default_rng(seed)
    times: dict[Street, list[float]] = {street: [] for street in Street}
    for hand_id in range(hands):
        hand = Hand(Rules(), rng.permutation(52), button=hand_id % 2)
        seen: set[tuple[Street, int]] = set()
        while (seat := hand.actor) is not None:
            view = hand.view(seat)
            if seat == 0:
                start = time.process_time()
                action = agent.act(view)
                spent = time.process_time() - start
                if hand_id and (view.street, hand_id) not in seen:  # hand 0 loads the tables
                    times[view.street].append(spent)
                    seen.add((view.street, hand_id))
            else:
                legal = hand.legal_actions()
                action = legal[-1] if len(legal) > 1 else legal[0]  # keep hands going
            hand.act(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="random")
    parser.add_argument("--flops", type=int, default=6)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    flop = time_flops(args.bot, args.flops, args.seed)
    print(
        f"flop ({args.bot}, both seats): best {min(flop):.3f} s, median "
        f"{statistics.median(flop):.3f} s CPU; x 1,755 canonical flops = "
        f"{1755 * statistics.median(flop) / 60:.1f} min"
    )
    for street, spent in time_decisions(args.bot, args.hands, args.seed).items():
        if spent:
            print(
                f"agent {street.name.lower():<8} first decision of a round: best "
                f"{1000 * min(spent):.2f} ms, median {1000 * statistics.median(spent):.2f} ms "
                f"CPU ({len(spent)} rounds)"
            )


if __name__ == "__main__":
    main()
