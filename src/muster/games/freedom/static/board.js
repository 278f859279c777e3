// Freedom! Messolonghi 1825–1826: the board module of the muster play shell.
// It draws the map from the game's public data (/api/game-data/freedom) and a seat's view, and
// supplies the game's words: card faces, log wording, which map element an action points at.
// The shell (play.js, replay.js) calls only the exported functions below.
import { t, tn } from "../../i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const VIEWBOX = { x: 0, y: 0, w: 1200, h: 900 };
/** Where a phone starts: the Wall and the rows just north of it, fitted to the width. */
export const PHONE_VIEW = { x: 146, y: 300, w: 776, h: 520 };

const SIDE_NAME = { imperial: "Imperial", insurgent: "Insurgent" };
const UNIT = {
  exp: { name: "Expeditionary", plural: "Expeditionary", side: "imperial" },
  ally: { name: "Allied", plural: "Allied", side: "imperial" },
  ins: { name: "Insurgent", plural: "Insurgent", side: "insurgent" },
};
const CANNON = { 1: "an Imperial cannon", 2: "an Insurgent cannon", 3: "the Bombard" }; // ids: t() shows them
const DAMAGE = { 1: "Wall damaged", 2: "Wall destroyed" }; // ids: t() shows them
// the message ids above, listed for the catalog scan
void [t("an Imperial cannon"), t("an Insurgent cannon"), t("the Bombard"), t("Wall damaged"), t("Wall destroyed")];

/** Create an SVG element. */
function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// --- geometry: our own drawing positions (board.json keeps the adjacency) -------------------
const X = (c) => 190 + (c - 1) * 86;
const Y = (r) => 130 + (8 - r) * 78;
const FIXED = {
  camp: [1050, 152, 180, 112], city: [534, 606, 760, 52],
  b1: [X(2), 682, 160, 50], b2: [X(4), 682, 160, 50], b3: [X(6), 682, 160, 50], b4: [X(8), 682, 160, 50],
  c1: [X(1), 762, 160, 56], c2: [X(3), 762, 160, 56], c3: [X(5), 762, 160, 56], c4: [X(7), 762, 160, 56],
  c5: [X(9), 762, 160, 56],
  mar1: [62, 150, 84, 76], mar2: [62, 290, 84, 76], marmarou: [62, 430, 84, 70], mar3: [62, 570, 84, 76],
  mar4: [70, 700, 96, 66],
  vasiladi: [448, 846, 104, 56], vas1: [606, 852, 120, 56],
  kli1: [990, 372, 110, 70], kli2: [1120, 470, 110, 70], klisova: [1040, 600, 110, 72],
  kli3: [1130, 716, 110, 70], kli4: [1060, 830, 110, 62], kli5: [940, 830, 100, 62],
};

function box(space) {
  if (FIXED[space.id]) { const [x, y, w, h] = FIXED[space.id]; return { x, y, w, h }; }
  if (space.kind === "mainland") return { x: X(space.col), y: Y(space.row), w: 80, h: 70 };
  if (space.kind === "wall") return { x: X(space.col), y: 528, w: 86, h: 56 };
  const [x, y] = space.xy;
  return { x, y, w: 80, h: 60 };
}

// --- the drawn map: terrain, the Wall with its bastions, labels ----------------------------
function terrain(data) {
  const g = s("g", { class: "terrain", "aria-hidden": "true" });
  g.append(
    s("rect", { x: -600, y: -400, width: 2400, height: 1700, fill: "#9cc3d5" }), // open lagoon
    // the mainland plain north of the Wall, trench-scarred
    s("path", { d: "M0 0 H1200 V300 C1150 320 1100 300 1060 320 C1000 330 960 400 935 470 L930 560 H126 L118 470 C110 400 112 200 108 0 Z", fill: "#e8dcb5" }),
    s("path", { d: "M108 0 H0 V 80 C 30 90 60 70 108 90 Z", fill: "#e8dcb5" }),
    // the town inside the Wall
    s("path", { d: "M126 556 H930 L920 650 C 800 660 300 662 140 652 Z", fill: "#e9e1cf" }),
    // the beach, then the shallow coast water
    s("path", { d: "M150 652 C 400 664 700 664 918 652 L 940 712 C 700 724 380 724 130 712 Z", fill: "#ecd9a0" }),
    s("path", { d: "M100 722 C 400 736 720 736 960 722 L 980 800 C 720 818 380 818 80 800 Z", fill: "#b9d9e6" }),
  );
  // fields and trench lines of the Ottoman siege works between rows 4 and 6
  const trench = "M150 {y} l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8 l30 -8 l30 8";
  for (const y of [170, 248, 326, 404]) {
    g.append(s("path", { d: trench.replace("{y}", y), fill: "none", stroke: "#b79d64", "stroke-width": 3, "stroke-linejoin": "round", opacity: 0.55 }));
  }
  // the ditch in front of the Wall, and olive groves on the plain
  g.append(s("path", { d: "M140 497 H925", stroke: "#7d8f96", "stroke-width": 7, opacity: 0.55 }));
  for (const [ox, oy] of [[140, 60], [400, 70], [700, 58], [930, 250], [120, 300]]) {
    for (let k = 0; k < 5; k++) g.append(s("circle", { cx: ox + k * 9, cy: oy + (k % 2) * 6, r: 4, fill: "#9aa46a", opacity: 0.6 }));
  }
  // Kütahi's camp: tents
  for (const [tx, ty] of [[985, 118], [1020, 112], [1055, 118], [1090, 112], [1115, 122]]) {
    g.append(s("path", { d: `M${tx - 11} ${ty + 8} L${tx} ${ty - 10} L${tx + 11} ${ty + 8} Z`, fill: "#f3ead2", stroke: "#7a5a2a", "stroke-width": 1.5 }));
  }
  // town houses and a church
  for (let k = 0; k < 22; k++) {
    const hx = 160 + k * 35 + (k % 3) * 4, hy = 572 + (k % 2) * 26;
    if (hx > 440 && hx < 630) continue; // leave the centre to the City space
    g.append(s("rect", { x: hx, y: hy, width: 16, height: 12, fill: "#d8c6a4", stroke: "#a08a64", "stroke-width": 1 }));
  }
  // islands
  for (const id of ["marmarou", "vasiladi", "klisova"]) {
    const { x, y, w, h } = box({ id });
    g.append(s("ellipse", { cx: x, cy: y, rx: w / 2 + 10, ry: h / 2 + 8, fill: "#c9dcb0", stroke: "#7d9a5c", "stroke-width": 2 }));
  }
  g.append(
    s("text", { x: 800, y: 890, class: "map-label water-label" }, t("The Lagoon")),
    s("text", { x: 230, y: 860, class: "map-label water-label" }, t("The Lagoon")),
    s("text", { x: 534, y: 652, class: "map-label town-label" }, t("MESSOLONGHI")),
    s("text", { x: 1050, y: 86, class: "map-label" }, t("Kütahi's Camp")),
  );
  g.append(s("text", { x: 0, y: 0, class: "map-label side-label", transform: `translate(117 ${Y(6)}) rotate(-90)` },
    t("OTTOMAN SIEGE LINES")));
  for (let r = 4; r <= 8; r++) g.append(s("text", { x: 134, y: Y(r) + 6, class: "grid-label" }, r));
  for (let c = 1; c <= 9; c++) g.append(s("text", { x: X(c), y: 88, class: "grid-label" }, c));
  return g;
}

