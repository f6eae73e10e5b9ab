"""``holdem-lab transfer``: each finished study's tuned parameters against every opponent.

    holdem-lab tune --study vs-call --opponent call
    holdem-lab tune --study vs-raise --opponent raise
    holdem-lab transfer --studies vs-call vs-raise default --opponents call raise bpp-curves

Plays the defaults and the tuned parameters of every study (the same agent and space) against
each opponent on the same held-out deals and prints the table "tuned for X, against Y": tuned
minus defaults with a paired 95% interval. --json prints the data instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import RUNS, positive_int, seed


def add_parser(sub: Any) -> None:
    """Add the ``transfer`` sub-command."""
    parser = sub.add_parser(
        "transfer",
        help="play each study's tuned parameters against every opponent (does tuning transfer?)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--studies", nargs="+", required=True, help="finished study names")
    parser.add_argument("--opponents", nargs="+", required=True, metavar="AGENT")
    parser.add_argument("--results", type=Path, default=RUNS, help="default runs/")
    parser.add_argument("--blocks", type=positive_int, default=128)
    parser.add_argument("--deals-per-block", type=positive_int, default=250)
    parser.add_argument("--seed", type=seed, default=0, help="root seed of the held-out deals")
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--json", action="store_true", help="print the data as JSON")
    parser.add_argument("--quiet", action="store_true")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Load the studies, play the table, print it."""
    import optuna
    from tqdm import tqdm

    from tuning.cli._optuna import quiet_optuna
    from tuning.storage import journal_path, open_storage
    from tuning.transfer import cross_play, transfer_markdown

    quiet_optuna()
    parser: argparse.ArgumentParser = args.parser
    studies = []
    for name in args.studies:
        path = journal_path(args.results, name)
        try:
            storage = open_storage(
                str(path), results_dir=args.results, study_name=name, create=False
            )
            studies.append(optuna.load_study(study_name=name, storage=storage))
        except (ValueError, KeyError) as error:
            parser.error(f"cannot load study {name!r} from {path}: {error}")
    bar = tqdm(unit="hand", unit_scale=True, file=sys.stderr, disable=args.quiet)
    try:
        with bar:
            data = cross_play(
                studies, args.opponents, blocks=args.blocks, deals_per_block=args.deals_per_block,
                seed=args.seed, workers=args.workers, on_hands=bar.update,
            )  # fmt: skip
    except ValueError as error:
        parser.error(str(error))
    except RuntimeError as error:
        sys.stderr.write(f"holdem-lab transfer: error: {error}\n")
        return 1
    sys.stdout.write(json.dumps(data) + "\n" if args.json else transfer_markdown(data))
    return 0
