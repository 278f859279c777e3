"""Drawing a game of Freedom! in the terminal with rich, from a seat's *view* (never the full state).

Everything here takes the dict returned by ``game.view(seat)``, so a screen can only show what
that seat may know: the opponent's hand appears as a count, the decks as sizes.

Units: ``E`` Expeditionary, ``A`` Allied (both Imperial), ``I`` Insurgent. Cannons: ``▲`` Imperial,
``■`` Insurgent, ``◆`` the Insurgent Bombard.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from muster.core import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.rules.action_phase import card
from muster.tui.texts import PHASE_TITLES, current_phase, explain

SEAT_STYLE = {IMPERIAL: "bold red", INSURGENT: "bold blue"}
SEAT_NAME = {IMPERIAL: "Imperial", INSURGENT: "Insurgent"}
CARD_STYLE = {"red": "red", "blue": "blue", "grey": "white"}
CANNON_GLYPH = {IMPERIAL_CANNON: ("▲", "red"), INSURGENT_CANNON: ("■", "blue"), BOMBARD: ("◆", "bold blue")}
DAMAGE_TEXT = {0: ("intact", "green"), 1: ("damaged", "yellow"), 2: ("DESTROYED", "bold red")}
LEGEND = "E Expeditionary · A Allied · I Insurgent · ▲ Imperial cannon · ■ Insurgent cannon · ◆ Bombard · · empty"
COMPACT_LEGEND = "units E Expeditionary, A Allied, I Insurgent · cannons ▲ Imp, ■ Ins, ◆ Bombard"
CANDIDATE_STYLE = "bold yellow underline"
SELECTED_STYLE = "reverse"
Marks = dict[str, str]
"""Space id → extra style, to show on the map which spaces the current choices name."""
MAX_CHOICE_ROWS = 12
"""Above this many choices the list is printed in columns to keep the screen short."""


def _count(view: dict[str, Any], layer: str, sid: str) -> int:
    return int(view["spaces"][layer].get(sid, 0))


def units_text(view: dict[str, Any], sid: str, marks: Marks | None = None) -> Text:
    """The units and cannon in one space, e.g. ``3E 1A ▲`` (a dot when empty), styled by ``marks``."""
    out = Text()
    for layer, letter, style in (("exp", "E", "red"), ("ally", "A", "green"), ("ins", "I", "blue")):
        n = _count(view, layer, sid)
        if n:
            out.append(f"{n}{letter}", style=style)
            out.append(" ")
    code = _count(view, "cannon", sid)
    if code in CANNON_GLYPH:
        glyph, style = CANNON_GLYPH[code]
        out.append(glyph, style=style)
    out.rstrip()
    if not out.plain:
        out = Text("·", style="dim")
    if marks and sid in marks:
        out.stylize(marks[sid])
    return out


def wall_text(view: dict[str, Any], sid: str, marks: Marks | None = None) -> Text:
    """A Wall section: whether it is a fort, its units and cannon, and its damage."""
    b = board()
    i = b.index[sid]
    out = Text("Fort\n" if b.fort[i] else "wall\n", style="bold" if b.fort[i] else "dim")
    out.append_text(units_text(view, sid, marks))
    words, style = DAMAGE_TEXT.get(_count(view, "damage", sid), ("?", "magenta"))
    out.append("\n")
    out.append(words, style=style)
    return out


def mainland_table(view: dict[str, Any], marks: Marks | None = None, compact: bool = False) -> Table:
    """Rows 8 (nearest the Camp) down to 4, then the Wall (Row 3), in columns 1–9 west to east.

    ``compact`` drops the grid lines between columns and around the table (four lines shorter)."""
    b = board()
    table = Table(box=box.SIMPLE_HEAD if compact else box.SQUARE, padding=(0, 0), pad_edge=False, expand=False,
                  show_edge=not compact)
    table.add_column("", justify="right", no_wrap=True)
    for col in range(1, 10):
        table.add_column(f"col {col}", justify="center", min_width=6, no_wrap=True)
    for row in range(8, 3, -1):
        cells = [units_text(view, b.ids[b.at(row, col)], marks) for col in range(1, 10)]  # type: ignore[index]
        table.add_row(Text(f"Row {row}", style="bold"), *cells, end_section=row == 4)
    walls = [wall_text(view, f"w{col}", marks) for col in range(1, 10)]
    table.add_row(Text("Wall\nW1–W9\n(Row 3)", style="bold"), *walls)
    return table


def _line(view: dict[str, Any], label: str, ids: list[str], short: dict[str, str], marks: Marks | None) -> Text:
    out = Text(f"{label}: " if label else " ", style="bold")
    for n, sid in enumerate(ids):
        if n:
            out.append("  ")
        out.append(f"{short.get(sid, sid)} ", style="dim")
        out.append_text(units_text(view, sid, marks))
    return out


def city_and_lagoon(view: dict[str, Any], marks: Marks | None = None, compact: bool = False) -> Group:
    """The Beach (Row 2), the City Center, the Coast (Row 1) and the three islands with their waters
    (``compact``: without the word "waters", so that each island fits on an 80-column line)."""
    b = board()
    lines = [
        _line(view, "Beach (Row 2)", [f"b{k}" for k in range(1, 5)], {}, marks),
        Text.assemble(("City Center: ", "bold"), (f"{view['civilians']} civilians", "white")),
        _line(view, "Coast (Row 1)", [f"c{k}" for k in range(1, 6)], {}, marks),
    ]
    for island, waters in (
        ("marmarou", ["mar1", "mar2", "mar3", "mar4"]),
        ("vasiladi", ["vas1"]),
        ("klisova", ["kli1", "kli2", "kli3", "kli4", "kli5"]),
    ):
        short = {w: w + ("(thick)" if b.thick[b.index[w]] >= 0 else "") for w in waters}
        line = Text(f"{b.names[b.index[island]]} island ", style="bold")
        line.append_text(units_text(view, island, marks))
        line.append_text(_line(view, "" if compact else "  waters", waters, short, marks))
        lines.append(line)
    return Group(*lines)


def camp_text(view: dict[str, Any], marks: Marks | None = None) -> Text:
    """Kütahi's Camp: units and cannons waiting there."""
    out = Text("Kütahi's Camp (beyond Row 8, north-east): ", style="bold")
    out.append_text(units_text(view, "camp", marks))
    out.append(f"  with {view['camp_cannons']} cannon(s) ready to build")
    return out


