"""Balance report: many games of any game between fixed bots, summarised in Markdown or HTML with PNG plots.

The report and ``summary.json`` hold what every game has (the first seat's win rate with its 95% interval,
how games end, their length, the bots' thinking time); a game's lab hooks add its own numbers, plots and
sections (see :mod:`muster.lab.hooks`). Records that carry a ``round`` also get endings by round.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal, format_percent

from muster.core import get_rules
from muster.core.registry import default_game
from muster.core.stats import wilson
from muster.i18n import N_, translator
from muster.lab.hooks import LabHooks, Plot, PlotPart, lab_hooks
from muster.lab.play import GameRecord
from muster.lab.runner import Job, check_specs, run_jobs

MAX_GAMES = 1_000_000
"""The most games one run plays (a cluster run of 100,000 games is the largest the docs describe)."""


def simulation_jobs(bots: Sequence[str], games: int, seed: int = 0, game: str | None = None,
                    options: dict[str, str] | None = None) -> list[Job]:
    """The jobs of one pairing: ``games`` games on seeds ``seed`` … ``seed + games - 1``."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be between 1 and {MAX_GAMES}")
    name = game or default_game()
    seats = get_rules(name).info.seats
    if len(bots) != len(seats):
        raise ValueError(f"{name} needs one bot for each seat: {', '.join(seats)}")
    opts = tuple(sorted((options or {}).items()))
    return [Job(name, tuple(bots), seed + k, opts) for k in range(games)]


def run_simulation(bots: Sequence[str], games: int, seed: int = 0, workers: int = 0, game: str | None = None,
                   options: dict[str, str] | None = None, show_progress: bool = True, stream: Path | None = None,
                   backend: str = "local", address: str | None = None,
                   done: Sequence[GameRecord] = ()) -> list[GameRecord]:
    """Play ``games`` games (seeds ``seed`` … ``seed + games - 1``) between the bot specs (one per seat, in
    the game's seat order) of ``game`` (default: the default game) with its ``options``.

    ``backend``/``address``: where the games run (see :func:`muster.lab.runner.run_jobs`); records
    in ``done`` are reused instead of played again (``--resume``).
    """
    jobs = simulation_jobs(bots, games, seed, game, options)
    check_specs(bots, jobs[0].game)
    return run_jobs(jobs, workers, show_progress, label="simulate", stream=stream, backend=backend, address=address,
                    done=done)


def _has_rounds(records: Sequence[GameRecord]) -> bool:
    return bool(records) and all(isinstance(r.extra.get("round"), int) for r in records)


def summary(records: Sequence[GameRecord], game: str | None = None) -> dict[str, Any]:
    """The numbers of the report as JSON-ready data (the generic ones, then the game's own)."""
    name = game or default_game()
    seats = list(get_rules(name).info.seats)
    first = seats[0]
    n = len(records)
    wins = sum(1 for r in records if r.winner == first)
    rate, low, high = wilson(wins, n)
    data: dict[str, Any] = {
        "game": name,
        "games": n,
        **{seat: records[0].bots.get(seat, "") if records else "" for seat in seats},
        "rules_versions": sorted({r.rules_version or "unknown" for r in records}),
        f"{first}_wins": wins,
        f"{first}_win_rate": rate,
        f"{first}_win_rate_ci95": [low, high],
        "endings": dict(Counter(r.reason for r in records)),
        "mean_decisions": sum(r.decisions for r in records) / n if n else 0.0,
        "seconds_per_game": {s: sum(r.seconds.get(s, 0.0) for r in records) / n if n else 0.0 for s in seats},
    }
    if _has_rounds(records):
        data["endings_by_round"] = {reason: dict(Counter(r.extra["round"] for r in records if r.reason == reason))
                                    for reason in sorted(data["endings"])}
        data["mean_rounds"] = sum(r.extra["round"] for r in records) / n
    data.update(lab_hooks(name).summary(records))
    return data


# --- plots ---------------------------------------------------------------------------------


