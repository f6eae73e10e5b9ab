"""How a parameter point is scored: duplicate heads-up matches on common, seeded deal blocks.

A candidate point plays its agent (built by the study's spec, ``tuning.studies``) heads-up
against each opponent of the protocol on the same blocks of deals. Block ``b`` of seed
namespace ``ns`` uses the deals of ``envs.match.deal_deck(block_seed(seed, ns, b), d)``: every
candidate sees the same cards (common random numbers), and each deal is played twice with the
seats swapped (duplicate), so card luck cancels within a deal and between candidates. The
agents' own generators are seeded from the block too, so a block's result is a pure function
of (parameters, block).

One observation is a deal: the candidate's chips over its two seatings, in small bets per
hand, averaged over the opponents (each opponent weighs the same). Namespaces keep the tuning
deals, the re-evaluation deals and the confirmation deals apart, so that the reported figures
are not fitted to the deals the sampler saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.match import play_match
from envs.registry import available_agents, make_agent
from envs.rules import Rules
from envs.validation import whole_number
from tuning.studies.spec import StudySpec


class Namespace(IntEnum):
    """Seed namespaces of the deals: never reuse tuning deals to report a result."""

    TUNE = 0
    REEVALUATE = 1
    CONFIRM = 2
    HOLDOUT = 3
    """Held-out deals for comparisons between studies (e.g. samplers)."""


@dataclass(frozen=True, kw_only=True)
class MatchProtocol:
    """What one trial plays; stored with the study, because values of different protocols
    are not comparable."""

    opponents: tuple[str, ...] = ("bpp-curves",)
    """Registry names the candidate plays heads-up against, each weighing the same (the
    default: the curve BPP, which Carlton tuned BPP against)."""
    deals_per_block: int = 250
    """Duplicate deals per block; a deal is two hands."""
    blocks: int = 40
    """Blocks per trial, reported to Optuna one by one (``trial.report``); 40 x 250 deals
    give a trial's value a standard error of about 0.035 sb/hand against bpp-curves."""
    seed: int = 0
    """Root seed of every deal and every agent generator."""
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2
    big_bet: int = 4

    def __post_init__(self) -> None:
        if not self.opponents:
            raise ValueError("the protocol needs at least one opponent")
        known = available_agents()
        unknown = [name for name in self.opponents if name not in known]
        if unknown:
            raise ValueError(
                f"unknown opponent {', '.join(map(repr, unknown))}; registered agents: "
                f"{', '.join(known)}"
            )
        for name in ("deals_per_block", "blocks"):
            whole_number(name, getattr(self, name), minimum=1, what="a positive integer")
        whole_number("seed", self.seed, minimum=0)
        self.rules  # noqa: B018 - validates the blinds and bets now

    @property
    def rules(self) -> Rules:
        """The heads-up game every block is played in."""
        return Rules(
            num_seats=2,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
        )

    @property
    def hands_per_block(self) -> int:
        """Hands the candidate plays in one block: two per deal per opponent."""
        return 2 * self.deals_per_block * len(self.opponents)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (stored as a study attribute)."""
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchProtocol:
        """Inverse of ``to_dict``."""
        return cls(**{**data, "opponents": tuple(data["opponents"])})


def block_seed(seed: int, namespace: Namespace, block: int) -> int:
    """The match seed of block ``block`` in ``namespace`` (independent streams)."""
    state = np.random.SeedSequence([seed, int(namespace), block]).generate_state(1, np.uint32)
    return int(state[0])


def play_block(
    spec: StudySpec,
    values: Mapping[str, float],
    protocol: MatchProtocol,
    namespace: Namespace,
    block: int,
) -> npt.NDArray[np.float64]:
    """The result per deal of one block of the agent of ``spec`` with the parameters
    ``values``, in small bets per hand (see the module docstring)."""
    seed = block_seed(protocol.seed, namespace, block)
    per_opponent = []
    for opponent in protocol.opponents:
        result = play_match(
            [spec.agent_for(values), make_agent(opponent)],
            hands=2 * protocol.deals_per_block,
            seed=seed,
            rules=protocol.rules,
            names=("candidate", "opponent"),
            keep_deals=True,
        )
        assert result.deal_chips is not None  # kept on request
        per_opponent.append(result.deal_chips[:, 0] / (2 * protocol.small_bet))
    per_deal: npt.NDArray[np.float64] = np.mean(per_opponent, axis=0)
    return per_deal
