"""Optuna's logging for the commands that run studies (imported only by them: Optuna is slow to
import, and ``holdem-lab match`` has no use for it)."""

from __future__ import annotations

import optuna


def quiet_optuna() -> None:
    """Warnings only: Optuna logs every trial at INFO, and the progress bars and reports of
    ``tune``, ``worker``, ``plot`` and ``compare-samplers`` say it all (worker processes they
    spawn inherit the level)."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
