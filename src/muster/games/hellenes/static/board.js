// The Hellenes board module: a drawn map of Greece and the Aegean (real coastlines from Natural Earth, projected
// and simplified into data/coast.json; the server sends them in the game data), seen from one seat. Land areas
// are regions tinted by the holder of their City, seas are waters, Cities stand where they stood with their
// number and Port mark. Blocks stand on the map: the seat's own upright with letter, firepower and CV as pips,
// the enemy's blank (only their colour shows, unless a battle revealed them). A block or its area is clicked to
// choose its Group; the destinations and, before a battle or an Assault, the chance of winning are marked on the
// map. Words for players live in TEXT.
import { t, tn } from "../../i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const VIEWBOX = { x: 0, y: 0, w: 1198, h: 915 };
export const PHONE_VIEW = { x: 220, y: 330, w: 520, h: 560 };

// The game's own stylesheet, next to this module (loaded once, before the first drawing).
if (typeof document !== "undefined" && !document.querySelector("link[data-hellenes-css]")) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./board.css", import.meta.url).href;
  link.dataset.hellenesCss = "";
  document.head.append(link);
}

/** Every player-facing word of this module (one place, for translation: read when used, after the catalog loads). */
export const TEXT = {
  get map() { return t("Map of Greece and the Aegean"); },
  get side() { return { athens: t("side:athens"), sparta: t("side:sparta"), neutral: t("side:neutral") }; },
  upright: (side) => t("an upright block of {side}", { side }),
  seen: (name, cv) => t("{name} (last seen at CV {cv})", { name, cv }),
  own: (b, cv) => t("{name} {letter}{fire}, CV {cv} of {max}", { name: b.name, letter: b.letter, fire: b.fire, cv, max: b.max_cv }),
  heldBy: (side) => t("held by {side}", { side }),
  siege: (side) => t("besieged by {side}", { side }),
  get pillaged() { return t("pillaged"); },
  get empty() { return t("no blocks"); },
  get sea() { return t("sea zone"); },
  get port() { return t("port"); },
  get prestige() { return t("Prestige"); },
  get level() { return t("level"); },
  lead: (side, n) => `${side} +${n}`,
  get season() { return t("Season"); },
  get year() { return t("Year"); },
  get newYear() { return t("New Year"); },
  bc: (year) => t("{year} BC", { year }),
  actions: (n) => tn("{n} Action", "{n} Actions", n),
  get anySide() { return t("either side may play it"); },
  onlyFor: (side) => t("{side} only", { side }),
  status: (phase, year, years, first) => t("{phase} · year {year} of {years}", { phase, year, years }) + (first ? ` · ${t("{side} has the Initiative", { side: first })}` : ""),
  get commit() { return t("Commit face down"); },
  get inCity() { return t("in the City"); },
  get aboard() { return t("aboard"); },
  get choose() { return t("choose"); },
  clickTo: (verb) => t(" — click: {verb}", { verb }),
  get odds() { return t("chance of winning"); },
  get discards() { return t("Discards"); },
  get gameOver() { return t("Game over"); },
};

const s = (tag, attrs = {}, ...children) => {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
};

/** Where an area's name and blocks stand (pixels). */
function xy(space) { return space.label; }

/** The box a marked area takes on the map (for the shell's "marked places off screen"). */
export function targetBox(data, id) {
  const sp = data.byId[id];
  if (!sp) return null;
  const [x, y] = xy(sp);
  return { x: x - 40, y: y - 30, w: 80, h: 80 };
}

/** The area's contents in words (for hover, focus and screen readers). */
export function describe(data, view, id) {
  const sp = data.byId[id];
  if (!sp) return id;
  const parts = [];
  if (sp.kind === "sea") parts.push(TEXT.sea);
  if (sp.city) {
    const holder = (view.control || {})[id];
    parts.push(`${sp.city.name} ${sp.city.value}${sp.city.port ? `, ${TEXT.port}` : ""}${holder ? `, ${TEXT.heldBy(TEXT.side[holder] || holder)}` : ""}`);
  }
  const siege = (view.sieges || {})[id];
  if (siege) parts.push(TEXT.siege(TEXT.side[siege.by]));
  if ((view.pillaged || []).includes(id)) parts.push(TEXT.pillaged);
  const blocks = blocksIn(data, view, id).map((b) => b.title);
  parts.push(blocks.length ? blocks.join("; ") : TEXT.empty);
  return `${sp.name}: ${parts.join(", ")}`;
}