def choice_marks(view: dict[str, Any], labelled: list[tuple[Action, str]]) -> Marks:
    """Which spaces to mark for the current decision: those the choices name (an argument such as
    ``r5c3`` or ``r5c3:E``), and the source already picked in a two-step choice."""
    index = board().index
    marks: Marks = {}
    for action, _ in labelled:
        if isinstance(action.arg, str):
            sid = action.arg.split(":", 1)[0]
            if sid in index:
                marks[sid] = CANDIDATE_STYLE
    stack = view.get("stack") or []
    src = stack[-1].get("src") if stack else None
    if isinstance(src, str) and src in index:
        marks[src] = SELECTED_STYLE
    return marks


def board_panel(view: dict[str, Any], marks: Marks | None = None, compact: bool = False) -> Panel:
    """The whole city map: Camp, mainland grid, Wall, City, Lagoon and islands, with a legend.

    ``marks`` styles chosen spaces (see :func:`choice_marks`); with marks the legend says what they mean.
    ``compact`` draws the grid with fewer lines and the legend on one line.
    """
    legend = Text(COMPACT_LEGEND if compact else LEGEND, style="dim")
    if marks and not compact:
        legend.append("\n")
        legend.append("underlined", style=CANDIDATE_STYLE)
        legend.append(": spaces you may choose now", style="dim")
        if SELECTED_STYLE in marks.values():
            legend.append(" · ", style="dim")
            legend.append("reversed", style=SELECTED_STYLE)
            legend.append(": the space already chosen", style="dim")
    body = Group(camp_text(view, marks), mainland_table(view, marks, compact), city_and_lagoon(view, marks, compact),
                 legend)
    return Panel(body, title="Messolonghi", title_align="left", box=box.ROUNDED, padding=(0, 0) if compact else (0, 1))


