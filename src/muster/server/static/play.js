// The play shell: one seat's game, live over a websocket. It knows nothing of any one game: the
// board module of the game (/static/games/<game>/board.js, from the game's static folder) draws the map
// and supplies the words; docs/web-games.md lists what a board module exports.
import { api, el, loadGame, playerText, rememberSeat } from "./common.js";
import { historyChart } from "./history.js";
import { cardLink, enableCardFaces } from "./cards.js";
import { latestDice, renderLog, richText } from "./log.js";
import { enableZoom } from "./zoom.js";
import { rematchWithPerson } from "./table.js";
import { setupLanguage, t, tn } from "./i18n.js";
import { clockPanel } from "./clock.js";

const token = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const phone = window.matchMedia("(max-width: 760px)");
let game = null; // {data, mod}
let board = null;
let zoom = null;
let state = null; // the newest state message
let log = []; // every log entry so far ({m, a, t}: see log.js)
let socket = null;
let gameId = ""; // the game's id, known once the first state arrives
let pending = false; // an action is on its way: ignore further clicks until the answer
let nextId = 1;
let wasMyTurn = false;
let groups = { space: new Map(), area: new Map(), card: new Map(), other: [] };
let clock = null; // the game clock (clock.js), once the game is loaded

const seatName = (seat) => game?.data.seats[seat]?.name || seat;
const other = (seat) => Object.keys(game.data.seats).find((s) => s !== seat);

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
  closeMenu();
  if (document.body.classList.contains("hand-open")) { // a card chosen: the drawer gives the map back
    document.body.classList.remove("hand-open");
    $("hand-toggle").setAttribute("aria-expanded", "false");
  }
  pending = true;
  showError("");
  send({ type: "action", version: state.version, action });
}

// --- menus: a card's uses, or the choices of one space -----------------------------------------
let menuAnchor = null;

function closeMenu() {
  const menu = $("card-menu");
  if (menu.hidden) return;
  menu.hidden = true;
  menu.replaceChildren();
  if (menuAnchor && document.contains(menuAnchor)) menuAnchor.setAttribute("aria-expanded", "false");
  menuAnchor = null;
}

function placeMenu(menu, anchor) {
  const r = anchor.getBoundingClientRect();
  const w = Math.min(340, window.innerWidth - 16);
  menu.style.width = `${w}px`;
  menu.style.left = `${Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8)}px`;
  const h = menu.offsetHeight;
  const above = r.top - h - 6;
  menu.style.top = `${above >= 8 ? above : Math.min(r.bottom + 6, window.innerHeight - h - 8)}px`;
}

/** A small menu next to ``anchor``: each item is a legal action with one line on what it does. */
function openMenu(anchor, title, items, face) {
  const menu = $("card-menu");
  closeMenu();
  menuAnchor = anchor;
  anchor.setAttribute("aria-expanded", "true");
  const buttons = items.map((item) => el("button", { type: "button", class: "menu-item",
    "data-verb": item.action[0], onclick: () => (item.confirm ? confirmStep(anchor, item) : choose(item.action)) },
  el("span", { class: "menu-label" }, item.text), item.hint ? el("span", { class: "menu-hint" }, item.hint) : null,
  item.effect ? el("span", { class: "menu-effect" }, item.effect) : null,
  item.confirm ? el("span", { class: "menu-warn" }, "asks once more before it is final") : null));
  menu.replaceChildren(...(face ? [face] : [el("p", { class: "menu-title" }, title)]), ...buttons,
    el("button", { type: "button", class: "menu-cancel", onclick: () => { closeMenu(); anchor.focus(); } }, t("Cancel")));
  menu.setAttribute("aria-label", title);
  menu.hidden = false;
  placeMenu(menu, anchor);
  buttons[0]?.focus();
}

/** A single choice that cannot be undone: straight to the question, beside what was clicked. */
function askFirst(anchor, item) {
  openMenu(anchor, item.label, [{ ...item, text: item.label }]);
  confirmStep(anchor, { ...item, text: item.label });
}

/** Principle: warn before the costly click. The same menu asks once more, in words. */
function confirmStep(anchor, item) {
  const menu = $("card-menu");
  const yes = el("button", { type: "button", class: "menu-item danger", "data-confirm": "yes",
    onclick: () => choose(item.action) }, el("span", { class: "menu-label" }, t("Yes: {choice}", { choice: `${item.text.charAt(0).toLowerCase()}${item.text.slice(1)}` })));
  menu.replaceChildren(el("p", { class: "menu-warning", role: "alert" }, item.confirm), yes,
    el("button", { type: "button", class: "menu-cancel", onclick: () => { closeMenu(); anchor.focus(); } }, t("No, go back")));
  placeMenu(menu, anchor);
  yes.focus();
}