/** The token of the block a Group move or free move is moving now, if any. */
function movingToken(view) {
  const top = (view.stack || [])[(view.stack || []).length - 1] || {};
  if (top.kind === "group") return top.cur;
  if (top.kind === "free_move") return top.token;
  return null;
}

/** The blocks in an area as this seat sees them: [{side, label, cv, max, title, own, token}]. */
function blocksIn(data, view, id) {
  const out = [];
  for (const [bid, u] of Object.entries(view.units || {})) {
    if (u.area !== id) continue;
    const b = data.blocks[bid];
    const where = u.inside ? ` (${TEXT.inCity})` : u.carrier ? ` (${TEXT.aboard})` : "";
    out.push({ side: b.side, label: `${b.letter}${b.fire}`, cv: u.cv, max: b.max_cv, title: TEXT.own(b, u.cv) + where,
      own: true, token: u.token, inside: Boolean(u.inside), fleet: b.kind === "fleet" });
  }
  for (const e of view.enemy || []) {
    if (e.area !== id) continue;
    const known = e.known_as ? data.blocks[e.known_as] : null;
    out.push({ side: e.side, label: known ? `${known.letter}${known.fire}` : "", cv: known ? e.seen : null,
      max: known ? known.max_cv : null, title: known ? TEXT.seen(known.name, e.seen) : TEXT.upright(TEXT.side[e.side]),
      own: false, token: e.token, inside: Boolean(e.inside) });
  }
  return out.sort((a, b) => (a.side < b.side ? -1 : a.side > b.side ? 1 : 0));
}

function drawMapBase(data) {
  const geo = data.geometry;
  const g = s("g", { class: "hl-base", "aria-hidden": "true" });
  g.append(s("rect", { x: VIEWBOX.x, y: VIEWBOX.y, width: VIEWBOX.w, height: VIEWBOX.h, class: "hl-sea" }));
  g.append(s("path", { d: geo.land, class: "hl-landmass" }));
  for (const o of geo.off_map) {
    g.append(s("path", { d: o.d, class: "hl-offmap" }), s("text", { x: o.label[0], y: o.label[1], class: "hl-offmap-name" }, o.name));
  }
  return g;
}

