"""Freedom! in the terminal: its drawing with rich, from a seat's *view* (never the full state), and
:data:`TERMINAL`, the part :class:`muster.tui.session.Session` draws this game with.

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
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON, SEATS
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.guide import PHASE_TITLES, current_phase, phase_help
from muster.games.freedom.rules.action_phase import card
from muster.games.freedom.texts import card_face, explain, label_in, names, outcome_detail_in, prompt_in
from muster.i18n import N_, Translator, translator

SEAT_STYLE = {IMPERIAL: "bold red", INSURGENT: "bold blue"}
SEAT_NAME = {IMPERIAL: "Imperial", INSURGENT: "Insurgent"}
CARD_STYLE = {"red": "red", "blue": "blue", "grey": "white"}
CANNON_GLYPH = {IMPERIAL_CANNON: ("▲", "red"), INSURGENT_CANNON: ("■", "blue"), BOMBARD: ("◆", "bold blue")}
DAMAGE_STYLE = {0: "green", 1: "yellow", 2: "bold red"}
LEGEND = N_("E Expeditionary · A Allied · I Insurgent · ▲ Imperial cannon · ■ Insurgent cannon · ◆ Bombard · "
            "· empty")
COMPACT_LEGEND = N_("units E Expeditionary, A Allied, I Insurgent · cannons ▲ Imp, ■ Ins, ◆ Bombard")
TRACK_NAMES = {"morale": N_("Morale"), "money": N_("Money"), "supplies": N_("Supplies"), "plea": N_("Plea"),
               "preparation": N_("Preparation"), "pressure": N_("Pressure"), "population": N_("Population")}
SIDE_SHORT = {IMPERIAL: N_("Imp"), INSURGENT: N_("Ins")}
COLOUR_NAMES = {"red": N_("red"), "blue": N_("blue"), "grey": N_("grey"), "none": N_("none")}
WALL_STATE = {0: N_("wall:intact"), 1: N_("wall:damaged"), 2: N_("wall:destroyed")}
"""Short words for a Wall section's state under the map (the log's longer words stay for sentences)."""
VERB_NAMES = {
    "from": N_("from"), "to": N_("to"), "unit": N_("unit"), "done": N_("done"), "cannon": N_("cannon"),
    "target": N_("target"), "remove": N_("remove"), "area": N_("area"), "pick": N_("pick"), "end": N_("end"),
    "event": N_("event"),
}
"""Names of the kinds of choice, shown before their explanation when many choices are listed in columns."""
CANDIDATE_STYLE = "bold yellow underline"
SELECTED_STYLE = "reverse"
Marks = dict[str, str]
"""Space id → extra style, to show on the map which spaces the current choices name."""
MAX_CHOICE_ROWS = 12
"""Above this many choices the list is printed in columns to keep the screen short."""


def _count(view: dict[str, Any], layer: str, sid: str) -> int:
    return int(view["spaces"][layer].get(sid, 0))


def seat_name(seat: str, lang: str = "en") -> str:
    """A side's name in ``lang`` (Imperium / Grecy in Polish)."""
    return translator(lang).gettext(SEAT_NAME[seat])


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def wall_text(view: dict[str, Any], sid: str, marks: Marks | None = None, lang: str = "en") -> Text:
    """A Wall section: whether it is a fort, its units and cannon, and its damage."""
    tr = translator(lang)
    b = board()
    i = b.index[sid]
    out = Text(tr.gettext("Fort") + "\n" if b.fort[i] else tr.gettext("wall") + "\n",
               style="bold" if b.fort[i] else "dim")
    out.append_text(units_text(view, sid, marks))
    damage = _count(view, "damage", sid)
    out.append("\n")
    out.append(tr.gettext(WALL_STATE[damage]) if damage in WALL_STATE else "?",
               style=DAMAGE_STYLE.get(damage, "magenta"))
    return out


