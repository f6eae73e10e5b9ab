"""The pre-flop round of a best response: decisions per holding, and VPIP and PFR exactly.

Pre-flop the learner knows only its two cards. The value of each way to the flop (a pre-flop
exit) is the mean, over the flops that avoid its cards, of the flop-round values; one backup of
the pre-flop round over all holdings then gives the learner's pre-flop decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from agents.best_response.backup import Backup, Choices, backup
from agents.best_response.public import Role
from agents.best_response.tree import Outcome, PublicGame, Round
from envs.rules import Action, Street

__all__ = ["preflop_backup", "preflop_frequencies"]

Array = npt.NDArray[np.float64]


def preflop_backup(
    game: PublicGame,
    flop_values: Sequence[Array],
    *,
    quantities: int,
    fixed: Mapping[int, Choices] | None = None,
    tolerance: float = 1e-9,
) -> Backup:
    """Back up the pre-flop round over all holdings.

    ``flop_values[l]`` is the ``(quantities, holdings)`` value at the start of flop round ``l``.
    """
    return backup(
        game.rounds[Street.PREFLOP][0],
        next_round=flop_values.__getitem__,
        quantities=quantities,
        fixed=fixed,
        tolerance=tolerance,
    )


def preflop_frequencies(round_: Round, choices: Mapping[int, Choices]) -> tuple[Array, Array]:
    """Per holding, the probability of VPIP and of PFR under the learner's pre-flop choices.

    VPIP: the learner puts chips in voluntarily (raises, or calls a positive amount); PFR: it
    raises. As in the match runner's statistics (``envs.match.hands.SeatFlags``), the big
    blind's free check is not voluntary.
    """

    def voluntary(action: Action, to_call: int) -> bool:
        return action == Action.RAISE or (action == Action.CALL and to_call > 0)

    def raised(action: Action, to_call: int) -> bool:
        return action == Action.RAISE

    return _probability(round_, choices, voluntary), _probability(round_, choices, raised)


def _probability(
    round_: Round, choices: Mapping[int, Choices], hit: Callable[[Action, int], bool]
) -> Array:
    """Probability, per holding, that some learner action of the round satisfies ``hit``."""

    def walk(index: int, reach: Array) -> Array:
        node = round_.nodes[index]
        total = np.zeros_like(reach)
        for action in node.legal_actions:
            child = node.children[action]
            assert child is not None
            if node.actor == Role.BOT:
                assert node.probabilities is not None
                if node.probabilities[action] == 0.0:
                    continue
                share = reach * node.probabilities[action]
            else:
                share = reach * (choices[index] == action)
                if hit(action, node.to_call):
                    total += share
                    continue
            if child.outcome == Outcome.NODE:
                total += walk(child.value, share)
        return total

    some_choice = next(iter(choices.values()))
    return walk(0, np.ones(some_choice.shape))
