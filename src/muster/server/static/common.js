// Shared helpers of the muster pages: API calls, remembered seats, small DOM builders.
import { t } from "./i18n.js";

/** A seat's name in the reader's language from the catalogs' ``side:<seat>`` (every game names its seats there),
 * else the seat's id, capitalised. */
export function sideName(seat) {
  const key = `side:${seat}`;
  const word = t(key);
  return word !== key ? word : String(seat || "").charAt(0).toUpperCase() + String(seat || "").slice(1);
}

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

/** A game's public data and its board module (loaded once per page). */
export async function loadGame(name) {
  const [data, mod] = await Promise.all([api(`/api/game-data/${encodeURIComponent(name)}`),
    import(`/static/games/${encodeURIComponent(name)}/board.js`)]);
  data.byId = Object.fromEntries((data.spaces || []).map((sp) => [sp.id, sp])); // a game may have no map spaces
  data.cardsByNumber = Object.fromEntries((data.cards || []).map((c) => [c.number, c])); // or no cards
  return { data, mod };
}

/** Who plays a seat, in words ("Anna", "the Strongest bot", "a person"). */
export function playerText(info) {
  if (!info) return "";
  if (info.kind === "bot") return t("the {level} bot", { level: t(info.level || info.bot) });
  if (info.taken === false) return t("the person invited (not joined yet)");
  return info.name || t("a person");
}
