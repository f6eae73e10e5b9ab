"""``holdem-lab plot``: regenerate a study's files and figures from the stored study alone.

holdem-lab plot --study demo                  # reads runs/demo/study.log
holdem-lab plot --study default --results results   # the committed default study
holdem-lab plot --study pg --storage postgresql://user:pw@host/db
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuning.cli._args import RUNS


def add_parser(sub: Any) -> None:
    """Add the ``plot`` sub-command."""
    parser = sub.add_parser(
        "plot",
        help="redraw a tuning study's figures and tables from its storage",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--study", required=True, help="study name")
    parser.add_argument(
        "--storage", help="Optuna storage URL (default: <results>/<study>/study.log)"
    )
    parser.add_argument(
        "--results", type=Path, default=RUNS, help="results directory (default runs/)"
    )
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Load the study and write its files."""
    import optuna

    from tuning.cli._optuna import quiet_optuna
    from tuning.report import write_outputs
    from tuning.storage import journal_path, open_storage

    quiet_optuna()

    parser: argparse.ArgumentParser = args.parser
    if args.storage is None and not journal_path(args.results, args.study).exists():
        parser.error(f"no study file {journal_path(args.results, args.study)}")
    try:
        storage = open_storage(args.storage, results_dir=args.results, study_name=args.study)
        study = optuna.load_study(study_name=args.study, storage=storage)
    except (ValueError, KeyError) as error:
        parser.error(f"cannot load study {args.study!r}: {error}")
    try:
        files = write_outputs(study, args.results / args.study)
    except ValueError as error:
        sys.stderr.write(f"holdem-lab plot: error: {error}\n")
        return 1
    sys.stdout.write("".join(f"{path}\n" for path in files))
    return 0