$("card-menu").addEventListener("keydown", (e) => {
  const items = [...$("card-menu").querySelectorAll("button")];
  const k = items.indexOf(document.activeElement);
  if (e.key === "Escape") { const a = menuAnchor; closeMenu(); a?.focus(); }
  else if (e.key === "ArrowDown") { e.preventDefault(); items[(k + 1) % items.length].focus(); }
  else if (e.key === "ArrowUp") { e.preventDefault(); items[(k - 1 + items.length) % items.length].focus(); }
});
document.addEventListener("pointerdown", (e) => {
  if (!e.target.closest("#card-menu") && !e.target.closest(".hand-card") && !e.target.closest("g.legal")) closeMenu();
});

// --- legal actions grouped by where they are taken ---------------------------------------------
function groupLegal() {
  const out = { space: new Map(), area: new Map(), card: new Map(), other: [] };
  for (const item of state.legal) {
    const t = game.mod.targetOf(game.data, item.action, state.hand, state.view);
    if (!t) { out.other.push(item); continue; }
    if (!out[t.kind].has(t.id)) out[t.kind].set(t.id, []);
    out[t.kind].get(t.id).push(item);
  }
  return out;
}

function pick(kind, id, element) {
  const items = groups[kind].get(id);
  if (!items || pending) return;
  if (items.length === 1 && !items[0].confirm) { choose(items[0].action); return; }
  if (items.length === 1) { askFirst(element, items[0]); return; }
  openMenu(element, t("Choose for {what}:", { what: kind === "space" ? game.data.byId[id].name : id }),
    items.map((item) => ({ ...item, text: item.label })));
}

// --- rendering ------------------------------------------------------------------------------
/** The status line: the board module's own words when it has them, else the round and the phase. */
function statusText(s) {
  const over = s.outcome ? `${t("Game over")} · ` : "";
  if (game.mod.statusText) return `${over}${game.mod.statusText(game.data, s)}`;
  const round = s.round ? t("Round {n}", { n: s.round }) : "";
  return `${over}${[round, s.outcome ? "" : t(s.phase || "")].filter(Boolean).join(" · ")}`;
}

let thinkingSince = 0, thinkingStep = -1;

/** "Imperial: the Strongest bot is thinking… 4 s": the seconds tell a player the wait is moving. */
function showThinking() {
  if (!thinkingSince || !state) { $("thinking").textContent = ""; return; }
  const active = state.active_seat;
  const secs = Math.floor((Date.now() - thinkingSince) / 1000);
  $("thinking").textContent = `${t("{side}: {player} is thinking…", { side: seatName(active), player: playerText(state.seats[active]) })}${secs >= 2 ? ` ${t("{n} s", { n: secs })}` : ""}`;
}
setInterval(showThinking, 1000);

function renderTop(s) {
  $("status").textContent = statusText(s);
  $("status").dataset.version = s.version;
  $("status").dataset.step = s.step;
  $("analysis-link").hidden = !s.outcome || !game.data.analysis; // a game without an analysis offers none
  if (s.outcome) $("analysis-link").href = `/analysis/${encodeURIComponent(s.game_id)}`;
  const me = s.seats[s.seat], them = s.seats[other(s.seat)];
  $("players").textContent = t("You: {you} · against {them}", { you: `${seatName(s.seat)}${me.name ? ` (${me.name})` : ""}`, them: playerText(them) })
    + (them?.together ? ` · ${t("both seats are held by this browser")}` : "");
  const active = s.active_seat;
  const botThinking = !s.outcome && active && active !== s.seat && s.seats[active]?.kind === "bot";
  $("thinking").hidden = !botThinking;
  thinkingSince = botThinking ? (thinkingSince && thinkingStep === s.step ? thinkingSince : Date.now()) : 0;
  thinkingStep = s.step;
  showThinking();
  document.body.classList.toggle("bot-thinking", botThinking);
}

/** A choice's label cut at its first ": " outside brackets: [name, what it does] ("" when there is no such colon). */
function splitLabel(label) {
  let depth = 0;
  for (let k = 0; k < label.length - 1; k++) {
    const ch = label[k];
    if (ch === "(" || ch === "[") depth++;
    else if ((ch === ")" || ch === "]") && depth > 0) depth--;
    else if (ch === ":" && label[k + 1] === " " && depth === 0) return [label.slice(0, k), label.slice(k + 2)];
  }
  return [label, ""];
}

