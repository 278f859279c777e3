"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Every iteration draws one *determinization*: a full state consistent with what the bot's seat
knows, built by ``rules.determinize(view, seat, seed)`` — the opponent's hand from the cards this
seat has not seen, the deck order and the future dice all at random, never from the true game.
The iteration walks one shared tree keyed by actions, choosing among the actions legal in that
determinization by UCB with availability counts (an action's exploration term counts only the
visits in which it was available), expands one new action, and scores the position it reaches
with the hand-written evaluation (a cut-off instead of a playout to the end: the game is long and
the budget small). Dice outcomes differ between determinizations, so each node's value is an
average over them. The most visited root action is played.

Budget: ``iterations=N`` (deterministic for a given seed) or ``seconds=T`` (wall-clock, so not
reproducible); ``per_action=K`` caps the iterations of a decision at K per legal action, so the
budget goes to the decisions with many choices (a card to play) rather than the narrow ones.
Other options: ``c`` (exploration constant), ``scale`` (points per logit of the
evaluation's win-probability squashing), ``card_ap`` (what an AP of a card just played for its AP
is worth at a leaf, before any is spent: as in the heuristic, more than the bare AP price, because
the search rarely sees far enough to spend them all), ``plan`` (``last``, the default: a side's
last card of the Action phase is played by the heuristic's whole-card plan, a macro-action the
search's shallow tree does not find; ``off``), ``rollout`` (``none`` or ``greedy``: finish the action in
progress with the heuristic's lookahead before evaluating).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from muster.ai.base import BotSpecError, register_bot
from muster.ai.evaluation import DEFAULT, ap_left, evaluate, reward_pending
from muster.core import JSON, Action, Rules
from muster.core import rng as rng_mod
from muster.games.freedom.constants import IMPERIAL, INSURGENT

POOL = 24
"""Determinizations built per decision; iterations beyond that reuse copies of them."""


class Node:
    """Statistics of one action in the tree, from the view of the seat that chose it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: str | None) -> None:
        self.seat = seat
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class IsmctsBot:
    """ISMCTS over determinizations of the bot's own view (see the module docstring for options)."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None) -> None:
        opts = dict(options or {})
        try:
            self.iterations = int(opts.pop("iterations", "300"))
            self.seconds = float(opts.pop("seconds", "0"))
            self.c = float(opts.pop("c", "0.1"))
            self.scale = float(opts.pop("scale", "8"))
            self.rollout = opts.pop("rollout", "none")
            self.per_action = int(opts.pop("per_action", "0"))
            self.card_ap = float(opts.pop("card_ap", "0.6"))
            self.plan = opts.pop("plan", "last")
        except ValueError as exc:
            raise BotSpecError(f"bad ismcts option: {exc}") from exc
        if opts:
            known = "iterations, seconds, per_action, card_ap, plan, c, scale, rollout"
            raise BotSpecError(f"unknown ismcts option(s) {sorted(opts)}; known: {known}")
        if self.rollout not in ("none", "greedy"):
            raise BotSpecError("ismcts rollout must be 'none' or 'greedy'")
        if self.plan not in ("last", "off"):
            raise BotSpecError("ismcts plan must be 'last' or 'off'")
        if self.iterations < 1 and self.seconds <= 0:
            raise BotSpecError("ismcts needs iterations >= 1 or seconds > 0")
        self.name = "ismcts"
        self.rules = rules
        self._rng = random.Random(seed)
        self._greedy: Any = None
        if self.rollout == "greedy":
            from muster.ai.heuristic import HeuristicBot

            self._greedy = HeuristicBot(rules, seed, {"samples": "1", "nodes": "60"})
        self.last_iterations = 0
        self._pool: list[Any] = []
        self._planner: Any = None
        if self.plan == "last":
            from muster.ai.heuristic import HeuristicBot

            self._planner = HeuristicBot(rules, seed, {"plan": "last"})

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The most visited root action after the search budget is spent."""
        if len(legal) == 1:
            return legal[0]
        if self._planner is not None:
            state = self.rules.determinize(view, seat, self._rng.getrandbits(62))
            if self._planner.plans(state, seat):
                return self._planner.choose_in(state, legal, seat)
        root = Node(None)
        self._pool = []
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        iterations = self.iterations
        if self.per_action > 0:
            iterations = min(iterations, self.per_action * len(legal))
        while True:
            if deadline is None and done >= iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline and done > 0:
                break
            self._iterate(root, view, seat)
            done += 1
        self.last_iterations = done
        return self._best(root, legal)

    def _best(self, root: Node, legal: list[Action]) -> Action:
        # Most visits, then the higher mean; ``legal`` order breaks the remaining ties.
        def key(a: Action) -> tuple[int, float]:
            n = root.children.get(a)
            return (n.visits, n.total / n.visits) if n and n.visits else (0, 0.0)

        return max(legal, key=key)

    def _determinization(self, view: dict[str, JSON], seat: str) -> Any:
        """A fresh determinization of ``view``. Building one from the view costs more than a whole
        iteration's moves, so up to ``POOL`` are built per decision and then reused as copies, each
        copy with its own freshly seeded dice (the dice are hidden too, so any seed is consistent)."""
        rules = self.rules
        if len(self._pool) < POOL:
            s = rules.determinize(view, seat, self._rng.getrandbits(62))
            self._pool.append(s)
            s = rules.clone(s)
        else:
            s = rules.clone(self._pool[self._rng.randrange(POOL)])
        s.rng = rng_mod.seed_state(self._rng.getrandbits(62))
        return s

    def _iterate(self, root: Node, view: dict[str, JSON], seat: str) -> None:
        rules = self.rules
        s = self._determinization(view, seat)
        node = root
        path: list[Node] = []
        while rules.outcome(s) is None:
            legal = rules.legal_actions(s)
            if len(legal) == 1:
                rules.apply(s, legal[0])  # forced: no choice to learn about
                continue
            mover = rules.active_seat(s)
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[self._rng.randrange(len(untried))]
                child = Node(mover)
                node.children[a] = child
                rules.apply(s, a)
                path.append(child)
                break
            a = self._select(node, legal)
            node = node.children[a]
            rules.apply(s, a)
            path.append(node)
        if self._greedy is not None:
            self._finish_action(s)
        p = self._leaf_value(s)
        for n in path:
            n.visits += 1
            n.total += p if n.seat == IMPERIAL else 1.0 - p

    def _select(self, node: Node, legal: list[Action]) -> Action:
        best, best_u = legal[0], -1.0
        for a in legal:
            n = node.children[a]
            u = n.total / n.visits + self.c * math.sqrt(math.log(n.avail) / n.visits)
            if u > best_u:
                best, best_u = a, u
        return best

    def _finish_action(self, s: Any) -> None:
        """Complete a half-made choice (a unit picked, its destination not yet) with the heuristic."""
        rules = self.rules
        for _ in range(4):
            if rules.outcome(s) is not None or not s.stack or s.stack[-1]["kind"] in ("card_turn", "ap"):
                return
            legal = rules.legal_actions(s)
            seat = rules.active_seat(s)
            assert seat is not None
            rules.apply(s, self._greedy.choose_in(s, legal, seat))

    def _leaf_value(self, s: Any) -> float:
        """The chance that the Imperial side wins, from the evaluation (AP in hand counted)."""
        points = evaluate(s)
        if s.result is None:
            points += reward_pending(s)
            points += (ap_left(s, IMPERIAL) - ap_left(s, INSURGENT)) * DEFAULT.ap
            points += self._fresh_card_bonus(s)
        return 1.0 / (1.0 + math.exp(-points / self.scale))


    def _fresh_card_bonus(self, s: Any) -> float:
        """Points (Imperial positive) for a card just played for AP whose AP are all still unspent."""
        f = s.stack[-1] if s.stack else None
        if f is None or f["kind"] != "ap" or f.get("mode") != "card" or f["ap"] != f["printed"]:
            return 0.0
        bonus = (self.card_ap - DEFAULT.ap) * int(f["ap"])
        return bonus if f.get("seat") == IMPERIAL else -bonus


register_bot("ismcts", IsmctsBot)
