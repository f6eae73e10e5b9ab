"""``holdem-lab worker``: join an existing study from this machine and run batches of it.

    holdem-lab tune --study big --storage postgresql://u:pw@db-host/optuna --trials 400
    holdem-lab worker --study big --storage postgresql://u:pw@db-host/optuna   # any machine
    holdem-lab worker --study default --storage runs/default/study.log        # same machine,
                                                   # or one that mounts the same filesystem

The worker reads the study's agent, protocol, search space, sampler, batch layout and total
from the storage, and asks, evaluates and tells batches of trials until the total is reached
(shared with every other process of the study). --storage is an RDB URL or the study's journal
file (holdem-lab tune writes <results>/<study>/study.log). Its sampler seeds derive from the
study's seed, --worker-id (default: derived from host name and process id, so that workers
never share seeds) and the study's state. With an RDB storage a heartbeat is recorded every
--heartbeat seconds: if this worker dies, its trials are failed and queued again for another
worker; with a journal file, a dead worker's trials are queued again by the next process of
the study on the same host. Re-run holdem-lab tune with the same study and storage afterwards
to re-evaluate, confirm and write the results.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import zlib
from typing import Any

from tuning.cli._args import positive_int, seed


def add_parser(sub: Any) -> None:
    """Add the ``worker`` sub-command."""
    parser = sub.add_parser(
        "worker",
        help="join an existing tuning study (PostgreSQL, or its journal file) and run its trials",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--study", required=True, help="name of an existing study")
    parser.add_argument(
        "--storage",
        required=True,
        help="the study's storage: postgresql://... or its journal file (.../study.log)",
    )
    parser.add_argument("--worker-id", type=seed, help="sampler seed offset (default: host+pid)")
    parser.add_argument("--workers", type=positive_int, default=1, help="evaluation processes")
    parser.add_argument("--heartbeat", type=positive_int, default=60, help="RDB heartbeat, s")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Join the study and run batches until its total is reached."""
    from tuning.cli._optuna import quiet_optuna
    from tuning.launch import run_trials
    from tuning.storage import worker_tag
    from tuning.study import settings_from_study

    quiet_optuna()

    parser: argparse.ArgumentParser = args.parser
    try:
        settings = dataclasses.replace(
            settings_from_study(args.study, args.storage),
            heartbeat_interval=args.heartbeat,
            grace_period=3 * args.heartbeat,
        )
    except ValueError as error:
        parser.error(str(error))
    worker_id = args.worker_id
    if worker_id is None:
        worker_id = zlib.crc32(worker_tag().encode()) % 1_000_000
    try:
        run_trials(settings, workers=args.workers, progress=not args.quiet, worker_id=worker_id)
    except (ValueError, RuntimeError) as error:
        sys.stderr.write(f"holdem-lab worker: error: {error}\n")
        return 1
    sys.stdout.write(f"worker {worker_id}: study {args.study} has its {settings.trials} trials\n")
    return 0
