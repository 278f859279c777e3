"""An SVG map of Greece and the Aegean for Hellenes, drawn from data/map.json's coordinates (our own drawing).

Land areas are drawn as labelled discs (the City's name, number and Port mark; its controller's colour),
sea areas as blue discs; land borders as grey lines, coasts as thin blue lines, sea borders as blue
lines (hazardous ones thick). Blocks come from a view: a seat sees its own blocks' names and CVs and the
enemy's as upright blocks (a blank face, or the name and CV last seen in battle).
"""

from __future__ import annotations

from html import escape
from typing import Any

from muster.core import Game
from muster.games.hellenes.datafiles import blocks, game_map
from muster.games.hellenes.texts import area_name, block_name, city_name, prestige_words, season_word, side_forms
from muster.i18n import N_, translator

WIDTH, HEIGHT = 1040, 760
COLOURS = {"athens": "#2f5d9e", "sparta": "#b23a2e", "neutral": "#8a8a8a"}
SEA_BORDER = {True: N_("hazardous sea border {a} – {b}"), False: N_("sea border {a} – {b}")}
"""A sea border's hover text, by whether it is hazardous."""


def _xy(area: str) -> tuple[float, float]:
    lon, lat = game_map().xy[area]
    return 40 + (lon - 19.4) * 118, 40 + (41.4 - lat) * 140


