"""Samplers a study can use, and Carlton's stochastic greedy search as one of them.

``make_sampler(name, seed)`` builds: ``tpe`` (Optuna's default, multivariate in Optuna 5),
``tpe-indep`` (independent TPE), ``cmaes``, ``gp`` (needs torch and scipy), ``random``, and
``greedy``: the paper's stochastic greedy search, written as an Optuna sampler so that it runs
on exactly the same objective, storage, workers and budget as the others.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

import numpy as np
import optuna
from optuna.distributions import BaseDistribution, FloatDistribution
from optuna.samplers import BaseSampler, RandomSampler
from optuna.search_space import IntersectionSearchSpace
from optuna.trial import FrozenTrial, TrialState

STARTUP_TRIALS = 20
"""Random trials before the model-based samplers take over (20 to 30 is the usual advice for
about ten dimensions)."""


class SamplerName(StrEnum):
    """The samplers ``holdem-lab tune --sampler`` accepts."""

    TPE = "tpe"
    TPE_INDEPENDENT = "tpe-indep"
    CMAES = "cmaes"
    GP = "gp"
    RANDOM = "random"
    GREEDY = "greedy"


def sampler_kind(name: SamplerName | str) -> SamplerName:
    """The sampler ``name`` names, once its dependencies are known to be installed.

    Raises:
        ValueError: for an unknown name or a missing dependency.
    """
    try:
        kind = SamplerName(name)
    except ValueError:
        known = ", ".join(s.value for s in SamplerName)
        raise ValueError(f"unknown sampler {name!r}; choose one of {known}") from None
    if kind is SamplerName.CMAES:
        _require("cmaes", "the CMA-ES sampler")
    if kind is SamplerName.GP:
        _require("torch", "the GP sampler")
        _require("scipy", "the GP sampler")
    return kind


def make_sampler(name: SamplerName | str, seed: int) -> BaseSampler:
    """A seeded sampler; ``ValueError`` for an unknown name or a missing dependency."""
    kind = sampler_kind(name)
    if kind is SamplerName.TPE:
        return optuna.samplers.TPESampler(seed=seed, n_startup_trials=STARTUP_TRIALS)
    if kind is SamplerName.TPE_INDEPENDENT:
        return optuna.samplers.TPESampler(
            seed=seed, n_startup_trials=STARTUP_TRIALS, multivariate=False
        )
    if kind is SamplerName.CMAES:
        return optuna.samplers.CmaEsSampler(seed=seed, n_startup_trials=STARTUP_TRIALS)
    if kind is SamplerName.GP:
        return optuna.samplers.GPSampler(seed=seed, n_startup_trials=STARTUP_TRIALS)
    if kind is SamplerName.RANDOM:
        return RandomSampler(seed=seed)
    return GreedySampler(seed=seed)


def _require(module: str, what: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise ValueError(
            f"{what} needs the package {module!r}, which is not installed "
            f"(pip install holdem-lab[rl] brings torch; scipy and cmaes are core dependencies)"
        ) from None


class GreedySampler(BaseSampler):
    """Stochastic greedy search (Carlton 2000, section "Mixed Strategy"), as an Optuna sampler.

    The thesis tuned the eight curve parameters by "a stochastic greedy search of the parameter
    space" without further detail. Our reading: keep an incumbent, the best trial observed so
    far (so a better observation is always accepted: greedy), and propose the incumbent with
    every parameter perturbed by Gaussian noise of standard deviation ``step`` on the
    parameter's range scaled to [0, 1] (its log for log-scaled parameters), reflected back into
    the range. The first trial (no incumbent yet) is the enqueued defaults, or a random point.
    Like the thesis's search, it trusts noisy observations; that is the point of comparing it.

    Args:
        seed: Seed of its generator.
        step: Perturbation size as a fraction of each range.
    """

    def __init__(self, *, seed: int | None = None, step: float = 0.1) -> None:
        if not 0.0 < step <= 1.0:
            raise ValueError(f"step must be in (0, 1], got {step}")
        self._rng = np.random.default_rng(seed)
        self._step = step
        self._random = RandomSampler(seed=seed)
        self._space = IntersectionSearchSpace()

    def reseed_rng(self) -> None:
        """Draw fresh seeds (Optuna calls this for threaded workers)."""
        self._rng = np.random.default_rng()
        self._random.reseed_rng()

    def infer_relative_search_space(
        self, study: optuna.Study, trial: FrozenTrial
    ) -> dict[str, BaseDistribution]:
        """The float parameters every completed trial shares."""
        return {
            name: dist
            for name, dist in self._space.calculate(study).items()
            if isinstance(dist, FloatDistribution)
        }

    def sample_relative(
        self, study: optuna.Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        """The incumbent, perturbed (empty before the first completed trial)."""
        complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if not complete or not search_space:
            return {}
        incumbent = max(complete, key=lambda t: float("-inf") if t.value is None else t.value)
        proposal = {}
        for name, dist in search_space.items():
            assert isinstance(dist, FloatDistribution)
            lo, hi = (
                (math.log(dist.low), math.log(dist.high)) if dist.log else (dist.low, dist.high)
            )
            x = incumbent.params[name]
            u = ((math.log(x) if dist.log else x) - lo) / (hi - lo)
            u = _reflect(u + self._step * float(self._rng.standard_normal()))
            value = lo + u * (hi - lo)
            proposal[name] = min(max(math.exp(value) if dist.log else value, dist.low), dist.high)
        return proposal

    def sample_independent(
        self,
        study: optuna.Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        """Uniform random values for parameters outside the relative space."""
        return self._random.sample_independent(study, trial, param_name, param_distribution)


def _reflect(u: float) -> float:
    """Fold ``u`` back into [0, 1] (a reflecting boundary keeps the step symmetric)."""
    u = abs(u) % 2.0
    return 2.0 - u if u > 1.0 else u