/** A City: a square (a circle for a Port) with its number, the anchor of a Port, its name beside it. */
function drawCity(sp) {
  const [x, y] = sp.city_xy || xy(sp);
  const c = s("g", { class: `hl-citymark${sp.city.port ? " port" : ""}` });
  c.append(sp.city.port ? s("circle", { cx: x, cy: y, r: 8.5 }) : s("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 2 }),
    s("text", { x, y: y + 4.5, class: "hl-city-value" }, sp.city.value));
  if (sp.city.port) c.append(s("text", { x: x + 11, y: y - 5, class: "hl-anchor" }, "⚓"));
  c.append(s("text", { x: x + (sp.city.port ? 20 : 11), y: y + 5, class: "hl-city-name" }, sp.city.name));
  return c;
}

const BLOCK = 32, GAP = 3, PER_ROW = 4;

/** One block: own blocks upright with letter and firepower, and CV as pips (filled) out of the maximum. */
function drawBlock(b, x, y, moving, area) {
  const g = s("g", { class: `hl-block side-${b.side}${b.own ? " own" : " upright"}${moving ? " moving" : ""}${b.inside ? " inside" : ""}`,
    "data-space": area });
  g.append(s("rect", { x, y, width: BLOCK, height: BLOCK, rx: 4 }));
  if (b.label) g.append(s("text", { x: x + BLOCK / 2, y: y + 16, class: "hl-block-label" }, b.label));
  if (b.cv !== null && b.max) {
    const step = 6, left = x + BLOCK / 2 - ((b.max - 1) * step) / 2;
    for (let i = 0; i < b.max; i++) {
      g.append(s("circle", { cx: left + i * step, cy: y + 25, r: 2.6, class: i < b.cv ? "pip" : "pip lost" }));
    }
  }
  g.append(s("title", {}, b.title));
  return g;
}

/**
 * Draw the map into ``container``. ``handlers.pick(kind, id, element)`` is called when a legal area (or a block
 * standing in one) is clicked or activated by keyboard; ``handlers.hover(text)`` names what is under the pointer.
 */
export function createBoard(container, data, handlers) {
  data.byId = data.byId || Object.fromEntries(data.spaces.map((sp) => [sp.id, sp]));
  const root = s("svg", { viewBox: `${VIEWBOX.x} ${VIEWBOX.y} ${VIEWBOX.w} ${VIEWBOX.h}`, class: "map hellenes",
    role: "group", "aria-label": TEXT.map, preserveAspectRatio: "xMidYMid meet" });
  root.append(drawMapBase(data));
  const spaceLayer = s("g", { class: "spaces" });
  const nameLayer = s("g", { class: "names", "aria-hidden": "true" });
  const pieceLayer = s("g", { class: "pieces" });
  root.append(spaceLayer, nameLayer, pieceLayer);
  const groups = new Map();
  // seas first, so that land regions and their outlines lie over the water's edges
  for (const sp of [...data.spaces].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "sea" ? -1 : 1))) {
    const [x, y] = xy(sp);
    const g = s("g", { class: `space hl-${sp.kind}${sp.region ? "" : ""}`, "data-space": sp.id, id: `space-${sp.id}` });
    g.append(s("path", { d: sp.d, class: sp.kind === "sea" ? "hl-water" : "hl-region" }));
    if (sp.kind === "sea") {
      nameLayer.append(s("text", { x, y, class: "hl-sea-name" }, sp.name));
    } else {
      nameLayer.append(s("text", { x, y: y - 6, class: "hl-area-name" }, sp.name));
      if (sp.city) nameLayer.append(drawCity(sp));
      if (sp.settlement_xy) {
        const [sx, sy] = sp.settlement_xy;
        nameLayer.append(s("path", { d: `M${sx - 7} ${sy + 5} l7 -12 l7 12 z`, class: "hl-settlement" }));
      }
    }
    g.append(s("g", { class: "target-mark", transform: `translate(${x} ${y - 30})` }, s("circle", { r: 9 }), s("circle", { r: 3.5, class: "dot" })));
    groups.set(sp.id, g);
    spaceLayer.append(g);
  }

  let view = null;
  let verbs = new Map();
  const activate = (id) => { const g = groups.get(id); if (g && g.classList.contains("legal")) handlers.pick("space", id, g); };
  root.addEventListener("click", (e) => {
    const hit = e.target.closest("[data-space]");  // an area, or a block standing in one
    if (hit && !root.dataset.dragged) activate(hit.dataset.space);
  });
  root.addEventListener("keydown", (e) => {
    const g = e.target.closest("g.space");
    if (!g) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(g.dataset.space); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!dirs[e.key]) return;
    e.preventDefault();
    const next = nearest(g, dirs[e.key]);
    if (next) next.focus();
  });
  const hoverText = (id) => {
    if (!view) return null;
    const g = groups.get(id);
    const todo = g.classList.contains("legal") && verbs.get(id) ? TEXT.clickTo(verbs.get(id)) : "";
    return describe(data, view, id) + todo;
  };
  root.addEventListener("pointerover", (e) => { const h = e.target.closest("[data-space]"); handlers.hover(h ? hoverText(h.dataset.space) : null); });
  root.addEventListener("pointerleave", () => handlers.hover(null));
  root.addEventListener("focusin", (e) => { const g = e.target.closest("g.space"); if (g) handlers.hover(hoverText(g.dataset.space)); });

  function nearest(from, [dx, dy]) {
    const [fx, fy] = xy(data.byId[from.dataset.space]);
    let best = null, bestScore = Infinity;
    for (const g of root.querySelectorAll("g.legal")) {
      if (g === from) continue;
      const [x, y] = xy(data.byId[g.dataset.space]);
      const along = (x - fx) * dx + (y - fy) * dy;
      if (along <= 0) continue;
      const score = along + 2 * (Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx));
      if (score < bestScore) { bestScore = score; best = g; }
    }
    return best;
  }

  function drawPieces(last, items) {
    pieceLayer.replaceChildren();
    const moving = movingToken(view);
    const badges = [];  // the odds go over everything else
    const placed = [];  // the boxes of the stacks drawn so far: no stack covers another, nor its own City
    const count = (sp) => blocksIn(data, view, sp.id).length;
    // the biggest stacks choose their places first: they are the hardest to fit
    for (const sp of [...data.spaces].sort((a, b) => count(b) - count(a))) {
      const [x, y] = xy(sp);
      const holder = (view.control || {})[sp.id];
      const g = groups.get(sp.id);
      g.classList.remove("held-athens", "held-sparta", "held-neutral", "besieged", "pillaged", "arrived");
      if (holder) g.classList.add(`held-${holder}`);
      const [cx, cy] = sp.city_xy || [x, y];
      const siege = (view.sieges || {})[sp.id];
      if (siege) {
        g.classList.add("besieged");
        pieceLayer.append(s("circle", { cx, cy, r: 14, class: `hl-siege by-${siege.by}`, "aria-hidden": "true" }));
      }
      if ((view.pillaged || []).includes(sp.id)) {  // a flame-coloured triangle: shape and colour both say it
        pieceLayer.append(s("path", { d: `M${cx - 22} ${cy + 2} l8 -16 l8 16 z`, class: "hl-pillaged", "aria-hidden": "true" }));
      }
      const blocks = blocksIn(data, view, sp.id);
      if (blocks.length) {
        const own = sp.city_xy ? [{ x: sp.city_xy[0] - 10, y: sp.city_xy[1] - 10, w: 20, h: 20 }] : [];
        const [ox, oy] = stackPlace(blocks.length, x, y, placed, own);
        if (Math.hypot(ox - x, oy - y) > 2) {  // moved aside to stay clear of a neighbour: a line shows whose
          pieceLayer.append(s("line", { x1: x, y1: y, x2: ox, y2: oy + 2, class: "hl-leader", "aria-hidden": "true" }));
        }
        blocks.forEach((b, i) => {
          const row = Math.floor(i / PER_ROW), col = i % PER_ROW, inRow = Math.min(PER_ROW, blocks.length - row * PER_ROW);
          const bx = ox - (inRow * (BLOCK + GAP) - GAP) / 2 + col * (BLOCK + GAP);
          const by = oy + 2 + row * (BLOCK + GAP);
          pieceLayer.append(drawBlock(b, bx, by, moving !== null && moving !== undefined && b.own && b.token === moving, sp.id));
        });
      }
      if (last && last.changes && last.changes[sp.id]) {
        g.classList.add("arrived");
        pieceLayer.append(s("circle", { cx: x, cy: y + 14, r: 36, class: "hl-last", "aria-hidden": "true" }));
      }
      const odds = oddsOf(items && items.get(sp.id));
      if (odds !== null) {  // the chance of winning a battle or an Assault here, before the click
        const label = `⚔ ${odds}%`;
        const w = 12 + label.length * 8;
        badges.push(s("g", { class: `hl-odds${odds >= 50 ? " good" : " bad"}`, "aria-hidden": "true" },
          s("rect", { x: x + 12, y: y - 44, width: w, height: 22, rx: 11 }),
          s("text", { x: x + 12 + w / 2, y: y - 28 }, label), s("title", {}, TEXT.odds)));
      }
    }
    pieceLayer.append(...badges);
  }

  return {
    element: root,
    /** Redraw blocks and marks for a view; ``marks``: {targets: Set of ids, verbs, items, selected, last}. */
    update(newView, marks) {
      view = newView;
      verbs = marks.verbs || new Map();
      drawPieces(marks.last, marks.items);
      const targets = marks.targets || new Set();
      for (const [id, g] of groups) {
        const legal = targets.has(id);
        g.classList.toggle("legal", legal);
        g.classList.toggle("selected", marks.selected === id);
        const name = describe(data, view, id);
        if (legal) {
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", `${name} — ${verbs.get(id) || TEXT.choose}`);
        } else {
          g.removeAttribute("tabindex");
          g.removeAttribute("role");
          g.removeAttribute("aria-label");
        }
        let title = g.querySelector(":scope > title");
        if (!title) { title = s("title"); g.prepend(title); }
        title.textContent = name;
      }
    },
    /** Outline an area while its name is hovered in the log. */
    highlight(id, on) { groups.get(id)?.classList.toggle("spotlight", on); },
  };
}