def pyplot() -> Any:
    """matplotlib's pyplot drawing to files only (no display on servers and in CI)."""
    import matplotlib  # deferred: only reports draw, and matplotlib takes a while to import

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_endings(records: Sequence[GameRecord], path: Path, lang: str, hooks: LabHooks) -> None:
    """How games ended: stacked bars by the round they ended in (records with rounds), else a bar per winner
    and ending (words in ``lang``)."""
    plt = pyplot()
    tr = translator(lang)
    if _has_rounds(records):
        rounds = list(range(1, max((r.extra["round"] for r in records), default=1) + 1))
        fig, ax = plt.subplots(figsize=(7, 4))
        bottom = [0] * len(rounds)
        for reason, _count in Counter(r.reason for r in records).most_common():
            counts = [sum(1 for r in records if r.reason == reason and r.extra["round"] == k) for k in rounds]
            ax.bar(rounds, counts, bottom=bottom, label=hooks.ending_name(reason, lang).replace("_", " "))
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
        ax.set_xlabel(tr.gettext("round the game ended"))
        ax.set_ylabel(tr.gettext("games"))
        ax.legend()
    else:
        endings = Counter((r.winner, r.reason) for r in records)
        labels = sorted(endings, key=lambda k: (str(k[0]), k[1]))
        names = [f"{hooks.seat_name(w, lang) if w else tr.gettext('draw')} ({hooks.ending_name(reason, lang)})"
                 for w, reason in labels]
        fig, ax = plt.subplots(figsize=(7, max(3.0, 0.4 * len(labels) + 1.5)))
        ax.barh(names, [endings[k] for k in labels])
        ax.set_xlabel(tr.gettext("games"))
    ax.set_title(tr.gettext("How games end"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_length(records: Sequence[GameRecord], path: Path, lang: str = "en") -> None:
    """Histogram of game length in decisions (words in ``lang``)."""
    plt = pyplot()
    tr = translator(lang)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist([r.decisions for r in records], bins=30, color="#4a6fa5")
    ax.set_xlabel(tr.gettext("decisions in the game"))
    ax.set_ylabel(tr.gettext("games"))
    ax.set_title(tr.gettext("Game length"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report_plots(hooks: LabHooks, rounds: bool = True) -> list[PlotPart]:
    """The report's plots: the generic ones (a game's plot of the same file name replaces one), then the
    game's others; ``rounds``: the records have rounds (the endings are drawn by round)."""

    def endings(records: Sequence[Any], path: Path, lang: str) -> None:
        plot_endings(records, path, lang, hooks)

    generic: list[PlotPart] = [Plot("endings.png", endings,
                                    N_("How games end, by round") if rounds else N_("How games end")),
                               Plot("length.png", plot_length, N_("Game length"))]
    own = {p.filename: p for p in hooks.plots()}
    plots = [own.pop(p.filename, p) for p in generic]
    return plots + list(own.values())


# --- the report -----------------------------------------------------------------------------


def write_report(records: Sequence[GameRecord], out: Path, fmt: str = "md", lang: str = "en",
                 game: str | None = None) -> Path:
    """Write summary.json, the PNG plots and report.md (or report.html) into ``out``; return the report path.

    The report's words and the plots' follow ``lang``; summary.json (data for programs) stays English."""
    if fmt not in ("md", "html"):
        raise ValueError("format must be 'md' or 'html'")
    if not records:
        raise ValueError("no games to report on")
    name = game or default_game()
    hooks = lab_hooks(name)
    out.mkdir(parents=True, exist_ok=True)
    data = summary(records, name)
    (out / "summary.json").write_text(json.dumps(data, indent=2))
    plots = report_plots(hooks, _has_rounds(records))
    for plot in plots:
        plot.draw(records, out / plot.filename, lang)
    lines = _markdown(data, lang, hooks, plots)
    if fmt == "md":
        path = out / "report.md"
        path.write_text("\n".join(lines) + "\n")
    else:
        path = out / "report.html"
        path.write_text(_html(lines))
    return path


def percent(x: float, lang: str, digits: int = 1) -> str:
    """A share as a percentage in ``lang``'s notation."""
    return format_percent(x, "#,##0." + "0" * digits + "%" if digits else "#,##0%", locale=lang)


def win_rate_seat(data: dict[str, Any]) -> str:
    """The seat whose win rate a summary reports (the game's first seat)."""
    return next(key[:-len("_win_rate")] for key in data if key.endswith("_win_rate") and f"{key}_ci95" in data)


def _markdown(data: dict[str, Any], lang: str, hooks: LabHooks, plots: Sequence[PlotPart]) -> list[str]:
    tr = translator(lang)
    seats = list(data["seconds_per_game"])
    first = win_rate_seat(data)
    low, high = data[f"{first}_win_rate_ci95"]
    mixed = tr.gettext(" (**mixed: these games were not all played under the same rules**)")
    if len(seats) == 2:
        title = tr.fmt("Balance report: {first} ({first_side}) vs {second} ({second_side})", first=data[seats[0]],
                       first_side=hooks.seat_name(seats[0], lang), second=data[seats[1]],
                       second_side=hooks.seat_name(seats[1], lang))
    else:
        title = tr.fmt("Balance report: {pairing}",
                       pairing=", ".join(f"{data[s]} ({hooks.seat_name(s, lang)})" for s in seats))
    decisions = format_decimal(data["mean_decisions"], "0", locale=lang)
    length = (tr.fmt("Mean length: {decisions} decisions, ending in round {rounds} on average", decisions=decisions,
                     rounds=format_decimal(data["mean_rounds"], "0.00", locale=lang))
              if "mean_rounds" in data else tr.fmt("Mean length: {decisions} decisions", decisions=decisions))
    times = ", ".join(f"{hooks.seat_name(s, lang)} {format_decimal(t, '0.0', locale=lang)} s"
                      for s, t in data["seconds_per_game"].items())
    lines = [
        "# " + title,
        "",
        "- " + tr.fmt("Games: {n}", n=data["games"]),
        "- " + tr.fmt("Rules: {versions}", versions=", ".join(data["rules_versions"]))
        + (mixed if len(data["rules_versions"]) > 1 else ""),
        "- " + tr.fmt("{side} win rate: **{rate}** (95% CI {low}–{high}, Wilson)", side=hooks.seat_name(first, lang),
                      rate=percent(data[f"{first}_win_rate"], lang), low=percent(low, lang),
                      high=percent(high, lang)),
        "- " + length,
        "- " + tr.fmt("Bot thinking time per game: {times}", times=times),
        "",
        "## " + tr.gettext("How games end"),
        "",
    ]
    by_round = data.get("endings_by_round")
    heads = [N_("ending"), N_("games"), N_("share")] + ([N_("by round")] if by_round else [])
    lines += ["| " + " | ".join(tr.gettext(h) for h in heads) + " |", "| " + " | ".join("---" for _ in heads) + " |"]
    for reason, count in sorted(data["endings"].items(), key=lambda kv: -kv[1]):
        cells = [hooks.ending_name(reason, lang), str(count), percent(count / data["games"], lang)]
        if by_round:
            cells.append(", ".join(f"R{k}: {v}" for k, v in sorted(by_round.get(reason, {}).items())))
        lines.append("| " + " | ".join(cells) + " |")
    lines += [""]
    for plot in plots:
        lines += [f"## {tr.gettext(plot.title)}", "", f"![{tr.gettext(plot.title)}]({plot.filename})", ""]
    return lines + hooks.report(data, lang)


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
