"""How often bots play each card's event: bot-vs-bot games counting, per card, the turns on
which its event could be taken (played as the event or taken by a discard) and the turns on
which it was. The numbers feed the balance table of docs/cards-design.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from muster.core import Action, Game, get_rules
from muster.games.freedom.bots import own_bot
from muster.games.freedom.state import State

EVENT_VERBS = frozenset({"event", "trigger"})
"""Actions that apply a card's event (its own play, or a discard taking the opponent's)."""


@dataclass
class Usage:
    """Per card: turns its event was open to the player to move, and turns it was taken."""

    bot: str
    games: int = 0
    offered: Counter[int] = field(default_factory=Counter)
    chosen: Counter[int] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)

    def rate(self, number: int) -> float:
        """Share of the offers that were taken (0 when never offered)."""
        return self.chosen[number] / self.offered[number] if self.offered[number] else 0.0

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON-ready data."""
        return {
            "bot": self.bot,
            "games": self.games,
            "winners": dict(self.winners),
            "cards": {str(n): {"offered": self.offered[n], "chosen": self.chosen[n]} for n in sorted(self.offered)},
        }


def open_events(s: State, legal: list[Action]) -> set[int]:
    """Cards whose event the player to move may apply now (by playing it or by a discard)."""
    top = s.stack[-1]["kind"] if s.stack else ""
    if top not in ("card_turn", "final_trigger"):
        return set()
    out = {int(a.arg) for a in legal if a.verb == "event"}  # type: ignore[arg-type]
    if s.trigger and any(a.verb == "trigger" for a in legal):
        out.add(int(s.trigger["card"]))
    return out


def taken_event(s: State, action: Action) -> int | None:
    """The card whose event this action applies, if any."""
    if action.verb == "event":
        return int(action.arg)  # type: ignore[arg-type]
    if action.verb == "trigger" and s.trigger:
        return int(s.trigger["card"])
    return None


def play_counted(usage: Usage, spec: str, seed: int) -> None:
    """Play one game between two copies of the bot ``spec`` and add its event counts."""
    game = Game(get_rules("freedom"), seed, {"quiet": "1"})
    bots = {seat: own_bot(spec, seed=seed * 2 + k) for k, seat in enumerate(("imperial", "insurgent"))}
    while game.active_seat is not None:
        seat = game.active_seat
        legal = game.legal_actions()
        state = game.state
        usage.offered.update(open_events(state, legal))
        action = bots[seat].choose(game.view(seat), legal, seat)
        number = taken_event(state, action)
        if number is not None:
            usage.chosen[number] += 1
        game.apply(action, seat)
    outcome = game.outcome
    usage.games += 1
    if outcome is not None:
        usage.winners[outcome.winner or "draw"] += 1


def measure(spec: str, games: int, seed: int = 0, tick: Callable[[], None] | None = None) -> Usage:
    """Event counts over ``games`` bot-vs-bot games on consecutive seeds."""
    usage = Usage(bot=spec)
    for k in range(games):
        play_counted(usage, spec, seed + k)
        if tick:
            tick()
    return usage