/** Where a stack of ``n`` blocks goes: under its area's name if that is clear of the stacks already ``placed``,
 * and of the boxes to ``avoid``, else the nearest clear place on a widening ring around it (the box is added to
 * ``placed``). */
function stackPlace(n, x, y, placed, avoid = []) {
  const cols = Math.min(PER_ROW, n), rows = Math.ceil(n / PER_ROW);
  const w = cols * (BLOCK + GAP) + 4, h = rows * (BLOCK + GAP) + 6;
  const clear = (cx, cy) => [...placed, ...avoid].every((b) => cx - w / 2 >= b.x + b.w || cx + w / 2 <= b.x || cy >= b.y + b.h || cy + h <= b.y);
  let best = [x, y];
  search: for (let r = 0; r <= 160; r += 12) {
    for (let k = 0; k < (r ? 16 : 1); k++) {
      const a = Math.PI / 2 + (k * Math.PI) / 8;  // downward first, then round the ring
      const cx = x + r * Math.cos(a) * (k % 2 ? -1 : 1), cy = y + r * Math.sin(a);
      if (clear(cx, cy)) { best = [cx, cy]; break search; }
    }
  }
  placed.push({ x: best[0] - w / 2, y: best[1], w, h });
  return best;
}

/** The chance of winning (in per cent) of the first choice here that starts a battle or an Assault (the server's
 * ``chance``, estimated from what the seat knows), or null. */
