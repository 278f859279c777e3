// Shared helpers of the muster pages: API calls, remembered seats, small DOM builders.

export const SEAT_NAME = { imperial: "Imperial", insurgent: "Insurgent" };

/** Call the JSON API; throws an Error carrying the server's message on failure. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.code = data.code;
    throw err;
  }
  return data;
}

/** Seats this browser holds: [{token, game_id, seat}] (tokens never leave this browser except to us). */
export function rememberedSeats() {
  try { return JSON.parse(localStorage.getItem("muster.seats") || "[]"); } catch { return []; }
}

export function rememberSeat(entry) {
  const seats = rememberedSeats().filter((s) => s.token !== entry.token);
  seats.unshift(entry);
  localStorage.setItem("muster.seats", JSON.stringify(seats.slice(0, 200)));
}

/** Bot-only games this browser started, to watch and replay. */
export function watchedGames() {
  try { return JSON.parse(localStorage.getItem("muster.watched") || "[]"); } catch { return []; }
}

export function rememberWatched(gameId) {
  const games = watchedGames().filter((g) => g !== gameId);
  games.unshift(gameId);
  localStorage.setItem("muster.watched", JSON.stringify(games.slice(0, 200)));
}

/** Create an element: el("div", {class: "x"}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The board's key: (marker class, label) pairs, shown under the board on the game and replay pages. */
const LEGEND = [
  ["sw exp", "Expeditionary"], ["sw ally", "Allied"], ["sw ins", "Insurgent"], ["tri", "cannon"],
  ["tri bombard", "Bombard"], ["civ", "civilians"], ["wall dmg", "damaged Wall"],
  ["wall gone", "destroyed Wall"], ["fort", "fort"], ["legal-box", "your choices"],
];

/** Fill ``container`` with the board's key. */
export function renderLegend(container) {
  container.replaceChildren(...LEGEND.map(([marker, label]) => el("span", {}, el("i", { class: marker }), label)));
}

/** A card face: number and deck, name, AP, side colour and text. */
export function cardFace(card, buttons = []) {
  return el("div", { class: `card side-${card.side}`, "data-card": card.number },
    el("div", { class: "card-head" }, el("span", { class: "card-no" }, `${card.number}${card.deck}`),
      el("span", { class: "card-name" }, card.name), el("span", { class: "card-ap" }, `${card.ap} AP`)),
    el("div", { class: "card-side" }, card.event ? `event: ${card.side}` : "no event"),
    el("div", { class: "card-text" }, card.text || ""),
    buttons.length ? el("div", { class: "card-buttons" }, ...buttons) : null);
}

/** Highlight log lines that report dice. */
export function isDice(line) {
  return /\brolls?\b/i.test(line);
}
