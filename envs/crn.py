"""Common random numbers down to each decision: one uniform per (seed, deal, seat, decision).

A stochastic agent that states its action probabilities does not draw its action itself: the
runner draws it by inverse CDF over (fold, call, raise) from the uniform of the decision, a pure
function of ``(seed, deal, seat, decision index)``. Two agents with close probabilities at a
node then take the same action with probability ``1 - |p - q|`` (total variation), so paired
comparisons of close parameter sets stay on the same path much longer; and the scalar runner
and the batched one, which compute the same uniforms, play the same hands.

An agent whose decisions in a hand share one uniform (``hand_uniform``, e.g. Loki-2, which
draws one number per hand and plays aggressively throughout a hand when it is high; Pena 1999
section 4.1) states at each decision its probabilities conditioned on its earlier actions.
The runners then draw its first decision of a hand from the decision uniform above, and each
later one from the residual of the previous draw: after action ``a`` was drawn from ``p`` with
``u``, ``(u - P[a - 1]) / p[a]`` (``P`` the cumulative, ``P[-1] = 0``) is again uniform on
[0, 1) and independent of the actions drawn, so the actions are those of a single per-hand
draw (``residual``).

The uniform is a counter-based hash (the SplitMix64 finaliser of Steele, Lea and Flood,
"Fast splittable pseudorandom number generators", OOPSLA 2014, chained over the key), computed
identically by the scalar and the vectorised functions.

>>> u = decision_uniform(7, 12, 1, 0)
>>> u == float(decision_uniforms(7, np.array([12]), np.array([1]), np.array([0]))[0])
True
>>> sample_action((0.2, 0.5, 0.3), 0.1), sample_action((0.2, 0.5, 0.3), 0.69)
(<Action.FOLD: 0>, <Action.CALL: 1>)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from envs.rules import Action

__all__ = [
    "DECISION_STREAM",
    "check_probabilities",
    "decision_uniform",
    "decision_uniforms",
    "hand_key",
    "hand_keys",
    "residual",
    "residuals",
    "sample_action",
    "sample_actions",
    "uniform_at",
    "uniforms_at",
]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPREAD = 0xD6E8FEB86659FD93
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_UNIT = 2.0**-53

DECISION_STREAM = 0
"""Stream of the agents' decisions; other users of the hash (e.g. variance-reduction
samples) take other stream numbers so that their numbers never coincide with these."""


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def _combine(h: int, x: int) -> int:
    return _mix((h + _GOLDEN + x * _SPREAD) & _MASK)


def hand_key(seed: int, deal: int, stream: int = DECISION_STREAM) -> int:
    """The part of the hash shared by every decision of one deal (computed once per hand)."""
    return _combine(_combine(_mix(seed & _MASK), stream), deal)


def uniform_at(key: int, seat: int, decision: int) -> float:
    """The uniform of decision ``decision`` of ``seat`` in the hand of ``key``."""
    return (_combine(_combine(key, seat), decision) >> 11) * _UNIT


def decision_uniform(
    seed: int, deal: int, seat: int, decision: int, stream: int = DECISION_STREAM
) -> float:
    """The uniform in [0, 1) of one decision (pure Python, for the scalar runner)."""
    return uniform_at(hand_key(seed, deal, stream), seat, decision)


_U64 = np.uint64


def _mix_array(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    z = (z ^ (z >> _U64(30))) * _U64(_M1)
    z = (z ^ (z >> _U64(27))) * _U64(_M2)
    return z ^ (z >> _U64(31))


def _combine_array(h: npt.NDArray[np.uint64], x: npt.ArrayLike) -> npt.NDArray[np.uint64]:
    xs = np.asarray(x).astype(np.uint64)
    return _mix_array(h + _U64(_GOLDEN) + xs * _U64(_SPREAD))


def hand_keys(
    seed: int | npt.ArrayLike, deal: npt.ArrayLike, stream: int = DECISION_STREAM
) -> npt.NDArray[np.uint64]:
    """``hand_key`` of many hands at once (arguments broadcast together)."""
    seeds = np.asarray(seed)
    if seeds.dtype.kind not in "iu":
        raise ValueError(f"seeds must be integers, got dtype {seeds.dtype}")
    h = _combine_array(_mix_array(np.array(seeds, dtype=np.uint64, ndmin=1)), stream)
    return _combine_array(h, deal)


def uniforms_at(
    keys: npt.NDArray[np.uint64], seat: npt.ArrayLike, decision: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """``uniform_at`` of many decisions at once, from their hands' ``hand_keys``."""
    h = _combine_array(_combine_array(keys, seat), decision)
    result: npt.NDArray[np.float64] = (h >> _U64(11)).astype(np.float64) * _UNIT
    return result


