"""Freedom!'s own commands, mounted on ``muster`` through the game module's ``commands`` part: ``muster card N``
(one card), ``muster cards-doc`` (docs/cards.md), ``muster cards-balance`` (count and mean AP of red/blue/grey
cards per deck) and ``muster cards-usage`` (how often bots take each event)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from babel.numbers import format_decimal, format_percent
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from muster.games.freedom.datafiles import CardData, cards_file
from muster.games.freedom.texts import card_face
from muster.i18n import N_, Translator, argv_lang, check_lang, from_environment, translator

if TYPE_CHECKING:
    from muster.games.freedom.cards.usage import Usage

console = Console()


HELP_LANG = argv_lang(sys.argv[1:])
"""The language of the help texts: ``--lang X`` on the command line, else the environment's (help texts are made
when the commands are defined, before the command line is parsed)."""


def _(msgid: str) -> str:
    """A help text in :data:`HELP_LANG`."""
    return translator(HELP_LANG).gettext(msgid)


def lang_option() -> str | None:
    """A ``--lang`` option for a command."""
    value: str | None = typer.Option(None, "--lang", help=_("Language: en or pl (default: from LANG)."))
    return value


def tr_of(lang: str | None) -> Translator:
    """The translator of a command's ``--lang`` (else the environment's); an unknown language exits with 2."""
    try:
        return translator(check_lang(lang) if lang else from_environment())
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc


SIDE_STYLE = {"red": "bold red", "blue": "bold blue", "grey": "bold white"}
SIDE_WORDS = {"red": N_("red (Imperial)"), "blue": N_("blue (Insurgent)"), "grey": N_("grey (either side)"),
              "none": N_("no event")}
DECK_WORDS = {"A": N_("Dawn of Freedom, rounds 1–3"), "B": N_("Twilight of Freedom, rounds 4–6")}


def find_card(number: int) -> CardData:
    """The card with this number; ValueError if there is none."""
    for card in cards_file().cards:
        if card.number == number:
            return card
    raise ValueError(f"there is no card {number}: cards are numbered 1–100")


def card_command(
    number: int = typer.Argument(..., help=_("Card number, 1–100.")),
    lang: str | None = lang_option(),
) -> None:
    """Print one card: name, deck, AP, colour, event text, historical note and implementation."""
    tr = tr_of(lang)
    try:
        card = find_card(number)
    except ValueError as exc:
        console.print(f"[red]{tr.fmt('there is no card {number}: cards are numbered 1–100', number=number)}[/red]")
        raise typer.Exit(2) from exc
    side = card.side or "none"
    face = card_face(number, tr.lang)
    body = (
        f"[{SIDE_STYLE.get(side, 'bold')}]{tr.gettext(SIDE_WORDS.get(side, 'no event'))}[/] · "
        f"{tr.fmt('{n} AP', n=card.ap)} · {tr.fmt('deck {deck}', deck=card.deck)} ({tr.gettext(DECK_WORDS[card.deck])})"
        f"\n\n{face['text']}\n\n[italic]{face['note']}[/italic]\n\n"
        f"[dim]{tr.fmt('effect: {effect} · source: {source}', effect=card.effect or '—', source=card.source)}[/dim]"
    )
    console.print(Panel(body, title=f"{card.number}{card.deck} {face['name']}", expand=False))


def balance_rows() -> list[tuple[str, str, int, float]]:
    """(deck, colour, count, mean AP) for every deck and colour, in a fixed order."""
    rows = []
    for deck in ("A", "B"):
        for side in ("red", "blue", "grey"):
            aps = [c.ap for c in cards_file().cards if c.deck == deck and c.side == side]
            rows.append((deck, side, len(aps), sum(aps) / len(aps) if aps else 0.0))
    return rows


COLOUR_WORDS = {"red": N_("red"), "blue": N_("blue"), "grey": N_("grey")}
BALANCE_COLUMNS = (N_("deck"), N_("colour"), N_("cards"), N_("mean AP"))
USAGE_COLUMNS = (*BALANCE_COLUMNS, N_("offered"), N_("taken"), N_("rate"))


def _decimal(value: float, tr: Translator) -> str:
    return format_decimal(value, "0.00", locale=tr.lang)


def balance_command(lang: str | None = lang_option()) -> None:
    """Print the count and mean AP of the red, blue and grey cards of each deck."""
    tr = tr_of(lang)
    table = Table(title=tr.gettext("Freedom! card balance"))
    for column in BALANCE_COLUMNS:
        table.add_column(tr.gettext(column), justify="right" if column in ("cards", "mean AP") else "left")
    for deck, side, count, mean in balance_rows():
        table.add_row(deck, f"[{SIDE_STYLE[side]}]{tr.gettext(COLOUR_WORDS[side])}[/]", str(count), _decimal(mean, tr))
    console.print(table)


def _cell(text: str) -> str:
    """A Markdown table cell (pipes escaped)."""
    return text.replace("|", "\\|")


def cards_markdown() -> str:
    """docs/cards.md: the balance summary and a table of all 100 cards, generated from cards.json."""
    lines = [
        "# Freedom! — the 100 cards",
        "",
        "Generated by `muster cards-doc` from `src/muster/games/freedom/data/cards.json`; do not edit by hand.",
        "Texts and notes are in our own words. *rulebook*: the event as printed in the 2nd-edition rulebook;",
        "*design*: designed for muster from the history of the third siege (see docs/cards-design.md).",
        "",
        "| deck | colour | cards | mean AP |",
        "| --- | --- | ---: | ---: |",
    ]
    lines += [f"| {d} | {side} | {n} | {mean:.2f} |" for d, side, n, mean in balance_rows()]
    for deck in ("A", "B"):
        lines += [
            "",
            f"## Deck {deck}: {DECK_WORDS[deck]}",
            "",
            "| No. | Name | AP | Colour | Event | Historical note | Effect | Source |",
            "| ---: | --- | ---: | --- | --- | --- | --- | --- |",
        ]
        for c in sorted(cards_file().cards, key=lambda c: c.number):
            if c.deck != deck:
                continue
            lines.append(
                f"| {c.number}{c.deck} | {_cell(c.name)} | {c.ap} | {c.side or '—'} | {_cell(c.text)} | "
                f"{_cell(c.note)} | `{c.effect or '—'}` | {c.source} |"
            )
    return "\n".join(lines) + "\n"


def cards_doc_command(
    out: Path = typer.Option(Path("docs/cards.md"), "--out", help=_("Where to write the Markdown table.")),
) -> None:
    """Write the table of all 100 cards (docs/cards.md) from the card data."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(cards_markdown(), encoding="utf-8")
    console.print(tr_of(None).nfmt("{n} card written to {path}", "{n} cards written to {path}",
                                   len(cards_file().cards), path=out), highlight=False)