function renderPrompt(s) {
  const playing = s.legal.length ? game.mod.playingCard(s.view) : null;
  $("prompt").dataset.yourTurn = t("Your turn"); // shown before the prompt on my turn (app.css)
  $("prompt").replaceChildren(...richText(game, s.prompt, spotlight),
    ...(playing ? [el("span", { class: "playing" }, ` · ${t("with")} `, cardLink(playing))] : []));
  $("hint").textContent = s.help || "";
  const heads = groups.other.map((item) => splitLabel(item.label)[0]);
  const buttons = groups.other.map((item, k) => {
    // "Normal Movement (1 AP): 2 units 1 space…": the name on the button, the rest as its hint —
    // unless several choices share that name ("Build: <block>"), then the whole label tells them apart.
    // A colon inside brackets is part of the name: "Build Cannon (Row 6: 3 AP, …)" keeps its costs.
    const unique = heads.filter((h) => h === heads[k]).length === 1;
    const [name, rest] = unique ? splitLabel(item.label) : [item.label, ""];
    const more = [rest, item.hint].filter(Boolean).join(" · ");
    const b = el("button", { type: "button", class: `action${item.confirm ? " costly" : ""}`, "data-verb": item.action[0],
      "data-arg": item.action[1] ?? "", title: more || null,
      onclick: (e) => (item.confirm ? askFirst(e.currentTarget, item) : choose(item.action)) },
    name);
    const showHint = () => { $("hint").textContent = more || s.help || ""; };
    b.addEventListener("pointerenter", showHint);
    b.addEventListener("focus", showHint);
    return b;
  });
  const spatial = groups.space.size + groups.area.size, cards = groups.card.size;
  const where = [];
  if (spatial) where.push(tn("{n} place marked on the map", "{n} places marked on the map", spatial));
  if (cards) where.push(tn("{n} card in your hand", "{n} cards in your hand", cards));
  $("actions").replaceChildren(...(where.length ? [el("span", { class: "where" }, `${t("Choose:")} ${where.join(` ${t("or")} `)}${buttons.length ? `, ${t("or")}` : "."}`)] : []), ...buttons);
  showUndo(s);
}

/** The undo controls, while the turn can be taken back: one step, or the whole turn. The opponent has seen
 * none of it yet (the server shows them the turn once it ends or dice or hidden cards are revealed). */
function showUndo(s) {
  let stepBack = $("undo-step");
  if (!stepBack) {
    stepBack = el("button", { id: "undo-step", type: "button", hidden: "" }, t("Undo last step"));
    stepBack.addEventListener("click", () => undo(1));
    $("undo").before(stepBack);
  }
  const why = t("Your opponent sees this turn only when it ends, or when dice or hidden cards are revealed: until then you may take any of it back.");
  for (const button of [stepBack, $("undo")]) {
    button.hidden = !s.can_undo;
    button.title = why;
  }
}

function undo(steps) {
  if (!state || pending) return;
  pending = true;
  showError("");
  send({ type: "undo", version: state.version, ...(steps ? { steps } : {}) });
}

/** A card's menu: each use with the board module's words for it (``cardUse``: text and hint, or ``cardUseText``:
 * the text), else the server's label and hint. */
function cardUses(card, items) {
  return items.map((item) => {
    if (game.mod.cardUse) return { ...item, ...game.mod.cardUse(game.data, item, state.view, card) };
    if (game.mod.cardUseText) return { ...item, text: game.mod.cardUseText(game.data, item) };
    return { ...item, text: item.label };
  });
}

/** What a hand card shows beside its name (the board module's ``cardBadge``; nothing without one). */
function badge(n) {
  return game.mod.cardBadge ? game.mod.cardBadge(game.data, n) : "";
}

