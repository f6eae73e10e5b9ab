"""Agents with parameters from a file: the ``AGENT:FILE`` forms of the registry.

``holdem-lab match bpp:results/default bpp`` plays the BPP of a tuning study against the
default one. ``FILE`` is a study's results directory (its ``best_params.json``), such a
``best_params.json`` (its ``"tuned"`` parameters: the study's winner), or a plain JSON object
of the agent's parameters (the ``to_dict`` keys of ``BPPParams``, ``CurvesParams`` or
``LokiParams``; missing keys keep their defaults). The factories here are registered under
the entry-point group ``holdem_lab.agent_files`` (``envs.registry.make_agent`` calls them with
the path); each builds the agent of the same name with those parameters, and names it by the
whole form.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from agents.base import Agent
from agents.bpp import BPPAgent, BPPCurvesAgent, BPPParams, CurvesParams
from agents.bpp.decision import Strategy
from agents.lbr.agent import LocalBestResponse
from agents.lbr.loki_range import ShadowLoki
from agents.lbr.range_policy import ShadowBayesian
from agents.loki import Loki, Loki2, LokiParams

__all__ = [
    "bpp_curves_file",
    "bpp_det_file",
    "bpp_file",
    "lbr_bpp_curves_file",
    "lbr_bpp_det_file",
    "lbr_bpp_file",
    "lbr_loki2_file",
    "lbr_loki_file",
    "loki2_file",
    "loki_file",
    "params_data",
]

STUDY_FILE = "best_params.json"
P = TypeVar("P", BPPParams, CurvesParams, LokiParams)
A = TypeVar("A", bound=Agent)


def params_data(path: str) -> dict[str, Any]:
    """The parameter mapping ``path`` gives (see the module).

    Raises:
        ValueError: if there is no such file or directory, or it is not a JSON object.
    """
    file = Path(path)
    if file.is_dir():
        file = file / STUDY_FILE
    if not file.is_file():
        raise ValueError(f"no parameter file at {path!r} (a study directory or a JSON file)")
    try:
        data = json.loads(file.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{file} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{file} must hold a JSON object of parameters")
    if "tuned" in data and "defaults" in data:  # a study's best_params.json
        data = data["tuned"]
        if not isinstance(data, dict):
            raise ValueError(f"{file}: 'tuned' must be an object of parameters")
    return data


def _params(path: str, kind: type[P], agent: str) -> P:
    """``kind.from_dict`` of the parameters of ``path``, saying whose they are not."""
    data = params_data(path)
    try:
        return kind.from_dict(data)
    except ValueError as error:
        raise ValueError(f"{path!r} does not hold {agent} parameters: {error}") from None


def _named(agent: A, name: str, path: str) -> A:
    agent.name = f"{name}:{path}"
    return agent


def bpp_file(path: str) -> BPPAgent:
    """``bpp`` with the parameters of ``path``."""
    return _named(BPPAgent(_params(path, BPPParams, "BPP")), "bpp", path)


def bpp_det_file(path: str) -> BPPAgent:
    """``bpp-det`` with the parameters of ``path``."""
    agent = BPPAgent(_params(path, BPPParams, "BPP"), strategy=Strategy.DETERMINISTIC)
    return _named(agent, "bpp-det", path)


def bpp_curves_file(path: str) -> BPPCurvesAgent:
    """``bpp-curves`` with the parameters of ``path``."""
    return _named(BPPCurvesAgent(_params(path, CurvesParams, "bpp-curves")), "bpp-curves", path)


def loki_file(path: str) -> Loki:
    """``loki`` with the parameters of ``path``."""
    return _named(Loki(_params(path, LokiParams, "Loki")), "loki", path)


def loki2_file(path: str) -> Loki2:
    """``loki2`` with the parameters of ``path``."""
    return _named(Loki2(_params(path, LokiParams, "Loki")), "loki2", path)


def lbr_bpp_file(path: str) -> LocalBestResponse:
    """The local best response to ``bpp:path``."""
    return LocalBestResponse(ShadowBayesian(bpp_file(path)), name=f"lbr-bpp:{path}")


def lbr_bpp_det_file(path: str) -> LocalBestResponse:
    """The local best response to ``bpp-det:path``."""
    return LocalBestResponse(ShadowBayesian(bpp_det_file(path)), name=f"lbr-bpp-det:{path}")


def lbr_bpp_curves_file(path: str) -> LocalBestResponse:
    """The local best response to ``bpp-curves:path``."""
    agent = bpp_curves_file(path)
    return LocalBestResponse(ShadowBayesian(agent), name=f"lbr-bpp-curves:{path}")


def lbr_loki_file(path: str) -> LocalBestResponse:
    """The local best response to ``loki:path``."""
    return LocalBestResponse(ShadowLoki(loki_file(path)), name=f"lbr-loki:{path}")


def lbr_loki2_file(path: str) -> LocalBestResponse:
    """The local best response to ``loki2:path``."""
    return LocalBestResponse(ShadowLoki(loki2_file(path)), name=f"lbr-loki2:{path}")
