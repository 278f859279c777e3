"""Balance report: many games between two fixed bots, summarised in Markdown or HTML with PNG plots."""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal, format_percent

from muster.games.freedom.rules.action_phase import card_name
from muster.games.freedom.texts import END_REASONS, card_face
from muster.i18n import N_, translator
from muster.lab.play import SEATS, GameRecord
from muster.lab.runner import Job, check_specs, run_jobs
from muster.lab.stats import wilson

REASONS = ("fort", "beach", "insurgent_morale", "imperial_morale", "survival")
"""How a game can end, in the order the report lists them."""


def run_simulation(imperial: str, insurgent: str, games: int, seed: int = 0, workers: int = 0,
                   ruleset: str = "2nd", show_progress: bool = True, stream: Path | None = None,
                   backend: str = "local", address: str | None = None,
                   done: Sequence[GameRecord] = ()) -> list[GameRecord]:
    """Play ``games`` games (seeds ``seed`` … ``seed + games - 1``) between the two bot specs.

    ``backend``/``address``: where the games run (see :func:`muster.lab.runner.run_jobs`); records
    in ``done`` are reused instead of played again (``--resume``).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    check_specs([imperial, insurgent])
    jobs = [Job(imperial, insurgent, seed + k, ruleset) for k in range(games)]
    return run_jobs(jobs, workers, show_progress, label="simulate", stream=stream, backend=backend, address=address,
                    done=done)


@dataclass
class CardStat:
    """How often one card's event was used, and how the games it was used in ended."""

    card: int
    name: str
    by_seat: dict[str, int]
    games: int
    wins: int
    """Games in which the side that used the event won."""


def card_stats(records: Sequence[GameRecord]) -> list[CardStat]:
    """Per card, event uses by seat and the win rate of the user (a card used twice in a game counts once)."""
    uses: dict[int, Counter[str]] = defaultdict(Counter)
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for r in records:
        seen: set[tuple[str, int]] = set()
        for seat, card in r.events:
            uses[card][seat] += 1
            if (seat, card) in seen:
                continue
            seen.add((seat, card))
            games[card] += 1
            wins[card] += r.winner == seat
    out = [CardStat(c, card_name(c), {s: uses[c][s] for s in SEATS}, games[c], wins[c]) for c in uses]
    return sorted(out, key=lambda cs: (-sum(cs.by_seat.values()), cs.card))


def summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The numbers of the report as JSON-ready data."""
    n = len(records)
    imp_wins = sum(1 for r in records if r.winner == "imperial")
    rate, low, high = wilson(imp_wins, n)
    endings = Counter(r.reason for r in records)
    by_round: dict[str, dict[int, int]] = {reason: dict(Counter(r.round for r in records if r.reason == reason))
                                           for reason in sorted(endings)}
    return {
        "games": n,
        "imperial": records[0].imperial if records else "",
        "insurgent": records[0].insurgent if records else "",
        "rules_versions": sorted({r.rules_version or "unknown" for r in records}),
        "imperial_wins": imp_wins,
        "imperial_win_rate": rate,
        "imperial_win_rate_ci95": [low, high],
        "endings": dict(endings),
        "endings_by_round": by_round,
        "mean_decisions": sum(r.decisions for r in records) / n if n else 0.0,
        "mean_rounds": sum(r.round for r in records) / n if n else 0.0,
        "seconds_per_game": {s: sum(r.seconds[s] for r in records) / n if n else 0.0 for s in SEATS},
        "cards": [{"card": c.card, "name": c.name, "events": c.by_seat, "games": c.games, "user_wins": c.wins}
                  for c in card_stats(records)],
    }


# --- plots ---------------------------------------------------------------------------------


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and in CI
    import matplotlib.pyplot as plt

    return plt


TRACK_LINES = {"imperial_morale": N_("Imperial Morale"), "insurgent_morale": N_("Insurgent Morale"),
               "imperial_supplies": N_("Imperial Supplies"), "insurgent_supplies": N_("Insurgent Supplies"),
               "imperial_money": N_("Imperial Money")}
"""The tracks plot's lines, in words."""
SEAT_WORDS = {"imperial": N_("Imperial"), "insurgent": N_("Insurgent")}
"""The card plot's sides, in words."""


