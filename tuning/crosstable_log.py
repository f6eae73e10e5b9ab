"""The lineups a crosstable run has finished, kept on disk so an interrupted run loses nothing.

``LineupLog(path, settings)`` is a JSON-lines file: the run's settings on the first line, then
one line per finished lineup with its cells. Opening it again with the same settings gives the
cells already played (``known``), which ``tuning.crosstable.crosstable`` does not play again;
other settings are refused, since their cells would not belong to the same table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tuning.crosstable import Cell, cell_dict, cell_from_dict

__all__ = ["LineupLog"]


class LineupLog:
    """Appends each finished lineup's cells to ``path`` (see the module)."""

    def __init__(self, path: Path, settings: dict[str, Any]) -> None:
        self.path = path
        self.settings = settings
        self.known: dict[tuple[str, ...], tuple[Cell, ...]] = {}
        if path.exists():
            self._read()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"settings": settings}) + "\n")

    def _read(self) -> None:
        lines = self.path.read_text().splitlines()
        try:
            head = json.loads(lines[0])["settings"] if lines else None
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{self.path} is not a crosstable's lineup log: {error}") from None
        if head != self.settings:
            changed = sorted(
                key
                for key in set(self.settings) | set(head or {})
                if (head or {}).get(key) != self.settings.get(key)
            )
            raise ValueError(
                f"{self.path} holds lineups played with other settings ({', '.join(changed)}); "
                "use the same settings to resume, or a new directory"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                cells = tuple(cell_from_dict(cell) for cell in json.loads(line)["cells"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                if number == len(lines):  # a run stopped while writing it: replay that lineup
                    self.path.write_text("".join(f"{kept}\n" for kept in lines[:-1]))
                    break
                raise ValueError(f"{self.path}, line {number}: not a lineup's cells") from None
            self.known[cells[0].lineup] = cells

    def append(self, cells: tuple[Cell, ...]) -> bool:
        """Record one finished lineup; False when it was already known (not written twice)."""
        lineup = cells[0].lineup
        if lineup in self.known:
            return False
        self.known[lineup] = cells
        with self.path.open("a") as file:
            file.write(json.dumps({"cells": [cell_dict(cell) for cell in cells]}) + "\n")
        return True
