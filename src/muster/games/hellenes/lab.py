"""Hellenes in the lab: the Prestige track over the Seasons of each game, the endings by winner, the final
Prestige, and the Prestige plot of the balance report.

``LAB`` is the game's ``lab`` part; it satisfies :class:`muster.lab.hooks.LabHooks` structurally.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from muster.core import Action
from muster.i18n import N_, translator

SEATS = ("athens", "sparta")
SEAT_WORDS = {"athens": N_("side:athens"), "sparta": N_("side:sparta")}
"""The sides' names (the states)."""
REASONS = {"prestige_lead": N_("a Prestige lead at the Victory Check"), "capital": N_("the enemy capital taken"),
           "tie": N_("a tie"), "prestige_end": N_("Prestige at the end")}
"""How a game can end, in words."""


class HellenesTracker:
    """Notes the Prestige track at the start of every Season and at the end."""

    def __init__(self, state: Any) -> None:
        self.trajectory: list[int] = []
        """The Prestige track (positive: Sparta ahead)."""
        self.season: tuple[int, int] | None = None

    def before(self, state: Any, seat: str, action: Action) -> None:
        """Note the track when a new Season begins."""
        if (state.year, state.season) != self.season:
            self.season = (state.year, state.season)
            self.trajectory.append(state.prestige)

    def after(self, state: Any) -> None:
        """Nothing to note after an action."""

    def finish(self, state: Any) -> dict[str, Any]:
        """The final Prestige and the track."""
        return {"prestige": state.prestige, "trajectory": [*self.trajectory, state.prestige]}


def plot_prestige(records: Sequence[Any], path: Path, lang: str = "en") -> None:
    """The mean Prestige track by Season, with the band from the 10th to the 90th percentile."""
    import matplotlib  # deferred: only reports draw, and matplotlib takes a while to import

    matplotlib.use("Agg")  # files only: no display on servers and in CI
    import matplotlib.pyplot as plt

    tr = translator(lang)
    tracks = [r.extra.get("trajectory", []) for r in records]
    longest = max((len(t) for t in tracks), default=0)
    means, lows, highs = [], [], []
    for i in range(longest):
        values = sorted(t[i] for t in tracks if len(t) > i)
        means.append(sum(values) / len(values))
        lows.append(values[len(values) // 10])
        highs.append(values[(len(values) * 9) // 10])
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(range(longest), means, color="#333", label=tr.gettext("mean"))
    ax.fill_between(range(longest), lows, highs, color="#999", alpha=0.3, label=tr.gettext("10th–90th percentile"))
    ax.axhline(0, color="#888", linewidth=0.8)
    ax.set_xlabel(tr.gettext("Season (New Year and five Seasons a Year)"))
    ax.set_ylabel(tr.gettext("Prestige (+ Sparta, − Athens)"))
    ax.legend()
    ax.set_title(tr.gettext("The Prestige track over the game"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


@dataclass(frozen=True)
class _Plot:
    filename: str
    draw: Any
    title: str


class HellenesLab:
    """Hellenes' lab hooks."""

    def seat_name(self, seat: str, lang: str) -> str:
        """``Athens`` or ``Sparta`` in ``lang``."""
        return translator(lang).gettext(SEAT_WORDS[seat]) if seat in SEAT_WORDS else seat

    def ending_name(self, reason: str, lang: str) -> str:
        """An end reason, or a ``winner:reason`` of the summary's endings, in ``lang``."""
        winner, _, code = reason.rpartition(":")
        words = translator(lang).gettext(REASONS[code]) if code in REASONS else code.replace("_", " ")
        return f"{self.seat_name(winner, lang)}: {words}" if winner else words

    def tracker(self, state: Any) -> HellenesTracker:
        """A tracker of the Prestige track."""
        return HellenesTracker(state)

    def summary(self, records: Sequence[Any]) -> dict[str, Any]:
        """Sparta's win rate, the endings by winner and the mean final Prestige."""
        n = len(records)
        sparta = sum(1 for r in records if r.winner == "sparta")
        return {"sparta_win_rate": sparta / n if n else 0.0,
                "endings": dict(Counter(f"{r.winner}:{r.reason}" for r in records)),
                "mean_final_prestige": sum(r.extra.get("prestige", 0) for r in records) / n if n else 0.0}

    def plots(self) -> Sequence[_Plot]:
        """The Prestige track over the game."""
        return (_Plot("prestige.png", plot_prestige, N_("The Prestige track over the game")),)

    def report(self, data: Mapping[str, Any], lang: str) -> list[str]:
        """The mean final Prestige."""
        tr = translator(lang)
        return [tr.fmt("Mean final Prestige: {prestige} (+ Sparta, − Athens)",
                       prestige=tr.number(round(float(data.get("mean_final_prestige", 0.0)), 2))), ""]

    def tables(self, data: Mapping[str, Any], lang: str) -> list[Any]:
        """No tables of its own."""
        return []


LAB = HellenesLab()
"""Hellenes' lab part."""