def plot_endings(records: Sequence[GameRecord], path: Path, lang: str = "en") -> None:
    """Stacked bars: how games ended, by the round in which they ended (words in ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    rounds = list(range(1, max((r.round for r in records), default=6) + 1))
    fig, ax = plt.subplots(figsize=(7, 4))
    bottom = [0] * len(rounds)
    for reason in REASONS:
        counts = [sum(1 for r in records if r.reason == reason and r.round == k) for k in rounds]
        if any(counts):
            ax.bar(rounds, counts, bottom=bottom, label=tr.gettext(END_REASONS[reason]).replace("_", " "))
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    ax.set_xlabel(tr.gettext("round the game ended"))
    ax.set_ylabel(tr.gettext("games"))
    ax.set_title(tr.gettext("How games end"))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_length(records: Sequence[GameRecord], path: Path, lang: str = "en") -> None:
    """Histogram of game length in decisions (words in ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist([r.decisions for r in records], bins=30, color="#4a6fa5")
    ax.set_xlabel(tr.gettext("decisions in the game"))
    ax.set_ylabel(tr.gettext("games"))
    ax.set_title(tr.gettext("Game length"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_tracks(records: Sequence[GameRecord], path: Path, lang: str = "en") -> None:
    """Mean Morale and Supplies of both sides at the start of each round (games still running; words in
    ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    keys = ("imperial_morale", "insurgent_morale", "imperial_supplies", "insurgent_supplies", "imperial_money")
    rounds = sorted({p["round"] for r in records for p in r.trajectory})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for key in keys:
        means = []
        for k in rounds:
            vals = [p[key] for r in records for p in r.trajectory if p["round"] == k]
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


def plot_cards(records: Sequence[GameRecord], path: Path, lang: str = "en", top: int = 25) -> None:
    """Bars: the most used card events, by the side that used them (words in ``lang``)."""
    plt = _pyplot()
    tr = translator(lang)
    stats = card_stats(records)[:top]
    fig, ax = plt.subplots(figsize=(8, max(3, 0.3 * len(stats) + 1)))
    names = [c.name if lang == "en" else f"{c.card} {card_face(c.card, lang)['name']}" for c in stats]
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


# --- the report -----------------------------------------------------------------------------

PLOTS = (("endings.png", plot_endings, N_("How games end, by round")),
         ("length.png", plot_length, N_("Game length")),
         ("tracks.png", plot_tracks, N_("Morale and supply trajectories")),
         ("cards.png", plot_cards, N_("Card events used")))


def write_report(records: Sequence[GameRecord], out: Path, fmt: str = "md", lang: str = "en") -> Path:
    """Write summary.json, the PNG plots and report.md (or report.html) into ``out``; return the report path.

    The report's words and the plots' follow ``lang``; summary.json (data for programs) stays English."""
    if fmt not in ("md", "html"):
        raise ValueError("format must be 'md' or 'html'")
    if not records:
        raise ValueError("no games to report on")
    out.mkdir(parents=True, exist_ok=True)
    data = summary(records)
    (out / "summary.json").write_text(json.dumps(data, indent=2))
    for filename, plot, _title in PLOTS:
        plot(records, out / filename, lang)
    lines = _markdown(data, lang)
    if fmt == "md":
        path = out / "report.md"
        path.write_text("\n".join(lines) + "\n")
    else:
        path = out / "report.html"
        path.write_text(_html(lines))
    return path


def _markdown(data: dict[str, Any], lang: str = "en") -> list[str]:
    tr = translator(lang)

    def pct(x: float, digits: int = 1) -> str:
        return format_percent(x, "#,##0." + "0" * digits + "%" if digits else "#,##0%", locale=lang)

    low, high = data["imperial_win_rate_ci95"]
    mixed = tr.gettext(" (**mixed: these games were not all played under the same rules**)")
    lines = [
        "# " + tr.fmt("Balance report: {imperial} (Imperial) vs {insurgent} (Insurgent)", imperial=data["imperial"],
                      insurgent=data["insurgent"]),
        "",
        "- " + tr.fmt("Games: {n}", n=data["games"]),
        "- " + tr.fmt("Rules: {versions}", versions=", ".join(data["rules_versions"]))
        + (mixed if len(data["rules_versions"]) > 1 else ""),
        "- " + tr.fmt("Imperial win rate: **{rate}** (95% CI {low}–{high}, Wilson)",
                      rate=pct(data["imperial_win_rate"]), low=pct(low), high=pct(high)),
        "- " + tr.fmt("Mean length: {decisions} decisions, ending in round {rounds} on average",
                      decisions=format_decimal(data["mean_decisions"], "0", locale=lang),
                      rounds=format_decimal(data["mean_rounds"], "0.00", locale=lang)),
        "- " + tr.fmt("Bot thinking time per game: Imperial {imperial} s, Insurgent {insurgent} s",
                      imperial=format_decimal(data["seconds_per_game"]["imperial"], "0.0", locale=lang),
                      insurgent=format_decimal(data["seconds_per_game"]["insurgent"], "0.0", locale=lang)),
        "",
        "## " + tr.gettext("How games end"),
        "",
        "| " + " | ".join(tr.gettext(h) for h in (N_("ending"), N_("games"), N_("share"), N_("by round"))) + " |",
        "| --- | --- | --- | --- |",
    ]
    for reason, count in sorted(data["endings"].items(), key=lambda kv: -kv[1]):
        rounds = ", ".join(f"R{k}: {v}" for k, v in sorted(data["endings_by_round"][reason].items()))
        ending = tr.gettext(END_REASONS[reason]) if reason in END_REASONS else reason.replace("_", " ")
        lines.append(f"| {ending} | {count} | {pct(count / data['games'])} | {rounds} |")
    lines += [""]
    for filename, _plot, title in PLOTS:
        lines += [f"## {tr.gettext(title)}", "", f"![{tr.gettext(title)}]({filename})", ""]
    heads = (N_("card"), N_("Imperial uses"), N_("Insurgent uses"), N_("games used"), N_("user's win rate"))
    lines += ["## " + tr.gettext("Card events"), "",
              "| " + " | ".join(tr.gettext(h) for h in heads) + " |",
              "| --- | --- | --- | --- | --- |"]
    for c in data["cards"]:
        rate = c["user_wins"] / c["games"] if c["games"] else 0.0
        name = card_face(int(c["card"]), lang)["name"] if lang != "en" and isinstance(c.get("card"), int) else c["name"]
        lines.append(f"| {name} | {c['events']['imperial']} | {c['events']['insurgent']} | "
                     f"{c['games']} | {pct(rate, 0)} |")
    return lines


def _html(lines: list[str]) -> str:
    """A minimal HTML rendering of the Markdown lines (headings, bullets, tables, images)."""
    body: list[str] = []
    table_open = False
    for line in lines:
        if line.startswith("|"):
            cells = [html.escape(c.strip()) for c in line.strip("|").split("|")]
            if all(set(c) <= {"-", " "} for c in cells):
                continue
            if not table_open:
                body.append("<table>")
                table_open = True
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
            continue
        if table_open:
            body.append("</table>")
            table_open = False
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{html.escape(line.lstrip('# '))}</h{level}>")
        elif line.startswith("!["):
            src = line[line.index("(") + 1:-1]
            body.append(f'<img src="{html.escape(src)}" alt="">')
        elif line.startswith("- "):
            body.append(f"<p>{html.escape(line[2:]).replace('**', '')}</p>")
    if table_open:
        body.append("</table>")
    return "<!doctype html><meta charset='utf-8'><title>Balance report</title>\n" + "\n".join(body) + "\n"