function oddsOf(list) {
  for (const item of list || []) {
    if (typeof item.chance === "number") return Math.round(item.chance * 100);
  }
  return null;
}

/** Which area or card an action points at: {kind: "space"|"card", id} or null (a button). A choice that names
 * one of the seat's blocks (Build it, board it, supply it, take a hit on it) points at the area where the block
 * stands, so the block is chosen by clicking it on the map. */
export function targetOf(data, action, hand, view) {
  const [verb, arg] = action;
  if (verb === "card" && typeof arg === "number" && hand.includes(arg)) return { kind: "card", id: arg };
  if (typeof arg === "string" && data.byId[arg]) return { kind: "space", id: arg };
  const unit = typeof arg === "string" && view && view.units ? view.units[arg] : null;
  if (unit && unit.area && data.byId[unit.area]) return { kind: "space", id: unit.area };
  if (verb === "place" && typeof arg === "string" && arg.includes("@")) {
    const area = arg.split("@")[1];
    if (data.byId[area]) return { kind: "space", id: area };
  }
  return null;
}

/** The area a decision is about (marked as selected). */
export function selectedSpace(view) {
  const top = (view.stack || [])[view.stack.length - 1] || {};
  return typeof top.area === "string" ? top.area : typeof top.city === "string" ? top.city : null;
}

// --- cards --------------------------------------------------------------------------------------
export function cardTitle(data, n) {
  const c = data.cardsByNumber[n];
  return c ? `#${c.number} ${c.name}` : `card ${n}`;
}

/** What a hand card shows under its name: its Actions. */
export function cardBadge(data, n) { return TEXT.actions(data.cardsByNumber[n].ap); }

export function cardFace(data, n) {
  const c = data.cardsByNumber[n];
  const face = document.createElement("div");
  face.className = `card-face side-${c.side === "athens" ? "blue" : c.side === "sparta" ? "red" : "grey"}`;
  const head = document.createElement("div");
  head.className = "card-face-head";
  for (const [cls, text] of [["no", `#${c.number}`], ["name", c.name], ["ap", TEXT.actions(c.ap)]]) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    head.append(span);
  }
  const side = document.createElement("div");
  side.className = "card-face-side";
  side.textContent = c.side === "any" ? TEXT.anySide : TEXT.onlyFor(TEXT.side[c.side] || c.side);
  const text = document.createElement("p");
  text.className = "card-face-text";
  text.textContent = c.text || "";
  face.append(head, side, text);
  return face;
}

export function cardSeat(data, n) {
  const side = data.cardsByNumber[n]?.side;
  return side === "athens" || side === "sparta" ? side : null;
}

/** The words on a card's menu entry for one of its uses. */
export function cardUseText(data, item) { return item.action[0] === "card" ? TEXT.commit : item.label; }

/** The public discard pile, as [[title, [numbers]]]. */
export function discardPiles(view) { return [[TEXT.discards, view.discard || []]]; }

/** The status line above the map. */
export function statusText(data, st) {
  const v = st.view;
  const season = Number(v.season);
  const phase = st.outcome ? TEXT.gameOver : `${season < 0 ? TEXT.newYear : data.seasons[season]} ${TEXT.bc(v.year)}`;
  return TEXT.status(phase, 431 - Number(v.year) + 1, v.years, st.outcome ? null : TEXT.side[v.first]);
}