function renderHand(s) {
  const hand = s.hand.map((n) => {
    const c = game.data.cardsByNumber[n];
    const items = groups.card.get(n) || [];
    const b = el("button", { type: "button", class: `hand-card side-${c.side}${items.length ? " legal" : ""}`, "data-card": n,
      "aria-haspopup": items.length ? "dialog" : null, "aria-expanded": items.length ? "false" : null,
      "aria-label": `${game.mod.cardTitle(game.data, n)}, ${badge(n)}${items.length ? `: ${t("choose how to play it")}` : ""}` },
    el("span", { class: "hc-no" }, `${c.number}${c.deck || ""}`), el("span", { class: "hc-ap" }, badge(n)),
    el("span", { class: "hc-name" }, c.name));
    b.addEventListener("click", () => {
      if (items.length) openMenu(b, game.mod.cardTitle(game.data, n), cardUses(n, items), phone.matches ? game.mod.cardFace(game.data, n) : null);
    });
    return b;
  });
  $("hand").replaceChildren(...(hand.length ? hand : [el("p", { class: "muted" }, t("No cards in hand."))]));
  $("hand-toggle").textContent = `${tn("Hand ({n} card)", "Hand ({n} cards)", s.hand.length)}${groups.card.size ? ` · ${t("choose a card")}` : ""}`;
  $("hand-toggle").classList.toggle("attention", groups.card.size > 0);
  const entries = game.mod.discardPiles ? game.mod.discardPiles(s.view) : [];
  const piles = entries.map(([title, list]) => el("div", { class: "pile" },
    el("strong", {}, `${title} (${list.length}): `), ...(list.length ? list.flatMap((n, k) => [k ? ", " : "", cardLink(n)]) : [t("empty")])));
  $("discard-list").replaceChildren(...piles);
}

function renderOpponent(s) {
  const opp = other(s.seat);
  const last = s.last || {};
  const lastCard = last.card;
  const theirs = (last.actions || []).filter((a) => a.seat !== s.seat).length; // my own steps are not news to me
  let how = "";
  for (const a of last.actions || []) {
    if (a.action[1] === lastCard) how = game.mod.playedHow?.(a.action[0]) || "";
  }
  $("opponent").replaceChildren(...[
    el("p", { class: `opp-line side-${opp}` }, el("strong", {}, seatName(opp)), `: ${playerText(s.seats[opp])} · ${tn("{n} card in hand", "{n} cards in hand", s.hand_counts[opp])}`),
    lastCard ? el("p", { class: "opp-last" }, `${t("Last card:")} `, cardLink(lastCard), how ? ` ${how}` : "") : null,
    theirs ? el("p", { class: "opp-moves muted" }, tn("{n} move by your opponent since your last action is marked on the map.", "{n} moves by your opponent since your last action are marked on the map.", theirs)) : null,
  ].filter(Boolean));
}

function spotlight(id, on) { board?.highlight(id, on); }

/** Marked places outside the part of the map shown (the Camp, on a phone, at the Imperial Opening): a button
 * on the map says how many and brings them into view. */
function offscreenTargets() {
  const ids = state && game.mod.targetBox ? [...groups.space.keys(), ...groups.area.keys()] : [];
  const boxes = ids.map((id) => game.mod.targetBox(game.data, id)).filter(Boolean);
  const away = boxes.filter((b) => !zoom.shows(b));
  $("offscreen").hidden = !away.length;
  if (!away.length) return;
  $("offscreen").textContent = tn("{n} marked place is off screen: show it", "{n} marked places are off screen: show them", away.length);
  $("offscreen").onclick = () => {
    const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
    zoom.reveal({ x, y, w: Math.max(...boxes.map((b) => b.x + b.w)) - x, h: Math.max(...boxes.map((b) => b.y + b.h)) - y });
  };
}

function renderSide(s) {
  $("tracks").replaceChildren(game.mod.drawTracks(game.data, s.view));
  renderLog($("log"), game, log, spotlight, s.fallbacks?.notices || []);
  $("log").scrollTop = $("log").scrollHeight;
  const dice = latestDice(game, log, spotlight);
  $("dice").replaceChildren(...(dice ? [el("h2", { class: "dice-title" }, t("Latest roll")), dice] : []));
}

function render() {
  const s = state;
  groups = groupLegal();
  renderTop(s);
  renderPrompt(s);
  const targets = new Set([...groups.space.keys(), ...groups.area.keys()]);
  const verbs = new Map([...groups.space, ...groups.area].map(([id, items]) => [id, items.map((i) => i.label).join(" or ")]));
  const mark = s.last && s.last.actions.length ? s.last : null;
  board.update(s.view, { targets, verbs, items: groups.space, selected: game.mod.selectedSpace(s.view), last: mark });
  $("hover-info").textContent = ""; // what was under the finger before this position is stale now
  offscreenTargets();
  renderHand(s);
  renderOpponent(s);
  renderSide(s);
  renderGameOver(s);
  const mine = s.legal.length > 0;
  document.body.classList.toggle("my-turn", mine);
  document.title = `${mine ? `● ${t("Your turn")} · ` : ""}${seatName(s.seat)} · ${game.data.title.split(":")[0]} · muster`;
  if (mine && !wasMyTurn) yourTurn();
  wasMyTurn = mine;
}

