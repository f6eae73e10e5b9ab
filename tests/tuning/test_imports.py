"""Importing tuning/ changes nothing global: no pyplot, no backend, no log levels, no filters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TUNING = Path(__file__).resolve().parents[2] / "tuning"

CHECK = """
import importlib, logging, sys, warnings
import matplotlib, optuna
import sb3_contrib, torch  # their own import-time filters are not ours to check
filters, backend = list(warnings.filters), dict.__getitem__(matplotlib.rcParams, "backend")
verbosity, handlers = optuna.logging.get_verbosity(), list(logging.getLogger().handlers)
for name in sys.argv[1:]:
    importlib.import_module(name)
assert "matplotlib.pyplot" not in sys.modules, "pyplot imported"
assert dict.__getitem__(matplotlib.rcParams, "backend") == backend, "backend selected"
assert optuna.logging.get_verbosity() == verbosity, "Optuna's verbosity changed"
assert logging.getLogger().handlers == handlers, "root logging configured"
assert warnings.filters == filters, "warning filters changed"
"""


def test_importing_every_tuning_module_has_no_side_effect() -> None:
    modules = sorted(
        ".".join(path.relative_to(TUNING.parent).with_suffix("").parts)
        for path in TUNING.rglob("*.py")
        if path.name != "__main__.py"
    )
    assert "tuning.plots" in modules and "tuning.training.trainer" in modules
    done = subprocess.run(
        [sys.executable, "-c", CHECK, *modules], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
