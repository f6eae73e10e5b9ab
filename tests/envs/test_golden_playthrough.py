"""Golden playthrough: a seeded three-handed match, hand by hand, as ACPC STATE lines.

Any change to dealing, order of play, pots or the baseline bots shows up here as a diff. After
a deliberate change, regenerate the file with ``HOLDEM_LAB_UPDATE_GOLDEN=1 pytest`` and review
the diff like code.
"""

from __future__ import annotations

import os
from pathlib import Path

from envs.game import Hand
from envs.match import play_match

GOLDEN = Path(__file__).parent / "golden" / "playthrough_rule_random_raise_seed2026.txt"


def test_seeded_match_replays_the_golden_hand_histories() -> None:
    lines: list[str] = []

    def log(hand: Hand, names: tuple[str, ...]) -> None:
        lines.append(hand.to_acpc(names))

    result = play_match(["rule", "random", "raise"], hands=90, seed=2026, on_hand=log)
    text = "\n".join(lines) + "\n"
    text += "".join(f"# {r.name} {r.chips:+d} chips\n" for r in result.results)
    if os.environ.get("HOLDEM_LAB_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
