"""The game-agnostic search: information-set Monte Carlo tree search over a game's :class:`SearchKnowledge`.

A game gets a searching bot by writing knowledge only: which decisions are worth a search, a quick policy
ranking the candidates and playing everything else, where a playout's horizon lies and how good a state
is. Its module names the knowledge class (:attr:`muster.core.plugin.GameModule.search`), and
:func:`muster.ai.make_bot` builds :class:`GameIsmctsBot` for a spec ``ismcts:…`` when the game has no
``ismcts`` bot of its own. The search touches the game only through the :class:`~muster.core.Rules`
functions and the knowledge, and only through determinizations of the bot's own view.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from muster.core import JSON, Action, Rules
from muster.core.bots import BotSpecError
from muster.core.budget import budget_plan, cpu_now, overrun, playout_cost, round_sizes
from muster.core.registry import game_module


class SearchKnowledge(Protocol):
    """What the game-agnostic search needs from a game: which decisions to search, the candidates worth
    searching, a quick policy for everything else, and an evaluation of where a playout stops. It sees
    full states, but only determinizations the search built from the bot's own view."""

    def searched(self, state: Any) -> bool:
        """True at a decision worth a search (elsewhere the quick policy answers)."""
        ...

    def candidates(self, state: Any, legal: list[Action], seat: str) -> list[Action]:
        """The legal actions, best first by the quick policy's judgement."""
        ...

    def policy(self, state: Any, legal: list[Action], seat: str) -> Action:
        """The quick policy's choice: used at unsearched decisions and for both sides in playouts."""
        ...

    def milestone(self, state: Any) -> bool:
        """True at a decision that marks the playout's horizon (a turn or an action beginning)."""
        ...

    def value(self, state: Any, seat: str) -> float:
        """How good a non-final state is for ``seat``, in points (the search squashes them with ``scale``)."""
        ...


KnowledgeFactory = Callable[[Rules, int, dict[str, str]], SearchKnowledge]
"""Builds a game's knowledge: ``factory(rules, seed, options)`` takes the options it knows out of the dict and
leaves the rest for the search, which refuses what nobody took."""


def knowledge_of(game: str) -> KnowledgeFactory | None:
    """The knowledge class a game's module names for the search, or None if the game gives none."""
    factory: KnowledgeFactory | None = game_module(game).part("search")
    return factory


