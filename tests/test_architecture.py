"""The import graph of envs/, agents/ and tuning/, read from the code: one way, acyclic, small.

Every import counts, function-level ones included (a function-level import is a circle
deferred, not removed); only imports under ``if TYPE_CHECKING:`` are left out, since they never
run. ``from x import y`` is an edge to the module ``x.y`` when ``y`` is a submodule, else to
``x`` (a package's ``__init__``, whose own imports are edges like any module's).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("envs", "agents", "tuning")
MAX_LINES = 400

# Names that several modules (a package counts under its own name) carry because they play the
# same role in their packages; any other shared name is two concepts under one word.
SAME_ROLE_NAMES = {
    # The agent class of an agent's package, and its frozen parameters.
    "agent": {
        "agents.best_response.agent",
        "agents.bpp.agent",
        "agents.lbr.agent",
        "agents.loki.agent",
    },
    "params": {"agents.bpp.params", "agents.loki.params"},
    # The frozen outcome a package computes: a best response, a match.
    "result": {"agents.best_response.result", "envs.match.result"},
    # The batched engine (envs.batched), and the batched form of a package's computation.
    "batched": {"envs.batched", "envs.match.batched", "agents.strength.batched"},
    # envs.batched.rounds is the batched engine's form of envs.rounds, envs.batched.acpc of
    # envs.acpc (the same STATE lines, for many tables at once).
    "rounds": {"envs.rounds", "envs.batched.rounds"},
    "acpc": {"envs.acpc", "envs.batched.acpc"},
    # tuning.cli.<name> is the command-line front of <name>; tuning.studies.<agent> the study
    # that tunes the agent.
    "best_response": {"agents.best_response", "tuning.cli.best_response"},
    "match": {"envs.match", "tuning.cli.match"},
    "loki_fit": {"tuning.loki_fit", "tuning.cli.loki_fit"},
    "pilot": {"tuning.pilot", "tuning.cli.pilot"},
    "transfer": {"tuning.transfer", "tuning.cli.transfer"},
    "crosstable": {"tuning.crosstable", "tuning.cli.crosstable"},
    "bpp": {"agents.bpp", "tuning.studies.bpp"},
    "loki": {"agents.loki", "tuning.studies.loki"},
}


@dataclass(frozen=True)
class Module:
    """One module of the three packages: its dotted name, file and parsed tree."""

    name: str
    path: Path
    tree: ast.Module

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"

    @property
    def basename(self) -> str:
        """The last part of the dotted name (a package's own name, not ``__init__``)."""
        return self.name.rsplit(".", 1)[-1]


def read_modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module of envs/, agents/ and tuning/ by dotted name."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = Module(name, path, ast.parse(path.read_text(), str(path)))
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _runtime_imports(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in and under ``nodes``, except in ``if TYPE_CHECKING:`` bodies."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _runtime_imports(node.orelse)
        else:
            yield from _runtime_imports(ast.iter_child_nodes(node))


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module.name.split(".")
    if not module.is_package:
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _deepest_known(name: str, known: Mapping[str, Module]) -> str | None:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def import_graph(modules: Mapping[str, Module]) -> dict[str, set[str]]:
    """Module -> the modules of the three packages it imports when it runs."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for module in modules.values():
        for node in _runtime_imports([module.tree]):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                source = _absolute(module, node)
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                    for alias in node.names
                ]
            for target in targets:
                found = _deepest_known(target, modules)
                if found is not None and found != module.name:
                    graph[module.name].add(found)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(start: str) -> None:  # Tarjan (1972), iterative
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            connect(name)
    return [_cycle_within(graph, set(component)) for component in components]


def _cycle_within(graph: Mapping[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module, as a path back to it."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def public_classes(modules: Mapping[str, Module]) -> dict[str, list[str]]:
    """Public class name -> the modules that define it (re-exports are imports, not defined)."""
    defined: dict[str, list[str]] = defaultdict(list)
    for module in modules.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                defined[node.name].append(module.name)
    return defined


@pytest.fixture(scope="module")
def modules() -> dict[str, Module]:
    return read_modules()


@pytest.fixture(scope="module")
def graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    return import_graph(modules)


def test_the_graph_sees_every_kind_of_import(graph: dict[str, set[str]]) -> None:
    # Sanity checks that would fail if the reader missed a form of import.
    assert "envs.cards" in graph["envs.acpc"]  # from envs.cards import ...
    assert "agents.bpp.agent" in graph["agents.bpp"]  # in a package __init__
    assert "tuning.cli.main" in graph["tuning.cli"]  # from tuning.cli.main import main


def test_no_import_cycles(graph: dict[str, set[str]]) -> None:
    assert cycles(graph) == []


def test_dependencies_point_one_way(graph: dict[str, set[str]]) -> None:
    forbidden = {"envs": ("agents", "tuning"), "agents": ("tuning",), "tuning": ()}
    wrong = sorted(
        (source, target)
        for source, targets in graph.items()
        for target in targets
        if target.split(".")[0] in forbidden[source.split(".")[0]]
    )
    assert wrong == []


def test_no_module_over_the_line_limit(modules: dict[str, Module]) -> None:
    lengths = {name: len(m.path.read_text().splitlines()) for name, m in modules.items()}
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_one_public_class_per_name(modules: dict[str, Module]) -> None:
    shared = {name: where for name, where in public_classes(modules).items() if len(where) > 1}
    assert shared == {}


def test_one_module_per_name(modules: dict[str, Module]) -> None:
    by_name: dict[str, set[str]] = defaultdict(set)
    for module in modules.values():
        if module.name not in PACKAGES:
            by_name[module.basename].add(module.name)
    shared = {name: where for name, where in by_name.items() if len(where) > 1}
    assert {name: sorted(where) for name, where in shared.items()} == {
        name: sorted(where) for name, where in SAME_ROLE_NAMES.items()
    }


def test_an_injected_cycle_is_reported(tmp_path: Path) -> None:
    files = {
        "envs/__init__.py": "",
        "envs/a.py": "from envs.b import thing\n",
        "envs/b.py": "def thing():\n    from envs.sub import c\n",  # function-level
        "envs/sub/__init__.py": "from . import c\n",  # relative, in a package
        "envs/sub/c.py": "from .. import a\n",
        "envs/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import envs.a\n",
        "envs/e.py": "from envs import VERSION\n",  # a name, not a module: the package
        "agents/__init__.py": "",
        "tuning/__init__.py": "",
    }
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source)
    graph = import_graph(read_modules(tmp_path))
    assert graph["envs.sub"] == {"envs.sub.c"} and graph["envs.e"] == {"envs"}
    assert graph["envs.d"] == set()  # a TYPE_CHECKING import never runs
    assert cycles(graph) == [["envs.a", "envs.b", "envs.sub.c", "envs.a"]]
