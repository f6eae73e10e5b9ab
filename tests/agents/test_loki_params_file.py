"""Loki's parameters as JSON (a parameter file): round trip, defaults, errors naming the field."""

from __future__ import annotations

import json

import pytest

from agents.loki import Betting, LokiParams, Modelling, Reweighting, Tightness


def test_every_field_survives_json() -> None:
    params = LokiParams(
        tightness=Tightness.TIGHT,
        preflop_shift=-37.5,
        make1=0.45,
        make2=0.9,
        lookahead=2,
        semi_bluff=False,
        modelling=Modelling.SPECIFIC,
        betting=Betting.TRIPLES,
        reweighting=Reweighting.TRIPLES,
        triple_width=0.02,
        default_frequencies=((0.1, 0.5, 0.4), (0.5, 0.3, 0.2), (0.7, 0.2, 0.1)),
    )
    text = json.dumps(params.to_dict())
    assert LokiParams.from_dict(json.loads(text)) == params
    assert LokiParams.from_dict({}) == LokiParams()
    assert LokiParams.from_dict({"make1": 0.4}) == LokiParams(make1=0.4)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"make3": 0.9}, r"unknown LokiParams keys \['make3'\]"),
        ({"tightness": "lax"}, r"tightness must be one of \['tight', 'moderate', 'loose'\]"),
        ({"betting": "TRIPLES"}, "betting must be one of"),
        ({"make1": 0.9}, "need 0 < make1 < make2 <= 1"),
        ({"probability_play": "0.6"}, "probability_play must be a number, got '0.6'"),
        ({"make2": True}, "make2 must be a number, got True"),
        ({"semi_bluff": 1}, "semi_bluff must be true or false, got 1"),
        ({"default_frequencies": [[1.0]]}, "default_frequencies needs 3 rows"),
        ({"default_frequencies": "table"}, "default_frequencies must be 3 rows of 3 numbers"),
        ({"lookahead": 3}, "lookahead is 1 or 2 cards"),
        ({"preflop_shift": float("nan")}, "preflop_shift must be a finite number"),
    ],
)
def test_bad_files_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LokiParams.from_dict(data)