def tracks_text(view: dict[str, Any]) -> Text:
    """Both sides' tracks (Morale, Money, Supplies, …), one line per side."""
    out = Text()
    for seat in (IMPERIAL, INSURGENT):
        parts = []
        for name, value in view["tracks"][seat].items():
            shown = "removed" if name == "pressure" and value < 0 else str(value)
            parts.append(f"{name.capitalize()} {shown}")
        if out.plain:
            out.append("\n")
        out.append(f"{SEAT_NAME[seat]:<10}", style=SEAT_STYLE[seat])
        out.append(" · ".join(parts))
    return out


def areas_grid(view: dict[str, Any]) -> Table:
    """The 8 area tiles, four to a line: name, whose side is up (Imp/Ins) and Support markers (●)."""
    grid = Table.grid(padding=(0, 2))
    cells: list[Text] = []
    for area, side, markers in zip(areas_file().areas, view["areas"]["side"], view["areas"]["markers"], strict=True):
        cell = Text(f"{area.name} ")
        cell.append(SEAT_NAME[side][:3], style=SEAT_STYLE[side])
        cell.append(" " + ("●" * markers or "–"))
        cells.append(cell)
    for start in range(0, len(cells), 4):
        grid.add_row(*cells[start : start + 4])
    return grid


def tracks_panel(view: dict[str, Any]) -> Panel:
    """Tracks and area tiles together."""
    body = Group(tracks_text(view), Text("Areas (Imp/Ins side up, ● Support):", style="bold"), areas_grid(view))
    return Panel(body, title="Tracks and areas", title_align="left", box=box.ROUNDED)


def status_line(view: dict[str, Any]) -> Text:
    """Round, period, phase, edition and card counts."""
    period = "B" if view["round"] >= 4 else "A"
    phase = PHASE_TITLES[current_phase(view)]
    hands = {seat: _hand_size(view, seat) for seat in (IMPERIAL, INSURGENT)}
    out = Text(f"Round {view['round']} of 6 · Period {period} · {phase} · {view['ruleset']} edition rules", "bold")
    out.append(
        f"\nCards played this round: Imperial {view['played'][IMPERIAL]}/7, Insurgent {view['played'][INSURGENT]}/7"
        f" · in hand: Imperial {hands[IMPERIAL]}, Insurgent {hands[INSURGENT]}"
        f" · decks A {view['decks']['A']['count']}, B {view['decks']['B']['count']}"
    )
    return out


def _hand_size(view: dict[str, Any], seat: str) -> int:
    hand = view["hands"][seat]
    return int(hand["count"]) if isinstance(hand, dict) else len(hand)


