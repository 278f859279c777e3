"""Freedom! in the lab: what a finished game adds to its record (the card events played, the tracks at every
round), the card and track numbers of the balance report, its plots and its card table.

``LAB`` is the game's ``lab`` part; it satisfies :class:`muster.lab.hooks.LabHooks` structurally.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.numbers import format_percent

from muster.core import Action
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.rules.action_phase import card_name
from muster.games.freedom.texts import END_REASONS, card_face
from muster.i18n import N_, translator

SEATS = (IMPERIAL, INSURGENT)
SEAT_WORDS = {IMPERIAL: N_("Imperial"), INSURGENT: N_("Insurgent")}
"""The sides, in words."""
TRACK_LINES = {"imperial_morale": N_("Imperial Morale"), "insurgent_morale": N_("Insurgent Morale"),
               "imperial_supplies": N_("Imperial Supplies"), "insurgent_supplies": N_("Insurgent Supplies"),
               "imperial_money": N_("Imperial Money")}
"""The tracks plot's lines, in words."""


def snapshot(state: Any) -> dict[str, int]:
    """The round and the tracks worth plotting: morale and supplies of both sides, the Imperial money."""
    imp, ins = state.tracks[IMPERIAL], state.tracks[INSURGENT]
    return {
        "round": state.round,
        "imperial_morale": imp["morale"],
        "insurgent_morale": ins["morale"],
        "imperial_supplies": imp["supplies"],
        "imperial_money": imp["money"],
        "insurgent_supplies": ins["supplies"],
    }


class FreedomTracker:
    """Notes the card events of one game and its tracks at the start of every round and at the end."""

    def __init__(self, state: Any) -> None:
        self.events: list[list[Any]] = []
        """[seat, card] for every card played as an event (or taken with the discard-to-trigger rule)."""
        self.trajectory = [snapshot(state)]
        self.round = state.round

    def before(self, state: Any, seat: str, action: Action) -> None:
        """Note a card played as an event."""
        if action.verb in ("event", "trigger") and state.stack[-1]["kind"] in ("card_turn", "final_trigger"):
            card = action.arg if action.verb == "event" else (state.trigger or {}).get("card")
            if isinstance(card, int):
                self.events.append([seat, card])

    def after(self, state: Any) -> None:
        """Note the tracks when a new round begins."""
        if state.round != self.round:
            self.round = state.round
            self.trajectory.append(snapshot(state))

    def finish(self, state: Any) -> dict[str, Any]:
        """The round the game ended in, the events and the tracks (the last point is "after the last round")."""
        return {"round": state.round, "events": self.events,
                "trajectory": [*self.trajectory, {**snapshot(state), "round": state.round + 1}]}


@dataclass
class CardStat:
    """How often one card's event was used, and how the games it was used in ended."""

    card: int
    name: str
    by_seat: dict[str, int]
    games: int
    wins: int
    """Games in which the side that used the event won."""


def card_stats(records: Sequence[Any]) -> list[CardStat]:
    """Per card, event uses by seat and the win rate of the user (a card used twice in a game counts once)."""
    uses: dict[int, Counter[str]] = defaultdict(Counter)
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for r in records:
        seen: set[tuple[str, int]] = set()
        for seat, card in r.extra.get("events", ()):
            uses[card][seat] += 1
            if (seat, card) in seen:
                continue
            seen.add((seat, card))
            games[card] += 1
            wins[card] += r.winner == seat
    out = [CardStat(c, card_name(c), {s: uses[c][s] for s in SEATS}, games[c], wins[c]) for c in uses]
    return sorted(out, key=lambda cs: (-sum(cs.by_seat.values()), cs.card))


def _pyplot() -> Any:
    import matplotlib  # deferred: only reports draw, and matplotlib takes a while to import

    matplotlib.use("Agg")  # files only: no display on servers and in CI
    import matplotlib.pyplot as plt

    return plt


