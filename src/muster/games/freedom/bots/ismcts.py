"""Information-set Monte Carlo tree search (after Cowling, Powley & Whitehouse 2012).

Every iteration draws one *determinization*: a full state consistent with what the bot's seat
knows, built by ``rules.determinize(view, seat, seed)`` — the opponent's hand from the cards this
seat has not seen, the deck order and the future dice all at random, never from the true game.

Two trees (option ``tree``):

- ``cards`` (the default) searches what a card-driven game turns on: which card to play next, and
  whether as its event, for its AP or discarded to take the opponent's event. The candidates are
  the heuristic's ``width`` best choices (default 4). Each is scored by playing it in a
  determinization and letting both sides carry on with a quick heuristic until ``horizon`` more
  cards have been played (default 1: the opponent's answer), then evaluating. The budget goes to
  the candidates by sequential halving (Karnin, Koren & Somekh 2013): every round scores each
  surviving candidate on the same fresh determinizations, so they meet the same hidden hands and
  dice, and keeps the better half. ``iterations`` counts these playouts. Everything inside a
  card (which action, which unit, where) is left to the heuristic's whole-card plan (``plan``,
  default ``all``), which finds the combinations that single moves do not show. This tree is the
  strong one: a few hundred playouts over single moves see less of a card than the plan does.
- ``actions`` searches single moves: the shared tree is keyed by actions, chosen by UCB with
  availability counts (an action's exploration term counts only the visits in which it was
  available); each iteration expands one new action and scores where it lands with the
  evaluation (a cut-off instead of a playout to the end). Dice differ between determinizations,
  so a node's value is an average over them. The most visited root action is played. Options:
  ``per_action=K`` caps a decision's iterations at K per legal action; ``c`` (exploration),
  ``scale`` (points per logit when the evaluation is squashed to a win chance), ``card_ap`` (what
  an unspent AP of a card just played for its AP is worth at a leaf), ``plan`` (default ``last``:
  the side's last card of the phase is played by the heuristic's plan), ``rollout`` (``none`` or
  ``greedy``: finish the action in progress with the heuristic before evaluating).

Budget: ``iterations=N`` (deterministic for a given seed) or ``seconds=T`` per decision (wall-clock,
so not reproducible; it replaces ``iterations``, and ``cards`` splits it evenly over the halving
rounds). ``cpu=T`` (``cards`` only) adds a budget of CPU seconds per card (its choice and the bot's own decisions
until its next card) on top of ``iterations``, which stays the cap: where the cap's playouts fit in ``T`` (by what
the bot measured its playouts and the rest of its cards to cost in this process), the bot plays exactly as with
``iterations`` alone, reproducibly; on a slower install it plans fewer determinizations a round, then fewer
candidates (see :func:`muster.core.budget.budget_plan`). The budget covers the whole card: a determinization (or a
playout of one) is not started when what this card's playouts cost so far says it would end past the budget (the
playouts of an unfinished determinization are dropped, so the candidates stay compared on the same ones), no new
determinization or round starts once the card's choice has spent half as much again
(:data:`muster.core.budget.OVERRUN`), and once the card has spent its budget the planner's moves inside it stop
planning (``HeuristicBot.out_of_time``: the best plan found so far, or a single action's lookahead). Only CPU time
counts (the
thread's own and its worker processes'), so a busy machine does not weaken the bot, and the rules never see a
clock.
``playout_plan`` (``off``, ``last`` or ``all``) is the plan used by the quick
heuristic of the ``cards`` playouts. ``beach_threat`` (12) is the evaluation's weight for Imperial
units close to a Beach space no Insurgent unit blocks (see :mod:`muster.games.freedom.bots.evaluation`): with it the
playouts show the Insurgent what an unguarded Lagoon costs, and the Imperial what it offers.
``reach_threat`` (0: off) weighs the fewest AP any Imperial unit needs to reach a fort or a Beach space by any
route (see ``Weights.reach_threat`` in its evaluation); the search and its heuristics share it.
``counter`` (0: off) prices, while the Insurgent spends a card's AP, its chance of clearing an Imperial unit from a
fort or the Beach with them (``Weights.counter``), which a one-action lookahead cannot see when a Regroup must
come first; the search and its heuristics share it. ``counter_seat`` (``both``, the default, ``imperial`` or
``insurgent``) names the seat whose search uses it; holding the other seat, the bot searches as without it.
``money_ahead`` (0: off) is the Imperial's foresight: points per Money it would lack for the next round's upkeep
(``Weights.money_ahead``). It applies only while the bot holds the Imperial seat, so
the bot's play as the Insurgent is exactly what it is without the option. ``supplies_ahead`` (0: off) is the same
foresight for Supplies (``Weights.supplies_ahead``), also the Imperial's alone.
``reach_spread`` (0: off) adds that share of ``reach_threat`` for each further fort or Beach space within the
Imperial's reach (``Weights.reach_spread``), so each route the Insurgent blocks counts; ``reach_islands`` (``0``: off,
or ``1``) lets those routes pass through the islands, as Slow Movement may (``Weights.reach_islands``).
``answers`` (``off``) is handed to the inner heuristics: ``on`` scores an event after the opponent's answer to
its part of it, as the Heuristic does by default. It stays off here until an arena shows it helps the
search: in a first small sample ISMCTS with it (and 16 playouts) did not beat ISMCTS without it
(``docs/balance.md``). ``plan_answers`` (default: as ``answers``) sets it for the planner alone — the heuristic
that ranks the candidate cards and plays the bot's own cards — and leaves the cheap playout heuristic as
``answers`` says: with it off, an event whose loss the opponent chooses (46A *Deserters*) is never among the
candidates, so the playouts, which do play the opponent's answer, never get to try it.

Three options of ``tree=cards`` (all off by default, so every existing spec plays exactly as before):
``value`` says what a playout's end is worth: ``points`` (the evaluation's points, as before), ``prob`` (the
evaluation squashed to a chance by ``scale``), ``learned`` (the learned value's chance,
:mod:`muster.games.freedom.bots.learned`) or ``blend`` (the mean of those two chances); a finished game counts
1, ½ or 0 in the last three, so one deal with a landing no longer outweighs the others a hundredfold.
``ap_rank`` (``off`` or ``play``): with ``play``, a card played for its AP is ranked among the candidates by
playing its AP out here (the playout heuristic's plan, in the ranking's determinization) and evaluating where
that ends, instead of as the position with the AP unspent. ``belief`` (``off`` or ``on``): with ``on``, the
opponent's hand in each determinization is drawn from a belief that weighs hands by how likely the opponent's
plays this phase were under the learned play model (:mod:`muster.games.freedom.bots.belief`), not uniformly.
"""