// --- the end of the game: a screen of its own ------------------------------------------------------
let resultClosed = false; // the player chose to look at the map

function renderGameOver(s) {
  const over = Boolean(s.outcome);
  $("game-over").hidden = !over || resultClosed;
  $("show-result").hidden = !over || !resultClosed;
  document.body.classList.toggle("game-ended", over);
  if (!over) return;
  const o = s.outcome;
  $("go-title").textContent = !o.winner ? t("A draw") : o.winner === s.seat ? t("You won!")
    : t("{side} wins", { side: seatName(o.winner) });
  $("go-title").className = o.winner ? `side-${o.winner}` : "";
  // why, with the places it names lit on the map: the winning moment stays in view beside the screen
  $("go-why").replaceChildren(...richText(game, o.detail || o.reason || "", spotlight));
  for (const sp of $("go-why").querySelectorAll("[data-space]")) board.highlight(sp.dataset.space, true);
  $("go-analysis").href = `/analysis/${encodeURIComponent(s.game_id)}`;
  $("go-analysis").hidden = !game.data.analysis;
  $("go-replay").href = $("replay-link").getAttribute("href");
  const history = game.mod.trackHistory ? game.mod.trackHistory(log, s.view) : null;
  $("go-history").replaceChildren(...(history ? [historyChart(history, (name) => t(name), seatName),
    el("figcaption", {}, history.caption || "")] : []));
  $("go-history").hidden = !history;
}

$("go-map").addEventListener("click", () => { resultClosed = true; render(); $("show-result").focus(); });
$("show-result").addEventListener("click", () => { resultClosed = false; render(); $("go-title").focus(); });

/** A rematch: a new game with the same players and levels, the sides swapped. Against a bot it starts at
 * once; against a person, the other person gets an invitation to the seat this player leaves. */
async function rematch() {
  const mine = state.seat, theirs = other(mine);
  const opponent = state.seats[theirs] || {};
  if (opponent.kind === "human" && opponent.taken && !opponent.together) return rematchWithPerson(); // offered, then accepted
  const meta = await api("/api/meta");
  const game = (meta.games || []).find((g) => g.name === state.game) || {};
  const levels = game.levels || [];
  const body = { game: state.game, seat: theirs, [theirs]: "human" };
  if (opponent.kind === "bot") {
    const found = levels.find((l) => l.name === opponent.level) || levels.find((l) => l.id === game.default_level);
    body[mine] = found.id;
  } else {
    body[mine] = "human";
  }
  if (state.view.ruleset) body.ruleset = state.view.ruleset;
  const names = {};
  if (state.seats[mine]?.name) names[theirs] = state.seats[mine].name;
  if (opponent.kind === "human" && opponent.name) names[mine] = opponent.name;
  if (Object.keys(names).length) body.names = names;
  const made = await api("/api/games", body);
  rememberSeat({ token: made.tokens[theirs], game_id: made.game_id, seat: theirs });
  if (opponent.kind === "bot") { location.href = made.links[theirs]; return; }
  const link = new URL(made.invitation_links[mine], location.href).href;
  const input = el("input", { id: "rematch-link", readonly: "", value: link, "aria-label": t("Invitation link") });
  $("rematch-box").replaceChildren(
    el("p", {}, t("Send this invitation to {who}: it opens the seat of the {side} for them.", { who: opponent.name || t("your opponent"), side: seatName(mine) })),
    input, el("p", {}, el("a", { href: made.links[theirs], id: "rematch-seat" }, t("Go to my seat"))));
  $("rematch-box").hidden = false;
  input.select();
}

$("rematch").addEventListener("click", () => {
  $("rematch").disabled = true;
  rematch().catch((err) => showError(err.message)).finally(() => { $("rematch").disabled = false; });
});

// --- your turn, noticed -------------------------------------------------------------------------
let audio = null;

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no sound device: the title and notification still tell */ }
}

function yourTurn() {
  if (localStorage.getItem("muster.sound") === "on") beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn in {game}", { game: game.data.title.split(":")[0] }), { body: state.prompt, tag: `muster-${state.game_id}` });
  }
}

// Options: a menu that Escape or a click elsewhere closes, like every other
const options = document.querySelector("details.menu");
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && options.open) { options.open = false; options.querySelector("summary").focus(); }
});
document.addEventListener("pointerdown", (e) => { if (options.open && !options.contains(e.target)) options.open = false; });