def mainland_table(view: dict[str, Any], marks: Marks | None = None, compact: bool = False,
                   lang: str = "en") -> Table:
    """Rows 8 (nearest the Camp) down to 4, then the Wall (Row 3), in columns 1–9 west to east.

    ``compact`` drops the grid lines between columns and around the table (four lines shorter)."""
    tr = translator(lang)
    b = board()
    table = Table(box=box.SIMPLE_HEAD if compact else box.SQUARE, padding=(0, 0), pad_edge=False, expand=False,
                  show_edge=not compact)
    table.add_column("", justify="right", no_wrap=True)
    for col in range(1, 10):
        table.add_column(tr.fmt("col {n}", n=col), justify="center", min_width=6, no_wrap=True)
    for row in range(8, 3, -1):
        cells = [units_text(view, b.ids[b.at(row, col)], marks) for col in range(1, 10)]  # type: ignore[index]
        table.add_row(Text(tr.fmt("Row {n}", n=row), style="bold"), *cells, end_section=row == 4)
    walls = [wall_text(view, f"w{col}", marks, lang) for col in range(1, 10)]
    table.add_row(Text(tr.gettext("Wall\nW1–W9\n(Row 3)"), style="bold"), *walls)
    return table


def _line(view: dict[str, Any], label: str, ids: list[str], short: dict[str, str], marks: Marks | None) -> Text:
    out = Text(f"{label}: " if label else " ", style="bold")
    for n, sid in enumerate(ids):
        if n:
            out.append("  ")
        out.append(f"{short.get(sid, sid)} ", style="dim")
        out.append_text(units_text(view, sid, marks))
    return out


def city_and_lagoon(view: dict[str, Any], marks: Marks | None = None, compact: bool = False,
                    lang: str = "en") -> Group:
    """The Beach (Row 2), the City Center, the Coast (Row 1) and the three islands with their waters
    (``compact``: without the word "waters", so that each island fits on an 80-column line)."""
    tr = translator(lang)
    b = board()
    civilians = int(view["civilians"])
    lines = [
        _line(view, tr.gettext("Beach (Row 2)"), [f"b{k}" for k in range(1, 5)], {}, marks),
        Text.assemble((tr.gettext("City Center") + ": ", "bold"),
                      (tr.nfmt("{n} civilian", "{n} civilians", civilians), "white")),
        _line(view, tr.gettext("Coast (Row 1)"), [f"c{k}" for k in range(1, 6)], {}, marks),
    ]
    for island, waters in (
        ("marmarou", ["mar1", "mar2", "mar3", "mar4"]),
        ("vasiladi", ["vas1"]),
        ("klisova", ["kli1", "kli2", "kli3", "kli4", "kli5"]),
    ):
        thick = tr.gettext("(thick)")
        short = {w: w + (thick if b.thick[b.index[w]] >= 0 else "") for w in waters}
        line = Text(tr.fmt("{name} island", name=tr.gettext(b.names[b.index[island]])) + " ", style="bold")
        line.append_text(units_text(view, island, marks))
        line.append_text(_line(view, "" if compact else "  " + tr.gettext("waters"), waters, short, marks))
        lines.append(line)
    return Group(*lines)


def camp_text(view: dict[str, Any], marks: Marks | None = None, lang: str = "en") -> Text:
    """Kütahi's Camp: units and cannons waiting there."""
    tr = translator(lang)
    out = Text(tr.gettext("Kütahi's Camp (beyond Row 8, north-east)") + ": ", style="bold")
    out.append_text(units_text(view, "camp", marks))
    cannons = int(view["camp_cannons"])
    out.append("  " + tr.nfmt("with {n} cannon ready to build", "with {n} cannons ready to build", cannons))
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


