"""Flop-reach values: what the best-response agent needs from the whole-game computation.

After the flop the agent computes its decisions exactly for its own cards (milliseconds), but
pre-flop it needs each holding's value of reaching the flop, a mean over all flops that takes
the whole computation. ``FlopReachValues`` keeps those values, per seat and per pre-flop betting
sequence that reaches the flop, for the 169 starting-hand types (suit isomorphism makes them
equal within a type): the best response's pre-flop table. Values are stored in the chips of the
rules they were computed in; games whose amounts are a multiple of those (ACPC's 5/10 game is
the default 1/2 game times five) share the table, scaled.

Tables for ``call``, ``raise`` and ``random`` in the default game ship in ``agents/data/``;
other policies and rules are computed on first use and cached in ``$HOLDEM_LAB_CACHE``, else
``$XDG_CACHE_HOME/holdem-lab``, else ``~/.cache/holdem-lab``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from agents.best_response.deck import FULL_DECK
from agents.best_response.public import LearnerSeat
from agents.best_response.result import BestResponse
from agents.strength.holdings import HOLDING_TYPE, type_cell_name, type_cells
from envs.rules import Rules

__all__ = ["FORMAT_VERSION", "FlopReachValues", "cache_path", "game_key", "shipped_path"]

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
"""Bump when the file layout or the computation behind it changes."""

_DATA = Path(__file__).resolve().parent.parent / "data"
_TYPE_OF_HOLDING = HOLDING_TYPE[:, 0] * 13 + HOLDING_TYPE[:, 1]
_SYMMETRY_TOLERANCE = 1e-6
"""Chips by which suit-isomorphic holdings may differ (float32 rounding) in a stored table."""


def game_key(rules: Rules) -> tuple[int, int, int, int, tuple[int, ...]]:
    """The rules with every amount divided by their common divisor: games with equal keys have
    the same best response up to a factor on every amount."""
    amounts = (rules.small_blind, rules.big_blind, rules.small_bet, rules.big_bet)
    unit = math.gcd(*amounts)
    sb, bb, small, big = (a // unit for a in amounts)
    return (sb, bb, small, big, rules.max_bets)


@dataclass(frozen=True, eq=False)
class FlopReachValues:
    """A best response's value of reaching the flop, per seat, pre-flop line and holding (see
    the module docstring)."""

    policy: str
    rules: Rules
    """The game the values are in (chips)."""
    exact: bool
    method: str
    seat_chips: tuple[float, float]
    """The computed value per hand, button then big blind, in chips of ``rules``."""
    values: dict[LearnerSeat, dict[str, npt.NDArray[np.float64]]]
    """Per seat, per pre-flop sequence reaching the flop, the value of each of the 1,326
    holdings at the start of the flop."""

    @classmethod
    def from_result(cls, result: BestResponse) -> FlopReachValues:
        """The table of a full-deck computation; ``ValueError`` for another deck."""
        if result.deck != FULL_DECK:
            raise ValueError("pre-flop tables are for the full deck")
        return cls(
            policy=result.policy,
            rules=result.rules,
            exact=result.exact,
            method=result.method,
            seat_chips=(result.seats[0].chips, result.seats[1].chips),
            values={seat: dict(result.continuation[seat]) for seat in LearnerSeat},
        )

    def scaled_for(self, rules: Rules) -> dict[LearnerSeat, dict[str, npt.NDArray[np.float64]]]:
        """The values in the chips of ``rules``; ``ValueError`` if the game differs."""
        if game_key(rules) != game_key(self.rules):
            raise ValueError(f"this table is for {self.rules}, not {rules}")
        factor = rules.small_bet / self.rules.small_bet
        return {s: {h: v * factor for h, v in by.items()} for s, by in self.values.items()}

    def to_json(self) -> str:
        """The table as JSON, one value per hand type (``ValueError`` if they differ)."""
        seats: dict[str, dict[str, list[float]]] = {}
        for seat, by_history in self.values.items():
            seats[seat.label] = {}
            for history, holdings in by_history.items():
                per_type = np.zeros(169)
                np.add.at(per_type, _TYPE_OF_HOLDING, holdings)
                counts = np.bincount(_TYPE_OF_HOLDING, minlength=169)
                per_type /= counts
                spread = np.abs(holdings - per_type[_TYPE_OF_HOLDING]).max()
                if spread > _SYMMETRY_TOLERANCE * max(1.0, float(np.abs(holdings).max())):
                    raise ValueError(f"values differ within a hand type by {spread} chips")
                seats[seat.label][history] = [float(v) for v in per_type]
        payload: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "policy": self.policy,
            "rules": {
                "small_blind": self.rules.small_blind,
                "big_blind": self.rules.big_blind,
                "small_bet": self.rules.small_bet,
                "big_bet": self.rules.big_bet,
                "max_bets": list(self.rules.max_bets),
            },
            "exact": self.exact,
            "method": self.method,
            "seat_chips": list(self.seat_chips),
            "hand_types": [type_cell_name(*cell) for cell in type_cells()],
            "values": seats,
        }
        return json.dumps(payload, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str = "table") -> FlopReachValues:
        """Read a table written by ``to_json``; ``ValueError`` if malformed or outdated."""
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT_VERSION:
                raise ValueError(f"format {data.get('format')!r}, expected {FORMAT_VERSION}")
            rules_data = data["rules"]
            rules = Rules(
                small_blind=rules_data["small_blind"],
                big_blind=rules_data["big_blind"],
                small_bet=rules_data["small_bet"],
                big_bet=rules_data["big_bet"],
                max_bets=tuple(rules_data["max_bets"]),
            )
            values = {}
            for seat in LearnerSeat:
                by_history = data["values"][seat.label]
                values[seat] = {
                    history: np.asarray(per_type, dtype=np.float64)[_TYPE_OF_HOLDING]
                    for history, per_type in by_history.items()
                }
                if any(len(v) != 169 for v in by_history.values()):
                    raise ValueError("a row does not have 169 hand types")
            chips = data["seat_chips"]
            return cls(
                policy=str(data["policy"]),
                rules=rules,
                exact=bool(data["exact"]),
                method=str(data["method"]),
                seat_chips=(float(chips[0]), float(chips[1])),
                values=values,
            )
        except (KeyError, TypeError, IndexError, json.JSONDecodeError) as error:
            raise ValueError(f"{source} is not a best-response table: {error!r}") from None
        except ValueError as error:
            raise ValueError(f"{source} is not a usable best-response table: {error}") from None

    def save(self, path: Path) -> None:
        """Write the JSON atomically (temporary file, then rename)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=path.parent, prefix=path.stem, suffix=".tmp", delete=False, encoding="utf-8"
        ) as tmp:
            tmp.write(self.to_json())
        os.chmod(tmp.name, 0o644)  # temporary files are private; a table is not
        os.replace(tmp.name, path)

    @classmethod
    def load(cls, path: Path) -> FlopReachValues:
        """Read a table file; ``ValueError`` if malformed, ``OSError`` if unreadable."""
        return cls.from_json(path.read_text(encoding="utf-8"), str(path))


def shipped_path(policy: str) -> Path:
    """Where a shipped table of a named policy lives (it may not exist)."""
    return _DATA / f"best_response_{policy}.json"


def cache_path(policy: str, rules: Rules) -> Path | None:
    """The cache file of a policy in a game (up to scale), or None without a cache directory."""
    if explicit := os.environ.get("HOLDEM_LAB_CACHE"):
        directory = Path(explicit)
    elif xdg := os.environ.get("XDG_CACHE_HOME"):
        directory = Path(xdg) / "holdem-lab"
    else:
        try:
            directory = Path.home() / ".cache" / "holdem-lab"
        except RuntimeError:
            return None
    digest = hashlib.sha256(repr((policy, game_key(rules))).encode()).hexdigest()[:16]
    return directory / f"best-response-v{FORMAT_VERSION}-{digest}.json"