$("sound").checked = localStorage.getItem("muster.sound") === "on";
$("sound").addEventListener("change", () => {
  localStorage.setItem("muster.sound", $("sound").checked ? "on" : "off");
  if ($("sound").checked) beep(); // the click is the user gesture that lets the page play sound
});
$("notify").addEventListener("click", async () => {
  if (!("Notification" in window)) { $("notify").textContent = t("This browser cannot notify"); return; }
  const answer = await Notification.requestPermission(); // asked only when the player clicks
  $("notify").textContent = answer === "granted" ? t("Notifications are on") : t("Notifications are blocked");
});
$("save-name").addEventListener("click", async () => {
  try {
    await api(`/api/seat/${encodeURIComponent(token)}/name`, { name: $("my-name").value });
  } catch (err) { showError(err.message); }
});

// --- state and connection -----------------------------------------------------------------------
function onState(message) {
  log = log.slice(0, message.log_from).concat(message.log);
  const before = state ? JSON.stringify(state.legal) : null;
  state = { ...message, log: undefined };
  pending = false;
  // an open menu stays open while its choices are still the legal ones (the opponent's simultaneous move or a
  // clock update must not take away what a player is choosing); otherwise it is closed
  if (JSON.stringify(state.legal) !== before) closeMenu();
  render();
  clock?.refresh(state.seat); // a move, a pause or a timeout: the clock changed too
}

async function fetchState() {
  try {
    onState(await api(`/api/seat/${encodeURIComponent(token)}`));
  } catch (err) {
    showError(err.message);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // ?game= lets a reverse proxy send every socket of a game to the same server node (docs/hosting.md)
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(token)}?game=${encodeURIComponent(gameId)}`);
  socket.addEventListener("open", () => { $("connection").textContent = t("live"); $("connection").className = "connection live"; });
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
    $("connection").textContent = t("offline");
    $("connection").className = "connection";
    if (event.code >= 4400 && event.code < 4600) { showError(event.reason || t("This seat cannot be opened.")); return; }
    setTimeout(connect, 1000); // come back on our own after a server restart or a network blip
  });
}

$("undo").addEventListener("click", () => undo(null));

for (const [button, cls] of [["hand-toggle", "hand-open"], ["side-toggle", "side-open"]]) {
  $(button).addEventListener("click", () => {
    const open = !document.body.classList.contains(cls);
    document.body.classList.remove("hand-open", "side-open");
    document.body.classList.toggle(cls, open);
    $(button).setAttribute("aria-expanded", String(open));
  });
}

async function start() {
  try {
    await setupLanguage(document.querySelector(".tools"));
    const first = await api(`/api/seat/${encodeURIComponent(token)}`);
    gameId = first.game_id;
    rememberSeat({ token, game_id: first.game_id, seat: first.seat });
    $("replay-link").href = `/replay/${first.game_id}?token=${encodeURIComponent(token)}`;
    $("export-link").href = `/api/games/${first.game_id}/export?token=${encodeURIComponent(token)}`;
    // this seat's notices (a guest's own; the account's page for a signed-in seat); the token stays in the
    // fragment, which the browser never sends to the server
    $("notices-link").href = `/notifications#seat=${encodeURIComponent(token)}`;
    $("my-name").value = first.seats[first.seat]?.name || "";
    game = await loadGame(first.game);
    $("rules-link").hidden = !game.data.rules; // a game without a rules page links none
    if (game.data.rules) $("rules-link").href = game.data.rules;
    enableCardFaces(game);
    board = game.mod.createBoard($("board"), game.data, {
      pick,
      hover: (text) => { $("hover-info").textContent = text || ""; },
    });
    $("board").append(board.element);
    board.element.addEventListener("viewchange", () => { if (state && zoom) offscreenTargets(); });
    zoom = enableZoom($("board"), board.element, game.mod.VIEWBOX, phone.matches ? game.mod.PHONE_VIEW : null);
    $("zoom-in").addEventListener("click", () => zoom.zoomIn());
    $("zoom-out").addEventListener("click", () => zoom.zoomOut());
    $("zoom-fit").addEventListener("click", () => zoom.fit());
    clock = clockPanel(token, $("clock"), seatName, showError);
    onState(first);
    performance.mark("muster:drawn"); // the first full drawing (benchmarks/web_load.py reads it)
    connect();
  } catch (err) {
    showError(err.message);
  }
}

start();
