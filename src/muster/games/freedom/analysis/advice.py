"""What the strongest bot would play, with estimated win chances and a reason in words.

Everything starts from one seat's view. A choice is scored by carrying it out in a few
determinizations of that view (seeded from the view's action count, so the same view always gives
the same answer), letting both sides finish the card with a quick heuristic, and reading the
calibrated estimate where the card ends. The hidden cards therefore enter only through the
determinizations, which are built from the view alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from muster.core import get_rules
from muster.core.interface import Action, Rules
from muster.games.freedom.analysis import texts
from muster.games.freedom.analysis.winprob import state_probability
from muster.games.freedom.bots import own_bot
from muster.games.freedom.bots.evaluation import TERMS, terms
from muster.games.freedom.bots.features import BOT_WEIGHTS, is_card_point
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.module import MODULE
from muster.games.freedom.state import State
from muster.i18n import message_of

SAMPLES = 3
"""Determinizations each choice is tried in."""
MAX_CANDIDATES = 8
"""Choices looked at (the heuristic's best first), besides the strongest bot's own."""
FINISH_STEPS = 400
"""Bound on the decisions played to finish a card (a card never takes that many)."""
QUICK = "heuristic:plan=off,samples=1"


@dataclass(frozen=True)
class Advice:
    """One suggested choice."""

    action: Action
    label: str
    chance: float
    """The choosing seat's estimated win chance after it."""
    reason: str
    strongest: bool
    """True for the strongest bot's own choice."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the label's English words and, where the rules keep one, its message (id and typed
        arguments), which the JSON would otherwise lose, so a reader sees the label in their language."""
        return {"action": self.action.to_json(), "label": self.label, "message": message_of(self.label),
                "chance": round(self.chance, 4), "reason": self.reason, "strongest": self.strongest}


def _seed(view: dict[str, Any]) -> int:
    return int(view.get("step", 0)) * 7919 + 17


def _finish_card(rules: Rules, s: State, seed: int) -> State:
    """Play on with the quick heuristic until the next card choice or the end of the game."""
    bot = own_bot(QUICK, seed=seed, rules=rules)
    for _ in range(FINISH_STEPS):
        seat = rules.active_seat(s)
        if seat is None or is_card_point(rules.view(s, seat)):
            break
        legal = rules.legal_actions(s)
        rules.apply(s, legal[0] if len(legal) == 1 else bot.choose(rules.view(s, seat), legal, seat))
    return s


def determinizations(view: dict[str, Any], seat: str, rules: Rules | None = None,
                     samples: int = SAMPLES) -> list[State]:
    """The ``samples`` determinizations of ``view`` every choice is tried in (seeded from the view): built once
    and copied for each choice, since building one from a view costs more than copying it."""
    rules = rules or get_rules("freedom")
    return [rules.determinize(view, seat, _seed(view) + k) for k in range(samples)]


def choice_chance(view: dict[str, Any], seat: str, action: Action, rules: Rules | None = None,
                  samples: int = SAMPLES, bases: list[State] | None = None) -> tuple[float, State, State]:
    """``seat``'s estimated win chance after ``action``; also one determinization before and after. ``bases``
    are :func:`determinizations` of ``view`` already built (the same ones this would build)."""
    rules = rules or get_rules("freedom")
    if bases is None:
        bases = determinizations(view, seat, rules, samples)
    total = 0.0
    before = after = None
    for k in range(samples):
        s = rules.clone(bases[k])
        if before is None:
            before = rules.clone(s)
        rules.apply(s, action)
        s = _finish_card(rules, s, _seed(view) + 100 + k)
        p = state_probability(s)
        total += p if seat == IMPERIAL else 1.0 - p
        after = after or s
    assert before is not None and after is not None
    return total / samples, before, after


def reason(before: State, after: State, seat: str) -> str:
    """A few words on what a choice gains, from the evaluation term it moves most in ``seat``'s favour."""
    sign = 1.0 if seat == IMPERIAL else -1.0
    if after.result is not None:
        return texts.NO_CHANGE if after.result.get("winner") != seat else texts.WINS
    t0, t1 = terms(before, BOT_WEIGHTS), terms(after, BOT_WEIGHTS)
    gains = {t: sign * (t1[t] - t0[t]) for t in TERMS}
    best = max(gains, key=lambda t: gains[t])
    words = texts.TERM_GAINS[best][seat] if gains[best] > 0.25 else texts.NO_CHANGE
    opponent = INSURGENT if seat == IMPERIAL else IMPERIAL
    morale = after.tracks[opponent]["morale"]
    if morale <= 3:
        words += "; " + texts.LOW_MORALE.format(side=texts.SIDE[opponent], morale=morale)
    return words


def strongest_spec() -> str:
    """The strongest level's spec without its CPU budget: the analysis asks what the level plays on an install
    where its whole search fits (a compiled one), the same answer on every install and at any load."""
    name, _sep, options = MODULE.levels["strongest"].spec.partition(":")
    kept = [o for o in options.split(",") if o and not o.startswith("cpu=")]
    return f"{name}:{','.join(kept)}" if kept else name


def strongest_choice(view: dict[str, Any], legal: list[Action], seat: str, rules: Rules | None = None) -> Action:
    """What the strongest bot level plays here (seeded from the view, so repeatable)."""
    rules = rules or get_rules("freedom")
    if len(legal) == 1:
        return legal[0]
    return own_bot(strongest_spec(), seed=_seed(view), rules=rules).choose(view, legal, seat)


def hints(view: dict[str, Any], legal: list[Action], seat: str, top: int = 3,
          rules: Rules | None = None) -> list[Advice]:
    """The strongest bot's choice and the best other choices (``top`` in all), from ``seat``'s view only."""
    rules = rules or get_rules("freedom")
    pick = strongest_choice(view, legal, seat, rules)
    candidates = list(legal)
    if len(candidates) > MAX_CANDIDATES:
        ranker = own_bot(QUICK, seed=_seed(view), rules=rules)
        scored = ranker.scores(rules.determinize(view, seat, _seed(view)), candidates, seat)  # type: ignore[attr-defined]
        order = sorted(range(len(candidates)), key=lambda i: -scored[i])
        candidates = [candidates[i] for i in order[:MAX_CANDIDATES]]
    if pick not in candidates:
        candidates.append(pick)
    out = []
    bases = determinizations(view, seat, rules)
    for action in candidates:
        chance, before, after = choice_chance(view, seat, action, rules, bases=bases)
        label = rules.label(before, action)
        out.append(Advice(action, label, chance, reason(before, after, seat), action == pick))
    out.sort(key=lambda a: (not a.strongest, -a.chance, a.label))
    return out[:top]