class GameIsmctsBot:
    """ISMCTS for any game whose module names its :class:`SearchKnowledge` (``search``, or ``knowledge`` given
    here); only :class:`Rules` functions touch the game (``determinize``, ``clone``, ``legal_actions``,
    ``apply``, ``active_seat``, ``outcome``).

    At a searched decision the knowledge's ``width`` best candidates (default 3) go through sequential
    halving (Karnin, Koren & Somekh 2013): each round plays every surviving candidate in the same fresh
    determinizations of the bot's view, then lets both sides carry on with the quick policy until ``horizon``
    more milestones have passed (default 1), and keeps the better half by the mean squashed value
    (``1 / (1 + exp(-points / scale))``, ``scale`` default 30; a finished game counts 1, 0 or ½).
    Budget: ``iterations`` playouts per decision (default 12; deterministic for a seed) or ``seconds``
    (wall clock, split evenly over the rounds). ``cpu`` adds a budget of CPU seconds per decision with
    ``iterations`` as the cap: where the cap fits (by what playouts measured in this process cost), the play
    is the cap's exactly; otherwise fewer determinizations a round, then fewer candidates
    (:func:`muster.core.budget.budget_plan`), and no new determinization or round once half as much again is
    spent (:data:`muster.core.budget.OVERRUN`)."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None,
                 knowledge: KnowledgeFactory | None = None) -> None:
        opts = dict(options or {})
        game = rules.info.name
        if knowledge is None:
            knowledge = knowledge_of(game)
            if knowledge is None:
                raise BotSpecError(f"ismcts has no knowledge of {game!r}")
        self.knowledge = knowledge(rules, seed, opts)
        try:
            self.iterations = int(opts.pop("iterations", "12"))
            self.seconds = float(opts.pop("seconds", "0"))
            self.cpu = float(opts.pop("cpu", "0"))
            self.width = max(1, int(opts.pop("width", "3")))
            self.horizon = max(0, int(opts.pop("horizon", "1")))
            self.scale = float(opts.pop("scale", "30"))
        except ValueError as exc:
            raise BotSpecError(f"bad ismcts option: {exc}") from exc
        if opts:
            raise BotSpecError(f"unknown ismcts option(s) {sorted(opts)} for {game}; known: iterations, seconds, "
                               "cpu, width, horizon, scale and the game's own")
        if self.iterations < 1 and self.seconds <= 0:
            raise BotSpecError("ismcts needs iterations >= 1 or seconds > 0")
        if not (math.isfinite(self.cpu) and self.cpu >= 0):
            raise BotSpecError("ismcts cpu is a number of CPU seconds >= 0")
        if self.scale <= 0:
            raise BotSpecError("ismcts scale must be positive")
        self.name = "ismcts"
        self.rules = rules
        self._rng = random.Random(seed)
        self.last_iterations = 0
        self.last_search: dict[Action, tuple[int, float]] | None = None
        """After a searched choice: per candidate, its playouts and their mean value (the bot's own scale)."""
        budget_free = {k: v for k, v in (options or {}).items() if k not in ("iterations", "seconds", "cpu")}
        self._cost = playout_cost(("ismcts", game, tuple(sorted(budget_free.items()))))
        self._decision_start = 0.0

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The searched choice, made from determinizations of ``view`` alone."""
        self.last_iterations = 0
        self.last_search = None
        if len(legal) == 1:
            return legal[0]
        self._decision_start = cpu_now()
        state = self.rules.determinize(view, seat, self._rng.getrandbits(62))
        if not self.knowledge.searched(state):
            return self.knowledge.policy(state, legal, seat)
        alive = self.knowledge.candidates(state, legal, seat)[: self.width]
        if len(alive) == 1:
            return alive[0]
        return self._halving(view, alive, seat)

    def _halving(self, view: dict[str, JSON], alive: list[Action], seat: str) -> Action:
        affordable = None
        estimate = self._cost.estimate()
        if self.cpu > 0 and estimate:
            affordable = max(0.0, self.cpu - (cpu_now() - self._decision_start)) / estimate
        width, per_round = budget_plan(len(alive), self.iterations, affordable)
        if width < 2:
            return alive[0]  # not even one fair comparison fits: the knowledge's best
        alive = alive[:width]
        totals = {a: 0.0 for a in alive}
        counts = {a: 0 for a in alive}
        sizes = round_sizes(width, self.iterations, per_round)
        start = time.perf_counter()
        for r, (_alive, per) in enumerate(sizes):
            if r > 0 and self._over_budget():
                break  # the leader so far (``alive`` is sorted)
            deadline = start + self.seconds * (r + 1) / len(sizes) if self.seconds > 0 else None
            k = 0
            while (k < per) if deadline is None else (k == 0 or time.perf_counter() < deadline):
                if k > 0 and self._over_budget():
                    break
                t0 = cpu_now()
                base = self.rules.determinize(view, seat, self._rng.getrandbits(62))
                for a in alive:
                    totals[a] += self._playout_value(base, a, seat)
                    counts[a] += 1
                    self.last_iterations += 1
                self._cost.record(cpu_now() - t0, len(alive))
                k += 1
            # a stable sort: equal means keep the knowledge's order
            alive.sort(key=lambda a: -totals[a] / counts[a])
            alive = alive[: math.ceil(len(alive) / 2)]
        # What the search saw, for datasets (muster.lab.dataset): playouts and mean value per candidate.
        self.last_search = {a: (counts[a], totals[a] / counts[a]) for a in totals if counts[a]}
        return alive[0]

    def _over_budget(self) -> bool:
        return overrun(self.cpu, lambda: cpu_now() - self._decision_start)

    def _playout_value(self, base: Any, first: Action, seat: str) -> float:
        rules, knowledge = self.rules, self.knowledge
        s = rules.clone(base)
        rules.apply(s, first)
        passed = 0
        while rules.outcome(s) is None:
            if knowledge.milestone(s):
                if passed >= self.horizon:
                    break
                passed += 1
            legal = rules.legal_actions(s)
            mover = rules.active_seat(s)
            if not legal or mover is None:
                break  # a determinization the hidden facts rule out (the enemy stuck mid-decision): score it as is
            rules.apply(s, legal[0] if len(legal) == 1 else knowledge.policy(s, legal, mover))
        out = rules.outcome(s)
        if out is not None:
            return 0.5 if out.winner is None else float(out.winner == seat)
        return 1.0 / (1.0 + math.exp(-knowledge.value(s, seat) / self.scale))
