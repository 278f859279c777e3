// Duel's board module: the play shell loads it as the game's board.js and calls the functions below.
// Duel has no map: the "board" is the table (the trick being played) and the tricks each seat has won.
// The shell draws the hand from the view's hands and asks targetOf which choices are cards in it.

const SVG = "http://www.w3.org/2000/svg";
const NAMES = { north: "North", south: "South" };

export const VIEWBOX = { x: 0, y: 0, w: 600, h: 300 };
export const PHONE_VIEW = null;

function s(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = String(text);
  return node;
}

function cardAt(x, y, n, seat) {
  const g = s("g", { class: `duel-card side-${seat}`, "data-card": n });
  g.append(s("rect", { x, y, width: 90, height: 130, rx: 10, fill: "#fff", stroke: "#333" }),
    s("text", { x: x + 45, y: y + 78, "text-anchor": "middle", "font-size": 44 }, n));
  return g;
}

/** The table: the trick in play, then each seat's tricks and cards left. */
export function createBoard(container, data, handlers) {
  const root = s("svg", { viewBox: `${VIEWBOX.x} ${VIEWBOX.y} ${VIEWBOX.w} ${VIEWBOX.h}`, class: "map duel",
    role: "group", "aria-label": "The table" });
  const table = s("g", { class: "table" });
  const score = s("g", { class: "score" });
  root.append(s("rect", { x: 0, y: 0, width: 600, height: 300, fill: "#2d6a3e" }), table, score);
  container.replaceChildren(root);
  return {
    element: root,
    update(view) {
      table.replaceChildren(...(view.table || []).map(([seat, n], k) => cardAt(200 + k * 110, 60, n, seat)));
      score.replaceChildren(...["north", "south"].map((seat, k) => s("text",
        { x: 20, y: 30 + k * 250, fill: "#fff", "font-size": 22, "data-seat": seat },
        `${NAMES[seat]}: ${view.tricks[seat]} tricks`)));
    },
    highlight() {},
  };
}

/** A pick is taken from the hand; a play is a button. */
export function targetOf(data, action, hand) {
  const [verb, arg] = action;
  return verb === "pick" && hand.includes(arg) ? { kind: "card", id: arg } : null;
}

export function selectedSpace() { return null; }

export function cardTitle(data, n) { return `The ${n}`; }
export function cardBadge(data, n) { return String(n); }
export function cardFace(data, n) {
  const face = document.createElement("div");
  face.className = "card-face";
  face.textContent = String(n);
  return face;
}
export function cardSeat() { return null; }
export function cardUseText(data, item) { return item.label; }

/** Every card shown so far. */
export function discardPiles(view) { return [["Played", (view.played || []).map(([, n]) => n)]]; }

export function statusText(data, st) {
  const v = st.view;
  const done = v.tricks.north + v.tricks.south;
  return `Trick ${Math.min(done + 1, v.hand_size)} of ${v.hand_size} · North ${v.tricks.north}, South ${v.tricks.south}`;
}

export function drawTracks(data, view) {
  const root = s("svg", { viewBox: "0 0 300 40", class: "tracks-svg", role: "img",
    "aria-label": `North ${view.tricks.north} tricks, South ${view.tricks.south} tricks` });
  root.append(s("text", { x: 10, y: 25 }, `North ${view.tricks.north} · South ${view.tricks.south}`));
  return root;
}

/** The log: a heading per trick won, each line by its seat. */
export function classify(entry) {
  return { level: null, side: entry.a?.seat ?? null };
}
export function dice() { return null; }
export function playingCard(view) { return view.picked ?? null; }
export function describe() { return ""; }