def plot_tracks(records: Sequence[Any], path: Path, lang: str = "en") -> None:
    """Mean Morale and Supplies of both sides at the start of each round (games still running; words in
    ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    trajectories = [r.extra.get("trajectory", []) for r in records]
    rounds = sorted({p["round"] for t in trajectories for p in t})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for key in TRACK_LINES:
        means = []
        for k in rounds:
            vals = [p[key] for t in trajectories for p in t if p["round"] == k]
            means.append(sum(vals) / len(vals) if vals else float("nan"))
        ax = axes[0] if key.endswith("morale") else axes[1]
        ax.plot(rounds, means, marker="o", label=tr.gettext(TRACK_LINES[key]))
    titles = (N_("Morale: mean at the start of each round"), N_("Supplies and Money: mean at the start of each round"))
    for ax, title in zip(axes, titles, strict=True):
        ax.set_xlabel(tr.gettext("round (7 = after the last round)"))
        ax.set_title(tr.gettext(title))
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _card_label(card: int, english: str, lang: str) -> str:
    return english if lang == "en" else f"{card} {card_face(card, lang)['name']}"


def plot_cards(records: Sequence[Any], path: Path, lang: str = "en", top: int = 25) -> None:
    """Bars: the most used card events, by the side that used them (words in ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    stats = card_stats(records)[:top]
    fig, ax = plt.subplots(figsize=(8, max(3, 0.3 * len(stats) + 1)))
    names = [_card_label(c.card, c.name, lang) for c in stats]
    left = [0] * len(stats)
    for seat, colour in zip(SEATS, ("#b03a2e", "#2e5eaa"), strict=True):
        vals = [c.by_seat[seat] for c in stats]
        ax.barh(names, vals, left=left, color=colour, label=tr.gettext(SEAT_WORDS[seat]))
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel(tr.gettext("times played as an event"))
    ax.set_title(tr.gettext("Card events used"))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


@dataclass(frozen=True)
class _Plot:
    filename: str
    draw: Any
    title: str


CARD_HEADS = (N_("card"), N_("Imperial uses"), N_("Insurgent uses"), N_("games used"), N_("user's win rate"))
CARD_COLUMNS = (N_("card"), N_("by Imperial"), N_("by Insurgent"), N_("games used"), N_("user won"))


@dataclass(frozen=True)
class _Table:
    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]


class FreedomLab:
    """Freedom!'s lab hooks."""

    def seat_name(self, seat: str, lang: str) -> str:
        """``Imperial`` or ``Insurgent`` in ``lang``."""
        return translator(lang).gettext(SEAT_WORDS[seat]) if seat in SEAT_WORDS else seat

    def ending_name(self, reason: str, lang: str) -> str:
        """An end reason (fort, beach, survival, a side's morale) in ``lang``."""
        return translator(lang).gettext(END_REASONS[reason]) if reason in END_REASONS else reason.replace("_", " ")

    def tracker(self, state: Any) -> FreedomTracker:
        """A tracker of the card events and the tracks."""
        return FreedomTracker(state)

    def summary(self, records: Sequence[Any]) -> dict[str, Any]:
        """The card events: per card, uses by side, games used in, and the user's wins."""
        return {"cards": [{"card": c.card, "name": c.name, "events": c.by_seat, "games": c.games, "user_wins": c.wins}
                          for c in card_stats(records)]}

    def plots(self) -> Sequence[_Plot]:
        """The tracks over the rounds and the card events used."""
        return (_Plot("tracks.png", plot_tracks, N_("Morale and supply trajectories")),
                _Plot("cards.png", plot_cards, N_("Card events used")))

    def report(self, data: Mapping[str, Any], lang: str) -> list[str]:
        """The table of card events."""
        tr = translator(lang)
        lines = ["## " + tr.gettext("Card events"), "",
                 "| " + " | ".join(tr.gettext(h) for h in CARD_HEADS) + " |",
                 "| --- | --- | --- | --- | --- |"]
        for c in data.get("cards", ()):
            rate = c["user_wins"] / c["games"] if c["games"] else 0.0
            lines.append(f"| {self._name(c, lang)} | {c['events'][IMPERIAL]} | {c['events'][INSURGENT]} | "
                         f"{c['games']} | {format_percent(rate, '#,##0%', locale=lang)} |")
        return lines

    @staticmethod
    def _name(c: Mapping[str, Any], lang: str) -> str:
        return _card_label(int(c["card"]), str(c["name"]), lang) if isinstance(c.get("card"), int) else str(c["name"])

    def tables(self, data: Mapping[str, Any], lang: str) -> list[_Table]:
        """How often each card's event was used (``muster simulate --cards``)."""
        tr = translator(lang)
        rows = []
        for c in data.get("cards", ()):
            rate = c["user_wins"] / c["games"] if c["games"] else 0.0
            rows.append((self._name(c, lang), str(c["events"][IMPERIAL]), str(c["events"][INSURGENT]),
                         str(c["games"]), f"{rate:.0%}"))
        title = tr.nfmt("Card events used in {n} game", "Card events used in {n} games", int(data["games"]))
        return [_Table(title, [tr.gettext(col) for col in CARD_COLUMNS], rows)]


LAB = FreedomLab()
"""Freedom!'s lab part."""