def decision_uniforms(
    seed: int | npt.ArrayLike,
    deal: npt.ArrayLike,
    seat: npt.ArrayLike,
    decision: npt.ArrayLike,
    stream: int = DECISION_STREAM,
) -> npt.NDArray[np.float64]:
    """``decision_uniform`` of many decisions at once (arguments broadcast together)."""
    return uniforms_at(hand_keys(seed, deal, stream), seat, decision)


def sample_action(probabilities: Sequence[float], u: float) -> Action:
    """The action of ``probabilities`` (fold, call, raise) at the uniform ``u`` (inverse CDF)."""
    fold, call = probabilities[0], probabilities[1]
    if u < fold:
        return Action.FOLD
    if u < fold + call:
        return Action.CALL
    return Action.RAISE


def sample_actions(
    probabilities: npt.NDArray[np.float64], u: npt.NDArray[np.float64]
) -> npt.NDArray[np.int8]:
    """``sample_action`` of each row of ``(n, 3)`` probabilities with its uniform."""
    fold = probabilities[:, 0]
    actions = (u >= fold).astype(np.int8)
    actions += u >= fold + probabilities[:, 1]
    return actions


_BELOW_ONE = 1.0 - 2.0**-53


def residual(probabilities: Sequence[float], u: float, action: Action) -> float:
    """The uniform left in ``u`` once it chose ``action`` from ``probabilities`` (module
    docstring): ``(u - P[a - 1]) / p[a]``, kept in [0, 1) against rounding."""
    fold, call = probabilities[0], probabilities[1]
    if action == Action.FOLD:
        left = u / fold
    elif action == Action.CALL:
        left = (u - fold) / call
    else:
        left = (u - (fold + call)) / probabilities[2]
    return min(max(left, 0.0), _BELOW_ONE)


def residuals(
    probabilities: npt.NDArray[np.float64], u: npt.NDArray[np.float64], actions: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """``residual`` of each row (the same arithmetic, so both engines agree bit for bit)."""
    fold, call, bet = probabilities[:, 0], probabilities[:, 1], probabilities[:, 2]
    chosen = np.asarray(actions)
    below = np.where(chosen == 0, 0.0, np.where(chosen == 1, fold, fold + call))
    width = np.where(chosen == 0, fold, np.where(chosen == 1, call, bet))
    with np.errstate(divide="ignore", invalid="ignore"):
        left = (u - below) / width
    return np.clip(np.nan_to_num(left), 0.0, _BELOW_ONE)


def check_probabilities(
    probabilities: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_], who: str
) -> None:
    """``ValueError`` unless each row is a distribution over its legal actions.

    Args:
        probabilities: ``(n, 3)`` action probabilities.
        legal: ``(n, 3)`` legal-action mask of the same rows.
        who: The agent, named in the message.
    """
    # Column by column: reductions over a short last axis cost NumPy far more.
    total = probabilities[:, 0] + probabilities[:, 1] + probabilities[:, 2]
    bad = ~(np.abs(total - 1.0) <= 1e-9)  # NaN fails too
    for a in range(3):
        column = probabilities[:, a]
        bad |= ~(column >= 0.0) | ((column > 0.0) & ~legal[:, a])
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        names = ", ".join(a.name for a in Action if legal[row, a])
        raise ValueError(
            f"agent {who!r} returned action probabilities {probabilities[row].tolist()} that "
            f"are not a distribution over its legal actions ({names})"
        )
