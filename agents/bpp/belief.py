"""P(BPP Win) at each decision of a hand: the network fed with the hand's evidence.

``Belief`` follows one hand at a time. It re-weights a vector over each opponent's current type
of every round after each of that opponent's actions (Carlton: "this probability distribution
is re-weighted after each opponent action, to be consistent with the betting actions performed
throughout the course of play"), and on entering a round it looks up BPP's current type, the
board class and the products of ``agents.bpp.network.Network`` for them. A decision then costs
a handful of small NumPy products.

Multi-way (ours, see ``agents.bpp.decision``): the probability of beating the field is the
product of the probabilities of beating each opponent still in the hand, each inferred from its
own actions and its own model, as if the opponents' hands were independent given the board.
Opponents are told apart by seat.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from agents.bpp.hand_types import NUM_CURRENT_TYPES, cached_board_class, cached_hand_type
from agents.bpp.network import Network
from agents.bpp.opponent import OpponentModel, classify
from envs.view import PlayerView

__all__ = ["Belief"]

Array = npt.NDArray[np.float64]


class Belief:
    """BPP's posterior P(win) over the decisions of a hand, learning between hands.

    Args:
        network: The card-combinatorial tables.
        model: The opponent model (its likelihoods are read once per hand).
    """

    def __init__(self, network: Network, model: OpponentModel) -> None:
        self.network = network
        self.model = model
        self._hand: tuple[int, int, tuple[int, int], int] | None = None
        self._seen = 0
        self._street = -1
        self._p = 0.5
        self._fresh = False
        # Per seat: the product of its action likelihoods per round and type, L_k(C).
        self._likelihood: Array = np.ones((0, 4, NUM_CURRENT_TYPES))
        # Per seat, for the current round: u(C) = sum_F' P(C | F') lambda_<r(F') num(F') and
        # the same with den, stacked, so that P(win) = (u_num . L_r) / (u_den . L_r). Pre-flop
        # it is the same for every seat, ``(2, 27)``.
        self._u: Array = np.ones((2, NUM_CURRENT_TYPES))
        self._models: list[Array] = []

    def forget(self) -> None:
        """Drop the hand in progress and everything learned about opponents."""
        self._hand = None
        self.model.forget()

    def end_hand(self, view: PlayerView) -> None:
        """Learn from a finished hand's showdown (when learning) and drop the hand."""
        self.model.observe_hand(view)
        self._hand = None

    def drop_hand(self) -> None:
        """Forget the hand in progress without learning from it (one that did not happen)."""
        self._hand = None

    def win_probability(self, view: PlayerView) -> float:
        """P(BPP beats every opponent still in the hand at the showdown), ties half."""
        actions = view.actions
        hand = (view.hand_id, view.seat, view.hole, view.rules.num_seats)
        if hand != self._hand or len(actions) < self._seen:
            self._start(view, hand)
        if len(actions) != self._seen:
            self._absorb(view)
        if view.street != self._street:
            self._enter_round(view)
        if not self._fresh:
            self._p = self._compute(view)
            self._fresh = True
        return self._p

    def _opponents(self, view: PlayerView) -> list[int]:
        me, folded = view.seat, view.folded
        if len(folded) == 2:
            return [1 - me]  # heads-up: BPP acts, so the other seat has not folded
        return [s for s in range(len(folded)) if s != me and not folded[s]]

    def _compute(self, view: PlayerView) -> float:
        opponents = self._opponents(view)
        r, u = self._street, self._u
        if len(opponents) == 1:
            s = opponents[0]
            num, den = ((u if u.ndim == 2 else u[s]) @ self._likelihood[s, r]).tolist()
            return float(num / max(den, 1e-300))
        if u.ndim == 2:  # the same for every opponent (pre-flop)
            terms = self._likelihood[opponents, r] @ u.T
        else:
            terms = np.einsum("suc,sc->su", u[opponents], self._likelihood[opponents, r])
        return float(np.prod(terms[:, 0] / np.maximum(terms[:, 1], 1e-300)))

    def _start(self, view: PlayerView, hand: tuple[int, int, tuple[int, int], int]) -> None:
        n = view.rules.num_seats
        self._hand = hand
        self._seen = 0
        self._street = -1
        if len(self._likelihood) == n:
            self._likelihood.fill(1.0)
        else:
            self._likelihood = np.ones((n, 4, NUM_CURRENT_TYPES))
        likelihoods = self.model.likelihoods
        self._models = [likelihoods(s) for s in range(n)]

    def _absorb(self, view: PlayerView) -> None:
        """Re-weight each opponent's type vectors by its new actions."""
        me = view.seat
        sizes = view.rules.bet_sizes
        likelihood, models = self._likelihood, self._models
        for acted in view.actions[self._seen :]:
            if acted.seat != me:
                street = acted.street
                cls = classify(acted, sizes[street])
                if cls is not None:
                    likelihood[acted.seat, street] *= models[acted.seat][street, cls]
        self._seen = len(view.actions)
        self._fresh = False

    def _enter_round(self, view: PlayerView) -> None:
        net = self.network
        r = int(view.street)
        board = view.board
        mine = cached_hand_type((*view.hole, *board))
        self._street = r
        self._fresh = False
        if r == 0:
            self._u = net.preflop_terms[mine]
            return
        beta = cached_board_class(board)
        terms = net.ratio_terms[r, beta, mine]  # (2, 25)
        opponents = self._opponents(view)
        if len(opponents) == 1:  # heads-up: one opponent's vectors, 1-D and cheaper
            # lambda(F') = prod_k<r sum_C L_k(C) P(C_k = C | F')
            likelihood, current = self._likelihood[opponents[0]], net.current[r, beta]
            lam = likelihood[0] @ current[0]
            for k in range(1, r):
                lam *= likelihood[k] @ current[k]
            self._u = (lam * terms) @ net.current_t[r, beta, r]
            return
        likelihood = self._likelihood[opponents, :r, np.newaxis, :]  # (s, k, 1, C)
        lam = (likelihood @ net.current[r, beta, :r]).prod(axis=1)  # (s, 1, F')
        self._u = np.ones((len(self._likelihood), 2, NUM_CURRENT_TYPES))
        self._u[opponents] = (lam * terms) @ net.current_t[r, beta, r]
