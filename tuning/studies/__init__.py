"""What tuning studies tune: one ``StudySpec`` per agent, chosen by name.

* ``bpp`` (``tuning.studies.bpp``): BPP's alpha, alpha' and fp / cp betting curves;
* ``loki``, ``loki2`` (``tuning.studies.loki``): Loki-1's and Loki-2's heads-up knobs.

``make_spec(agent, ranges=..., options=...)`` builds one (``holdem-lab tune --agent``);
``spec_from_attrs`` builds it again from a stored study's attributes. A new study is a module
with a builder ``(*, ranges, **options) -> StudySpec`` and one line in ``BUILDERS``. Builders
are imported when a spec is built: the command line reads ``AGENTS`` at every start, and the
agents and matplotlib are slow to import.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from tuning.studies.spec import ParamRange, StudySpec

__all__ = [
    "AGENTS",
    "BUILDERS",
    "DEFAULT_AGENT",
    "ParamRange",
    "StudySpec",
    "default_spec",
    "make_spec",
    "spec_from_attrs",
]

BUILDERS: dict[str, str] = {
    "bpp": "tuning.studies.bpp:spec",
    "loki": "tuning.studies.loki:loki_spec",
    "loki2": "tuning.studies.loki:loki2_spec",
}
"""``holdem-lab tune --agent NAME``: the builder of each study, as ``module:function``."""
AGENTS = tuple(BUILDERS)
DEFAULT_AGENT = "bpp"
"""The agent of ``holdem-lab tune`` without ``--agent``, and of studies stored before
specs were stored with them."""


def make_spec(
    agent: str = DEFAULT_AGENT,
    *,
    ranges: Mapping[str, tuple[float, float]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> StudySpec:
    """The study of ``agent`` with its default ranges overridden by ``ranges``.

    Raises:
        ValueError: for an unknown agent, an option its builder does not take, or a bad range.
    """
    if agent not in BUILDERS:
        raise ValueError(f"no study of agent {agent!r}; choose one of {', '.join(AGENTS)}")
    module, _, name = BUILDERS[agent].partition(":")
    builder: Callable[..., StudySpec] = getattr(importlib.import_module(module), name)
    options = dict(options or {})
    accepted = set(inspect.signature(builder).parameters) - {"ranges"}
    unknown = sorted(set(options) - accepted)
    if unknown:
        raise ValueError(
            f"the {agent} study has no option {', '.join(unknown)}; "
            f"its options: {', '.join(sorted(accepted)) or 'none'}"
        )
    return builder(ranges=dict(ranges or {}), **options)


def default_spec() -> StudySpec:
    """The BPP study with its default ranges."""
    return make_spec(DEFAULT_AGENT)


def spec_from_attrs(attrs: Mapping[str, Any]) -> StudySpec:
    """The spec a study was created with, from its user attributes (``agent`` and ``space``)."""
    space = attrs["space"]
    options = {key: value for key, value in space.items() if key != "params"}
    ranges = {name: (low, high) for name, low, high, _ in space["params"]}
    return make_spec(str(attrs.get("agent", DEFAULT_AGENT)), ranges=ranges, options=options)
