// The game page: one seat's view, live over a websocket, with the legal choices clickable.
import { SEAT_NAME, api, cardFace, el, isDice, rememberSeat, renderLegend } from "./common.js";

const token = decodeURIComponent(location.pathname.split("/").pop());
let state = null; // the newest state message
let log = []; // every log line so far
let socket = null;
let pending = false; // an action is on its way: ignore further clicks until the answer
let nextId = 1;

const $ = (id) => document.getElementById(id);
renderLegend($("legend"));

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

function send(message) {
  // Prefer the websocket; fall back to HTTP when it is down.
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ ...message, id: nextId++ }));
    return;
  }
  const path = message.type === "undo" ? "undo" : "action";
  api(`/api/seat/${encodeURIComponent(token)}/${path}`, message)
    .then(() => fetchState())
    .catch((err) => { pending = false; showError(err.message); fetchState(); });
}

function choose(action) {
  if (pending || !state) return;
  pending = true;
  showError("");
  send({ type: "action", version: state.version, action });
}

/** Legal actions grouped by what they point at: a space, an area, or a card. */
function groupLegal(legal) {
  const bySpace = new Map(), byArea = new Map(), byCard = new Map();
  const spaces = new Set([...document.querySelectorAll("#board g.space")].map((g) => g.dataset.space));
  const areas = new Set([...document.querySelectorAll("#board g.area")].map((g) => g.dataset.area));
  const hand = new Set((state.hand || []).map((c) => c.number));
  for (const item of legal) {
    const [verb, arg] = item.action;
    const target = typeof arg === "string" && spaces.has(arg) ? bySpace
      : typeof arg === "string" && areas.has(arg) ? byArea
        : typeof arg === "number" && hand.has(arg) && ["event", "ap", "trigger", "discard", "card"].includes(verb)
          ? byCard : null;
    if (target) {
      if (!target.has(arg)) target.set(arg, []);
      target.get(arg).push(item);
    }
  }
  return { bySpace, byArea, byCard };
}

function renderActions(items, title) {
  const box = $("actions");
  const buttons = items.map((item) => el("button", {
    type: "button", class: "action", "data-verb": item.action[0], "data-arg": item.action[1] ?? "",
    onclick: () => choose(item.action),
  }, item.label));
  box.replaceChildren(...(title ? [el("div", { class: "muted" }, title)] : []), ...buttons);
}

let boardGroups = { bySpace: new Map(), byArea: new Map() };

function renderBoard() {
  // The server sends the drawing only when it changed (svg null: keep the one shown).
  if (state.svg) $("board").innerHTML = state.svg;
  boardGroups = groupLegal(state.legal);
  for (const g of document.querySelectorAll("#board g.legal")) g.classList.remove("legal");
  for (const g of document.querySelectorAll("#board g.space")) {
    if (boardGroups.bySpace.has(g.dataset.space)) g.classList.add("legal");
  }
  for (const g of document.querySelectorAll("#board g.area")) {
    if (boardGroups.byArea.has(g.dataset.area)) g.classList.add("legal");
  }
}

// One listener for the whole board: a click on a highlighted space or area takes its choice.
$("board").addEventListener("click", (event) => {
  const g = event.target.closest("g.space.legal, g.area.legal");
  if (!g) return;
  const items = g.dataset.space !== undefined ? boardGroups.bySpace.get(g.dataset.space)
    : boardGroups.byArea.get(g.dataset.area);
  if (!items) return;
  if (items.length === 1) choose(items[0].action);
  else renderActions(items, "Choose for this place:");
});

