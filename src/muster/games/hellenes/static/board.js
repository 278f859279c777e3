// The Hellenes board module: our SVG map of Greece and the Aegean drawn from the seat's view.
// Land areas are discs ringed in their holder's colour with the City's name and value; sea zones are
// italic names on the water; the seat's own blocks show their letter, firepower and CV, the enemy's
// stand upright (only the side shows, or what a battle revealed). Words for players live in TEXT.
import { t, tn } from "../../i18n.js";

const NS = "http://www.w3.org/2000/svg";
const SCALE = 1.3;
export const VIEWBOX = { x: 70, y: 70, w: 1290, h: 920 };
export const PHONE_VIEW = { x: 250, y: 380, w: 700, h: 560 };

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
  clickTo: (verb) => t(" — click to {verb}", { verb }),
  get discards() { return t("Discards"); },
  get gameOver() { return t("Game over"); },
};

const COLOUR = { athens: "#2f5d9e", sparta: "#a8322a", neutral: "#6b6b6b" };
const s = (tag, attrs = {}, ...children) => {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

function xy(space) {
  const [lon, lat] = space.xy;
  return [(40 + (lon - 19.4) * 118) * SCALE, (40 + (41.4 - lat) * 140) * SCALE];
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

/** The blocks in an area as this seat sees them: [{side, label, cv, title, own}]. */
function blocksIn(data, view, id) {
  const out = [];
  for (const [bid, u] of Object.entries(view.units || {})) {
    if (u.area !== id) continue;
    const b = data.blocks[bid];
    const where = u.inside ? ` (${TEXT.inCity})` : u.carrier ? ` (${TEXT.aboard})` : "";
    out.push({ side: b.side, label: `${b.letter}${b.fire}`, cv: u.cv, max: b.max_cv, title: TEXT.own(b, u.cv) + where, own: true, token: u.token });
  }
  for (const e of view.enemy || []) {
    if (e.area !== id) continue;
    const known = e.known_as ? data.blocks[e.known_as] : null;
    out.push({ side: e.side, label: known ? `${known.letter}${known.fire}` : "", cv: known ? e.seen : null,
      title: known ? TEXT.seen(known.name, e.seen) : TEXT.upright(TEXT.side[e.side]), own: false, token: e.token });
  }
  return out.sort((a, b) => (a.side < b.side ? -1 : a.side > b.side ? 1 : 0));
}

function drawMapBase(data) {
  const g = s("g", { class: "hl-base", "aria-hidden": "true" });
  g.append(s("rect", { x: VIEWBOX.x, y: VIEWBOX.y, width: VIEWBOX.w, height: VIEWBOX.h, class: "hl-sea" }));
  // land masses: soft overlapping discs under each land area read as coasts around the Aegean
  const land = s("g", { class: "hl-land" });
  for (const sp of data.spaces) {
    if (sp.kind !== "land") continue;
    const [x, y] = xy(sp);
    land.append(s("circle", { cx: x, cy: y, r: 78 }));
  }
  g.append(land);
  // borders: land (dashed), coast (thin), sea lanes (blue; hazardous thick)
  for (const sp of data.spaces) {
    const [x1, y1] = xy(sp);
    const line = (other, cls) => { const [x2, y2] = xy(data.byId[other]); g.append(s("line", { x1, y1, x2, y2, class: cls })); };
    for (const n of sp.land_adj) if (sp.id < n) line(n, "hl-border");
    for (const n of sp.coasts) if (sp.kind === "land") line(n, "hl-coast");
    for (const n of sp.sea_adj) if (sp.id < n) line(n, sp.hazardous.includes(n) ? "hl-lane hazard" : "hl-lane");
  }
  return g;
}

/**
 * Draw the map into ``container``. ``handlers.pick(kind, id, element)`` is called when a legal area is
 * clicked or activated by keyboard; ``handlers.hover(text)`` names what is under the pointer.
 */
export function createBoard(container, data, handlers) {
  data.byId = data.byId || Object.fromEntries(data.spaces.map((sp) => [sp.id, sp]));
  const root = s("svg", { viewBox: `${VIEWBOX.x} ${VIEWBOX.y} ${VIEWBOX.w} ${VIEWBOX.h}`, class: "map hellenes",
    role: "group", "aria-label": TEXT.map, preserveAspectRatio: "xMidYMid meet" });
  root.append(drawMapBase(data));
  const spaceLayer = s("g", { class: "spaces" });
  const pieceLayer = s("g", { class: "pieces", "aria-hidden": "true" });
  root.append(spaceLayer, pieceLayer);
  const groups = new Map();
  for (const sp of data.spaces) {
    const [x, y] = xy(sp);
    const g = s("g", { class: `space hl-${sp.kind}`, "data-space": sp.id, id: `space-${sp.id}` });
    if (sp.kind === "sea") {
      g.append(s("circle", { cx: x, cy: y, r: 30, class: "hl-zone" }),
        s("text", { x, y: y + 5, class: "hl-sea-name" }, sp.name));
    } else {
      g.append(s("circle", { cx: x, cy: y, r: 26, class: "hl-disc" }),
        s("text", { x, y: y - 32, class: "hl-area-name" }, sp.name));
      if (sp.city) {
        g.append(s("text", { x, y: y + 5, class: "hl-city" }, `${sp.city.value}${sp.city.port ? "⚓" : ""}`),
          s("text", { x, y: y + 42, class: "hl-city-name" }, sp.city.name));
      }
    }
    g.append(s("g", { class: "target-mark", transform: `translate(${x + 24} ${y - 22})` }, s("circle", { r: 9 }), s("circle", { r: 3.5, class: "dot" })));
    groups.set(sp.id, g);
    spaceLayer.append(g);
  }

  let view = null;
  let verbs = new Map();
  const activate = (g) => { if (g.classList.contains("legal")) handlers.pick("space", g.dataset.space, g); };
  root.addEventListener("click", (e) => {
    const g = e.target.closest("g.space");
    if (g && !root.dataset.dragged) activate(g);
  });
  root.addEventListener("keydown", (e) => {
    const g = e.target.closest("g.space");
    if (!g) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(g); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!dirs[e.key]) return;
    e.preventDefault();
    const next = nearest(g, dirs[e.key]);
    if (next) next.focus();
  });
  const hoverText = (g) => {
    if (!view) return null;
    const id = g.dataset.space;
    const todo = g.classList.contains("legal") && verbs.get(id) ? TEXT.clickTo(verbs.get(id)) : "";
    return describe(data, view, id) + todo;
  };
  root.addEventListener("pointerover", (e) => { const g = e.target.closest("g.space"); handlers.hover(g ? hoverText(g) : null); });
  root.addEventListener("pointerleave", () => handlers.hover(null));
  root.addEventListener("focusin", (e) => { const g = e.target.closest("g.space"); if (g) handlers.hover(hoverText(g)); });

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

  function drawPieces(last) {
    pieceLayer.replaceChildren();
    for (const sp of data.spaces) {
      const [x, y] = xy(sp);
      const holder = (view.control || {})[sp.id];
      const g = groups.get(sp.id);
      g.classList.remove("held-athens", "held-sparta", "besieged", "pillaged", "arrived");
      if (holder === "athens" || holder === "sparta") g.classList.add(`held-${holder}`);
      const siege = (view.sieges || {})[sp.id];
      if (siege) {
        g.classList.add("besieged");
        pieceLayer.append(s("circle", { cx: x, cy: y, r: 33, class: `hl-siege by-${siege.by}` }));
      }
      if ((view.pillaged || []).includes(sp.id)) {  // a flame-coloured triangle: shape and colour both say it
        pieceLayer.append(s("path", { d: `M${x - 30} ${y - 6} l9 -18 l9 18 z`, class: "hl-pillaged" }));
      }
      const items = blocksIn(data, view, sp.id);
      const per = 4, size = 26, gap = 3;
      items.forEach((b, i) => {
        const row = Math.floor(i / per), col = i % per, inRow = Math.min(per, items.length - row * per);
        const bx = x - (inRow * (size + gap) - gap) / 2 + col * (size + gap);
        const by = y + (sp.kind === "land" && sp.city ? 50 : 36) + row * (size + gap);
        const block = s("g", { class: `hl-block side-${b.side}${b.own ? " own" : " upright"}` },
          s("rect", { x: bx, y: by, width: size, height: size, rx: 3 }));
        if (b.label) block.append(s("text", { x: bx + size / 2, y: by + 11, class: "hl-block-label" }, b.label));
        if (b.cv !== null) block.append(s("text", { x: bx + size / 2, y: by + 23, class: "hl-block-cv" }, b.own ? b.cv : `${b.cv}?`));
        pieceLayer.append(block);
      });
      if (last && last.changes && last.changes[sp.id]) {
        g.classList.add("arrived");
        pieceLayer.append(s("circle", { cx: x, cy: y, r: 38, class: "hl-last" }));
      }
    }
  }

  return {
    element: root,
    /** Redraw blocks and marks for a view; ``marks``: {targets: Set of ids, verbs, selected, last}. */
    update(newView, marks) {
      view = newView;
      verbs = marks.verbs || new Map();
      drawPieces(marks.last);
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

/** Which area or card an action points at: {kind: "space"|"card", id} or null (a button). */
export function targetOf(data, action, hand) {
  const [verb, arg] = action;
  if (verb === "card" && typeof arg === "number" && hand.includes(arg)) return { kind: "card", id: arg };
  if (typeof arg === "string" && data.byId[arg]) return { kind: "space", id: arg };
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

export function dice() { return null; }

export function playingCard(view) {
  const r = view.revealed || {};
  const seat = view.active || view.seat;
  return seat && typeof r[seat] === "number" ? r[seat] : null;
}