def usage_command(
    bot: str = typer.Option("heuristic",
                            help=_("Bot spec playing both seats, e.g. heuristic or ismcts:iterations=100.")),
    games: int = typer.Option(10, "--games", "-n", min=1, help=_("Games to play (consecutive seeds).")),
    seed: int = typer.Option(0, help=_("First seed.")),
    plot: Path | None = typer.Option(None, help=_("Write a bar chart of the per-card rates (PNG).")),
    json_out: Path | None = typer.Option(None, "--json", help=_("Write the per-card counts (JSON).")),
    lang: str | None = lang_option(),
) -> None:
    """Play bot-vs-bot games and report how often each card's event was taken when it could be."""
    from rich.progress import Progress

    from muster.games.freedom.cards.usage import measure  # plays games: imported only when asked to

    tr = tr_of(lang)
    try:
        with Progress(console=console) as progress:
            task = progress.add_task(f"{bot} vs {bot}", total=games)
            usage = measure(bot, games, seed, tick=lambda: progress.advance(task))
    except ValueError as exc:  # a bad bot spec (BotSpecError is a ValueError)
        console.print(f"[red]{tr.gettext('error:')}[/red] {exc}")
        raise typer.Exit(2) from exc
    table = Table(title=tr.nfmt("Events taken by {bot} ({n} game; winners {winners})",
                                "Events taken by {bot} ({n} games; winners {winners})", usage.games, bot=bot,
                                winners=dict(usage.winners)))
    for column in USAGE_COLUMNS:
        table.add_column(tr.gettext(column), justify="left" if column in ("deck", "colour") else "right")
    for deck, side, count, mean in balance_rows():
        numbers = [c.number for c in cards_file().cards if c.deck == deck and c.side == side]
        offered = sum(usage.offered[n] for n in numbers)
        chosen = sum(usage.chosen[n] for n in numbers)
        rate = format_percent(chosen / offered, locale=tr.lang) if offered else "—"
        table.add_row(deck, tr.gettext(COLOUR_WORDS[side]), str(count), _decimal(mean, tr), str(offered), str(chosen),
                      rate)
    console.print(table)
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(usage.to_json(), indent=1), encoding="utf-8")
    if plot:
        plot_usage(usage, plot)
        console.print(tr.fmt("Chart written to {path}", path=plot), highlight=False)


def plot_usage(usage: Usage, path: Path) -> None:
    """A bar per card: the share of turns its event was open on which it was taken."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cards = sorted(cards_file().cards, key=lambda c: c.number)
    colours = {"red": "#c0392b", "blue": "#2e5fa8", "grey": "#8c8c8c"}
    fig, ax = plt.subplots(figsize=(16, 4.5))
    ax.bar(
        [c.number for c in cards],
        [usage.rate(c.number) for c in cards],
        color=[colours.get(c.side or "grey", "#8c8c8c") for c in cards],
    )
    ax.axvline(50.5, color="black", linewidth=0.8)
    ax.set_xlim(0.4, 100.6)
    ax.set_xlabel("card (1–50 deck A, 51–100 deck B)")
    ax.set_ylabel("event taken / event open")
    ax.set_title(f"How often {usage.bot} takes each event ({usage.games} games)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


COMMANDS = typer.Typer()
"""Freedom!'s commands (the module's ``commands`` part)."""


def register(app: typer.Typer) -> None:
    """Add the card commands to ``app``."""
    app.command("card", help=_("Print one card: name, deck, AP, colour, event text, historical note and "
                               "implementation."))(card_command)
    app.command("cards-doc", help=_("Write the table of all 100 cards (docs/cards.md) from the card data."))(
        cards_doc_command)
    app.command("cards-balance", help=_("Print the count and mean AP of the red, blue and grey cards of each deck."))(
        balance_command)
    app.command("cards-usage", help=_("Play bot-vs-bot games and report how often each card's event was taken when "
                                      "it could be."))(usage_command)


register(COMMANDS)