def board_panel(view: dict[str, Any], marks: Marks | None = None, compact: bool = False, lang: str = "en") -> Panel:
    """The whole city map: Camp, mainland grid, Wall, City, Lagoon and islands, with a legend.

    ``marks`` styles chosen spaces (see :func:`choice_marks`); with marks the legend says what they mean.
    ``compact`` draws the grid with fewer lines and the legend on one line.
    """
    tr = translator(lang)
    legend = Text(tr.gettext(COMPACT_LEGEND if compact else LEGEND), style="dim")
    if marks and not compact:
        legend.append("\n")
        legend.append(tr.gettext("underlined"), style=CANDIDATE_STYLE)
        legend.append(": " + tr.gettext("spaces you may choose now"), style="dim")
        if SELECTED_STYLE in marks.values():
            legend.append(" · ", style="dim")
            legend.append(tr.gettext("reversed"), style=SELECTED_STYLE)
            legend.append(": " + tr.gettext("the space already chosen"), style="dim")
    body = Group(camp_text(view, marks, lang), mainland_table(view, marks, compact, lang),
                 city_and_lagoon(view, marks, compact, lang), legend)
    return Panel(body, title="Messolonghi", title_align="left", box=box.ROUNDED, padding=(0, 0) if compact else (0, 1))


def _track_name(tr: Translator, name: str) -> str:
    return _cap(tr.gettext(TRACK_NAMES[name])) if name in TRACK_NAMES else name.capitalize()


def tracks_text(view: dict[str, Any], lang: str = "en") -> Text:
    """Both sides' tracks (Morale, Money, Supplies, …), one line per side."""
    tr = translator(lang)
    out = Text()
    for seat in (IMPERIAL, INSURGENT):
        parts = []
        for name, value in view["tracks"][seat].items():
            shown = tr.gettext("removed") if name == "pressure" and value < 0 else tr.number(value)
            parts.append(f"{_track_name(tr, name)} {shown}")
        if out.plain:
            out.append("\n")
        out.append(f"{seat_name(seat, lang):<10}", style=SEAT_STYLE[seat])
        out.append(" · ".join(parts))
    return out


def areas_grid(view: dict[str, Any], lang: str = "en") -> Table:
    """The 8 area tiles, four to a line: name, whose side is up (Imp/Ins) and Support markers (●)."""
    tr = translator(lang)
    grid = Table.grid(padding=(0, 2))
    cells: list[Text] = []
    for area, side, markers in zip(areas_file().areas, view["areas"]["side"], view["areas"]["markers"], strict=True):
        cell = Text(f"{tr.gettext(area.name)} ")
        cell.append(tr.gettext(SIDE_SHORT[side]), style=SEAT_STYLE[side])
        cell.append(" " + ("●" * markers or "–"))
        cells.append(cell)
    for start in range(0, len(cells), 4):
        grid.add_row(*cells[start : start + 4])
    return grid


def tracks_panel(view: dict[str, Any], lang: str = "en") -> Panel:
    """Tracks and area tiles together."""
    tr = translator(lang)
    body = Group(tracks_text(view, lang), Text(tr.gettext("Areas (Imp/Ins side up, ● Support):"), style="bold"),
                 areas_grid(view, lang))
    return Panel(body, title=tr.gettext("Tracks and areas"), title_align="left", box=box.ROUNDED)


def status_line(view: dict[str, Any], lang: str = "en") -> Text:
    """Round, period, phase, edition and card counts."""
    tr = translator(lang)
    period = "B" if view["round"] >= 4 else "A"
    phase = tr.gettext(PHASE_TITLES[current_phase(view)])
    hands = {seat: _hand_size(view, seat) for seat in (IMPERIAL, INSURGENT)}
    imp, ins = seat_name(IMPERIAL, lang), seat_name(INSURGENT, lang)
    out = Text(tr.fmt("Round {round} of 6 · Period {period} · {phase} · {edition} edition rules", round=view["round"],
                      period=period, phase=phase, edition=tr.gettext(str(view["ruleset"]))), "bold")
    out.append("\n" + tr.fmt(
        "Cards played this round: {imp} {imp_played}/7, {ins} {ins_played}/7 · in hand: {imp} {imp_hand}, "
        "{ins} {ins_hand} · decks A {a}, B {b}", imp=imp, ins=ins, imp_played=view["played"][IMPERIAL],
        ins_played=view["played"][INSURGENT], imp_hand=hands[IMPERIAL], ins_hand=hands[INSURGENT],
        a=view["decks"]["A"]["count"], b=view["decks"]["B"]["count"]))
    return out