// --- tracks ---------------------------------------------------------------------------------------
/** Prestige (Athens left, Sparta right), the season and the year as strips with their markers. */
export function drawTracks(data, view) {
  const W = 304, lim = data.prestige_to_win;
  const p = Math.max(-lim, Math.min(lim, Number(view.prestige || 0)));
  const lead = p === 0 ? TEXT.level : p > 0 ? TEXT.lead(TEXT.side.sparta, p) : TEXT.lead(TEXT.side.athens, -p);
  const season = Number(view.season ?? -1);
  const seasonName = season < 0 ? TEXT.newYear : data.seasons[season];
  const root = s("svg", { viewBox: `0 0 ${W} 108`, class: "tracks-svg", role: "img",
    "aria-label": `${TEXT.prestige} ${lead}, ${seasonName} ${TEXT.bc(view.year)}` });
  const strip = (y, name, lo, hi, value, label, cls, shown = Math.abs(value)) => {
    const x0 = 12, x1 = W - 14, step = (x1 - x0) / (hi - lo);
    const g = s("g", { class: `track ${cls}` },
      s("text", { x: x0 - 6, y: y + 10, class: "track-name" }, `${name}: ${label}`),
      s("rect", { x: x0, y: y + 15, width: x1 - x0, height: 7, rx: 3.5, class: "track-bar" }));
    for (let v = lo; v <= hi; v++) g.append(s("line", { x1: x0 + (v - lo) * step, x2: x0 + (v - lo) * step, y1: y + 15, y2: y + (v === 0 || v === lo || v === hi ? 27 : 22), class: v === 0 ? "tick major" : "tick" }));
    const mx = x0 + (value - lo) * step;
    g.append(s("circle", { cx: mx, cy: y + 18.5, r: 9.5, class: "track-marker" }), s("text", { x: mx, y: y + 23, class: "track-value" }, shown));
    return g;
  };
  root.append(strip(1, TEXT.prestige, -lim, lim, p, lead, p > 0 ? "sparta" : p < 0 ? "athens" : "neutral"));
  root.append(strip(38, TEXT.season, 0, data.seasons.length - 1, Math.max(0, season), seasonName, "neutral", Math.max(0, season) + 1));
  const first = 431, last = first - Number(view.years || 3) + 1;
  root.append(strip(75, TEXT.year, 0, first - last, first - Number(view.year), TEXT.bc(view.year), "neutral", first - Number(view.year) + 1));
  return root;
}

// --- the log ----------------------------------------------------------------------------------------
// Each entry comes as {m: message id, a: arguments, t: its line in the reader's language}: what it is is read
// from m and a, and a heading shows in the reader's language.
const SEASON_WORD = [() => t("Spring"), () => t("Early Summer"), () => t("Late Summer"), () => t("Fall"), () => t("Winter")];
const CARD_LINES = new Set(["{side} plays {card} for its Event.", "{side} plays {card} for its Actions.",
  "{side} New-Year card: {card} as its Event.", "{side} New-Year card: {card} as a Sacrifice."]);
export function classify(e) {
  const a = e.a || {};
  if (e.m === "— New Year {year} BC —") return { level: "round", title: TEXT.bc(a.year) };
  if (e.m === "— {season} {year} BC —") return { level: "phase", title: `${SEASON_WORD[a.season]?.() ?? ""} ${TEXT.bc(a.year)}` };
  if (CARD_LINES.has(e.m)) return { level: "card", side: a.side, card: a.card };
  // a line led by a side ("{side} pillages {city} ...") is that side's
  return { level: null, side: e.m.startsWith("{side") && typeof a.side === "string" ? a.side : null };
}

/** A firing's dice (6.3.1): each d6 on its own, a hit at or under the block's firepower, a rout at or over
 * 7 − firepower (rout 0: routs do not count in a Pursuit or against the defenders of an Assault). */
const FIRE_LINES = new Set(["{block} fires: rolls {rolled}: {hits}, {routs}.", "{block} fires: rolls {rolled}: {hits}.",
  "The Militia of {city} fires: rolls {rolled}: {hits}, {routs}.", "The Militia of {city} fires: rolls {rolled}: {hits}."]);
export function dice(e) {
  if (!FIRE_LINES.has(e.m) || !Array.isArray(e.a?.rolled)) return null;
  const a = e.a;
  return { dice: a.rolled, sides: 6, best: false, sum: false, cannon: false, bands: true, hit: a.hit, rout: a.rout,
    modifier: 0, miss: !(a.hits?.a?.n > 0 || a.routs?.a?.n > 0) };
}

export function playingCard(view) {
  const r = view.revealed || {};
  const seat = view.active || view.seat;
  return seat && typeof r[seat] === "number" ? r[seat] : null;
}
