"""Draw the board and its pieces as SVG, from the board data, so a person can check it by eye.

Every space is a ``<g class="space" data-space="ID">`` group, so a web page can highlight or
click it. Pieces: red squares (Expeditionary), green (Allied), blue (Insurgent), triangles
(cannons; purple: the Bombard), white dots (Civilians). Wall damage shows as hatching.
"""

from __future__ import annotations

from html import escape

from muster.core import Game
from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.state import State
from muster.i18n import N_, Translator, translator

FILL = {
    "mainland": "#e9dfc4",
    "camp": "#d9b9a0",
    "wall": "#b9b2a6",
    "city": "#f3eee2",
    "beach": "#efe0b0",
    "coast": "#bcd8ea",
    "water": "#a9cde6",
    "island": "#cfe3c2",
}
SIZE = {"camp": (120, 60), "city": (420, 70), "island": (56, 40)}
UNIT_COLOURS = (("exp", "#c0392b", "E"), ("ally", "#2e8b57", "A"), ("ins", "#2457a6", "I"))
WIDTH, HEIGHT = 1060, 960


def _space(s: State | None, i: int, tr: Translator) -> list[str]:
    from muster.games.freedom.texts import names_for  # the texts module reads the board too: imported late

    b = board()
    x, y = b.xy[i]
    w, h = SIZE.get(b.kind[i], (62, 46))
    fill = FILL[b.kind[i]]
    stroke, width = ("#1f4e9e", 3) if b.fort[i] else (("#333", 2.5) if b.thick[i] >= 0 else ("#555", 1))
    out = [
        f'<g class="space" data-space="{b.ids[i]}">',
        f'<rect x="{x - w / 2:.0f}" y="{y - h / 2:.0f}" width="{w}" height="{h}" rx="6" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>',
        f'<text x="{x:.0f}" y="{y - h / 2 + 11:.0f}" font-size="9" text-anchor="middle" fill="#333">'
        f"{escape(b.ids[i])}</text>",
    ]
    if s is not None:
        if s.damage[i]:
            colour = "#e67e22" if s.damage[i] == 1 else "#7b241c"
            out.append(
                f'<rect x="{x - w / 2 + 2:.0f}" y="{y - h / 2 + 2:.0f}" width="{w - 4}" height="{h - 4}" '
                f'rx="5" fill="none" stroke="{colour}" stroke-width="4" stroke-dasharray="6 3">'
                f"<title>{escape(tr.gettext(N_('damaged') if s.damage[i] == 1 else N_('destroyed')))}</title></rect>"
            )
        out += _pieces(s, i, x, y, tr)
    out.append(f"<title>{escape(names_for(tr).space(i))}</title></g>")
    return out


def _pieces(s: State, i: int, x: int, y: int, tr: Translator) -> list[str]:
    b = board()
    out: list[str] = []
    px = x - 24
    for attr, colour, _letter in UNIT_COLOURS:
        n = getattr(s, attr)[i]
        if n:
            out.append(
                f'<rect class="unit {attr}" x="{px}" y="{y - 4}" width="14" height="14" fill="{colour}" '
                f'stroke="#111" stroke-width="0.8"/><text x="{px + 7}" y="{y + 7}" font-size="10" '
                f'text-anchor="middle" fill="#fff">{n}</text>'
            )
            px += 17
    cannons = s.camp_cannons if i == b.camp else (1 if s.cannon[i] else 0)
    if cannons:
        colour = (
            "#7d3c98"
            if s.cannon[i] == BOMBARD
            else ("#111" if s.cannon[i] == IMPERIAL_CANNON or i == b.camp else "#1b2631")
        )
        owner = "imperial" if s.cannon[i] == IMPERIAL_CANNON or i == b.camp else "insurgent"
        cx, cy = x + 20, y + 14
        out.append(
            f'<polygon class="cannon {owner}" points="{cx - 7},{cy + 6} {cx + 7},{cy + 6} {cx},{cy - 7}" '
            f'fill="{colour}" stroke="{"#c0392b" if owner == "imperial" else "#2457a6"}" stroke-width="1.5"/>'
        )
        if cannons > 1:
            out.append(f'<text x="{cx + 10}" y="{cy + 4}" font-size="10">×{cannons}</text>')
    if i == b.city and s.civilians:
        out.append(
            f'<circle cx="{x - 40}" cy="{y + 8}" r="8" fill="#fff" stroke="#333"/>'
            f'<text x="{x - 40}" y="{y + 12}" font-size="10" text-anchor="middle">{s.civilians}</text>'
            f'<text x="{x - 25}" y="{y + 12}" font-size="10">{escape(tr.gettext("civilians"))}</text>'
        )
    return out


