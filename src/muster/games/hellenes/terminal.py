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
from muster.games.hellenes.datafiles import blocks, cards, design, game_map

SEATS = ("athens", "sparta")
SEAT_NAME = {"athens": "Athens", "sparta": "Sparta"}
SEAT_STYLE = {"athens": "bold blue", "sparta": "bold red"}


def _season(view: dict[str, Any]) -> str:
    season = int(view.get("season", -1))
    return "New Year" if season < 0 else str(design()["seasons"][season])


def _prestige(view: dict[str, Any]) -> str:
    p = int(view["prestige"])
    return "level" if p == 0 else (f"Sparta +{p}" if p > 0 else f"Athens +{-p}")


def board_panel(view: dict[str, Any], compact: bool = False) -> Panel:
    """Every area with a City under siege, a City or blocks: holder, Sieges and the blocks the seat may see."""
    g = game_map()
    seat = view.get("seat")
    table = Table(box=None, padding=(0, 1), show_header=True, header_style="bold")
    table.add_column("Area")
    table.add_column("City")
    table.add_column("Blocks")
    per: dict[str, list[Text]] = {}
    for bid, u in view.get("units", {}).items():
        d = blocks()[bid]
        where = " (in City)" if u["inside"] else (" (aboard)" if u["carrier"] else "")
        per.setdefault(u["area"], []).append(Text(f"{d.name} {d.letter}{d.fire} {u['cv']}/{d.max_cv}{where}",
                                                  style=SEAT_STYLE[d.side].replace("bold ", "")))
    for e in view.get("enemy", []):
        side = e["side"]
        label = "▮" if "known_as" not in e else f"{blocks()[e['known_as']].name} (seen {e['seen']})"
        per.setdefault(e["area"], []).append(Text(label + (" in City" if e["inside"] else ""),
                                                  style=SEAT_STYLE[side].replace("bold ", "")))
    for area in (*g.land, *g.seas):
        city = g.cities.get(area)
        siege = view["sieges"].get(area)
        if not per.get(area) and not siege and (compact or city is None):
            continue
        city_text = Text()
        if city is not None:
            holder = view["control"].get(area, "neutral")
            city_text.append(f"{city.name} {city.value}{'⚓' if city.port else ''} ",
                             style=SEAT_STYLE.get(holder, "dim"))
            if view["militia"].get(area):
                city_text.append(f"M{view['militia'][area]} ", style="dim")
            if area in view["garrison"]:
                city_text.append("garrison ", style="dim")
            if siege:
                city_text.append(f"besieged by {SEAT_NAME[siege['by']]}", style="yellow")
        blocks_text = Text(", ").join(per.get(area, []))
        table.add_row(g.names[area], city_text, blocks_text)
    title = f"Greece and the Aegean — {_season(view)} {view['year']} BC" + (f" — you are {SEAT_NAME[seat]}"
                                                                           if seat else "")
    return Panel(table, title=title)


def tracks_panel(view: dict[str, Any]) -> Panel:
    """Prestige, Leaders, the revealed cards and the Pools."""
    leaders = ", ".join(f"{SEAT_NAME[s]}: {n.title()}" for s, n in view["leaders"].items())
    line = Text(f"Prestige {_prestige(view)} · Leaders {leaders}")
    pools = view["pools"]
    counts = {s: (len(p) if isinstance(p, list) else p["count"]) for s, p in pools.items()}
    line.append(f" · Pools Athens {counts['athens']}, Sparta {counts['sparta']} · deck {view['deck']['count']}")
    revealed = [f"{SEAT_NAME[s]} #{c[0]} {cards()[c[0]].name} ({c[1]})" for s, c in view["revealed"].items() if c]
    if revealed:
        line.append("\nThis Season: " + "; ".join(revealed))
    return Panel(line, title="Tracks")


def hand_panel(view: dict[str, Any], seat: str | None) -> Panel:
    """The seat's hand with each card's Actions and Event text."""
    if seat is None or not isinstance(view["hands"].get(seat), list):
        return Panel("(no hand)", title="Hand")
    lines = []
    for n in view["hands"][seat]:
        c = cards()[n]
        who = "" if c.side == "any" else f" [{SEAT_NAME[c.side]} only]"
        lines.append(f"#{n} {c.actions} Action(s) · {c.name}{who}: {c.text}")
    return Panel("\n".join(lines) or "(empty)", title=f"{SEAT_NAME[seat]}'s hand")


def phase_help(view: dict[str, Any]) -> str:
    """A few words on the current step."""
    return ("Each Season both sides commit a card; fewer Actions go first (an Event counts 0, Sparta wins ties). "
            "An Action moves one Group (each block to its own destination), Musters, Builds (+1 CV at home), "
            "Recruits (draw 3, place 1), garrisons, Pillages, or in Winter supplies a block. Entering enemy blocks "
            "Engages them; battles fire A, B, C (defender first); hits on ≤ firepower, routs on ≥ 7 − firepower. "
            "Prestige wins: battles, captures, Pillage, Tribute; taking the enemy capital wins at once.")


def engage_hints(view: dict[str, Any], seat: str, labelled: list[tuple[Action, str]]) -> list[str]:
    """Battle odds for every choice that Engages, from public information (digest 3.4)."""
    from muster.games.hellenes.odds import engage_estimate

    stack = view.get("stack") or []
    top = stack[-1] if stack else {}
    if top.get("kind") not in ("group", "free_move") or top.get("seat", seat) != seat:
        return []
    token = top.get("cur") if top.get("kind") == "group" else top.get("token")
    mover = next((b for b, u in view["units"].items() if u["token"] == token), None)
    if mover is None:
        return []
    out = []
    for action, label in labelled:
        if action.verb in ("to", "forced") and "(Engage)" in label:
            p = engage_estimate(view, seat, [mover], str(action.arg))
            out.append(f"{game_map().names[str(action.arg)]}: win {p.win:.0%}, lose {p.lose:.0%}, "
                       f"expected losses {p.my_loss:.1f} vs {p.enemy_loss:.1f} CV (estimated from what you can see)")
    return out


def screen(view: dict[str, Any], seat: str, prompt: str, labelled: list[tuple[Action, str]], log: list[str],
           new: int, compact: bool = False) -> RenderableType:
    """The whole screen for one decision."""
    choices = Table(box=None, show_header=False, padding=(0, 1))
    for i, (_, label) in enumerate(labelled, 1):
        choices.add_row(Text(str(i), style="bold"), Text(label))
    parts: list[RenderableType] = [board_panel(view, compact), tracks_panel(view)]
    if not compact:
        parts.append(hand_panel(view, seat))
    shown = log[-(8 if compact else 14):]
    parts.append(Panel(Text("\n".join(shown)), title=f"Log ({new} new)" if new else "Log"))
    hints = engage_hints(view, seat, labelled)
    body: list[RenderableType] = [Text(prompt, style=SEAT_STYLE[seat]), choices]
    if hints:
        body.append(Text("Battle odds if you engage:\n" + "\n".join(hints), style="cyan"))
    parts.append(Panel(Group(*body), title="Your choice"))
    return Group(*parts)
