"""Hellenes' analysis: an estimated win chance, the post-game review (the curve and its turning points) and opt-in
hints, as the game module's ``analysis`` part (see :class:`muster.analysis.GameAnalysis`).

The estimate is the learned value (:mod:`muster.games.hellenes.learned`: the evaluation's terms weighed by how far
the game has gone, fitted on the results of Heuristic games). It reads what one seat may see:
the seat's view is determinized a few times (seeded from the view, so one view always gives one figure) and the
figures averaged. The curve is read at every Player Turn's first Action (a *turn*), from each side's own view,
the two averaged, so neither side's hidden blocks count beyond what that side itself knows. A choice is judged by
carrying it out in the determinizations, letting the heuristic finish the turn for both sides, and reading the
estimate where the next turn begins.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from muster.core import Game, get_rules
from muster.core.bots import SearchMaker, make_own_bot
from muster.core.interface import Action, Rules
from muster.games.hellenes.bots import HellenesHeuristicBot, evaluate, value_inputs
from muster.games.hellenes.datafiles import blocks, design
from muster.games.hellenes.learned import LearnedValue, WeightsMismatchError, shipped
from muster.games.hellenes.rules.common import other
from muster.games.hellenes.state import State
from muster.games.hellenes.texts import names, said_in
from muster.i18n import N_, Said, message_of, stored_label, translator

Progress = Callable[[float], None]
"""Told the share of the work done so far (0 to 1) as an analysis advances."""

SCALE = 80.0
"""Used only when this build ships no learned weights: the evaluation's units (a Prestige point is 12) per unit of
log-odds, Athens' chance being
``1 / (1 + exp(-evaluate(state, "athens") / SCALE))``. Fitted by maximum likelihood on the 559 turns of 25
Heuristic-vs-Heuristic games on the 25-City map (seeds 100–124); see docs/hellenes-design.md, "Analysis"."""
SAMPLES = 3
"""Determinizations a view is estimated in, and each choice tried in."""
MAX_CANDIDATES = 6
"""Choices a hint looks at (the heuristic's best first), besides the strongest bot's own."""
FINISH_STEPS = 600
"""Bound on the decisions played to finish a turn (a turn never takes that many)."""
TURNING_POINTS = 3
"""How many of the largest swings are reported."""
BETTER_BY = 0.01
"""How much higher the advised seat's chance after the strongest bot's choice must be than after the choice
played for it to be recommended instead (smaller differences are within the estimate's noise)."""
CURVE_SHARE = 0.1
"""The share of an analysis's work the curve takes (the turning points take the rest)."""

ATHENS, SPARTA = "athens", "sparta"
SIDE = {ATHENS: N_("side:athens"), SPARTA: N_("side:sparta")}
TERM_GAINS: dict[str, str] = {
    "prestige": N_("gains Prestige"),
    "strength": N_("leaves more strength on the map than the enemy"),
    "cities": N_("takes or keeps the enemy's Cities"),
    "capital": N_("makes the capital safer or threatens the enemy's"),
}
"""Per evaluation term, what gaining on it means (a hint's reason)."""
NO_CHANGE = N_("changes little on the map")
WINS = N_("wins the game")
NOT_BETTER = N_("By the estimate, the strongest bot's choice was no better here than the move played.")
BETTER = N_("By the estimate, the strongest bot's choice was better for this side.")
LUCK = N_("The swing was mostly luck: the dice and the cards that followed moved the chance more than the "
          "choice itself did.")
PLOT_TITLE = N_("Athens' win chance, turn by turn")
PLOT_X = N_("turn")
PLOT_Y = N_("Athens' win chance")


# --- the estimate -----------------------------------------------------------------------------------------------
def state_probability(s: State) -> float:
    """Athens' chance in one full state: 1 or 0 once the game is over, else the learned value's (or, when this
    build ships no weights for its rules, the evaluation's logistic at :data:`SCALE`)."""
    if s.result is not None:
        return 1.0 if s.result.get("winner") == ATHENS else 0.0
    value = _learned()
    if value is not None:
        return 1.0 - value.chance(value_inputs(s))
    x = max(-60.0, min(60.0, evaluate(s, ATHENS) / SCALE))
    return 1.0 / (1.0 + math.exp(-x))


def _learned() -> LearnedValue | None:
    """The shipped learned value, or None when there are no weights for this build's versions."""
    try:
        return shipped()
    except WeightsMismatchError:
        return None


def _seed(view: dict[str, Any]) -> int:
    return int(view.get("step", 0)) * 7919 + 17


def determinizations(view: dict[str, Any], seat: str, rules: Rules, samples: int = SAMPLES) -> list[State]:
    """The ``samples`` full states drawn from ``view`` (seeded from the view: one view, one set of draws)."""
    return [rules.determinize(view, seat, _seed(view) + k) for k in range(samples)]


def athens_chance(view: dict[str, Any], seat: str, rules: Rules | None = None) -> float:
    """Athens' chance as ``seat`` may estimate it from its view alone."""
    rules = rules or get_rules("hellenes")
    bases = determinizations(view, seat, rules)
    return sum(state_probability(s) for s in bases) / len(bases)


def public_chance(s: State, rules: Rules) -> float:
    """Athens' chance in a true state, read from each side's own view and averaged (the curve's figure)."""
    if s.result is not None:
        return state_probability(s)
    return sum(athens_chance(rules.view(s, seat), seat, rules) for seat in (ATHENS, SPARTA)) / 2


def turn_key(s: State) -> tuple[Any, ...] | None:
    """Which Player Turn an Action menu belongs to (the side, the Year, the Season), or None elsewhere."""
    if s.stack and s.stack[-1]["kind"] == "actions":
        return (s.active, s.year, s.season)
    return None


def _finish_turn(rules: Rules, s: State, seed: int, key: tuple[Any, ...] | None) -> State:
    """Play on with the heuristic for both sides until a turn other than ``key`` begins or the game ends."""
    bot = HellenesHeuristicBot(rules, seed)
    s.quiet = True
    for _ in range(FINISH_STEPS):
        seat = rules.active_seat(s)
        now = turn_key(s)
        if seat is None or (now is not None and now != key):
            break
        legal = rules.legal_actions(s)
        rules.apply(s, legal[0] if len(legal) == 1 else bot.choose_in(s, legal, seat))
    return s


def choice_chance(view: dict[str, Any], seat: str, action: Action, rules: Rules,
                  bases: list[State] | None = None) -> tuple[float, State, State]:
    """``seat``'s estimated chance after ``action`` (the turn finished by the heuristic); also one
    determinization before and after. ``bases`` are :func:`determinizations` of ``view`` already built."""
    if bases is None:
        bases = determinizations(view, seat, rules)
    total = 0.0
    before = after = None
    for k, base in enumerate(bases):
        s = rules.clone(base)
        key = (s.active, s.year, s.season)  # the turn this choice belongs to, even inside one of its Actions
        if before is None:
            before = rules.clone(s)
        rules.apply(s, action)
        s = _finish_turn(rules, s, _seed(view) + 100 + k, key)
        p = state_probability(s)
        total += p if seat == ATHENS else 1.0 - p
        after = after or s
    assert before is not None and after is not None
    return total / len(bases), before, after


# --- hints ------------------------------------------------------------------------------------------------------
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
        """JSON-ready: the label's English words and its message (id and typed arguments), which the JSON would
        otherwise lose, so a reader sees the label in their language."""
        return {"action": self.action.to_json(), "label": self.label, "message": message_of(self.label),
                "chance": round(self.chance, 4), "reason": self.reason, "strongest": self.strongest}


def terms(s: State, seat: str) -> dict[str, float]:
    """The evaluation's parts a reason names, each for ``seat`` (higher is better for it)."""
    from muster.games.hellenes.bots import STEP, capital_danger

    enemy = other(seat)
    sign = 1 if seat == SPARTA else -1
    roster = blocks()
    strength = sum(STEP * u.cv * (1 if roster[bid].side == seat else -1)
                   for bid, u in s.units.items() if u.area is not None and roster[bid].side in (seat, enemy))
    cities = sum((1 if holder == seat else -1) for area, holder in s.control.items()
                 if holder in (seat, enemy) and s.loyal.get(area) == other(holder))
    capitals = design()["capitals"]
    return {"prestige": 12.0 * sign * s.prestige, "strength": strength, "cities": 6.0 * cities,
            "capital": 100.0 * (capital_danger(s, enemy, capitals[enemy]) - capital_danger(s, seat, capitals[seat]))}


def reason(before: State, after: State, seat: str) -> str:
    """A few words on what a choice gains, from the evaluation part it moves most in ``seat``'s favour."""
    if after.result is not None:
        return WINS if after.result.get("winner") == seat else NO_CHANGE
    t0, t1 = terms(before, seat), terms(after, seat)
    gains = {t: t1[t] - t0[t] for t in TERM_GAINS}
    best = max(gains, key=lambda t: gains[t])
    return TERM_GAINS[best] if gains[best] > 1.0 else NO_CHANGE


def strongest_spec() -> str:
    """The strongest level's spec without its CPU budget: the analysis asks what the level plays where its whole
    search fits, the same answer on every install and at any load."""
    from muster.games.hellenes.module import MODULE

    name, _sep, options = MODULE.levels["strongest"].spec.partition(":")
    kept = [o for o in options.split(",") if o and not o.startswith("cpu=")]
    return f"{name}:{','.join(kept)}" if kept else name


def strongest_choice(view: dict[str, Any], legal: list[Action], seat: str, rules: Rules,
                     search: SearchMaker | None = None) -> Action:
    """What the strongest bot level plays here (seeded from the view, so repeatable).

    The strongest level is the game-agnostic search, which sits above the games: whoever asks (the server,
    the terminal, the command line) hands its bot maker in as ``search``. Without one, the game's own
    Heuristic answers (the analysis then says what the Heuristic would play)."""
    if len(legal) == 1:
        return legal[0]
    if search is None:
        from muster.games.hellenes.module import MODULE

        return make_own_bot(MODULE, "heuristic", seed=_seed(view), rules=rules).choose(view, legal, seat)
    return search(strongest_spec(), seed=_seed(view), rules=rules).choose(view, legal, seat)


def hints(view: dict[str, Any], legal: list[Action], seat: str, top: int = 3,
          rules: Rules | None = None, search: SearchMaker | None = None) -> list[Advice]:
    """The strongest bot's choice and the best other choices (``top`` in all), from ``seat``'s view only."""
    rules = rules or get_rules("hellenes")
    pick = strongest_choice(view, legal, seat, rules, search)
    bases = determinizations(view, seat, rules)
    candidates = list(legal)
    if len(candidates) > MAX_CANDIDATES:
        ranker = HellenesHeuristicBot(rules, _seed(view))
        first = ranker.choose_in(rules.clone(bases[0]), legal, seat)
        s = bases[0]
        if s.stack and s.stack[-1]["kind"] == "actions":
            rest = sorted((a for a in legal if a != first),
                          key=lambda a: -(0.0 if a.verb == "end" else ranker.action_value(s, seat, a)))
        else:
            rest = [a for a in legal if a != first]
        candidates = [first, *rest][:MAX_CANDIDATES]
    if pick not in candidates:
        candidates.append(pick)
    out = []
    for action in candidates:
        chance, before, after = choice_chance(view, seat, action, rules, bases=bases)
        out.append(Advice(action, rules.label(before, action), chance, reason(before, after, seat), action == pick))
    out.sort(key=lambda a: (not a.strongest, -a.chance, a.label))
    return out[:top]


# --- the review -------------------------------------------------------------------------------------------------
def curve(game: Game, progress: Progress | None = None) -> dict[str, Any]:
    """Replay a game and estimate Athens' chance at the start and after each turn (``cards``: one entry a turn,
    with the turn's first choice; the name is the analysis format's, shared with every game)."""
    rules = game.rules
    replay = Game(rules, game.seed, game.options)
    start = public_chance(replay.state, rules)
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    last_key: tuple[Any, ...] | None = None
    total = max(1, len(game.actions))
    for step, action in enumerate(game.actions):
        key = turn_key(replay.state)
        if key is not None and key != last_key:
            last_key = key
            if progress is not None and len(turns) % 4 == 0:
                progress(step / total)
            if current is not None:
                current["after"] = public_chance(replay.state, rules)
                turns.append(current)
            seat = replay.active_seat
            label = rules.label(replay.state, action)
            current = {"seat": seat, "round": int(replay.state.year), "step": rules.action_count(replay.state),
                       "action": action.to_json(), "label": label, "message": message_of(label),
                       "before": turns[-1]["after"] if turns else start}
        replay.apply(action)
    if current is not None:
        current["after"] = public_chance(replay.state, rules)
        turns.append(current)
    outcome = replay.outcome
    return {"start_probability": start, "cards": turns, "subject": ATHENS,
            "win_probability": [round(c["after"], 4) for c in turns],
            "winner": outcome.winner if outcome else None, "reason": outcome.reason if outcome else None}


def turning_points(game: Game, turns: list[dict[str, Any]], count: int = TURNING_POINTS,
                   progress: Progress | None = None, search: SearchMaker | None = None) -> list[dict[str, Any]]:
    """The ``count`` turns with the largest swings, with what the strongest bot would have played there.

    As in every game's review: the strongest bot's choice is recommended (``better``) only if it gives the
    advised seat a higher estimated chance than the choice played; ``luck`` says the swing came more from what
    followed the choice (dice, cards, the opponent's reply) than from the choice itself."""
    rules = game.rules
    ranked = sorted(range(len(turns)), key=lambda i: -abs(turns[i]["after"] - turns[i]["before"]))[:count]
    out = []
    replay = Game(rules, game.seed, game.options)
    replayed = 0
    for done, i in enumerate(sorted(ranked)):
        turn = turns[i]
        for action in game.actions[replayed:turn["step"]]:
            replay.apply(action)
        replayed = turn["step"]
        seat = turn["seat"]
        view = replay.view(seat)
        played = Action.from_json(turn["action"])
        best = strongest_choice(view, replay.legal_actions(), seat, rules, search)
        if progress is not None:
            progress((done + 0.6) / len(ranked))
        bases = determinizations(view, seat, rules)
        played_chance, before, _a = choice_chance(view, seat, played, rules, bases=bases)
        best_chance = choice_chance(view, seat, best, rules, bases=bases)[0] if best != played else played_chance
        better = best != played and best_chance >= played_chance + BETTER_BY
        if not better:  # never advise a choice no better for the advised seat, by the same estimate
            best, best_chance = played, played_chance
        to_athens = (lambda p: p) if seat == ATHENS else (lambda p: 1.0 - p)
        expected = to_athens(played_chance)
        swing = turn["after"] - turn["before"]
        luck = abs(turn["after"] - expected) > abs(expected - turn["before"])
        best_label = rules.label(before, best)
        out.append({
            "card": i + 1, "step": turn["step"], "round": turn["round"], "seat": seat,
            "side": str(seat).capitalize(), "played": turn["label"], "played_message": message_of(turn["label"]),
            "swing": round(swing, 4),
            "before": round(turn["before"], 4), "after": round(turn["after"], 4),
            "played_estimate": round(expected, 4),
            "strongest": {"action": best.to_json(), "label": best_label, "message": message_of(best_label),
                          "estimate": round(to_athens(best_chance), 4)},
            "better": better, "luck": luck, "note": turning_note(better, luck),
        })
        if progress is not None:
            progress((done + 1) / len(ranked))
    return out


def analyze(game: Game, progress: Progress | None = None, search: SearchMaker | None = None) -> dict[str, Any]:
    """The whole review of a game as JSON-ready data (every estimate is Athens' chance)."""
    data = curve(game, None if progress is None else (lambda share: progress(CURVE_SHARE * share)))
    if progress is not None:
        progress(CURVE_SHARE)
    data["turning_points"] = turning_points(
        game, data["cards"], progress=None if progress is None else
        (lambda share: progress(CURVE_SHARE + (1 - CURVE_SHARE) * share)), search=search)
    data["seed"] = game.seed
    data["rules_version"] = game.rules.info.version
    return data


def plot(data: dict[str, Any], path: Path, lang: str = "en") -> None:
    """Draw the curve with the turning points marked, as PNG, its words in ``lang``."""
    import matplotlib

    tr = translator(lang)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ys = [data["start_probability"], *data["win_probability"]]
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.plot(range(len(ys)), ys, color="#2f5d8a", linewidth=1.8)
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=0.8)
    for tp in data["turning_points"]:
        message = tp.get("played_message")  # the label's message survives the JSON file; its words are English
        played = said_in(Said(message, names("en")) if message else str(tp["played"]), lang)
        ax.annotate(f"{side_in(tp['seat'], lang)}: {played}"[:40], (tp["card"], tp["after"]), fontsize=7,
                    xytext=(0, 12 if tp["swing"] > 0 else -16), textcoords="offset points", ha="center",
                    arrowprops={"arrowstyle": "-", "color": "#555"})
        ax.plot([tp["card"]], [tp["after"]], "o", color="#8b1e1e")
    rounds = [c["round"] for c in data["cards"]]
    for i in range(1, len(rounds)):
        if rounds[i] != rounds[i - 1]:
            ax.axvline(i + 0.5, color="#ccc", linewidth=0.6)
    ax.set_ylim(0, 1)
    ax.set_xlabel(tr.gettext(PLOT_X))
    ax.set_ylabel(tr.gettext(PLOT_Y))
    ax.set_title(tr.gettext(PLOT_TITLE))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def analyze_save(text: str | bytes, out: Path, lang: str = "en", progress: Progress | None = None,
                 search: SearchMaker | None = None) -> dict[str, Any]:
    """Load a save file, review it and write ``analysis.json`` and ``win-probability.png`` (its words in ``lang``)
    into ``out``."""
    game = Game.loads(get_rules("hellenes"), text)
    data = analyze(game, progress, search)
    out.mkdir(parents=True, exist_ok=True)
    (out / "analysis.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    plot(data, out / "win-probability.png", lang)
    return data


# --- words ------------------------------------------------------------------------------------------------------
def turning_note(better: bool, luck: bool, lang: str = "en") -> str:
    """A turning point's verdict in ``lang``: was there a better choice, and was the swing luck."""
    tr = translator(lang)
    return " ".join(tr.gettext(m) for m in [BETTER if better else NOT_BETTER, *([LUCK] if luck else [])])


def side_in(seat: str, lang: str) -> str:
    """A side's name (Athens / Sparta) in ``lang``."""
    return translator(lang).gettext(SIDE.get(seat.lower(), seat))


def reason_in(text: str, lang: str) -> str:
    """A hint's reason in ``lang``."""
    return text if lang == "en" else translator(lang).gettext(text)


class HellenesAnalysis:
    """Hellenes' analysis part: the review (:meth:`analyze`, :meth:`curve`, :meth:`analyze_save`), hints
    (:meth:`hints`) and their words."""

    def analyze(self, game: Game, progress: Progress | None = None,
                search: SearchMaker | None = None) -> dict[str, Any]:
        """The whole review of a game (see :func:`analyze`)."""
        return analyze(game, progress, search)

    def curve(self, game: Game) -> dict[str, Any]:
        """Athens' chance turn by turn (see :func:`curve`)."""
        return curve(game)

    def analyze_save(self, text: str | bytes, out: Path, lang: str = "en",
                     progress: Progress | None = None, search: SearchMaker | None = None) -> dict[str, Any]:
        """Review a save file into ``out`` (see :func:`analyze_save`)."""
        return analyze_save(text, out, lang, progress, search)

    def hints(self, view: dict[str, Any], legal: list[Action], seat: str, top: int = 3,
              rules: Rules | None = None, search: SearchMaker | None = None) -> list[Advice]:
        """The strongest bot's choice and the best others, from ``seat``'s view (see :func:`hints`)."""
        return hints(view, legal, seat, top, rules, search)

    def reason_in(self, reason: str, lang: str) -> str:
        """A hint's reason in ``lang``."""
        return reason_in(reason, lang)

    def side_in(self, seat: str, lang: str) -> str:
        """A side's name in ``lang``."""
        return side_in(seat, lang)

    def turning_note(self, better: bool, luck: bool, lang: str = "en") -> str:
        """A turning point's verdict in ``lang``."""
        return turning_note(better, luck, lang)

    def label_in(self, item: dict[str, Any], lang: str) -> str:
        """The label of a choice an analysis stored (a card, a turning point's strongest choice) in ``lang``."""
        return label_in(item, lang)


def label_in(item: dict[str, Any], lang: str) -> str:
    """The label of a choice stored as JSON in ``lang`` (see :func:`muster.i18n.stored_label`)."""
    return stored_label(item, names, lang)


ANALYSIS = HellenesAnalysis()
"""Hellenes' ``analysis`` part, named by its game module."""