def hand_panel(view: dict[str, Any], seat: str | None) -> Panel:
    """The hand of ``seat`` with each card's number, name, AP, colour and text (hidden hands say so)."""
    if seat is None or isinstance(view["hands"][seat], dict):
        return Panel(Text("(no hand to show)", style="dim"), title="Hand", title_align="left")
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), expand=True, show_edge=False)
    for name, justify in (("Card", "right"), ("Name", "left"), ("AP", "right"), ("Colour", "left"), ("Event", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for number in view["hands"][seat]:
        c = card(number)
        colour = c.side or "none"
        table.add_row(
            f"{c.number}{c.deck}",
            c.name,
            str(c.ap),
            Text(colour, style=CARD_STYLE.get(colour, "dim")),
            c.text,
        )
    return Panel(table, title=f"{SEAT_NAME[seat]} hand", title_align="left", border_style=SEAT_STYLE[seat])


def hand_line(view: dict[str, Any], seat: str | None) -> Text:
    """The compact hand: each card's number, name, AP and colour on wrapped lines, without its text
    (the choices still quote an event's text, and the ``hand`` command prints the whole hand)."""
    if seat is None or isinstance(view["hands"][seat], dict):
        return Text()
    out = Text("Hand: ", style=SEAT_STYLE[seat])
    for n, number in enumerate(view["hands"][seat]):
        c = card(number)
        if n:
            out.append(" · ", style="dim")
        colour = c.side or "none"
        out.append(f"{c.number}{c.deck} {c.name} ")
        out.append(f"({c.ap} AP, {colour})", style=CARD_STYLE.get(colour, "dim"))
    return out


def log_panel(lines: list[str], new: int) -> Panel:
    """The last log lines; the ``new`` most recent (since this player last looked) are highlighted."""
    body = Text()
    start = len(lines) - len(lines[-new:]) if new else len(lines)
    for n, line in enumerate(lines):
        if n:
            body.append("\n")
        body.append(line, style="bold" if n >= start else "dim")
    if not lines:
        body.append("(nothing yet)", style="dim")
    return Panel(body, title="Recent events", title_align="left")


def choices_renderable(labelled: list[tuple[Action, str]], seat: str | None = None) -> RenderableType:
    """The numbered legal choices with a short explanation of each kind of action."""
    verbs = {a.verb for a, _ in labelled}
    # An event's explanation is its card's own text, so event choices always get a line each.
    if len(labelled) <= MAX_CHOICE_ROWS or len(verbs) == len(labelled) or "event" in verbs:
        table = Table.grid(padding=(0, 1))
        table.add_column(justify="right", style="bold cyan")
        table.add_column()
        table.add_column(style="dim")
        for n, (action, label) in enumerate(labelled, start=1):
            table.add_row(f"{n}.", label, explain(action, seat))
        return table
    # Many choices of few kinds (e.g. 16 source spaces): list them in columns, explain each kind once.
    items = [Text.assemble((f"{n:>2}. ", "bold cyan"), label) for n, (_, label) in enumerate(labelled, start=1)]
    notes = [Text(f"{v}: {explain(Action(v), seat)}", style="dim") for v in sorted(verbs) if explain(Action(v), seat)]
    return Group(Columns(items, column_first=True, padding=(0, 3)), *notes)


def offered_event(view: dict[str, Any], seat: str | None) -> Text:
    """When the opponent just played a card of ``seat``'s colour for AP, the event ``seat`` may use
    by discarding a card (rule 4.3.1); empty otherwise."""
    trigger = view.get("trigger")
    if not trigger or trigger.get("seat") != seat:
        return Text()
    c = card(int(trigger["card"]))
    return Text.assemble(("Event on offer: ", "bold magenta"), f"{c.number}{c.deck} {c.name}: {c.text}")


COMPACT_LOG_LINES = 4
"""The compact screen shows at most this many of the newest log lines (``log`` shows more)."""


def screen(
    view: dict[str, Any],
    seat: str | None,
    prompt: str,
    labelled: list[tuple[Action, str]],
    log_lines: list[str],
    new_lines: int,
    compact: bool = False,
) -> Group:
    """Everything a player needs for one decision: log, hand, tracks, board, status, prompt, choices.

    ``compact`` (for short terminals) keeps only the newest log lines, lists the hand without card
    texts and draws tracks and map with fewer lines.
    """
    who = Text(f"{SEAT_NAME[seat]} to play" if seat else "Spectating", style=SEAT_STYLE.get(seat or "", "bold"))
    # The board sits right above the choices: on a short terminal the log and hand scroll away
    # first, while the map and the decision stay in sight.
    offer = offered_event(view, seat)
    marks = choice_marks(view, labelled)
    if compact:
        recent = log_lines[-min(new_lines, COMPACT_LOG_LINES):] if new_lines else []
        if new_lines > COMPACT_LOG_LINES:
            recent = [f"… {new_lines - COMPACT_LOG_LINES} earlier new line(s): type 'log'", *recent]
        top: list[RenderableType] = [Text("\n".join(recent), style="bold")] if recent else []
        top += [hand_line(view, seat), tracks_text(view), areas_grid(view), board_panel(view, marks, compact=True)]
    else:
        top = [log_panel(log_lines, new_lines), hand_panel(view, seat), tracks_panel(view), board_panel(view, marks)]
    return Group(
        *top,
        status_line(view),
        Text.assemble(who, ": ", (prompt, "bold")),
        *([offer] if offer.plain else []),
        choices_renderable(labelled, seat),
    )
