"""Agents by name, found through the ``holdem_lab.agents`` entry points.

envs/ never imports agents/: a package (ours or a third party's) declares its agents under the
entry-point group ``holdem_lab.agents`` (``name = "module:Factory"``), and the env and the match
runner build them from the name. A factory is called with no arguments and returns an object
that satisfies ``envs.protocols.SeatAgent``; the caller seeds it with ``reset(rng)``.

An agent spec is a name, or ``NAME:FILE`` for an agent with parameters from a file (a tuning
study's results directory, its ``best_params.json``, or a plain parameter file): the factory
registered as ``NAME`` under ``holdem_lab.agent_files`` is called with ``FILE``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

from envs.protocols import SeatAgent

GROUP = "holdem_lab.agents"
FILE_GROUP = "holdem_lab.agent_files"


@cache
def _factories() -> dict[str, Callable[[], object]]:
    return {ep.name: ep.load for ep in entry_points(group=GROUP)}


@cache
def _file_factories() -> dict[str, Callable[[], object]]:
    return {ep.name: ep.load for ep in entry_points(group=FILE_GROUP)}


def agents_with_files() -> tuple[str, ...]:
    """The names that accept a parameter file (``NAME:FILE``), sorted."""
    return tuple(sorted(_file_factories()))


def check_spec(spec: str) -> None:
    """``ValueError`` saying why ``spec`` names no agent (unknown name, a name that takes no
    file or needs one, an empty file part); nothing when it does (the file is read later)."""
    name, colon, path = spec.partition(":")
    plain, files = _factories(), _file_factories()
    if name not in plain and name not in files:
        known = ", ".join(available_agents()) or "none (is holdem-lab installed with pip?)"
        with_files = ", ".join(f"{n}:FILE" for n in agents_with_files())
        raise ValueError(
            f"unknown agent {name!r}; registered agents: {known}"
            + (f"; with a parameter file: {with_files}" if with_files else "")
        )
    if colon and name not in files:
        takes = ", ".join(agents_with_files()) or "none"
        raise ValueError(
            f"agent {name!r} takes no parameter file ({spec!r}); agents that do: {takes}"
        )
    if not colon and name not in plain:
        raise ValueError(f"agent {name!r} needs a file: {name}:FILE (a run or parameter file)")
    if colon and not path:
        raise ValueError(f"{spec!r}: give a file or study directory after {name + ':'!r}")


def available_agents() -> tuple[str, ...]:
    """The registered agent names, sorted."""
    return tuple(sorted(_factories()))


def make_agent(name: str) -> SeatAgent:
    """Build a fresh agent from its spec (a registry name, or ``NAME:FILE``); ``ValueError``
    says what is wrong (``check_spec``, or the file's problem)."""
    check_spec(name)
    base, colon, path = name.partition(":")
    factories = _file_factories() if colon else _factories()
    factory = factories[base]()  # the entry point's load(): the agent class or factory
    if not callable(factory):
        raise TypeError(f"entry point {base!r} does not name a class or factory: {factory!r}")
    agent = factory(path) if colon else factory()
    if not isinstance(agent, SeatAgent):
        raise TypeError(f"entry point {name!r} did not build an agent: got {type(agent)!r}")
    return agent