def render_svg(view: dict[str, Any], lang: str = "en") -> str:
    """The map with the blocks of a view (``rules.view(state, seat)``; a spectator's view shows every block
    upright), its words in ``lang``."""
    g = game_map()
    tr = translator(lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
           f'height="{HEIGHT}" font-family="Georgia, serif" role="img" '
           f'aria-label="{escape(tr.gettext("Map of Greece and the Aegean"))}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#dbe8f1"/>',
           f'<title>{escape(tr.gettext("Hellenes: Greece and the Aegean"))}</title>']
    for a in g.land:  # land borders
        for n in g.land_adj[a]:
            if a < n:
                (x1, y1), (x2, y2) = _xy(a), _xy(n)
                out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#9a8f7a" '
                           'stroke-width="3" stroke-dasharray="6 4"/>')
        for c in g.coasts[a]:
            (x1, y1), (x2, y2) = _xy(a), _xy(c)
            out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#7fa6c4" '
                       'stroke-width="1.5"/>')
    for sea in g.seas:
        for n in g.sea_adj[sea]:
            if sea < n:
                (x1, y1), (x2, y2) = _xy(sea), _xy(n)
                hazard = (sea, n) in g.hazardous
                border = tr.fmt(SEA_BORDER[hazard], a=area_name(sea, lang), b=area_name(n, lang))
                out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#2b6ca3" '
                           f'stroke-width="{6 if hazard else 2}"><title>{escape(border)}</title></line>')
    for sea in g.seas:
        x, y = _xy(sea)
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="34" fill="#a9c9e2" stroke="#2b6ca3"/>')
        out.append(f'<text x="{x:.0f}" y="{y - 38:.0f}" text-anchor="middle" font-size="12" font-style="italic" '
                   f'fill="#1d4f7a">{escape(area_name(sea, lang))}</text>')
    control = view.get("control", {})
    sieges = view.get("sieges", {})
    for a in g.land:
        x, y = _xy(a)
        city = g.cities.get(a)
        holder = control.get(a, "neutral" if a in g.neutral else None)
        fill = "#d9d0b4" if a not in g.neutral else "#b9b9b9"
        ring = COLOURS.get(holder or "", "#6b5d45")
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="30" fill="{fill}" stroke="{ring}"'
                   f' stroke-width="{4 if holder else 1.5}"/>')
        label = area_name(a, lang)
        out.append(f'<text x="{x:.0f}" y="{y + 44:.0f}" text-anchor="middle" font-size="12" fill="#3b3224">'
                   f'{escape(label)}</text>')
        if city:
            mark = f'{escape(city_name(a, lang))} {city.value}{" ⚓" if city.port else ""}'
            out.append(f'<text x="{x:.0f}" y="{y - 34:.0f}" text-anchor="middle" font-size="11" font-weight="bold" '
                       f'fill="#3b3224">{mark}</text>')
        elif a in g.settlements:
            out.append(f'<text x="{x:.0f}" y="{y - 34:.0f}" text-anchor="middle" font-size="11" font-style="italic" '
                       f'fill="#3b3224">{escape(g.settlements[a])}</text>')
        if a in sieges:
            out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="35" fill="none" stroke="{COLOURS[sieges[a]["by"]]}" '
                       f'stroke-width="2" stroke-dasharray="3 3"><title>'
                       f'{escape(tr.fmt("besieged by {side}", side=side_forms(tr, sieges[a]["by"]).name))}'
                       '</title></circle>')
    out += _blocks(view, lang)
    status = tr.fmt("{season} {year} BC · Prestige {lead}", season=season_word(int(view.get("season", -1)), lang),
                    year=view.get("year"), lead=prestige_words(int(view.get("prestige", 0)), lang))
    out.append(f'<text x="20" y="{HEIGHT - 20}" font-size="16" fill="#222">{escape(status)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _blocks(view: dict[str, Any], lang: str = "en") -> list[str]:
    """Small squares around each area: the seat's own blocks with name and CV, the enemy's upright."""
    tr = translator(lang)
    per_area: dict[str, list[tuple[str, str, str]]] = {}
    for bid, u in view.get("units", {}).items():
        d = blocks()[bid]
        title = tr.fmt("{block} {letter}{fire}, CV {cv}/{max}", block=block_name(bid, lang), letter=d.letter,
                       fire=d.fire, cv=u["cv"], max=d.max_cv)
        per_area.setdefault(u["area"], []).append((d.side, f"{d.letter}{d.fire}·{u['cv']}", title))
    for e in view.get("enemy", []):
        if "known_as" in e:
            d = blocks()[e["known_as"]]
            title = tr.fmt("{block} (last seen at CV {cv})", block=block_name(e["known_as"], lang), cv=e["seen"])
            per_area.setdefault(e["area"], []).append((e["side"], f"{d.letter}{d.fire}?{e['seen']}", title))
        else:
            per_area.setdefault(e["area"], []).append((e["side"], "", tr.gettext("an upright block")))
    out = []
    for area, items in per_area.items():
        x, y = _xy(area)
        for i, (side, text, title) in enumerate(sorted(items)):
            bx = x - 44 + (i % 5) * 18
            by = y + 50 + (i // 5) * 18
            out.append(f'<g><title>{escape(title)}</title><rect x="{bx:.0f}" y="{by:.0f}" width="16" height="16" '
                       f'rx="2" fill="{COLOURS[side]}" stroke="#111"/>'
                       f'<text x="{bx + 8:.0f}" y="{by + 11:.0f}" text-anchor="middle" font-size="6" fill="#fff">'
                       f'{escape(text)}</text></g>')
    return out


def render_state(state: Any, lang: str = "en") -> str:
    """The map with every block of a whole state shown with its name and CV, as its owner would lay the game
    out on a table to study it (what a notebook shows for a ``Game``: the person holding the object holds
    every seat's secrets already). A seat's picture, with the enemy upright, is :func:`draw`'s."""
    from muster.games.hellenes.view import view  # deferred: the drawing is not on the rules' import path

    shown = dict(view(state, None))
    shown["units"] = {bid: u.to_json() for bid, u in state.units.items() if u.area is not None}
    shown["enemy"] = []
    return render_svg(shown, lang)


def draw(game: Game, seat: str | None = None, lang: str = "en") -> str:
    """The game's ``drawing`` part: the map with the blocks ``seat`` sees (None: a spectator), its words in
    ``lang``."""
    return render_svg(game.view(seat), lang)