from __future__ import annotations

import atexit
import math
import multiprocessing
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from muster.core import JSON, Action, Rules
from muster.core import rng as rng_mod
from muster.core.bots import BotSpecError
from muster.core.budget import budget_plan, cpu_now, overrun, playout_cost, round_sizes
from muster.games.freedom import RULES
from muster.games.freedom.bots.evaluation import ap_left, evaluate, reward_pending, value
from muster.games.freedom.bots.heuristic import HeuristicBot, threat_weights
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
            self.tree = opts.pop("tree", "cards")
            cards = self.tree == "cards"
            self.iterations = int(opts.pop("iterations", "8" if cards else "300"))
            self.seconds = float(opts.pop("seconds", "0"))
            self.cpu = float(opts.pop("cpu", "0"))
            self.c = float(opts.pop("c", "0.1"))
            self.scale = float(opts.pop("scale", "8"))
            self.rollout = opts.pop("rollout", "none")
            self.per_action = int(opts.pop("per_action", "0"))
            self.card_ap = float(opts.pop("card_ap", "0.6"))
            self.plan = opts.pop("plan", "all" if cards else "last")
            self.playout_plan = opts.pop("playout_plan", "off")
            self.width = max(1, int(opts.pop("width", "3")))
            self.horizon = max(0, int(opts.pop("horizon", "1")))
            self.weights = threat_weights(opts)
            money_ahead = float(opts.pop("money_ahead", "0"))
            supplies_ahead = float(opts.pop("supplies_ahead", "0"))
            counter_seat = opts.pop("counter_seat", "both")
            answers = opts.pop("answers", "off")
            plan_answers = opts.pop("plan_answers", answers)
            self.workers = max(0, int(opts.pop("workers", "0")))
            self.value_mode = opts.pop("value", "points")
            self.ap_rank = opts.pop("ap_rank", "off")
            self.belief_mode = opts.pop("belief", "off")
        except ValueError as exc:
            raise BotSpecError(f"bad ismcts option: {exc}") from exc
        if opts:
            known = ("tree, iterations, seconds, cpu, width, horizon, playout_plan, plan, beach_threat, reach_threat, "
                     "reach_spread, reach_islands, "
                     "counter, counter_seat, money_ahead, supplies_ahead, answers, plan_answers, workers, value, "
                     "ap_rank, belief, per_action, card_ap, c, scale, rollout")
            raise BotSpecError(f"unknown ismcts option(s) {sorted(opts)}; known: {known}")
        if counter_seat not in ("both", IMPERIAL, INSURGENT):
            raise BotSpecError(f"ismcts counter_seat must be 'both', '{IMPERIAL}' or '{INSURGENT}'")
        if answers not in ("on", "off") or plan_answers not in ("on", "off"):
            raise BotSpecError("ismcts answers and plan_answers must be 'on' or 'off'")
        if self.value_mode not in ("points", "prob", "learned", "blend") or self.ap_rank not in ("off", "play") \
                or self.belief_mode not in ("off", "on"):
            raise BotSpecError("ismcts value must be points, prob, learned or blend; ap_rank off or play; "
                               "belief off or on")
        if self.tree != "cards" and (self.value_mode != "points" or self.ap_rank != "off" or self.belief_mode != "off"):
            raise BotSpecError("ismcts value, ap_rank and belief need tree=cards")
        if self.rollout not in ("none", "greedy"):
            raise BotSpecError("ismcts rollout must be 'none' or 'greedy'")
        if self.tree not in ("cards", "actions"):
            raise BotSpecError("ismcts tree must be 'cards' or 'actions'")
        if self.plan not in ("all", "last", "off") or self.playout_plan not in ("all", "last", "off"):
            raise BotSpecError("ismcts plan and playout_plan must be 'all', 'last' or 'off'")
        if self.iterations < 1 and self.seconds <= 0:
            raise BotSpecError("ismcts needs iterations >= 1 or seconds > 0")
        if not (math.isfinite(self.cpu) and self.cpu >= 0) or (self.cpu and self.tree != "cards"):
            raise BotSpecError("ismcts cpu is a number of CPU seconds >= 0, for tree=cards")
        if self.workers and self.tree != "cards":
            raise BotSpecError("ismcts workers needs tree=cards")
        self.name = "ismcts"
        self.rules = rules
        self._rng = random.Random(seed)
        # What a worker process needs to rebuild this bot's playouts (everything but the budget and workers).
        self._task_options = tuple(sorted((k, v) for k, v in (options or {}).items()
                                          if k not in ("iterations", "seconds", "cpu", "workers")))
        # Bots that play out alike share what their playouts cost (a budget plans with it).
        self._cost = playout_cost(("freedom-ismcts", self._task_options))
        # The budget is a card's: its choice and the bot's own decisions until its next card (the planner's
        # moves inside the card, its answers to the opponent's), which cost what they cost; the search gets
        # what they typically leave.
        self._rest = playout_cost(("freedom-ismcts-rest", self._task_options))
        self._rest_spent: float | None = None
        self._card_spent = 0.0
        """CPU seconds the current card's earlier decisions cost (its choice, the planner's moves so far)."""
        self._card_turn = False
        self._decision_start = 0.0
        self._dets: dict[tuple[int, str], Any] = {}
        self.last_worker_cpu = 0.0
        self._learned: Any = None
        if self.value_mode in ("learned", "blend") or self.belief_mode == "on":
            from muster.games.freedom.bots.learned import WeightsMismatchError, load

            try:
                self._learned = load()
            except WeightsMismatchError as exc:
                raise BotSpecError(str(exc)) from exc
        self._belief: Any = None
        self._belief_view: int | None = None
        # The heuristics inside the search share its evaluation weights.
        threat = {"beach_threat": str(self.weights.beach_threat), "reach_threat": str(self.weights.reach_threat),
                  "counter": str(self.weights.counter), "reach_spread": str(self.weights.reach_spread),
                  "reach_islands": "1" if self.weights.reach_islands else "0", "answers": answers}
        self._greedy: Any = None
        if self.rollout == "greedy":
            self._greedy = HeuristicBot(rules, seed, {"samples": "1", "nodes": "60", **threat})
        self.last_iterations = 0
        self.last_search: dict[Action, tuple[int, float]] | None = None
        """After a searched choice: per candidate, its playouts and their mean value (the bot's own scale)."""
        self._pool: list[Any] = []
        self._planner: Any = None
        self._playout: Any = None
        if self.plan != "off" or self.tree == "cards":
            self._planner = HeuristicBot(rules, seed, {"plan": self.plan, **threat, "answers": plan_answers})
            # Plays the simulated cards of both sides between the searched choices: a cheap heuristic.
            self._playout = HeuristicBot(rules, seed + 1, {"samples": "1", "nodes": "60", "plan": self.playout_plan,
                                                        "beam": "3", "branch": "2", "completions": "2", **threat})
            if self.cpu > 0 and self.tree == "cards":
                # The budget is the whole card's: the planner's moves inside it stop deepening their plan once
                # the card has spent it (the playouts' heuristic is not cut: their cost is measured and planned).
                self._planner.out_of_time = self._card_over
        # ``money_ahead`` and ``supplies_ahead`` are the Imperial's foresight: the weights it searches with when it
        # holds that seat.
        # ``counter_seat`` keeps the counter term to one seat's search: the other searches without it.
        imperial = replace(self.weights, money_ahead=money_ahead, supplies_ahead=supplies_ahead)
        self._weights_by_seat = {IMPERIAL: imperial, INSURGENT: self.weights}
        if counter_seat != "both":
            other = INSURGENT if counter_seat == IMPERIAL else IMPERIAL
            self._weights_by_seat[other] = replace(self._weights_by_seat[other], counter=0.0)

    def _take_seat(self, seat: str) -> None:
        """Search, plan and play out with the weights of ``seat`` (they differ only by ``money_ahead``,
        ``supplies_ahead`` and ``counter_seat``)."""
        self.weights = self._weights_by_seat.get(seat, self._weights_by_seat[INSURGENT])
        for bot in (self._planner, self._playout, self._greedy):
            if bot is not None:
                bot.weights = self.weights

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The searched choice (see the module docstring), made from ``view`` alone."""
        self.last_search = None
        if len(legal) == 1:
            return legal[0]
        self._decision_start = cpu_now()
        self._take_seat(seat)
        if self.tree == "cards":
            self._card_turn = False
            chosen = self._choose_macro(view, legal, seat)
            if not self._card_turn and self._rest_spent is not None:
                self._rest_spent += self._spent()
            self._card_spent += self._spent()
            return chosen
        return self._search_actions(view, legal, seat)

    # --- tree=cards: search over whole cards ---------------------------------------------
    def _choose_macro(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """Search the choice of a card (which one; event, AP or trigger); leave the rest to the heuristic."""
        self.last_iterations = 0
        self.last_worker_cpu = 0.0
        self._dets.clear()
        self._belief = None
        if self.belief_mode == "on":
            from muster.games.freedom.bots.belief import Belief

            belief = Belief(view, seat, self._learned)
            self._belief = belief if belief.informed else None
            self._belief_view = id(view)
        state = self.rules.determinize(view, seat, self._rng.getrandbits(62))
        top = state.stack[-1] if state.stack else None
        if top is None or top["kind"] != "card_turn":
            return self._planner.choose_in(state, legal, seat)
        self._card_turn = True
        if self._rest_spent is not None:
            self._rest.record(self._rest_spent, 1)  # what the previous card cost after its choice
        self._rest_spent = 0.0
        self._card_spent = 0.0
        scores = self._planner.scores(state, legal, seat)
        if self.ap_rank == "play":
            scores = self._rank_ap(state, legal, scores, seat)
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
        alive = [legal[i] for i in ranked[: self.width]]
        self._pool = []
        if len(alive) == 1:
            return alive[0]
        return self._halving(view, alive, seat)

    def _rank_ap(self, state: Any, legal: list[Action], scores: list[float], seat: str) -> list[float]:
        """The planner's scores, with each card played for its AP scored by playing those AP out here (the
        playout heuristic's plan) and evaluating where the card ends, in the planner's points: a card whose
        AP buy a plan (a landing, a storm) shows what the plan is worth, not the AP's flat price."""
        out = list(scores)
        rules = self.rules
        for i, a in enumerate(legal):
            if a.verb != "ap":
                continue
            s = rules.clone(state)
            rules.apply(s, a)
            while rules.outcome(s) is None:
                top = s.stack[-1] if s.stack else None
                if top is not None and top["kind"] == "card_turn":
                    break
                moves = rules.legal_actions(s)
                mover = rules.active_seat(s)
                assert mover is not None
                rules.apply(s, moves[0] if len(moves) == 1 else self._playout.choose_in(s, moves, mover))
            out[i] = value(s, seat, self.weights)
        return out

    def _halving(self, view: dict[str, JSON], alive: list[Action], seat: str) -> Action:
        """Sequential halving over ``alive`` (Karnin, Koren & Somekh 2013): each round scores every
        surviving card on the same fresh determinizations (so they meet the same hidden hands and
        dice), then keeps the better half, until one is left (or the CPU budget is spent: the leader)."""
        planned = self.cpu <= 0 or self._cost.estimate() is not None
        width, per_round = self._plan(len(alive), 0) if planned else (len(alive), None)
        if width < 2:
            return alive[0]  # not even one fair comparison fits: the planner's best card
        alive = alive[:width]
        totals = {a: 0.0 for a in alive}
        counts = {a: 0 for a in alive}
        sizes = round_sizes(width, self.iterations, per_round)
        start = time.perf_counter()
        cost = [0.0, 0]  # this card's playouts so far: their CPU and count (what they cost here, not typically)
        stopped = False
        r = -1
        while not stopped and (r := r + 1) < len(sizes):  # the first search of a process may shorten ``sizes``
            if r > 0 and self._over_budget():
                break  # the leader so far (``alive`` is sorted)
            # A time budget is shared out like the iterations: an equal slice per round.
            deadline = start + self.seconds * (r + 1) / len(sizes) if self.seconds > 0 else None
            if self.workers:
                self._seeded_round(view, seat, alive, sizes[r][1], deadline, totals, counts)
            else:
                k = 0
                while (k < sizes[r][1]) if deadline is None else (k == 0 or time.perf_counter() < deadline):
                    if k > 0 and self._over_budget():
                        break
                    values = self._budgeted_determinization(view, seat, alive, cost)
                    if values is None:
                        stopped = True  # the budget is spent: the leader of the determinizations played
                        break
                    for a, v in values.items():
                        totals[a] += v
                        counts[a] += 1
                    k += 1
                    if not planned:
                        # The first search of this process: plan the rest now that a playout's cost is known.
                        planned = True
                        fits, per_round = self._plan(width, len(alive))
                        sizes = round_sizes(width, self.iterations, per_round if fits == width else 1)
                        if fits < 2:
                            sizes = sizes[:1]
                            break
            if counts[alive[0]] == 0:
                break  # no determinization was played in full: the planner's order stands
            alive.sort(key=lambda a: -totals[a] / counts[a])
            if not stopped:
                alive = alive[: math.ceil(len(alive) / 2)]
        # What the search saw, for datasets (muster.lab.dataset): playouts and mean value per candidate.
        self.last_search = {a: (counts[a], totals[a] / counts[a]) for a in totals if counts[a]}
        return alive[0]

    def _budgeted_determinization(self, view: dict[str, JSON], seat: str, alive: list[Action],
                                  cost: list[Any]) -> dict[Action, float] | None:
        """Every candidate of ``alive`` played out in one fresh determinization: their values, or None where the
        CPU budget is spent before they all are (the values played are then dropped, so that the candidates
        are still compared on the same determinizations). ``cost`` holds the CPU seconds and the count of this
        card's playouts so far; a new determinization (and each playout of it) starts only if what they cost
        here says it ends within the budget (:meth:`_would_overrun`). Without a budget, never None."""
        played_cpu, played = cost
        if played and self._would_overrun(len(alive) * played_cpu / played):
            return None
        t0 = cpu_now()
        base = self._determinization(view, seat)
        values: dict[Action, float] = {}
        for a in alive:
            if values and self._would_overrun((played_cpu + cpu_now() - t0) / (played + len(values))):
                break
            values[a] = self._playout_value(base, a, seat)
            self.last_iterations += 1
        self._cost.record(cpu_now() - t0, len(values))
        cost[0], cost[1] = played_cpu + cpu_now() - t0, played + len(values)
        return values if len(values) == len(alive) else None

    def _plan(self, width: int, done: int) -> tuple[int, int | None]:
        """:func:`budget_plan` for ``width`` candidates, ``done`` playouts of which are already played."""
        estimate = self._cost.estimate()
        affordable = None
        if self.cpu > 0 and estimate:
            affordable = done + max(0.0, self.cpu - self._spent() - (self._rest.estimate() or 0.0)) / estimate
        return budget_plan(width, self.iterations, affordable)

    def _spent(self) -> float:
        """CPU seconds this decision has cost so far, its worker processes' included."""
        return cpu_now() - self._decision_start + self.last_worker_cpu

    def _card_over(self) -> bool:
        """True once the current card (its choice and this bot's decisions since) has spent the CPU budget."""
        return self.cpu > 0 and self._card_spent + self._spent() >= self.cpu

    def _would_overrun(self, determinization: float) -> bool:
        """True if one more determinization costing ``determinization`` CPU seconds (what this card's playouts
        cost so far) would end past the budget, with what the rest of a card typically costs still to come. The
        plan was made from what playouts typically cost; a card whose playouts cost more stops here rather than
        overrun (on a card whose playouts cost what the plan expected, this never cuts the planned search)."""
        return self.cpu > 0 and self._spent() + determinization + (self._rest.estimate() or 0.0) > self.cpu

    def _over_budget(self) -> bool:
        return overrun(self.cpu, self._spent)

    def _seeded_round(self, view: dict[str, JSON], seat: str, alive: list[Action], per: int, deadline: float | None,
                      totals: dict[Action, float], counts: dict[Action, int]) -> None:
        """One halving round as seeded playouts (``workers`` ≥ 1): each determinization is named by three seeds
        drawn here (the hidden cards, the dice, the playout heuristic's tie-breaks), so a playout gives the same
        value in this process or a worker, and the choice does not depend on how many workers there are. With a
        time budget, batches of one determinization per worker are played until the round's deadline."""
        batch = per if deadline is None else max(1, self.workers)
        while True:
            t0, w0 = cpu_now(), self.last_worker_cpu
            tasks: list[tuple[tuple[int, int, int], Action]] = []
            for _ in range(batch):
                seeds = (self._rng.getrandbits(62), self._rng.getrandbits(62), self._rng.getrandbits(62))
                tasks.extend((seeds, a) for a in alive)
            for (_seeds, a), v in zip(tasks, self._run_tasks(view, seat, tasks), strict=True):
                totals[a] += v
                counts[a] += 1
                self.last_iterations += 1
            self._cost.record(cpu_now() - t0 + self.last_worker_cpu - w0, len(tasks))
            if deadline is None or time.perf_counter() >= deadline:
                return

    def start_workers(self) -> bool:
        """Start the worker processes now rather than at the first searched card (whose time would include
        starting them); False where this bot plays its playouts in its own process."""
        if not self._parallel():
            return False
        _executor(self.workers)
        return True

    def _parallel(self) -> bool:
        # A daemonic process (the web server's bot workers, the lab's game workers) may not start processes of
        # its own; there the same seeded playouts run here, so the choices are the same, only slower.
        return self.workers >= 2 and not multiprocessing.current_process().daemon

    def _run_tasks(self, view: dict[str, JSON], seat: str,
                   tasks: list[tuple[tuple[int, int, int], Action]]) -> list[float]:
        """The values of seeded playouts, here (``workers=1``, or in a daemonic process) or spread over the
        worker processes."""
        if not self._parallel():
            return [self.seeded_playout(view, seat, seeds, a) for seeds, a in tasks]
        pool = _executor(self.workers)
        futures = [pool.submit(_playout_task, self._task_options, view, seat, seeds, a) for seeds, a in tasks]
        out = []
        for f in futures:
            v, cpu = f.result()
            out.append(v)
            self.last_worker_cpu += cpu
        return out

    def seeded_playout(self, view: dict[str, JSON], seat: str, seeds: tuple[int, int, int], first: Action) -> float:
        """The value for ``seat`` of playing ``first`` in the determinization of ``view`` named by ``seeds``
        (hidden cards, dice, the playout heuristic's own random choices): the same wherever it runs."""
        det_seed, dice_seed, play_seed = seeds
        self._take_seat(seat)
        key = (det_seed, seat)
        base = self._dets.get(key)
        if base is None:
            if len(self._dets) >= 4 * POOL:
                self._dets.clear()  # determinizations of earlier decisions: never asked for again
            base = self._dets[key] = self.rules.determinize(view, seat, det_seed)
            if self.belief_mode == "on":
                self._deal_belief(view, seat, base, random.Random(det_seed))
        s = self.rules.clone(base)
        s.rng = rng_mod.seed_state(dice_seed)
        self._playout._rng.seed(play_seed)
        return self._playout_value(s, first, seat)

    def _playout_value(self, base: Any, first: Action, seat: str) -> float:
        """Play ``first`` in a copy of ``base``, then both sides' moves with the cheap heuristic until
        ``horizon`` more cards have been played; the evaluation of where that ends, for ``seat``."""
        rules = self.rules
        s = rules.clone(base)
        rules.apply(s, first)
        cards = 0
        while rules.outcome(s) is None:
            top = s.stack[-1] if s.stack else None
            if top is not None and top["kind"] == "card_turn":
                if cards >= self.horizon:
                    break
                cards += 1
            legal = rules.legal_actions(s)
            mover = rules.active_seat(s)
            assert mover is not None
            rules.apply(s, legal[0] if len(legal) == 1 else self._playout.choose_in(s, legal, mover))
        return self._end_value(s, seat)

    def _end_value(self, s: Any, seat: str) -> float:
        """What the end of a playout is worth to ``seat``: points, or a chance (option ``value``)."""
        if self.value_mode == "points":
            return value(s, seat, self.weights)
        if self.value_mode == "learned":
            return float(self._learned.win(s, seat))
        points = value(s, seat, self.weights)
        squashed = 1.0 / (1.0 + math.exp(-max(-400.0, min(400.0, points)) / self.scale))
        if self.value_mode == "prob":
            return squashed
        return 0.5 * (squashed + float(self._learned.win(s, seat)))

    def _deal_belief(self, view: dict[str, JSON], seat: str, state: Any, rng: random.Random) -> None:
        """Deal the opponent's hand in ``state`` from the belief of this view (built once per view)."""
        from muster.games.freedom.bots.belief import Belief

        key = id(view)
        if self._belief is None or self._belief_view != key:
            self._belief = Belief(view, seat, self._learned)
            self._belief_view = key
        if self._belief.informed:
            self._belief.deal(state, self._belief.draw(rng), rng)

    # --- tree=actions: search over single moves -------------------------------------------
    def _search_actions(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The most visited root action of a tree over single moves (the last card of the phase by
        the heuristic's plan, if ``plan`` asks for it)."""
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
            if self._belief is not None:
                self._belief.deal(s, self._belief.draw(self._rng), self._rng)
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
        points = evaluate(s, self.weights)
        if s.result is None:
            points += reward_pending(s, self.weights)
            points += (ap_left(s, IMPERIAL) - ap_left(s, INSURGENT)) * self.weights.ap
            points += self._fresh_card_bonus(s)
        return 1.0 / (1.0 + math.exp(-points / self.scale))


    def _fresh_card_bonus(self, s: Any) -> float:
        """Points (Imperial positive) for a card just played for AP whose AP are all still unspent."""
        f = s.stack[-1] if s.stack else None
        if f is None or f["kind"] != "ap" or f.get("mode") != "card" or f["ap"] != f["printed"]:
            return 0.0
        bonus = (self.card_ap - self.weights.ap) * int(f["ap"])
        return bonus if f.get("seat") == IMPERIAL else -bonus




# --- root-parallel playouts in worker processes (option ``workers``) ------------------------------
_EXECUTORS: dict[int, ProcessPoolExecutor] = {}
_WORKER_BOTS: dict[tuple[tuple[str, str], ...], IsmctsBot] = {}


def _executor(workers: int) -> Executor:
    """The shared pool of ``workers`` processes (one per size for the whole process, so many games share it).
    Workers are spawned, not forked: a server's threads and locks are not copied into them."""
    pool = _EXECUTORS.get(workers)
    if pool is None:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        for f in [pool.submit(_warm_up) for _ in range(workers)]:
            f.result()  # import the rules in every worker before the first card is timed
        _EXECUTORS[workers] = pool
    return pool


def shutdown_workers() -> None:
    """Stop every worker process the ``workers`` option started (also run at interpreter exit)."""
    while _EXECUTORS:
        _workers, pool = _EXECUTORS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_workers)


def _warm_up() -> int:
    """Nothing to do: unpickling this task imports this module, and with it the rules, in the worker."""
    return 0


def _playout_task(options: tuple[tuple[str, str], ...], view: dict[str, JSON], seat: str,
                  seeds: tuple[int, int, int], first: Action) -> tuple[float, float]:
    """In a worker: one seeded playout by a bot with ``options``; its value and the CPU seconds it took."""
    start = time.process_time()
    bot = _WORKER_BOTS.get(options)
    if bot is None:
        bot = _WORKER_BOTS[options] = IsmctsBot(RULES, 0, {**dict(options), "workers": "1"})
    return bot.seeded_playout(view, seat, seeds, first), time.process_time() - start
