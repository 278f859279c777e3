"""Hellenes in the terminal: the panels :class:`muster.tui.session.Session` draws for this game.

The map is a table of the areas where something stands: the City and its holder, Sieges, the seat's own
blocks (name, letter and firepower, CV) and the enemy's as upright blocks (``▮``, or the name and CV last seen
in battle). Before a block engages, the choices carry the battle odds estimated from public information.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from muster.core import Action
from muster.games.hellenes.datafiles import blocks, cards, game_map
from muster.games.hellenes.estimate import engage_estimate
from muster.games.hellenes.texts import (
    area_name,
    block_name,
    card_face,
    city_name,
    leader_name,
    prestige_words,
    said_in,
    season_word,
    side_forms,
)
from muster.i18n import Translator, translator

SEATS = ("athens", "sparta")
SEAT_NAME = {"athens": "Athens", "sparta": "Sparta"}
SEAT_STYLE = {"athens": "bold blue", "sparta": "bold red"}



def _name(side: str, lang: str) -> str:
    return side_forms(translator(lang), side).name


def board_panel(view: dict[str, Any], compact: bool = False, lang: str = "en") -> Panel:
    """Every area with a City under siege, a City or blocks: holder, Sieges and the blocks the seat may see."""
    tr = translator(lang)
    g = game_map()
    seat = view.get("seat")
    table = Table(box=None, padding=(0, 1), show_header=True, header_style="bold")
    table.add_column(tr.gettext("Area"))
    table.add_column(tr.gettext("City"))
    table.add_column(tr.gettext("Blocks"))
    per: dict[str, list[Text]] = {}
    for bid, u in view.get("units", {}).items():
        d = blocks()[bid]
        where = tr.gettext(" (in City)") if u["inside"] else (tr.gettext(" (aboard)") if u["carrier"] else "")
        per.setdefault(u["area"], []).append(Text(f"{block_name(bid, lang)} {d.letter}{d.fire} {u['cv']}/{d.max_cv}"
                                                  f"{where}", style=SEAT_STYLE[d.side].replace("bold ", "")))
    for e in view.get("enemy", []):
        side = e["side"]
        label = "▮" if "known_as" not in e else tr.fmt("{block} (seen {cv})", block=block_name(e["known_as"], lang),
                                                        cv=e["seen"])
        per.setdefault(e["area"], []).append(Text(label + (tr.gettext(" in City") if e["inside"] else ""),
                                                  style=SEAT_STYLE[side].replace("bold ", "")))
    for area in (*g.land, *g.seas):
        city = g.cities.get(area)
        siege = view["sieges"].get(area)
        if not per.get(area) and not siege and (compact or city is None):
            continue
        city_text = Text()
        if city is not None:
            holder = view["control"].get(area, "neutral")
            city_text.append(f"{city_name(area, lang)} {city.value}{'⚓' if city.port else ''} ",
                             style=SEAT_STYLE.get(holder, "dim"))
            if view["militia"].get(area):
                city_text.append(tr.fmt("M{n} ", n=view["militia"][area]), style="dim")
            if area in view["garrison"]:
                city_text.append(tr.gettext("garrison "), style="dim")
            if siege:
                city_text.append(tr.fmt("besieged by {side}", side=_name(siege["by"], lang)), style="yellow")
        blocks_text = Text(", ").join(per.get(area, []))
        table.add_row(area_name(area, lang), city_text, blocks_text)
    when = f"{season_word(int(view.get('season', -1)), lang)} {view['year']}"
    title = (tr.fmt("Greece and the Aegean — {when} BC — you are {side}", when=when, side=_name(seat, lang)) if seat
             else tr.fmt("Greece and the Aegean — {when} BC", when=when))
    return Panel(table, title=title)


def tracks_panel(view: dict[str, Any], lang: str = "en") -> Panel:
    """Prestige, Leaders, the revealed cards and the Pools."""
    tr = translator(lang)
    leaders = ", ".join(f"{_name(s, lang)}: {leader_name(n, lang)}" for s, n in view["leaders"].items())
    line = Text(tr.fmt("Prestige {prestige} · Leaders {leaders}", prestige=prestige_words(int(view["prestige"]), lang),
                       leaders=leaders))
    pools = view["pools"]
    counts = {s: (len(p) if isinstance(p, list) else p["count"]) for s, p in pools.items()}
    line.append(tr.fmt(" · Pools Athens {athens}, Sparta {sparta} · deck {deck}", athens=counts["athens"],
                       sparta=counts["sparta"], deck=view["deck"]["count"]))
    modes = {"event": tr.gettext("event"), "actions": tr.gettext("actions"), "sacrifice": tr.gettext("sacrifice")}
    revealed = [f"{_name(s, lang)} #{c[0]} {card_face(c[0], lang)['name']} ({modes.get(c[1], c[1])})"
                for s, c in view["revealed"].items() if c]
    if revealed:
        line.append("\n" + tr.gettext("This Season: ") + "; ".join(revealed))
    return Panel(line, title=tr.gettext("Tracks"))


def hand_panel(view: dict[str, Any], seat: str | None, lang: str = "en") -> Panel:
    """The seat's hand with each card's Actions and Event text."""
    tr = translator(lang)
    if seat is None or not isinstance(view["hands"].get(seat), list):
        return Panel(tr.gettext("(no hand)"), title=tr.gettext("Hand"))
    lines = []
    for n in view["hands"][seat]:
        c = cards()[n]
        face = card_face(n, lang)
        who = "" if c.side == "any" else tr.fmt(" [{side} only]", side=_name(c.side, lang))
        actions = tr.nfmt("{n} Action", "{n} Actions", c.actions)
        lines.append(f"#{n} {actions} · {face['name']}{who}: {face['text']}")
    return Panel("\n".join(lines) or tr.gettext("(empty)"), title=tr.fmt("Hand of {side}", side=_name(seat, lang)))


def phase_help(view: dict[str, Any], lang: str = "en") -> str:
    """A few words on the current step."""
    return translator(lang).gettext(
        "Each Season both sides commit a card; fewer Actions go first (an Event counts 0, Sparta wins ties). "
        "An Action moves one Group (each block to its own destination), Musters, Builds (+1 CV at home), "
        "Recruits (draw 3, place 1), garrisons, Pillages, or in Winter supplies a block. Entering enemy blocks "
        "Engages them; battles fire A, B, C (defender first); hits on ≤ firepower, routs on ≥ 7 − firepower. "
        "Prestige wins: battles, captures, Pillage, Tribute; taking the enemy capital wins at once.")


def _engages(view: dict[str, Any], seat: str, area: str) -> bool:
    """True if a block of ``seat`` entering ``area`` meets enemy blocks there (what the view shows)."""
    return any(e["area"] == area and not e["inside"] for e in view.get("enemy", []))


def engage_hints(view: dict[str, Any], seat: str, labelled: list[tuple[Action, str]], lang: str = "en") -> list[str]:
    """Battle odds for every choice that Engages, from public information (digest 3.4)."""
    stack = view.get("stack") or []
    top = stack[-1] if stack else {}
    tr = translator(lang)
    if top.get("kind") == "sortie" and top.get("seat", seat) == seat:  # 8.3: the besieged attack the besiegers
        out = []
        for action, _ in labelled:
            if action.verb == "sortie" and isinstance(action.arg, str):
                area = action.arg
                inside = [b for b, u in view["units"].items() if u.get("area") == area and u.get("inside")]
                out.append(_odds_line(engage_estimate(view, seat, inside, area), area, tr, lang))
        return out
    if top.get("kind") not in ("group", "free_move") or top.get("seat", seat) != seat:
        return []
    token = top.get("cur") if top.get("kind") == "group" else top.get("token")
    mover = next((b for b, u in view["units"].items() if u["token"] == token), None)
    if mover is None:
        return []
    out = []
    for action, label in labelled:
        if action.verb in ("to", "forced") and ("(Engage)" in label or _engages(view, seat, str(action.arg))):
            out.append(_odds_line(engage_estimate(view, seat, [mover], str(action.arg)), str(action.arg), tr, lang))
    return out


def _odds_line(p: Any, area: str, tr: Translator, lang: str) -> str:
    """One line of battle odds for a choice that Engages in ``area``."""
    return tr.fmt("{area}: win {win}, lose {lose}, expected losses {mine} vs {theirs} CV (estimated from what you "
                  "can see)", area=area_name(area, lang), win=_pct(p.win, lang), lose=_pct(p.lose, lang),
                  mine=_dec(p.my_loss, lang), theirs=_dec(p.enemy_loss, lang))


def _pct(x: float, lang: str) -> str:
    return f"{x:.0%}".replace("%", " %") if lang == "pl" else f"{x:.0%}"


def _dec(x: float, lang: str) -> str:
    return f"{x:.1f}".replace(".", ",") if lang == "pl" else f"{x:.1f}"


def screen(view: dict[str, Any], seat: str, prompt: str, labelled: list[tuple[Action, str]], log: list[str],
           new: int, compact: bool = False, lang: str = "en") -> RenderableType:
    """The whole screen for one decision (the choices and the prompt already in ``lang``)."""
    tr = translator(lang)
    choices = Table(box=None, show_header=False, padding=(0, 1))
    for i, (_, label) in enumerate(labelled, 1):
        choices.add_row(Text(str(i), style="bold"), Text(label))
    parts: list[RenderableType] = [board_panel(view, compact, lang), tracks_panel(view, lang)]
    if not compact:
        parts.append(hand_panel(view, seat, lang))
    shown = log[-(8 if compact else 14):]
    parts.append(Panel(Text("\n".join(shown)), title=tr.fmt("Log ({n} new)", n=new) if new else tr.gettext("Log")))
    hints = engage_hints(view, seat, labelled, lang)
    body: list[RenderableType] = [Text(prompt, style=SEAT_STYLE[seat]), choices]
    if hints:
        body.append(Text(tr.gettext("Battle odds if you engage:") + "\n" + "\n".join(hints), style="cyan"))
    parts.append(Panel(Group(*body), title=tr.gettext("Your choice")))
    return Group(*parts)


class HellenesTerminal:
    """Hellenes' terminal part (see :class:`muster.tui.part.TerminalPart`): the drawings above, and its choices
    and prompts in the reader's language."""

    SEATS = SEATS
    SEAT_NAME = SEAT_NAME
    SEAT_STYLE = SEAT_STYLE
    screen = staticmethod(screen)
    board_panel = staticmethod(board_panel)
    tracks_panel = staticmethod(tracks_panel)
    hand_panel = staticmethod(hand_panel)
    phase_help = staticmethod(phase_help)

    @staticmethod
    def label_in(action: Action, seat: str | None, english: str, lang: str) -> str:
        """A choice's label in ``lang``, rendered from the message the rules keep with it."""
        return said_in(english, lang)

    @staticmethod
    def prompt_in(view: dict[str, Any], seat: str | None, english: str, lang: str) -> str:
        """The decision's prompt in ``lang``, rendered from the message the rules keep with it."""
        return said_in(english, lang)


TERMINAL = HellenesTerminal()
"""What the game module's ``terminal`` reference names."""