/** The Wall: one rampart of nine sections; forts are bastions jutting north. */
function wallShape(space) {
  const { x, y, w, h } = box(space);
  const l = x - w / 2, r = x + w / 2, t = y - h / 2, b = y + h / 2;
  if (!space.fort) return `M${l} ${t + 8} H${r} V${b} H${l} Z`;
  return `M${l} ${t + 8} H${x - 30} L${x - 22} ${t - 22} L${x} ${t - 34} L${x + 22} ${t - 22} L${x + 30} ${t + 8} H${r} V${b} H${l} Z`;
}

function spaceShape(space) {
  const { x, y, w, h } = box(space);
  if (space.kind === "wall") return s("path", { class: "frame", d: wallShape(space) });
  if (space.kind === "island") return s("ellipse", { class: "frame", cx: x, cy: y, rx: w / 2, ry: h / 2 });
  const rx = space.kind === "water" ? 22 : space.kind === "mainland" ? 4 : 10;
  return s("rect", { class: "frame", x: x - w / 2, y: y - h / 2, width: w, height: h, rx });
}

// --- counters -------------------------------------------------------------------------------
function counter(kind, n, cx, cy) {
  const size = 32, hs = size / 2;
  const g = s("g", { class: `counter ${kind}`, transform: `translate(${cx} ${cy})` });
  if (kind === "exp") { // Expeditionary: a red square with a crescent
    g.append(s("rect", { x: -hs, y: -hs, width: size, height: size, rx: 3, class: "body" }),
      s("path", { d: "M-11 -9 a7 7 0 1 0 8 0 a5.5 5.5 0 1 1 -8 0 Z", class: "emblem" }));
  } else if (kind === "ally") { // Allied (Egyptian): an octagon with a star point
    g.append(s("path", { d: "M-8 -16 H8 L16 -8 V8 L8 16 H-8 L-16 8 V-8 Z", class: "body" }),
      s("path", { d: "M-10 -12 l2 4 l4 0 l-3 3 l1 4 l-4 -2 l-4 2 l1 -4 l-3 -3 l4 0 Z", class: "emblem" }));
  } else { // Insurgent: a blue shield with a cross
    g.append(s("path", { d: "M-16 -16 H16 V4 C16 12 8 16 0 18 C-8 16 -16 12 -16 4 Z", class: "body" }),
      s("path", { d: "M-11 -14 h3 v4 h4 v3 h-4 v4 h-3 v-4 h-4 v-3 h4 Z", class: "emblem" }));
  }
  g.append(s("text", { x: 3, y: 9, class: "count" }, n));
  return g;
}

function cannonIcon(code, cx, cy) {
  const cls = code === 1 ? "imperial" : code === 3 ? "bombard" : "insurgent";
  const g = s("g", { class: `cannon ${cls}`, transform: `translate(${cx} ${cy})` });
  if (code === 3) { // the Bombard: a squat mortar with a B
    g.append(s("path", { d: "M-13 6 L-9 -9 H9 L13 6 Z", class: "barrel" }), s("rect", { x: -15, y: 5, width: 30, height: 6, class: "carriage" }),
      s("text", { x: 0, y: 3, class: "gun-letter" }, "B"));
  } else { // a field gun: barrel on a wheel
    g.append(s("path", { d: "M-15 -3 L12 -9 L14 -3 L-13 3 Z", class: "barrel" }), s("circle", { cx: -3, cy: 5, r: 6, class: "wheel" }));
  }
  return g;
}

function crackIcon(x, y) { // a damaged Wall section
  return s("g", { class: "wall-state damaged", transform: `translate(${x} ${y})` },
    s("circle", { r: 13, class: "badge" }), s("path", { d: "M-2 -10 L3 -3 L-3 1 L3 5 L-1 10", class: "crack" }));
}

