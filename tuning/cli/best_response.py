"""``holdem-lab best-response``: the best response to a card-independent bot, and its check.

    holdem-lab best-response raise                     # exact value, both seats (a CPU-minute)
    holdem-lab best-response random --acpc --json      # ACPC's 5/10 game, one JSON object
    holdem-lab best-response mix:0.1,0.6,0.3 --flops 200 --seed 1   # quick sampled estimate
    holdem-lab best-response raise --save-table agents/data/best_response_raise.json
    holdem-lab best-response raise --check 200000 --seed 1   # the agent against the bot

The value is in small bets per hand (sb/hand; 1 sb = 1 big blind in these games) and
milli-big-blinds per hand (mbb/hand), for the learner on the button, in the big blind, and
averaged over the two seats. ``--check`` computes nothing: it reads the best response's
pre-flop table (``--table FILE``, else the shipped or cached one), plays a duplicate match of
the best-response agent against the bot itself, and prints the match result next to the value
recorded in the table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import positive_int, seed


def add_parser(sub: Any) -> None:
    """Add the ``best-response`` sub-command to ``sub`` (an argparse sub-parsers action)."""
    parser = sub.add_parser(
        "best-response",
        help="exact heads-up best response to call, raise, random or a mix (sb/hand, mbb/hand)",
        description=(
            "Compute the heads-up best-response value against a card-independent bot, for "
            "each seat and averaged over the two, with the best response's VPIP, PFR and AF. "
            "BOT is call, raise, random, fold, or mix:F,C,R (fold/call/raise probabilities on "
            "every street; or four triples separated by '/', pre-flop/flop/turn/river)."
        ),
    )
    parser.add_argument("bot", metavar="BOT", help="call, raise, random, fold or mix:F,C,R")
    parser.add_argument(
        "--acpc", action="store_true", help="ACPC's game: blinds 5/10, bets 10/20 (not 1/2, 2/4)"
    )
    parser.add_argument(
        "--flops",
        type=positive_int,
        metavar="N",
        help="sample N flops for the decisions and N others for the value, with a 95%% CI "
        "(default: exact over every flop)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of --flops and --check (default 0)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--save-table",
        type=Path,
        metavar="FILE",
        help="also write the pre-flop table the best-response agent plays from",
    )
    parser.add_argument(
        "--check",
        type=positive_int,
        metavar="HANDS",
        help="play HANDS duplicate hands of the best-response agent against the bot instead",
    )
    parser.add_argument(
        "--table", type=Path, metavar="FILE", help="with --check: the pre-flop table to play"
    )
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``best-response`` (see the module docstring); returns the exit status."""
    from agents.best_response.bots import parse_policy
    from envs.rules import ACPC_LIMIT_HEADS_UP, Rules

    parser: argparse.ArgumentParser = args.parser
    try:
        policy = parse_policy(args.bot)
    except ValueError as error:
        parser.error(str(error))
    if args.flops is not None and args.flops < 2:
        parser.error("--flops must be at least 2 (two halves of at least 2 flops each)")
    if args.check is None and args.table is not None:
        parser.error("--table is only read by --check")
    if args.check is not None and (args.flops is not None or args.save_table is not None):
        parser.error(
            "--check plays a match from a saved table; it takes neither --flops nor --save-table"
        )
    rules = ACPC_LIMIT_HEADS_UP if args.acpc else Rules()
    progress = not args.quiet and (not args.json or sys.stderr.isatty())
    if args.check is not None:
        return _check(args, policy, rules, progress)
    return _compute(args, policy, rules, progress)


def _compute(args: argparse.Namespace, policy: Any, rules: Any, progress: bool) -> int:
    from agents.best_response.flop_reach import FlopReachValues
    from agents.best_response.solve import compute_best_response

    try:
        result = compute_best_response(
            policy, rules, flops=args.flops, seed=args.seed, progress=progress
        )
    except ValueError as error:
        sys.stderr.write(f"holdem-lab best-response: error: {error}\n")
        return 1
    if args.save_table is not None:
        try:
            FlopReachValues.from_result(result).save(args.save_table)
        except OSError as error:
            sys.stderr.write(f"holdem-lab best-response: error: cannot write table: {error}\n")
            return 1
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), allow_nan=False) + "\n")
    else:
        sys.stdout.write(result.format_table() + "\n")
    return 0


def _check(args: argparse.Namespace, policy: Any, rules: Any, progress: bool) -> int:
    from agents.best_response.agent import BestResponseAgent, PolicyBot, load_table
    from agents.best_response.flop_reach import FlopReachValues, game_key
    from envs.match import play_match
    from envs.registry import available_agents

    try:
        if args.table is not None:
            table = FlopReachValues.load(args.table)
            if table.policy != policy.name or game_key(table.rules) != game_key(rules):
                raise ValueError(
                    f"{args.table} is for {table.policy!r} in {table.rules}, "
                    f"not {policy.name!r} in {rules}"
                )
        else:
            table = load_table(policy, rules)
        agent = BestResponseAgent(policy, table=table)
        bot: Any = policy.name if policy.name in available_agents() else PolicyBot(policy)
        match = play_match(
            [agent, bot], hands=args.check, seed=args.seed, rules=rules, progress=progress
        )
    except (OSError, ValueError) as error:
        sys.stderr.write(f"holdem-lab best-response: error: {error}\n")
        return 1
    scale = rules.small_bet / table.rules.small_bet
    computed = scale * sum(table.seat_chips) / 2.0 / rules.small_bet
    played = match.results[0]
    assert played.ci is not None  # duplicate matches have at least two deals
    inside = played.ci[0] <= computed <= played.ci[1]
    if args.json:
        out = {
            "policy": policy.name,
            "sb_per_hand": computed,
            "mbb_per_hand": 1000.0 * computed * rules.small_bet / rules.big_blind,
            "table_exact": table.exact,
            "match": match.to_dict(),
            "inside_ci": inside,
        }
        sys.stdout.write(json.dumps(out, allow_nan=False) + "\n")
    else:
        exact = "exact" if table.exact else "sampled"
        sys.stdout.write(
            f"computed best-response value ({exact} table): {computed:+.4f} sb/hand\n"
            f"{match.format_table()}\n"
            f"the computed value is {'inside' if inside else 'OUTSIDE'} the match's 95% CI\n"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the sub-command alone: ``python -m tuning.cli.best_response raise --json``."""
    parser = argparse.ArgumentParser(prog="holdem-lab")
    add_parser(parser.add_subparsers(required=True))
    try:
        args = parser.parse_args(["best-response", *(sys.argv[1:] if argv is None else argv)])
        status: int = args.command(args)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
