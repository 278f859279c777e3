"""After the game: the win-probability curve card by card, and the turning points."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from muster.core import Game, get_rules
from muster.core.interface import Action
from muster.games.freedom.analysis import texts
from muster.games.freedom.analysis.advice import choice_chance, determinizations, strongest_choice
from muster.games.freedom.analysis.winprob import imperial_chance, state_probability
from muster.games.freedom.bots.features import is_card_point
from muster.games.freedom.constants import IMPERIAL
from muster.i18n import message_of

Progress = Callable[[float], None]
"""Told the share of the work done so far (0 to 1) as an analysis advances."""

TURNING_POINTS = 3
"""How many of the largest swings are reported."""
BETTER_BY = 0.01
"""How much higher the advised seat's estimated chance after the strongest bot's choice must be than after the
choice played for it to be recommended instead (smaller differences are within the estimate's noise)."""


def curve(game: Game, progress: Progress | None = None) -> dict[str, Any]:
    """Replay a game and estimate Imperial's chance at the start and after each card (``progress``, if given,
    hears the share of the actions replayed every few cards).

    Each estimate is read from the Imperial seat's view at the moment the next card is chosen (the
    estimate reads only public facts, so either seat's view gives the same figure).
    """
    rules = game.rules
    replay = Game(rules, game.seed, game.options)
    start = state_probability(replay.state)
    cards: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    total = max(1, len(game.actions))
    for step, action in enumerate(game.actions):
        seat = replay.active_seat
        assert seat is not None
        view = replay.view(seat)
        if is_card_point(view):
            if progress is not None and len(cards) % 8 == 0:
                progress(step / total)
            if current is not None:
                current["after"] = imperial_chance(replay.view(IMPERIAL), IMPERIAL, rules)
                cards.append(current)
            label = rules.label(replay.state, action)
            current = {"seat": seat, "round": replay.state.round, "step": rules.action_count(replay.state),
                       "action": action.to_json(), "label": label, "message": message_of(label),
                       "before": cards[-1]["after"] if cards else start}
        replay.apply(action)
    if current is not None:
        current["after"] = state_probability(replay.state)
        cards.append(current)
    outcome = replay.outcome
    return {"start_probability": start, "cards": cards,
            "win_probability": [round(c["after"], 4) for c in cards],
            "winner": outcome.winner if outcome else None, "reason": outcome.reason if outcome else None}


def turning_points(game: Game, cards: list[dict[str, Any]], count: int = TURNING_POINTS,
                   progress: Progress | None = None) -> list[dict[str, Any]]:
    """The ``count`` cards with the largest swings, with what the strongest bot would have played there
    (``progress``, if given, hears the share of these cards done after each one).

    The strongest bot's choice is recommended (``better``) only if it gives the advised seat a higher estimated
    chance than the choice played; otherwise the choice played stands. ``luck`` says the swing came more from
    what followed the choice (dice, cards drawn, the opponent's reply) than from the choice itself: the chance
    expected after the choice (``played_estimate``) lies nearer the chance before than the chance after."""
    rules = game.rules
    ranked = sorted(range(len(cards)), key=lambda i: -abs(cards[i]["after"] - cards[i]["before"]))[:count]
    out = []
    # One replay serves every turning point (they are visited in the order they were played).
    replay = Game(rules, game.seed, game.options)
    replayed = 0
    for done, i in enumerate(sorted(ranked)):
        card = cards[i]
        for action in game.actions[replayed:card["step"]]:
            replay.apply(action)
        replayed = card["step"]
        seat = card["seat"]
        view = replay.view(seat)
        legal = replay.legal_actions()
        played = Action.from_json(card["action"])
        best = strongest_choice(view, legal, seat, rules)
        if progress is not None:
            progress((done + 0.6) / len(ranked))  # the search is most of a turning point's work
        # both chances are the advised seat's own (choice_chance), compared before turning them into Imperial's;
        # both choices are tried in the same determinizations, built once
        bases = determinizations(view, seat, rules)
        played_chance, before, _a = choice_chance(view, seat, played, rules, bases=bases)
        best_chance = choice_chance(view, seat, best, rules, bases=bases)[0] if best != played else played_chance
        better = best != played and best_chance >= played_chance + BETTER_BY
        if not better:  # never advise a choice no better for the advised seat, by the same estimate
            best, best_chance = played, played_chance
        to_imperial = (lambda p: p) if seat == IMPERIAL else (lambda p: 1.0 - p)
        expected = to_imperial(played_chance)  # where the choice alone was expected to leave Imperial's chance
        swing = card["after"] - card["before"]
        luck = abs(card["after"] - expected) > abs(expected - card["before"])
        best_label = rules.label(before, best)
        out.append({
            "card": i + 1, "step": card["step"], "round": card["round"], "seat": seat,
            "side": texts.SIDE[seat], "played": card["label"], "swing": round(swing, 4),
            "before": round(card["before"], 4), "after": round(card["after"], 4),
            "played_estimate": round(expected, 4),
            "strongest": {"action": best.to_json(), "label": best_label, "message": message_of(best_label),
                          "estimate": round(to_imperial(best_chance), 4)},
            "better": better, "luck": luck,
            "note": texts.turning_note(better, luck),
        })
        if progress is not None:
            progress((done + 1) / len(ranked))
    return out


CURVE_SHARE = 0.05
"""The share of an analysis's work the curve takes (the turning points take the rest)."""


def analyze(game: Game, progress: Progress | None = None) -> dict[str, Any]:
    """The whole analysis of a game as JSON-ready data (estimates are Imperial's chance); ``progress``, if
    given, hears the share of the work done (0 to 1) as it advances."""
    data = curve(game, None if progress is None else (lambda share: progress(CURVE_SHARE * share)))
    if progress is not None:
        progress(CURVE_SHARE)
    data["turning_points"] = turning_points(
        game, data["cards"], progress=None if progress is None else
        (lambda share: progress(CURVE_SHARE + (1 - CURVE_SHARE) * share)))
    data["seed"] = game.seed
    data["rules_version"] = game.rules.info.version
    return data


def plot(data: dict[str, Any], path: Path, lang: str = "en") -> None:
    """Draw the curve with the turning points marked, as PNG, its words in ``lang``."""
    import matplotlib

    from muster.games.freedom.texts import names
    from muster.i18n import render, translator

    tr = translator(lang)
    seats = {"Imperial": "imperial", "Insurgent": "insurgent"}

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ys = [data["start_probability"], *data["win_probability"]]
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.plot(range(len(ys)), ys, color="#8b1e1e", linewidth=1.8)
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=0.8)
    for tp in data["turning_points"]:
        played = str(tp["played"])
        message = data["cards"][tp["card"] - 1].get("message")
        if lang != "en" and message is not None:  # the label's message, kept beside its English words
            played = render(message, names(lang))
        side = texts.side_in(seats.get(tp["side"], tp["side"]), lang)
        ax.annotate(f"{side}: {played}"[:40], (tp["card"], tp["after"]), fontsize=7,
                    xytext=(0, 12 if tp["swing"] > 0 else -16), textcoords="offset points", ha="center",
                    arrowprops={"arrowstyle": "-", "color": "#555"})
        ax.plot([tp["card"]], [tp["after"]], "o", color="#2f5d8a")
    rounds = [c["round"] for c in data["cards"]]
    for i in range(1, len(rounds)):
        if rounds[i] != rounds[i - 1]:
            ax.axvline(i + 0.5, color="#ccc", linewidth=0.6)
    ax.set_ylim(0, 1)
    ax.set_xlabel(tr.gettext(texts.PLOT_X))
    ax.set_ylabel(tr.gettext(texts.PLOT_Y))
    ax.set_title(tr.gettext(texts.PLOT_TITLE))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def analyze_save(text: str | bytes, out: Path, lang: str = "en", progress: Progress | None = None) -> dict[str, Any]:
    """Load a save file, analyze it and write ``analysis.json`` and ``win-probability.png`` (its words in
    ``lang``) into ``out``; ``progress`` hears the share of the work done as it advances."""
    game = Game.loads(get_rules("freedom"), text)
    data = analyze(game, progress)
    out.mkdir(parents=True, exist_ok=True)
    (out / "analysis.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    plot(data, out / "win-probability.png", lang)
    return data