function rubbleIcon(x, y) { // a destroyed Wall section: a breach, bricks tumbling out
  return s("g", { class: "wall-state destroyed", transform: `translate(${x} ${y})` },
    s("rect", { x: -14, y: -14, width: 28, height: 28, rx: 5, class: "badge" }),
    s("path", { d: "M-10 -8 h7 v5 h-7 Z M2 -8 h8 v5 h-8 Z M-10 -1 l6 2 l-2 5 l-6 -2 Z M3 2 h7 v5 h-7 Z M-4 6 h5 v4 h-5 Z", class: "rubble" }));
}

function civilians(n, x, y) {
  const g = s("g", { class: "civilians", transform: `translate(${x} ${y})` });
  g.append(s("path", { d: "M-12 -4 L0 -10 L12 -4 L0 2 Z", class: "cube-top" }), s("path", { d: "M-12 -4 L0 2 V16 L-12 10 Z", class: "cube-left" }),
    s("path", { d: "M12 -4 L0 2 V16 L12 10 Z", class: "cube-right" }), s("text", { x: 20, y: 10, class: "count dark" }, n),
    s("text", { x: 24 + 14 * String(n).length, y: 10, class: "civ-label" }, tn("civilian", "civilians", n)));
  return g;
}

// --- what the view says is in a space ---------------------------------------------------------
function contents(view, id) {
  const sp = view.spaces;
  return {
    exp: sp.exp[id] || 0, ally: sp.ally[id] || 0, ins: sp.ins[id] || 0,
    cannon: id === "camp" ? (view.camp_cannons ? 1 : 0) : (sp.cannon[id] || 0), damage: sp.damage[id] || 0,
    campCannons: id === "camp" ? view.camp_cannons : 0, civilians: id === "city" ? view.civilians : 0,
  };
}

/** The space's contents in words ("2 Expeditionary, an Imperial cannon, damaged"). */
export function describe(data, view, id) {
  const space = data.byId[id];
  if (!space) return id;
  const c = contents(view, id);
  const parts = [];
  const units = {
    exp: (n) => tn("{n} Expeditionary unit", "{n} Expeditionary units", n),
    ally: (n) => tn("{n} Allied unit", "{n} Allied units", n),
    ins: (n) => tn("{n} Insurgent unit", "{n} Insurgent units", n),
  };
  for (const kind of ["exp", "ally", "ins"]) if (c[kind]) parts.push(units[kind](c[kind]));
  if (id === "camp" && c.campCannons) parts.push(tn("{n} cannon waiting", "{n} cannons waiting", c.campCannons));
  else if (c.cannon) parts.push(t(CANNON[c.cannon]));
  if (c.civilians) parts.push(tn("{n} civilian", "{n} civilians", c.civilians));
  if (space.kind === "wall") parts.push(c.damage ? t(DAMAGE[c.damage]) : t("Wall intact"));
  return `${space.name}: ${parts.length ? parts.join(", ") : t("empty")}`;
}

// --- the board object -------------------------------------------------------------------------
/**
 * Draw the map into ``container``. ``handlers.pick(kind, id, element)`` is called when a legal
 * space or area is clicked or activated by keyboard; ``handlers.hover(text)`` names what is under
 * the pointer (or null).
 */
