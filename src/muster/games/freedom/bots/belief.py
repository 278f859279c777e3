"""A belief over the opponent's hidden hand: its possible hands weighed by how likely its plays were.

A view shows the cards the opponent has played in this Action phase (they are the last ones on the discard
pile, in order, and the turns alternate from the side that started), but not the cards it kept. Under a play
model — a side plays card ``c`` from hand ``H`` with chance ``exp(θ_c) / Σ_{h∈H} exp(θ_h)``
(:meth:`muster.games.freedom.bots.learned.LearnedModel.play_logit`, fitted on the Heuristic's choices) — its
``k``-th play this phase was made from its hand now, ``H``, together with the cards it played from then on, so

    P(plays | H) ∝ Π_k 1 / (S(H) + T_k),   S(H) = Σ_{h∈H} exp(θ_h),   T_k = Σ_{j≥k} exp(θ_{p_j})

(the numerators do not depend on ``H``). A hand full of cards the opponent would gladly have played is unlikely:
it would have played one. :class:`Belief` draws hands by sampling-importance-resampling (uniform candidate
hands, kept in proportion to that weight) and deals them into a determinization; only the opponent's hand and
the draw piles change, never what the bot's seat has seen. Hands drawn before this phase are not modelled (the
hands are refilled between phases).
"""

from __future__ import annotations

import math
import random
from typing import Any

from muster.games.freedom.bots.learned import LearnedModel
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other
from muster.games.freedom.datafiles import design
from muster.games.freedom.view import unseen_cards

CANDIDATES = 16
"""Uniform candidate hands per drawn hand (sampling-importance-resampling)."""


def phase_plays(v: dict[str, Any]) -> dict[str, list[int]]:
    """Per side, the cards it has played in the current Action phase, in order, read from a view alone.

    Every card played is discarded at once and the sides alternate from the one that started, a side that has
    played its last card of the phase (or has none) being skipped, so the last ``n`` discards of the pile in use
    are the phase's plays (``n`` the two sides' counts). Empty when the view does not add up (then nothing is
    inferred)."""
    played = {IMPERIAL: int(v["played"][IMPERIAL]), INSURGENT: int(v["played"][INSURGENT])}
    n = played[IMPERIAL] + played[INSURGENT]
    out: dict[str, list[int]] = {IMPERIAL: [], INSURGENT: []}
    first = v.get("first")
    if n == 0 or first not in (IMPERIAL, INSURGENT):
        return out
    deck = "B" if int(v["round"]) >= int(design()["period_b_from_round"]) else "A"
    pile = list(v["discards"][deck])
    if len(pile) < n:
        return out
    recent = pile[-n:]
    left = dict(played)
    turn = str(first)
    for number in recent:
        if left[turn] == 0:
            turn = other(turn)
        out[turn].append(int(number))
        left[turn] -= 1
        turn = other(turn)
    return out


class Belief:
    """The weighted belief over ``opponent``'s hand of one view (see the module docstring)."""

    def __init__(self, v: dict[str, Any], seat: str, model: LearnedModel) -> None:
        self.seat = seat
        self.opponent = other(seat)
        self.unseen = unseen_cards(v, seat)
        self.in_hand = {deck: len(cards) - int(v["decks"][deck]["count"]) for deck, cards in self.unseen.items()}
        plays = phase_plays(v)[self.opponent]
        keen = {c: math.exp(model.play_logit(self.opponent, c)) for deck in self.unseen for c in self.unseen[deck]}
        self.keen = keen
        # T_k for each of the opponent's plays this phase (the cards it still held at its k-th play).
        tails: list[float] = []
        total = 0.0
        for c in reversed(plays):
            total += math.exp(model.play_logit(self.opponent, c))
            tails.append(total)
        self.tails = tails

    @property
    def informed(self) -> bool:
        """True when the opponent's plays say anything about its hand."""
        return bool(self.tails)

    def log_weight(self, hand: list[int]) -> float:
        """The log-likelihood of the opponent's plays this phase if its hand is ``hand`` (up to a constant)."""
        s = sum(self.keen.get(c, 1.0) for c in hand)
        return -sum(math.log(s + t) for t in self.tails)

    def uniform_hand(self, rng: random.Random) -> list[int]:
        """A hand drawn uniformly from the unseen cards (per deck as many as the opponent holds)."""
        hand: list[int] = []
        for deck in ("A", "B"):
            if self.in_hand[deck] > 0:
                hand += rng.sample(self.unseen[deck], self.in_hand[deck])
        return hand

    def draw(self, rng: random.Random, candidates: int = CANDIDATES) -> list[int]:
        """A hand drawn from the belief (uniform when the plays say nothing)."""
        if not self.tails:
            return self.uniform_hand(rng)
        hands = [self.uniform_hand(rng) for _ in range(candidates)]
        logs = [self.log_weight(h) for h in hands]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        return hands[rng.choices(range(candidates), weights)[0]]

    def deal(self, state: Any, hand: list[int], rng: random.Random) -> None:
        """Give ``hand`` to the opponent in ``state`` (a determinization of the same view) and the other unseen
        cards, shuffled, to the draw piles."""
        chosen = set(hand)
        state.hands[self.opponent] = sorted(hand)
        for deck in ("A", "B"):
            pile = [c for c in self.unseen[deck] if c not in chosen]
            rng.shuffle(pile)
            state.decks[deck] = pile

    def loglik_vs_uniform(self, true_hand: list[int], rng: random.Random, samples: int = 2000) -> float:
        """``log P_belief(true_hand) - log P_uniform(true_hand)`` (nats): the log weight of the true hand less
        the log of the mean weight of uniform hands (Monte Carlo over ``samples`` of them)."""
        if not self.tails:
            return 0.0
        logs = [self.log_weight(self.uniform_hand(rng)) for _ in range(samples)]
        top = max(logs)
        log_mean = top + math.log(sum(math.exp(x - top) for x in logs) / samples)
        return self.log_weight(true_hand) - log_mean
