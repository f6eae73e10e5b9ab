"""Variance reduction for matches between agents whose policies are known: AIVAT.

``aivat_corrections`` turns each finished hand's payoffs into an unbiased estimate with far less
variance (``envs.aivat.estimator``), from a value function built on the showdown equity of the
actual hands (``envs.aivat.showdown_shares``).
"""

from __future__ import annotations

from envs.aivat.estimator import DEFAULT_SAMPLES, PlayedHands, aivat_corrections, concatenate

__all__ = ["DEFAULT_SAMPLES", "PlayedHands", "aivat_corrections", "concatenate"]