def _hand_size(view: dict[str, Any], seat: str) -> int:
    hand = view["hands"][seat]
    return int(hand["count"]) if isinstance(hand, dict) else len(hand)


def hand_panel(view: dict[str, Any], seat: str | None, lang: str = "en") -> Panel:
    """The hand of ``seat`` with each card's number, name, AP, colour and text (hidden hands say so)."""
    tr = translator(lang)
    if seat is None or isinstance(view["hands"][seat], dict):
        return Panel(Text(tr.gettext("(no hand to show)"), style="dim"), title=tr.gettext("Hand"), title_align="left")
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), expand=True, show_edge=False)
    for name, justify in ((N_("Card"), "right"), (N_("Name"), "left"), (N_("AP"), "right"), (N_("Colour"), "left"),
                          (N_("Event"), "left")):
        table.add_column(tr.gettext(name), justify=justify)  # type: ignore[arg-type]
    for number in view["hands"][seat]:
        c = card(number)
        face = card_face(number, lang)
        colour = c.side or "none"
        table.add_row(
            f"{c.number}{c.deck}",
            face["name"],
            str(c.ap),
            Text(tr.gettext(COLOUR_NAMES.get(colour, colour)), style=CARD_STYLE.get(colour, "dim")),
            face["text"],
        )
    return Panel(table, title=tr.fmt("{side} hand", side=seat_name(seat, lang)), title_align="left",
                 border_style=SEAT_STYLE[seat])


def hand_line(view: dict[str, Any], seat: str | None, lang: str = "en") -> Text:
    """The compact hand: each card's number, name, AP and colour on wrapped lines, without its text
    (the choices still quote an event's text, and the ``hand`` command prints the whole hand)."""
    tr = translator(lang)
    if seat is None or isinstance(view["hands"][seat], dict):
        return Text()
    out = Text(tr.gettext("Hand") + ": ", style=SEAT_STYLE[seat])
    for n, number in enumerate(view["hands"][seat]):
        c = card(number)
        if n:
            out.append(" · ", style="dim")
        colour = c.side or "none"
        out.append(f"{c.number}{c.deck} {card_face(number, lang)['name']} ")
        out.append(tr.fmt("({n} AP, {colour})", n=c.ap, colour=tr.gettext(COLOUR_NAMES.get(colour, colour))),
                   style=CARD_STYLE.get(colour, "dim"))
    return out


def log_panel(lines: list[str], new: int, lang: str = "en") -> Panel:
    """The last log lines; the ``new`` most recent (since this player last looked) are highlighted."""
    body = Text()
    start = len(lines) - len(lines[-new:]) if new else len(lines)
    for n, line in enumerate(lines):
        if n:
            body.append("\n")
        body.append(line, style="bold" if n >= start else "dim")
    tr = translator(lang)
    if not lines:
        body.append(tr.gettext("(nothing yet)"), style="dim")
    return Panel(body, title=tr.gettext("Recent events"), title_align="left")


