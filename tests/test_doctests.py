"""Every docstring example in envs/, agents/ and tuning/ runs and shows what it says.

Modules are found with ``pkgutil`` (so a new module joins by itself) and each is imported:
a module that cannot be imported fails here instead of being passed over. The one exception is
a package's ``__main__`` module, the script ``python -m`` runs: importing it would run the
program, so its source is read instead, and it must hold no examples.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import io
import pkgutil
from pathlib import Path

import pytest

import agents
import envs
import tuning

PACKAGES = (envs, agents, tuning)


def _refuse(name: str) -> None:
    raise ImportError(f"cannot import package {name} to look for its modules")


def module_names() -> list[str]:
    """Every module and package under ``PACKAGES``, by dotted name."""
    names: list[str] = []
    for package in PACKAGES:
        names.append(package.__name__)
        names += [
            info.name
            for info in pkgutil.walk_packages(
                package.__path__, f"{package.__name__}.", onerror=_refuse
            )
        ]
    return sorted(names)


MODULES = [name for name in module_names() if not name.endswith(".__main__")]
SCRIPTS = [name for name in module_names() if name.endswith(".__main__")]


def run_examples(name: str) -> tuple[doctest.TestResults, str]:
    """Run the examples of module ``name``: (failed, attempted) and the failure report."""
    module = importlib.import_module(name)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.write)
    return runner.summarize(verbose=False), report.getvalue()


def test_modules_of_every_package_are_found() -> None:
    assert {"envs.game", "envs.rounds", "agents.bpp.decision", "agents.loki.postflop"} <= set(
        MODULES
    )
    assert any(name.startswith("tuning.") for name in MODULES)


def test_examples_are_found_where_they_are_written() -> None:
    """A finder that found nothing would let every module below pass."""
    for name, at_least in (("envs.game", 5), ("envs.cards", 4), ("agents.bpp.decision", 2)):
        results, _ = run_examples(name)
        assert results.attempted >= at_least, name


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    results, report = run_examples(name)
    assert results.failed == 0, f"{results.failed} of {results.attempted} failed:\n{report}"


@pytest.mark.parametrize("name", SCRIPTS)
def test_main_scripts_hold_no_examples(name: str) -> None:
    """``python -m`` scripts are not imported (that would run them): their examples, if any,
    would never run, so there must be none."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text())
    nodes = [tree, *ast.walk(tree)]
    docstrings = [
        ast.get_docstring(node) or ""
        for node in nodes
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    assert not any(doctest.DocTestParser().get_examples(doc) for doc in docstrings), name
