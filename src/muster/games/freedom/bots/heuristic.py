"""The heuristic bot: a sensible human's judgement as a greedy one-action lookahead.

For each decision the bot rebuilds a full state from its own view with ``rules.determinize``
(the hidden cards and future dice drawn at random, never read from the real game) and scores
every legal action by applying it to a copy and evaluating the result with
:mod:`muster.games.freedom.bots.evaluation`. Compound choices (a verb, then a unit, then a destination) are
looked through to their end, dice rolls are averaged over a few re-rolled copies, and Action
Points carry a price, so the bot buys an action only when it gains more than it costs. Where an event
leaves a choice to the opponent — which unit it loses to *Deserters*, say — the result is scored after the
opponent's best answer (the choice worst for the bot), not before it is resolved. The
same rule decides between playing a card as an event, for its AP, or discarding it to take the
opponent's event. On a side's last card of an Action phase — the card that decides whether a fort is
held when the phase ends — the bot plans the whole card instead: a small beam search over sequences
of complete actions (``plan``), so it finds combinations no single action shows, such as stepping
into Row 4, onto a breach, and along the Wall into an emptied fort. Everything the issue asks of a
sensible player follows from the evaluation's weights: the Imperial builds and places guns, batters
the Wall in front of its massed units, advances, pays for Reward Attacks when an assault is likely
to succeed, storms weak sections and minds Money and Supplies; the Insurgent mans the forts,
repairs, raids, trains civilians, presses the Government and watches Supplies against Population.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from muster.core import JSON, Action, Rules
from muster.core import rng as rng_mod
from muster.core.bots import BotSpecError
from muster.games.freedom.bots.evaluation import (
    BOT_BEACH_THREAT,
    DEFAULT,
    Weights,
    ap_left,
    counter_pending,
    own_counter,
    reward_pending,
    value,
)
from muster.games.freedom.bots.learned import LearnedModel, WeightsMismatchError
from muster.games.freedom.bots.learned import load as load_learned
from muster.games.freedom.constants import IMPERIAL, other
from muster.games.freedom.datafiles import design
from muster.games.freedom.rules.action_phase import card, favours
from muster.games.freedom.state import Frame, State

SELECT_VERBS = frozenset({"from", "unit", "cannon"})
"""Verbs that only pick a piece: the world changes with the next choice, so look through them."""
TURN_KINDS = frozenset({"card_turn", "ap"})


def threat_weights(opts: dict[str, str]) -> Weights:
    """The evaluation weights of a bot, with the threat options ``beach_threat``, ``reach_threat``, ``reach_spread``,
    ``reach_islands`` (``0`` or ``1``) and ``counter`` taken off ``opts`` (both bots and the heuristics inside a
    search read them alike). Raises ValueError on a bad number."""
    islands = opts.pop("reach_islands", "0")
    if islands not in ("0", "1"):
        raise ValueError(f"reach_islands must be 0 or 1, not {islands!r}")
    return replace(DEFAULT, beach_threat=float(opts.pop("beach_threat", str(BOT_BEACH_THREAT))),
                   reach_threat=float(opts.pop("reach_threat", "0")), counter=float(opts.pop("counter", "0")),
                   reach_spread=float(opts.pop("reach_spread", "0")), reach_islands=islands == "1")


class HeuristicBot:
    """Greedy lookahead over a determinized copy of the bot's view. Options: ``samples`` (dice
    re-rolls averaged per random action, default 3), ``nodes`` (positions examined per decision
    before the lookahead stops looking deeper, default 600), ``trigger_penalty`` (points charged
    for handing the opponent an event by playing its card for AP, default 1.0), ``card_ap`` (what one AP
    of a card is worth when choosing between its AP and its event, default 0.6: more than the bare
    price of an AP, because a card's AP buy the siege over the turn while an event's worth shows at once),
    ``plan`` (``last``: plan the whole of a side's last card of the phase, the default; ``all``: every
    card; ``off``), ``beam`` (plans kept per step of that search, default 6), ``branch`` (alternatives tried at
    each sub-choice of a planned action, default 3) and ``completions`` (ways to carry out one action
    that the plan compares, default 4) and ``beach_threat`` (the evaluation's weight for Imperial units
    close to an unblocked Beach space, default 12 as for ISMCTS) and ``answers`` (``on``, the default: the
    opponent's part of an event is scored after its best answer; ``off``: before it is resolved, as the
    first Heuristic did) and ``value`` (``points``, the default: positions are scored by the hand-written
    evaluation; ``learned``: by the learned value read as points, as :class:`LearnedValueBot` plays)."""

    bot_name = "heuristic"
    """The name this bot plays under (the module's name for it)."""
    default_value = "points"
    """The ``value`` option when the spec does not give one."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None,
                 model: LearnedModel | None = None) -> None:
        opts = dict(options or {})
        try:
            self.samples = max(1, int(opts.pop("samples", "3")))
            self.max_nodes = max(10, int(opts.pop("nodes", "600")))
            self.trigger_penalty = float(opts.pop("trigger_penalty", "1.0"))
            self.card_ap = float(opts.pop("card_ap", "0.6"))
            self.plan = opts.pop("plan", "last")
            self.beam = max(1, int(opts.pop("beam", "6")))
            self.branch = max(1, int(opts.pop("branch", "3")))
            self.completions = max(1, int(opts.pop("completions", "4")))
            self.weights: Weights = threat_weights(opts)
            self.answers = opts.pop("answers", "on")
            value_mode = opts.pop("value", self.default_value)
        except ValueError as exc:
            raise BotSpecError(f"bad heuristic option: {exc}") from exc
        if self.answers not in ("on", "off"):
            raise BotSpecError("heuristic answers must be 'on' or 'off'")
        if self.plan not in ("last", "all", "off"):
            raise BotSpecError("heuristic plan must be 'last', 'all' or 'off'")
        if opts:
            known = ("samples, nodes, trigger_penalty, card_ap, plan, beam, branch, completions, beach_threat, "
                     "reach_threat, reach_spread, reach_islands, counter, answers, value")
            raise BotSpecError(f"unknown heuristic option(s) {sorted(opts)}; known: {known}")
        self._value: Callable[[State, str, Weights], float] = self._valuation(value_mode, model)
        """How a position is scored for a seat: the hand-written evaluation (``value=points``) or the learned
        value read as points (``value=learned``)."""
        self.name = self.bot_name
        self.rules = rules
        self._rng = random.Random(seed)
        self._nodes = 0
        self.out_of_time: Callable[[], bool] | None = None
        """Set by a bot that plays within a CPU budget (ISMCTS with ``cpu=``): once it returns True, a whole-card
        plan under way looks no further than the actions it has already carried out (its first step always
        completes) and plays the best found so far, and a plan not yet begun is not made (the one-action
        lookahead chooses instead, as it does when time runs out before the plan has looked at every first action).
        None (the default): every plan runs to its end, so the play is the same on
        every install."""

    @staticmethod
    def _valuation(mode: str, model: LearnedModel | None) -> Callable[[State, str, Weights], float]:
        """The scoring function of ``value=mode`` (``model``: learned weights to use instead of the shipped ones)."""
        if mode == "points":
            return value
        if mode != "learned":
            raise BotSpecError("heuristic value must be 'points' or 'learned'")
        try:
            learned = model if model is not None else load_learned()
        except WeightsMismatchError as exc:
            raise BotSpecError(str(exc)) from exc

        def learned_value(s: State, seat: str, w: Weights) -> float:
            # The value was fitted at card points, where no AP are left and no Reward bonus is pending: inside a
            # card those keep the prices the hand-written evaluation gives them.
            pending = reward_pending(s, w) - counter_pending(s, w)
            own = learned.points(s, seat) + (pending if seat == IMPERIAL else -pending)
            return own + ap_left(s, seat) * w.ap if s.result is None else own

        return learned_value

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The legal action with the best evaluated outcome for ``seat``."""
        if len(legal) == 1:
            return legal[0]
        state = self.rules.determinize(view, seat, self._rng.getrandbits(62))
        return self.choose_in(state, legal, seat)

    def choose_in(self, state: State, legal: list[Action], seat: str) -> Action:
        """Choose in a full state the caller built from the seat's view (used by tree search too)."""
        if len(legal) == 1:
            return legal[0]
        if self.plans(state, seat):
            planned = self._plan_card(state, legal, seat)
            if planned is not None:
                return planned
            # Out of time before the plan's first step was done: the one-action lookahead below judges each
            # action alone, at a fraction of a plan's cost.
        best: list[Action] = []
        best_score = float("-inf")
        for score, a in zip(self.scores(state, legal, seat), legal, strict=True):
            if score > best_score + 1e-9:
                best, best_score = [a], score
            elif score > best_score - 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def scores(self, state: State, legal: list[Action], seat: str) -> list[float]:
        """The one-action lookahead's score of each of ``legal`` for ``seat`` (higher is better);
        tree search uses it to pick the few candidates worth searching."""
        self._nodes = 0
        return [self._score(state, a, seat, depth=4) + self._card_bias(state, a, seat) for a in legal]

    # --- planning a whole card ---------------------------------------------------------
    def plans(self, state: State, seat: str) -> bool:
        """True at the top of ``seat``'s AP spending on a card this bot plans in full."""
        top = state.stack[-1] if state.stack else None
        if self.plan == "off" or top is None or top["kind"] != "ap" or top.get("seat") != seat:
            return False
        return self.plan == "all" or state.played.get(seat, 0) >= design()["cards_per_action_phase"]

    def _plan_card(self, state: State, legal: list[Action], seat: str) -> Action | None:
        """The first action of the best sequence of complete actions found for the rest of this card (None if
        ``out_of_time`` said so before every first action was carried out).

        Beam search: every step extends each kept plan by each legal action, carried out to its end
        with the usual lookahead for its sub-choices; plans are ranked by the evaluation (dice
        averaged over re-rolls), and stopping is always an option (a plan's own score).
        """
        card_frame = state.stack[-1]
        best_action, best_score = Action("end"), self._settled(state, seat)
        beam: list[tuple[float, Action, State]] = [(best_score, Action("end"), state)]
        for step in range(int(card_frame["ap"]) + 1):
            grown: list[tuple[float, Action, State]] = []
            for _score, first, s in beam:
                moves = legal if step == 0 else self.rules.legal_actions(s)
                for a in moves:
                    if a.verb == "end":
                        continue
                    lead = a if step == 0 else first
                    try:
                        options = self._completions(s, a, seat)
                    except _OutOfTimeError:
                        # The best plan found, once every first action was looked at.
                        return None if step == 0 else best_action if best_action in legal else legal[0]
                    score, after = max(options, key=lambda option: option[0])
                    if score > best_score + 1e-9:
                        best_action, best_score = lead, score
                    if _same_card(after, card_frame, seat):
                        grown.append((score, lead, after))  # one line per action keeps the beam varied
            if not grown:
                break
            grown.sort(key=lambda item: -item[0])
            beam = grown[: self.beam]
        return best_action if best_action in legal else legal[0]

    def _completions(self, state: State, a: Action, seat: str) -> list[tuple[float, State]]:
        """Ways to carry out ``a``: up to ``branch`` alternatives at each of its sub-choices (best
        first, by the usual lookahead), at most ``completions`` in all. Each comes with its score,
        dice averaged over re-rolls of the same choices, and one resulting state."""
        out: list[tuple[float, State]] = []
        # Each path waits with the state before its last step: applying that step to it gives what replaying the
        # whole path from ``state`` would, without applying the steps before it again.
        pending: list[tuple[list[Action], State]] = [([a], state)]
        while pending and len(out) < self.completions:
            if self.out_of_time is not None and self.out_of_time():
                raise _OutOfTimeError
            path, parent = pending.pop()
            s = self._apply(parent, path[-1], None)
            if not self._under_way(s, seat):
                out.append((self._path_score(state, path, s, seat), s))
                continue
            legal = self.rules.legal_actions(s)
            ranked = sorted(legal, key=lambda a2: -self._quick_score(s, a2, seat))[: self.branch]
            pending.extend(([*path, a2], s) for a2 in reversed(ranked))
        return out

    def _quick_score(self, s: State, a: Action, seat: str) -> float:
        self._nodes = self.max_nodes - 80  # a small lookahead per sub-choice keeps the plan affordable
        return self._score(s, a, seat, depth=3)

    def _under_way(self, s: State, seat: str) -> bool:
        """True while the action being carried out still needs a choice by ``seat``."""
        top = s.stack[-1] if s.stack else None
        if s.result is not None or top is None or top["kind"] in TURN_KINDS:
            return False
        return self.rules.active_seat(s) == seat

    def _replay(self, state: State, path: list[Action], reroll: int | None, seat: str) -> State:
        """``path`` applied to a copy of ``state`` (the first step's dice re-seeded by ``reroll``);
        stops early where a re-rolled outcome makes the next choice illegal."""
        s = self._apply(state, path[0], reroll)
        for a in path[1:]:
            if not self._under_way(s, seat) or a not in self.rules.legal_actions(s):
                break
            s = self._apply(s, a, None)
        return s

    def _path_score(self, state: State, path: list[Action], first: State, seat: str) -> float:
        total = self._value(first, seat, self.weights)
        if first.rng == state.rng:
            return total
        for k in range(1, self.samples):
            total += self._value(self._replay(state, path, k, seat), seat, self.weights)
        return total / self.samples

    # --- scoring ----------------------------------------------------------------------
    def _card_bias(self, state: State, a: Action, seat: str) -> float:
        """A card's AP are worth more than the bare price of an AP: they buy the siege (or its defence)
        over the turn, while an event's worth is seen at once. Playing the opponent's card for AP lets
        it take the event: charge for that."""
        kind = state.stack[-1]["kind"] if state.stack else ""
        if kind != "card_turn" or a.verb != "ap" or not isinstance(a.arg, int):
            return 0.0
        bias = (self.card_ap - self.weights.ap) * card(a.arg).ap
        if favours(a.arg, other(seat)):
            bias -= self.trigger_penalty
        return bias

    def _score(self, state: State, a: Action, seat: str, depth: int) -> float:
        kind = state.stack[-1]["kind"] if state.stack else ""
        if kind == "ap" and a.verb == "end":
            return self._settled(state, seat)  # ending is the baseline: unspent AP keep their price
        after = self._apply(state, a, None)
        if after.rng == state.rng:
            return self._continue(kind, a, after, seat, depth)
        # Dice were rolled: average over re-rolled copies so one lucky sample does not decide.
        total = self._continue(kind, a, after, seat, depth)
        for k in range(1, self.samples):
            total += self._continue(kind, a, self._apply(state, a, k), seat, depth)
        return total / self.samples

    def _settled(self, state: State, seat: str) -> float:
        """What ending the card now is worth: the position's value without the chances its AP would have bought
        (:func:`counter_pending`), which ending gives up."""
        return self._value(state, seat, self.weights) - own_counter(state, seat, self.weights)

    def _apply(self, state: State, a: Action, reroll: int | None) -> Any:
        c = self.rules.clone(state)
        if reroll is not None:
            c.rng = rng_mod.seed_state(state.rng ^ (reroll * 0x2545F4914F6CDD1D))
        self.rules.apply(c, a)
        self._nodes += 1
        return c

    def _continue(self, kind: str, a: Action, s: State, seat: str, depth: int) -> float:
        if depth <= 0 or s.result is not None or self._nodes >= self.max_nodes or not _mid_action(kind, a, s):
            return self._value(s, seat, self.weights)
        legal = self.rules.legal_actions(s)
        if self.rules.active_seat(s) == seat:
            return max(self._score(s, a2, seat, depth - 1) for a2 in legal)
        if self.answers == "off" or not s.stack[-1]["kind"].startswith("ev_"):
            # Only the opponent's part of an *event* is answered: looking into its other decisions (the
            # cannons after a turn that ends by itself, say) would charge some actions and not others.
            return self._value(s, seat, self.weights)
        # The opponent's part of an event (e.g. 46A Deserters: it picks the unit it loses): score it after the
        # opponent's best answer, not before it is resolved, when the event would look worthless.
        return min(self._score(s, a2, seat, depth - 1) for a2 in legal)


class _OutOfTimeError(Exception):
    """A plan stopped by ``HeuristicBot.out_of_time``."""


def _same_card(s: State, card_frame: Frame, seat: str) -> bool:
    """True if ``s`` is back at the top of the AP frame of the card being planned, with AP left."""
    if s.result is not None or not s.stack:
        return False
    top = s.stack[-1]
    return top["kind"] == "ap" and top.get("seat") == seat and top.get("card") == card_frame.get("card") \
        and int(top["ap"]) > 0


def _mid_action(kind: str, a: Action, s: State) -> bool:
    """True while ``a`` has only begun an action whose effect needs further choices by the same seat."""
    new_kind = s.stack[-1]["kind"] if s.stack else ""
    if a.verb in SELECT_VERBS:
        return True
    if kind in TURN_KINDS and new_kind not in TURN_KINDS:
        return True  # a verb or an event just started: look at how it would be carried out
    return new_kind == "morale_choice" or new_kind.startswith("ev_")



class LearnedValueBot(HeuristicBot):
    """The learned value alone (``learned``): the Heuristic's lookahead and card planning with every position scored
    by the learned value (:mod:`muster.games.freedom.bots.learned`) instead of the hand-written evaluation, so
    what it wins measures the value, with no search around it. The same as ``heuristic:value=learned``; it takes
    the Heuristic's options."""

    bot_name = "learned"
    default_value = "learned"