def choices_renderable(labelled: list[tuple[Action, str]], seat: str | None = None, lang: str = "en") -> RenderableType:
    """The numbered legal choices with a short explanation of each kind of action."""
    verbs = {a.verb for a, _ in labelled}
    # An event's explanation is its card's own text, so event choices always get a line each.
    if len(labelled) <= MAX_CHOICE_ROWS or len(verbs) == len(labelled) or "event" in verbs:
        table = Table.grid(padding=(0, 1))
        table.add_column(justify="right", style="bold cyan")
        table.add_column()
        table.add_column(style="dim")
        for n, (action, label) in enumerate(labelled, start=1):
            table.add_row(f"{n}.", label, explain(action, seat, lang))
        return table
    # Many choices of few kinds (e.g. 16 source spaces): list them in columns, explain each kind once.
    items = [Text.assemble((f"{n:>2}. ", "bold cyan"), label) for n, (_, label) in enumerate(labelled, start=1)]
    tr = translator(lang)
    notes = [Text(f"{tr.gettext(VERB_NAMES[v]) if v in VERB_NAMES else v}: {explain(Action(v), seat, lang)}",
                  style="dim") for v in sorted(verbs) if explain(Action(v), seat, lang)]
    return Group(Columns(items, column_first=True, padding=(0, 3)), *notes)


def offered_event(view: dict[str, Any], seat: str | None, lang: str = "en") -> Text:
    """When the opponent just played a card of ``seat``'s colour for AP, the event ``seat`` may use
    by discarding a card (rule 4.3.1); empty otherwise."""
    trigger = view.get("trigger")
    if not trigger or trigger.get("seat") != seat:
        return Text()
    number = int(trigger["card"])
    face = card_face(number, lang)
    return Text.assemble((translator(lang).gettext("Event on offer") + ": ", "bold magenta"),
                         f"{names(lang).card(number)}: {face['text']}")


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
    lang: str = "en",
) -> Group:
    """Everything a player needs for one decision: log, hand, tracks, board, status, prompt, choices.

    ``compact`` (for short terminals) keeps only the newest log lines, lists the hand without card
    texts and draws tracks and map with fewer lines.
    """
    tr = translator(lang)
    who = Text(tr.fmt("{side} to play", side=seat_name(seat, lang)) if seat else tr.gettext("Spectating"),
               style=SEAT_STYLE.get(seat or "", "bold"))
    # The board sits right above the choices: on a short terminal the log and hand scroll away
    # first, while the map and the decision stay in sight.
    offer = offered_event(view, seat, lang)
    marks = choice_marks(view, labelled)
    if compact:
        recent = log_lines[-min(new_lines, COMPACT_LOG_LINES):] if new_lines else []
        if new_lines > COMPACT_LOG_LINES:
            earlier = new_lines - COMPACT_LOG_LINES
            recent = ["… " + tr.nfmt("{n} earlier new line: type 'log'", "{n} earlier new lines: type 'log'", earlier),
                      *recent]
        top: list[RenderableType] = [Text("\n".join(recent), style="bold")] if recent else []
        top += [hand_line(view, seat, lang), tracks_text(view, lang), areas_grid(view, lang),
                board_panel(view, marks, compact=True, lang=lang)]
    else:
        top = [log_panel(log_lines, new_lines, lang), hand_panel(view, seat, lang), tracks_panel(view, lang),
               board_panel(view, marks, lang=lang)]
    return Group(
        *top,
        status_line(view, lang),
        Text.assemble(who, ": ", (prompt, "bold")),
        *([offer] if offer.plain else []),
        choices_renderable(labelled, seat, lang),
    )


class FreedomTerminal:
    """Freedom!'s terminal part (see :class:`muster.tui.part.TerminalPart`): the drawings above, the help of
    :mod:`muster.games.freedom.guide`, and its choices, prompts and result in the reader's language."""

    SEATS = SEATS
    SEAT_NAME = SEAT_NAME
    SEAT_STYLE = SEAT_STYLE
    screen = staticmethod(screen)
    board_panel = staticmethod(board_panel)
    tracks_panel = staticmethod(tracks_panel)
    hand_panel = staticmethod(hand_panel)
    phase_help = staticmethod(phase_help)
    label_in = staticmethod(label_in)
    prompt_in = staticmethod(prompt_in)
    outcome_detail_in = staticmethod(outcome_detail_in)


TERMINAL = FreedomTerminal()
"""What the game module's ``terminal`` reference names."""
