"""Agents by name, found through the ``holdem_lab.agents`` entry points.

envs/ never imports agents/: a package (ours or a third party's) declares its agents under the
entry-point group ``holdem_lab.agents`` (``name = "module:Factory"``), and the env and the match
runner build them from the name. A factory is called with no arguments and returns an object
that satisfies ``envs.protocols.SeatAgent``; the caller seeds it with ``reset(rng)``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

from envs.protocols import SeatAgent

GROUP = "holdem_lab.agents"


@cache
def _factories() -> dict[str, Callable[[], object]]:
    return {ep.name: ep.load for ep in entry_points(group=GROUP)}


def available_agents() -> tuple[str, ...]:
    """The registered agent names, sorted."""
    return tuple(sorted(_factories()))


def make_agent(name: str) -> SeatAgent:
    """Build a fresh agent from its registry name; ``ValueError`` lists the known names."""
    factories = _factories()
    if name not in factories:
        known = ", ".join(available_agents()) or "none (is holdem-lab installed with pip?)"
        raise ValueError(f"unknown agent {name!r}; registered agents: {known}")
    factory = factories[name]()  # the entry point's load(): the agent class or factory
    if not callable(factory):
        raise TypeError(f"entry point {name!r} does not name a class or factory: {factory!r}")
    agent = factory()
    if not isinstance(agent, SeatAgent):
        raise TypeError(f"entry point {name!r} did not build an agent: got {type(agent)!r}")
    return agent