def _edges() -> list[str]:
    b = board()
    out = ['<g class="edges" stroke="#8a8a8a" stroke-width="1" opacity="0.6">']
    for i, neighbours in enumerate(b.adj):
        for j in neighbours:
            if i < j:
                (x1, y1), (x2, y2) = b.xy[i], b.xy[j]
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')
    out.append("</g>")
    return out


def _panel(s: State, tr: Translator) -> list[str]:
    from muster.games.freedom.texts import names_for

    x0, y0 = 20, 830
    imp, ins = s.tracks[IMPERIAL], s.tracks[INSURGENT]
    pressure = tr.gettext("answered") if ins["pressure"] < 0 else ins["pressure"]
    lines = [
        tr.fmt("Round {round} — Period {period}", round=s.round, period="B" if s.round >= 4 else "A"),
        tr.fmt("Imperial: Morale {morale}  Money {money}  Supplies {supplies}  Plea {plea}  Preparation {preparation}",
               **{k: imp[k] for k in ("morale", "money", "supplies", "plea", "preparation")}),
        tr.fmt("Insurgent: Morale {morale}  Supplies {supplies}  Pressure {pressure}  Preparation {preparation}  "
               "Population {population}", pressure=pressure,
               **{k: ins[k] for k in ("morale", "supplies", "preparation", "population")}),
    ]
    out = ['<g class="tracks" font-size="13" font-family="sans-serif">']
    out += [f'<text x="{x0}" y="{y0 + 18 * k}">{escape(t)}</text>' for k, t in enumerate(lines)]
    out.append("</g>")
    ax, ay = 560, 828
    out.append('<g class="areas" font-size="11" font-family="sans-serif">')
    for k, area in enumerate(areas_file().areas):
        col, row = k % 4, k // 4
        side = s.area_side[k]
        colour = "#c0392b" if side == IMPERIAL else "#2457a6"
        bx, by = ax + col * 120, ay + row * 50
        out.append(
            f'<g class="area" data-area="{area.id}"><rect x="{bx}" y="{by}" width="112" height="42" rx="4" '
            f'fill="{colour}" opacity="0.85"/><text x="{bx + 6}" y="{by + 16}" fill="#fff">'
            f'{escape(names_for(tr).area(k))}</text><text x="{bx + 6}" y="{by + 33}" fill="#fff">'
            f'{escape(tr.nfmt("{n} support", "{n} support", s.area_markers[k]))}</text></g>'
        )
    out.append("</g>")
    return out


def render_svg(s: State | None = None, lang: str = "en") -> str:
    """The board as an SVG document; with a state, its pieces, damage, tracks and area tiles; its words in
    ``lang``."""
    b = board()
    tr = translator(lang)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f0"/>',
    ]
    parts += _edges()
    for i in range(len(b.ids)):
        parts += _space(s, i, tr)
    if s is not None:
        parts += _panel(s, tr)
    parts.append("</svg>")
    return "\n".join(parts)


def draw(game: Game, seat: str | None = None, lang: str = "en") -> str:
    """The game's ``drawing`` part: the board with the pieces of ``game`` (everything drawn is public, so
    every seat sees the same picture), its words in ``lang``."""
    return render_svg(game.state, lang)
