"""The ``holdem-lab`` command line: ``main`` and one module per sub-command."""

from __future__ import annotations

from tuning.cli.main import main

__all__ = ["main"]