function renderHand() {
  const { byCard } = groupLegal(state.legal);
  const cards = state.hand.map((card) => {
    const items = byCard.get(card.number) || [];
    const buttons = items.map((item) => el("button", {
      type: "button", class: "card-action", "data-verb": item.action[0], onclick: () => choose(item.action),
    }, item.action[0] === "ap" ? `Play for ${card.ap} AP` : item.action[0] === "event" ? "Play the event"
      : item.action[0] === "trigger" ? "Discard to use the event" : item.label));
    const face = cardFace(card, buttons);
    if (items.length) face.classList.add("legal");
    return face;
  });
  $("hand").replaceChildren(...(cards.length ? cards : [el("p", { class: "muted" }, "no cards")]));
  const other = state.seat === "imperial" ? "insurgent" : "imperial";
  $("opponent-hand").textContent = `${SEAT_NAME[other]} holds ${state.hand_counts[other]} card(s).`;
  const piles = Object.entries(state.discards).map(([deck, list]) => el("div", {},
    el("strong", {}, `Deck ${deck}: `), list.length ? list.map((c) => `${c.number}${c.deck} ${c.name}`).join(", ")
      : "empty"));
  $("discards").replaceChildren(...piles);
}

function renderLog(fresh) {
  const ol = $("log");
  ol.replaceChildren(...log.slice(-300).map((line) => el("li", { class: isDice(line) ? "dice-line" : "" }, line)));
  ol.scrollTop = ol.scrollHeight;
  // New dice as they happen; on a (re)load, the most recent roll of the game so far.
  let dice = fresh.filter(isDice);
  if (fresh.length === 0 && $("dice").classList.contains("muted")) dice = log.filter(isDice).slice(-1);
  if (dice.length) {
    $("dice").classList.remove("muted");
    $("dice").replaceChildren(...dice.map((line) => el("div", { class: "dice-line flash" }, line)));
  }
}

function render(fresh) {
  const s = state;
  const turn = s.outcome ? "game over" : s.active_seat === s.seat ? "your turn"
    : `${SEAT_NAME[s.active_seat]}'s turn`;
  const other = s.seat === "imperial" ? "insurgent" : "imperial";
  const opponent = s.seats[other].kind === "bot" ? `${s.seats[other].bot} bot` : "a person";
  $("status").textContent = `You: ${SEAT_NAME[s.seat]} (vs ${opponent}) · Round ${s.round} · ${s.phase} · ${turn}`
    + ` · step ${s.step}`;
  $("status").dataset.version = s.version;
  $("prompt").textContent = s.prompt;
  renderBoard();
  renderHand();
  renderActions(s.legal, s.legal.length ? "" : null);
  $("undo").hidden = !s.can_undo;
  renderLog(fresh);
  document.body.classList.toggle("my-turn", s.legal.length > 0);
  // The tab's title says when it is my turn, for players who keep the game open in the background.
  document.title = `${s.legal.length ? "● Your turn · " : ""}${SEAT_NAME[s.seat]} · muster`;
}

function onState(message) {
  log = log.slice(0, message.log_from).concat(message.log);
  const fresh = message.log_from > 0 ? message.log : [];
  state = { ...message, log: undefined };
  pending = false;
  render(fresh);
}

async function fetchState() {
  try {
    const message = await api(`/api/seat/${encodeURIComponent(token)}`);
    onState(message);
  } catch (err) {
    showError(err.message);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => { $("connection").textContent = "live"; $("connection").className = "connection live"; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") onState(message);
    else if (message.type === "error") {
      pending = false;
      showError(message.error);
      if (message.code === "stale") socket.send(JSON.stringify({ type: "sync" }));
    }
  });
  socket.addEventListener("close", (event) => {
    $("connection").textContent = "offline";
    $("connection").className = "connection";
    if (event.code >= 4400 && event.code < 4600) { showError(event.reason || "This seat cannot be opened."); return; }
    setTimeout(connect, 1000); // come back on our own after a server restart or a network blip
  });
}

$("undo").addEventListener("click", () => {
  if (!state || pending) return;
  pending = true;
  send({ type: "undo", version: state.version });
});

api(`/api/seat/${encodeURIComponent(token)}`).then((message) => {
  rememberSeat({ token, game_id: message.game_id, seat: message.seat });
  $("replay-link").href = `/replay/${message.game_id}?token=${encodeURIComponent(token)}`;
  $("export-link").href = `/api/games/${message.game_id}/export?token=${encodeURIComponent(token)}`;
}).catch((err) => showError(err.message));
connect();