export function createBoard(container, data, handlers) {
  data.byId = data.byId || Object.fromEntries(data.spaces.map((sp) => [sp.id, sp]));
  const root = s("svg", { viewBox: `${VIEWBOX.x} ${VIEWBOX.y} ${VIEWBOX.w} ${VIEWBOX.h}`, class: "map",
    role: "group", "aria-label": t("Map of Messolonghi"), preserveAspectRatio: "xMidYMid meet" });
  root.append(s("defs", {},
    s("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      s("path", { d: "M0 0 L10 5 L0 10 Z", class: "arrowhead" })),
    s("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 3, height: 8, fill: "#5d7f95", opacity: 0.35 }))));
  root.append(terrain(data));
  const areaLayer = s("g", { class: "areas" });
  const spaceLayer = s("g", { class: "spaces" });
  const pieceLayer = s("g", { class: "pieces", "aria-hidden": "true" });
  const markLayer = s("g", { class: "marks", "aria-hidden": "true" });
  root.append(areaLayer, spaceLayer, pieceLayer, markLayer);
  const groups = new Map();
  for (const space of data.spaces) {
    const b = box(space);
    const g = s("g", { class: `space ${space.kind}${space.fort ? " fort" : ""}`, "data-space": space.id, id: `space-${space.id}` });
    // the part a finger may hit: a grid space's whole cell, gaps included, and a Wall section up to the
    // trench before it, so touch targets are as large as the drawing allows (docs/web.md gives the sizes)
    const hit = space.kind === "mainland" ? { w: 86, h: 78, dy: 0 } : space.kind === "wall" ? { w: 86, h: 76, dy: -10 } : null;
    if (hit) g.append(s("rect", { class: "hit", x: b.x - hit.w / 2, y: b.y + hit.dy - hit.h / 2, width: hit.w, height: hit.h }));
    g.append(spaceShape(space));
    if (space.kind === "water" && space.thick) g.append(s("rect", { class: "thick", x: b.x - b.w / 2 + 4, y: b.y - b.h / 2 + 4, width: b.w - 8, height: b.h - 8, rx: 18 }));
    if (["wall", "beach", "coast", "water", "island", "camp"].includes(space.kind) && space.id !== "camp") {
      // a Wall section's bastion name sits in a band above its counters, clear of them
      g.append(s("text", { x: b.x, y: b.y - b.h / 2 + (space.kind === "wall" ? 11 : 13), class: "space-label" }, label(space)));
    }
    // the legal-target marker: a ring with a notch, shown with the outline (colour *and* shape)
    g.append(s("g", { class: "target-mark", transform: `translate(${b.x + b.w / 2 - 9} ${b.y - b.h / 2 + 9})` },
      s("circle", { r: 9 }), s("circle", { r: 3.5, class: "dot" })));
    groups.set(space.id, g);
    spaceLayer.append(g);
  }
  const areaGroups = new Map();
  data.areas.forEach((area, k) => {
    const x = 16 + k * 136, y = 8;
    const g = s("g", { class: "area", "data-area": area.id, id: `area-${area.id}` },
      s("rect", { class: "frame", x, y, width: 130, height: 56, rx: 6 }),
      s("rect", { class: "side-band", x: x + 1.5, y: y + 1.5, width: 127, height: 16, rx: 5 }),
      s("text", { x: x + 8, y: y + 14, class: "area-name" }, area.name),
      s("text", { x: x + 122, y: y + 14, class: "area-side" }, ""),
      s("g", { class: "support" }),
      s("g", { class: "target-mark", transform: `translate(${x + 121} ${y + 46})` }, s("circle", { r: 8 }), s("circle", { r: 3, class: "dot" })));
    areaGroups.set(area.id, { g, x, y });
    areaLayer.append(g);
  });

  let view = null;
  let verbs = new Map(); // legal place → what choosing it does, for the hover line
  const activate = (g) => {
    if (!g.classList.contains("legal")) return;
    if (g.dataset.space) handlers.pick("space", g.dataset.space, g);
    else handlers.pick("area", g.dataset.area, g);
  };
  root.addEventListener("click", (e) => {
    const g = e.target.closest("g.space, g.area");
    if (g && !root.dataset.dragged) activate(g);
  });
  root.addEventListener("keydown", (e) => {
    const g = e.target.closest("g.space, g.area");
    if (!g) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(g); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!dirs[e.key]) return;
    e.preventDefault();
    const next = nearest(g, dirs[e.key]);
    if (next) next.focus();
  });
  root.addEventListener("pointerover", (e) => {
    const g = e.target.closest("g.space, g.area");
    handlers.hover(g ? hoverText(g) : null);
  });
  root.addEventListener("pointerleave", () => handlers.hover(null));
  root.addEventListener("focusin", (e) => {
    const g = e.target.closest("g.space, g.area");
    if (g) handlers.hover(hoverText(g));
  });

  function hoverText(g) {
    if (!view) return null;
    const id = g.dataset.space || g.dataset.area;
    const todo = g.classList.contains("legal") && verbs.get(id) ? ` — ${t("click: {what}", { what: verbs.get(id) })}` : "";
    if (g.dataset.space) return describe(data, view, g.dataset.space) + todo;
    const k = data.areas.findIndex((a) => a.id === g.dataset.area);
    const side = t(SIDE_NAME[view.areas.side[k]]);
    const gives = ["imperial", "insurgent"].map((seat) => t("{side} side's reward: {what}.",
      { side: t(SIDE_NAME[seat]), what: data.areas[k].reward_text[seat] })).join(" ");
    return `${data.areas[k].name}: ${t("{side} side up", { side })}, ${tn("{n} support marker", "{n} support markers", view.areas.markers[k])}. ${gives}${todo}`;
  }

  function centre(g) {
    if (g.dataset.space) { const b = box(data.byId[g.dataset.space]); return [b.x, b.y]; }
    const a = areaGroups.get(g.dataset.area); return [a.x + 65, a.y + 28];
  }

  /** The focusable target nearest in a direction (arrow keys move between legal targets). */
  function nearest(from, [dx, dy]) {
    const [fx, fy] = centre(from);
    let best = null, bestScore = Infinity;
    for (const g of root.querySelectorAll("g.legal")) {
      if (g === from) continue;
      const [x, y] = centre(g);
      const along = (x - fx) * dx + (y - fy) * dy;
      if (along <= 0) continue;
      const across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = g; }
    }
    return best;
  }

  function drawPieces() {
    pieceLayer.replaceChildren();
    for (const space of data.spaces) {
      const b = box(space), c = contents(view, space.id);
      const kinds = ["exp", "ally", "ins"].filter((k) => c[k]);
      const gap = 36, cy = space.kind === "wall" ? b.y + 2 : b.y + 4;
      let cx = b.x - ((kinds.length - 1) * gap) / 2 - (c.cannon ? 12 : 0);
      for (const kind of kinds) { pieceLayer.append(counter(kind, c[kind], cx, cy)); cx += gap; }
      if (space.id === "camp") {
        if (c.campCannons) {
          pieceLayer.append(cannonIcon(1, b.x + 60, b.y + 36));
          pieceLayer.append(s("text", { x: b.x + 80, y: b.y + 42, class: "count dark small" }, `×${c.campCannons}`));
        }
      } else if (c.cannon) {
        pieceLayer.append(cannonIcon(c.cannon, kinds.length ? cx - 8 : b.x, kinds.length ? cy : cy));
      }
      if (c.civilians) pieceLayer.append(civilians(c.civilians, b.x - 30, b.y - 4));
      if (space.kind === "wall") {
        const g = groups.get(space.id);
        g.classList.toggle("damaged", c.damage === 1);
        g.classList.toggle("destroyed", c.damage === 2);
        // the badge hangs below the section, clear of its name and counters
        if (c.damage === 1) pieceLayer.append(crackIcon(b.x - 26, b.y + 40));
        if (c.damage === 2) pieceLayer.append(rubbleIcon(b.x - 26, b.y + 40));
      }
    }
    data.areas.forEach((area, k) => {
      const { g, x, y } = areaGroups.get(area.id);
      const side = view.areas.side[k], n = view.areas.markers[k];
      g.classList.toggle("imperial", side === "imperial");
      g.classList.toggle("insurgent", side === "insurgent");
      g.querySelector(".area-side").textContent = side === "imperial" ? t("Imp.") : t("Ins.");
      const support = g.querySelector(".support");
      support.replaceChildren();
      for (let m = 0; m < n; m++) support.append(s("rect", { x: x + 7 + m * 19, y: y + 25, width: 16, height: 16, rx: 2, class: "marker" }));
      support.append(s("text", { x: x + 112, y: y + 44, class: "support-count" }, n));
    });
  }

  function drawMarks(marks) {
    markLayer.replaceChildren();
    const last = marks.last;
    if (!last || !last.actions) return;
    const acts = last.actions;
    for (let k = 0; k + 1 < acts.length; k++) {
      const [verb, arg] = acts[k].action, [verb2, arg2] = acts[k + 1].action;
      if (!["from", "cannon"].includes(verb) || !data.byId[arg] || !data.byId[arg2] || arg === arg2) continue;
      const a = box(data.byId[arg]), b = box(data.byId[arg2]);
      // a strike (attack, raid, shot) leaves nobody in the target: drawn dashed; a move arrives
      const gain = ["exp", "ally", "ins"].some((k) => ((last.changes || {})[arg2] || {})[k] > 0);
      const fire = verb === "cannon" || verb2 === "target" || !gain;
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1, ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
      markLayer.append(s("path", { class: `move-arrow ${acts[k].seat || ""}${fire ? " fire" : ""}`,
        d: `M${a.x + ux * 18} ${a.y + uy * 18} L${b.x - ux * 24} ${b.y - uy * 24}`, "marker-end": "url(#arrowhead)" }));
    }
    // a unit that marched away is not a loss: count the arrows leaving each space
    const leaving = new Map();
    for (let k = 0; k + 1 < acts.length; k++) {
      const [verb, arg] = acts[k].action, [, arg2] = acts[k + 1].action;
      const arrived = ["exp", "ally", "ins"].some((kind) => ((last.changes || {})[arg2] || {})[kind] > 0);
      if (verb === "from" && data.byId[arg2] && arrived) leaving.set(arg, (leaving.get(arg) || 0) + 1);
    }
    for (const [id, delta] of Object.entries(last.changes || {})) {
      const space = data.byId[id];
      if (!space) continue;
      const b = box(space);
      const lost = Math.min(0, ["exp", "ally", "ins"].reduce((n, k) => n + Math.min(0, delta[k] || 0), 0) + (leaving.get(id) || 0));
      const gained = ["exp", "ally", "ins"].reduce((n, k) => n + Math.max(0, delta[k] || 0), 0);
      if (lost < 0) {
        markLayer.append(s("g", { class: "hit-mark", transform: `translate(${b.x + b.w / 2 - 12} ${b.y + b.h / 2 - 12})` },
          s("path", { d: "M0 -15 L4 -5 L14 -8 L7 1 L15 8 L4 7 L0 16 L-4 7 L-15 8 L-7 1 L-14 -8 L-4 -5 Z" }),
          s("text", { x: 0, y: 5 }, lost)));
      } else if (gained > 0) {
        groups.get(id).classList.add("arrived");
      }
      if (delta.damage) groups.get(id).classList.add("arrived");
    }
  }

  return {
    element: root,
    /** Redraw pieces and marks for a view; ``marks``: {targets: Set of ids, selected, last}. */
    update(newView, marks) {
      view = newView;
      verbs = marks.verbs || new Map();
      for (const g of groups.values()) g.classList.remove("arrived");
      drawPieces();
      const targets = marks.targets || new Set();
      for (const [id, g] of [...groups, ...[...areaGroups].map(([id, a]) => [id, a.g])]) {
        const legal = targets.has(id);
        g.classList.toggle("legal", legal);
        g.classList.toggle("selected", marks.selected === id);
        const name = g.dataset.space ? describe(data, view, id) : hoverText(g).split(" — ")[0];
        if (legal) {
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.setAttribute("aria-label", `${name} — ${marks.verbs?.get(id) || "choose"}`);
        } else {
          g.removeAttribute("tabindex");
          g.removeAttribute("role");
          g.removeAttribute("aria-label");
        }
        let title = g.querySelector(":scope > title");
        if (!title) { title = s("title"); g.prepend(title); }
        title.textContent = name;
      }
      drawMarks(marks);
    },
    /** Outline a space while its name is hovered in the log. */
    highlight(id, on) {
      const g = groups.get(id) || areaGroups.get(id)?.g;
      if (g) g.classList.toggle("spotlight", on);
    },
  };
}

// Bastion names as a wargame map prints them: the short form (the full name is the space's name).
const BASTION_LABEL = { w1: "Sahtouris", w2: "Mavromichalis", w3: "Tell", w4: "Byron", w5: "Norman",
  w6: "Botsaris", w7: "Orange", w8: "Skenderbey", w9: "Franklin" };

function label(space) {
  if (space.kind === "wall") return BASTION_LABEL[space.id] || space.short;
  if (space.kind === "water") { const t = space.name.replace(/^(Marmarou|Klisova|Vasiladi) /, ""); return t[0].toUpperCase() + t.slice(1); }
  if (space.kind === "beach") return t("Beach {n}", { n: space.id.slice(1) });
  if (space.kind === "coast") return t("Coast {n}", { n: space.id.slice(1) });
  return space.short || space.name;
}

/** Which map element or card an action points at: {kind: "space"|"area"|"card", id} or null. */
export function targetOf(data, action, hand) {
  const [verb, arg] = action;
  if (typeof arg === "string" && data.byId[arg]) return { kind: "space", id: arg };
  if (typeof arg === "string" && data.areas.some((a) => a.id === arg)) return { kind: "area", id: arg };
  if (typeof arg === "number" && hand.includes(arg) && ["event", "ap", "trigger", "discard", "card", "keep"].includes(verb)) {
    return { kind: "card", id: arg };
  }
  return null;
}

/** The space a decision has already picked (its piece is marked as selected). */
export function selectedSpace(view) {
  const top = (view.stack || [])[view.stack.length - 1] || {};
  return typeof top.src === "string" ? top.src : typeof top.cannon === "string" ? top.cannon : null;
}

// --- cards --------------------------------------------------------------------------------
const SIDE_WORD = { red: "Imperial event", blue: "Insurgent event", grey: "event for either side" }; // ids: t() shows them

export function cardTitle(data, n) {
  const c = data.cardsByNumber[n];
  return c ? `${c.number}${c.deck} ${c.name}` : `card ${n}`;
}

/** A full card face (for hover popovers and the menu). */
export function cardFace(data, n) {
  const c = data.cardsByNumber[n];
  const face = document.createElement("div");
  face.className = `card-face side-${c.side}`;
  const head = document.createElement("div");
  head.className = "card-face-head";
  head.innerHTML = `<span class="no"></span><span class="name"></span><span class="ap"></span>`;
  head.querySelector(".no").textContent = `${c.number}${c.deck}`;
  head.querySelector(".name").textContent = c.name;
  head.querySelector(".ap").textContent = t("{n} AP", { n: c.ap });
  const side = document.createElement("div");
  side.className = "card-face-side";
  side.textContent = c.event ? t(SIDE_WORD[c.side]) : t("no event: play it for AP");
  const text = document.createElement("p");
  text.className = "card-face-text";
  text.textContent = c.text || "";
  face.append(head, side, text);
  if (c.note) {  // the historical note, in the reader's language like the rest of the face
    const note = document.createElement("p");
    note.className = "card-face-note";
    note.textContent = c.note;
    face.append(note);
  }
  return face;
}

/** The side a card's event favours, as a seat ("imperial", "insurgent") or null for grey. */
export function cardSeat(data, n) {
  const side = data.cardsByNumber[n]?.side;
  return side === "red" ? "imperial" : side === "blue" ? "insurgent" : null;
}

// --- tracks -----------------------------------------------------------------------------------
// Tracks in pairs (Imperial left, Insurgent right where both sides have one).
const TRACKS = [
  [["Imperial Morale", (v) => v.tracks.imperial.morale, "morale", "imperial"],
    ["Insurgent Morale", (v) => v.tracks.insurgent.morale, "morale", "insurgent"]],
  [["Imperial Supplies", (v) => v.tracks.imperial.supplies, "supplies", "imperial"],
    ["Insurgent Supplies", (v) => v.tracks.insurgent.supplies, "supplies", "insurgent"]],
  [["Imperial Preparation", (v) => v.tracks.imperial.preparation, "preparation", "imperial"],
    ["Insurgent Preparation", (v) => v.tracks.insurgent.preparation, "preparation", "insurgent"]],
  [["Money", (v) => v.tracks.imperial.money, "money", "imperial"],
    ["Pressure", (v) => v.tracks.insurgent.pressure, "pressure", "insurgent"]],
  [["Plea", (v) => v.tracks.imperial.plea, "imperial_plea", "imperial"],
    ["Population", (v) => v.tracks.insurgent.population, "population", "insurgent"]],
  [["Round", (v) => v.round, [1, 6], null]],
];

/** Every track as a numbered strip with its marker (an SVG for the side panel). */
export function drawTracks(data, view) {
  const W = 304, rowH = 36, colW = 150; // a row: the name, then below it the bar with its marker (never over the name)
  const all = TRACKS.flat();
  const root = s("svg", { viewBox: `0 0 ${W} ${TRACKS.length * rowH + 4}`, class: "tracks-svg", role: "img",
    "aria-label": all.map(([name, get]) => `${t(name)} ${trackValue(get(view))}`).join(", ") });
  TRACKS.forEach((pair, row) => pair.forEach(([name, get, range, side], col) => {
    const [lo, hi] = Array.isArray(range) ? range : data.tracks[range];
    const raw = get(view), value = typeof raw === "number" ? raw : lo;
    const width = pair.length === 1 ? W - 4 : colW - 8;
    const y = row * rowH + 1, x0 = col * (colW + 4) + 10, x1 = x0 + width - 22, step = (x1 - x0) / (hi - lo);
    const g = s("g", { class: `track ${side || "neutral"}` });
    let label = t(name);
    if (name === "Round") label = t("Round {n} of {total} · Period {period}", { n: view.round, total: hi, period: view.round >= data.period_b_from_round ? "B" : "A" });
    if (name === "Pressure" && raw < 0) label += ` · ${t("helped")}`;
    g.append(s("text", { x: x0 - 8, y: y + 10, class: "track-name" }, label),
      s("rect", { x: x0, y: y + 20, width: x1 - x0, height: 7, rx: 3.5, class: "track-bar" }));
    const major = hi - lo > 12 ? 5 : 1;
    for (let v = lo; v <= hi; v++) {
      const big = (v - lo) % major === 0;
      g.append(s("line", { x1: x0 + (v - lo) * step, x2: x0 + (v - lo) * step, y1: y + 20, y2: y + (big ? 31 : 27), class: big ? "tick major" : "tick" }));
    }
    if (name === "Round") {
      for (let v = lo; v <= hi; v++) g.append(s("text", { x: x0 + (v - lo) * step, y: y + 36, class: "track-max", "text-anchor": "middle" }, v));
    }
    const mx = x0 + (Math.max(lo, Math.min(hi, value)) - lo) * step;
    g.append(s("circle", { cx: mx, cy: y + 23.5, r: 9.5, class: "track-marker" }),
      s("text", { x: mx, y: y + 28, class: "track-value" }, trackValue(raw)),
      name === "Round" ? null : s("text", { x: x1 + 20, y: y + 28, class: "track-max" }, hi));
    root.append(g);
  }));
  return root;
}

function trackValue(v) { return typeof v === "number" && v >= 0 ? v : "✓"; }

// --- the log: structure and dice, read from each entry's message id and arguments ---------------
// An entry is {m: message id, a: arguments, t: the line in the reader's language}; nothing is read out of t.
const HEADINGS = {
  "Setup ({edition} edition rules). Round 1 begins: Period A.": () => ({ level: "round", round: 1, keep: true }),
  "Round {n} begins.": (a) => ({ level: "round", round: a.n }),
  "Opening of round {n}.": () => ({ level: "phase", title: "Opening" }),
  "Action phase: {side} player starts (Morale {imp} vs {ins}).": () => ({ level: "phase", title: "Action phase", keep: true }),
  "Cannons phase.": () => ({ level: "phase", title: "Cannon fire" }),
  "Replenishment phase.": () => ({ level: "phase", title: "Replenishment" }),
  "Round {n} ends.": () => ({ level: "phase", title: "End of the round" }),
  "Game over: {winner.gen} victory. {detail}": () => ({ level: "phase", title: "Game over", keep: true }),
  "Period B: Ibrahim arrives with Egyptian troops and ships.": () => ({ level: "phase", title: "Period B", keep: true }),
  "{side} draws {n} card from deck {deck}.": (a) => ({ level: "phase", title: "Administration", keep: true, side: a.side }),
};
const CARD_LINES = new Set(["{side} plays {card} as an event.", "{side} plays {card} for {n} AP.",
  "{side} discards {card} to use the event of {other_card}."]);
const WALL_SIDE = { "{space} is damaged.": "imperial", "{space} is destroyed.": "imperial",
  "{space} is repaired: now {state}.": "insurgent", "{space} is repaired: now intact.": "insurgent",
  "{space} is repaired: now damaged.": "insurgent" };

/** The side an entry is about: its side argument, else the side its message names (a message about one side
 * only, such as "Imperial reward from {area}: {got}."), else the side that damages or repairs the Wall. */
function sideOfEntry(e) {
  const a = e.a || {};
  const seat = a.side ?? a.winner;
  if (seat === "imperial" || seat === "insurgent") return seat;
  const named = ["Imperial", "Insurgent"].map((w) => [w, e.m.indexOf(w)]).filter(([, at]) => at >= 0);
  if (named.length) return named.sort((x, y) => x[1] - y[1])[0][0].toLowerCase();
  return WALL_SIDE[e.m] || null;
}

/**
 * What a log entry is: {level: "round"|"phase"|"card"|null, side, title}. Rounds, then phases, then
 * the card a side plays head the groups; every other line is an effect of the heading above it.
 */
export function classify(e) {
  const heading = HEADINGS[e.m];
  if (heading) return { side: null, ...heading(e.a || {}) };
  if (CARD_LINES.has(e.m)) return { level: "card", side: e.a.side, card: e.a.card };
  return { level: null, side: sideOfEntry(e) };
}

const TRACK_LINE = "{side} {track} {old} → {new}.";
const CAUSE_LINES = new Set(["Imperial reward from {area}: {got}.", "Insurgent reward from {area}: {got}.",
  "Imperial pays {paid} of {cost} Money upkeep.", "Imperial pays {paid} of {cost} Supplies upkeep.",
  "Insurgent pays {paid} of {cost} Supplies upkeep."]);

/** Put causes before their effects: the engine writes a reward's track changes before the reward. */
export function reorder(entries) {
  const out = [];
  let run = [];
  for (const e of entries) {
    if (e.m === TRACK_LINE) { run.push(e); continue; }
    if (CAUSE_LINES.has(e.m) && run.length) { out.push(e, ...run); run = []; continue; }
    out.push(...run, e);
    run = [];
  }
  return out.concat(run);
}

const modifier = (text) => Number(String(text || "").replace(/[^\d+-]/g, "")) || 0;

/** Dice rolled by an entry: attacks and Raids roll d8 (rule 6.2), cannons 2d6 each die on its own (rule 7),
 * the Government check and the Plea for Funds 2d6 plus a track. */
const DICE = {
  "Imperial attack from {src} on {dst}: rolls {dice}, best {best}{mod}, needs {need}: {result}.": (a) => ({
    dice: a.dice, best: true, modifier: modifier(a.mod), need: a.need, miss: a.result !== "hit", sides: 8 }),
  "Insurgent attack from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.": (a) => ({
    dice: [a.die], modifier: modifier(a.mod), need: a.need, miss: a.result !== "hit", sides: 8 }),
  "Insurgent raid from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.": (a) => ({
    dice: [a.die], modifier: modifier(a.mod), need: a.need, miss: a.result !== "hit", sides: 8 }),
  "{side} cannon in {src} fires at {dst}: rolls {dice}{extra}, needs {need}: {result}.": (a) => ({
    dice: a.dice, cannon: true, modifier: a.extra?.a?.n ?? 0, need: a.need, miss: a.result?.m === "no hit", sides: 6 }),
  // the Porte grants a Plea below 12 (2d6 + Plea); the Government answers at 12 or more (2d6 + Pressure)
  "Plea for Funds: rolls {rolled} + {track} = {total}: {verdict}.": (a) => ({
    dice: a.rolled, sum: true, modifier: a.track, total: a.total, track: "Plea", need: 12, below: true,
    miss: a.verdict !== "granted", sides: 6 }),
  "Government check: rolls {rolled} + {track} = {total}: help arrives!": (a) => ({
    dice: a.rolled, sum: true, modifier: a.track, total: a.total, track: "Pressure", need: 12, miss: false, sides: 6 }),
  "Government check: rolls {rolled} + {track} = {total}: no answer.": (a) => ({
    dice: a.rolled, sum: true, modifier: a.track, total: a.total, track: "Pressure", need: 12, miss: true, sides: 6 }),
};

/** The dice an entry rolled, {dice: [n...], sides, best, sum, cannon, modifier, need, total, miss}, or null. */
export function dice(e) {
  const read = DICE[e.m];
  return read ? { best: false, sum: false, cannon: false, ...read(e.a || {}) } : null;
}

/** The card whose action points are being spent now (shown beside the prompt), or null. */
export function playingCard(view) {
  const stack = view.stack || [];
  for (let k = stack.length - 1; k >= 0; k--) {
    if (stack[k].kind === "ap" && typeof stack[k].card === "number") return stack[k].card;
  }
  return null;
}

/** The card whose event a discard would trigger now (the opponent's card just played for AP), or null. */
export function triggeredCard(view) {
  return typeof view.trigger?.card === "number" ? view.trigger.card : null;
}

/** The map box of a space or an area tile ({x, y, w, h}, top-left corner), or null: the phone's map pans to
 * show every legal target of a new decision. */
export function targetBox(data, id) {
  const space = data.byId?.[id];
  if (space) { const b = box(space); return { x: b.x - b.w / 2, y: b.y - b.h / 2, w: b.w, h: b.h }; }
  const k = data.areas.findIndex((a) => a.id === id);
  return k >= 0 ? { x: 16 + k * 136, y: 8, w: 130, h: 56 } : null;
}

/**
 * How the tracks that decide the game moved, read from the log's entries: both Morale tracks, as
 * [{name, side, start, points: [[entry index, value]]}], with the entry indices where rounds begin.
 */
export function trackHistory(entries, view) {
  const series = [["Imperial", "imperial"], ["Insurgent", "insurgent"]].map(([who, side]) => ({
    name: `${who} Morale`, side, points: [] }));
  const rounds = [];
  entries.forEach((e, k) => {
    const heading = HEADINGS[e.m];
    if (heading && heading(e.a || {}).level === "round") rounds.push(k);
    if (e.m !== TRACK_LINE || e.a.track !== "Morale") return;
    const s = series.find((x) => x.side === e.a.side);
    if (!s) return;
    if (!s.points.length) s.points.push([0, e.a.old]);
    s.points.push([k, e.a.new]);
  });
  for (const s of series) {
    const now = view.tracks?.[s.side]?.morale;
    if (!s.points.length && typeof now === "number") s.points.push([0, now]);
    if (typeof now === "number") s.points.push([entries.length, now]);
  }
  return { series, rounds, length: entries.length, range: [0, 20],
    caption: t("Morale over the game; the vertical lines mark the rounds.") };
}

// --- the shell's words for this game ------------------------------------------------------------
/** The status line above the map: the round and period, the phase, and in the Action phase whose card it is. */
export function statusText(data, s) {
  const period = s.round >= data.period_b_from_round ? "B" : "A";
  let text = `${t("Round {n} of {total} · Period {period}", { n: s.round, total: data.rounds, period })}${s.outcome ? "" : ` · ${t(s.phase)}`}`;
  if (!s.outcome && s.phase === "Action phase" && s.active_seat && s.view.played) {
    const played = s.view.played[s.active_seat] + (playingCard(s.view) === null ? 1 : 0);
    const side = data.seats[s.active_seat]?.name || s.active_seat;
    text += ` · ${t("{side}: card {n} of {total}", { side, n: Math.max(1, Math.min(played, data.cards_per_phase)), total: data.cards_per_phase })}`;
  }
  return text;
}

/** The menu entry of hand card ``n`` for one of its uses: "Play the event" with the event's words, "Use for 3 AP",
 * or the server's label (a trigger shows the text of the event it uses). */
export function cardUse(data, item, view, n) {
  const [verb] = item.action;
  const c = data.cardsByNumber[n];
  const text = verb === "event" ? t("Play the event") : verb === "ap" && c ? t("Use for {n} AP", { n: c.ap }) : item.label;
  const triggered = verb === "trigger" ? triggeredCard(view) : null;
  const hint = verb === "event" && c ? c.text : triggered ? data.cardsByNumber[triggered]?.text || item.hint : item.hint;
  return { text: text.charAt(0).toUpperCase() + text.slice(1), hint };
}

/** What a hand card shows beside its name: its Action Points. */
export function cardBadge(data, n) { return t("{n} AP", { n: data.cardsByNumber[n].ap }); }

/** The discard piles, one per deck, as [[title, [numbers]]]. */
export function discardPiles(view) {
  return Object.entries(view.discards || {}).map(([deck, list]) => [t("Deck {deck}", { deck }), list]);
}

/** How the opponent's last card was played, after its name ("as its event"), by the verb that played it. */
export function playedHow(verb) {
  return verb === "event" ? t("as its event") : verb === "ap" ? t("for its AP") : verb === "trigger" ? t("to trigger an event") : "";
}
