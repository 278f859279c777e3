// The replay viewer: step through a finished game (or, with my seat's token, my view of an ongoing one).
import { api, el, loadGame, rememberedSeats, sideName } from "./common.js";
import { enableCardFaces } from "./cards.js";
import { latestDice, renderLog } from "./log.js";
import { enableZoom } from "./zoom.js";
import { TEXT as WP_TEXT, drawCurve } from "./winprob.js";
import { setupLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const seatWord = (seat) => game?.data.seats[seat]?.name || sideName(seat);
let game = null;
let board = null;
let boardReady = null; // the board module loads once, however many frames arrive meanwhile

/** Load the game's board module once, then draw a view (with last-move marks when given). */
async function setup(name) {
  game = await loadGame(name);
  $("rules-link").hidden = !game.data.rules; // a game without a rules page links none
  if (game.data.rules) $("rules-link").href = game.data.rules;
  enableCardFaces(game);
  board = game.mod.createBoard($("board"), game.data, { pick: () => {}, hover: (t) => { $("hover-info").textContent = t || ""; } });
  $("board").append(board.element);
  const zoom = enableZoom($("board"), board.element, game.mod.VIEWBOX, null);
  $("zoom-in").addEventListener("click", () => zoom.zoomIn());
  $("zoom-out").addEventListener("click", () => zoom.zoomOut());
  $("zoom-fit").addEventListener("click", () => zoom.fit());
}

async function draw(frame, lines, last) {
  boardReady = boardReady || setup(frame.game);
  await boardReady;
  const spot = (id, on) => board.highlight(id, on);
  board.update(frame.view, { targets: new Set(), selected: game.mod.selectedSpace(frame.view), last });
  $("tracks").replaceChildren(game.mod.drawTracks(game.data, frame.view));
  renderLog($("log"), game, lines, spot);
  $("log").scrollTop = $("log").scrollHeight;
  const dice = latestDice(game, lines, spot);
  $("dice").replaceChildren(...(dice ? [el("h2", { class: "dice-title" }, t("Latest roll")), dice] : []));
}
const gameId = decodeURIComponent(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
const token = params.get("token") || (rememberedSeats().find((s) => s.game_id === gameId) || {}).token || "";
const query = token ? `&token=${encodeURIComponent(token)}` : "";
let total = 0;
let step = 0;
let timer = null;
let loading = false;

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

async function show(n) {
  if (loading) return;
  loading = true;
  try {
    const frame = await api(`/api/games/${gameId}/replay?step=${n}${query}`);
    total = frame.total;
    step = frame.step;
    $("slider").max = total;
    $("slider").value = step;
    $("step").textContent = t("step {n} / {total}", { n: step, total });
    await draw(frame, frame.log, frame.last_action ? { actions: [{ seat: null, action: frame.last_action }], changes: {} } : null);
    const who = frame.seat ? t("{side}'s view", { side: seatWord(frame.seat) }) : t("spectator view");
    $("status").textContent = frame.round
      ? t("Game {id} · {who} · Round {n} · {phase}", { id: gameId, who, n: frame.round, phase: t(frame.phase) })
      : `${t("Game {id} · {who}", { id: gameId, who })} · ${t(frame.phase)}`;
    const detail = frame.outcome?.detail; // why it ended, in the reader's language (the server words it)
    $("outcome").textContent = frame.outcome ? t("{side} wins: {detail}", { side: seatWord(frame.outcome.winner) || t("Nobody"), detail })
      : frame.active_seat ? t("{side} to decide", { side: seatWord(frame.active_seat) }) : "";
    $("last-line").textContent = frame.log.length ? `${t("Last:")} ${frame.log[frame.log.length - 1].t}` : "";
    showError("");
  } catch (err) {
    showError(err.message);
  } finally {
    loading = false;
  }
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = t("▶ play"); return; }
  $("play").textContent = t("⏸ pause");
  timer = setInterval(() => { if (step >= total) togglePlay(); else show(step + 1); }, 300);
}

let watching = null;

function setControls(enabled) {
  for (const control of document.querySelectorAll(".replay-controls button, .replay-controls input")) {
    control.disabled = !enabled;
  }
}

async function openReplay() {
  setControls(true);
  $("export-link").href = `/api/games/${gameId}/export?${query.slice(1)}`;
  await show(0);
  const wanted = Number.parseInt(params.get("step") || "", 10); // a turning point from the analysis page
  await show(Number.isFinite(wanted) ? Math.max(0, Math.min(total, wanted)) : total);
  if ($("outcome").textContent && !token && game?.data.analysis) {
    $("analysis-link").href = `/analysis/${encodeURIComponent(gameId)}`;
    $("analysis-link").hidden = false;
  }
}

let curveAsked = 0;
/** Spectators of a game between bots see the win-probability curve grow (at most every 3 s). */
async function refreshLiveCurve() {
  const now = Date.now();
  if (now - curveAsked < 3000 || (game && !game.data.analysis)) return; // a game without an analysis has no curve
  curveAsked = now;
  try {
    const c = await api(`/api/games/${gameId}/win-probability`);
    $("live-curve-title").textContent = WP_TEXT.liveTitle;
    drawCurve($("live-curve-svg"), c.start_probability, c.win_probability, c.rounds, [], 160);
    $("live-curve").hidden = false;
  } catch (err) {
    $("live-curve").hidden = true;
  }
}

/** A game between bots still running: watch it live, then open its replay when it ends. */
function watchLive() {
  let lines = [];
  setControls(false); // nothing to step through until the game is over
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  watching = new WebSocket(`${scheme}://${location.host}/ws/watch/${encodeURIComponent(gameId)}`);
  watching.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type !== "state") return;
    lines = lines.slice(0, m.log_from).concat(m.log);
    draw(m, lines, m.last).catch((err) => showError(err.message));
    $("status").textContent = m.round
      ? t("Game {id} · live: the bots are playing · Round {n} · {phase}", { id: gameId, n: m.round, phase: t(m.phase) })
      : `${t("Game {id} · live: the bots are playing", { id: gameId })} · ${t(m.phase)}`;
    $("step").textContent = t("step {n}", { n: m.step });
    $("outcome").textContent = m.active_seat ? t("{side} to decide", { side: seatWord(m.active_seat) }) : "";
    $("last-line").textContent = "";
    refreshLiveCurve();
    if (m.outcome) {
      watching.close();
      openReplay().catch((err) => showError(err.message));
    }
  });
  watching.addEventListener("close", (event) => {
    if (event.code >= 4400 && event.code < 4600) showError(event.reason || t("This game cannot be watched."));
  });
}

async function start() {
  const status = await api(`/api/games/${gameId}/status`);
  if (status.status === "finished" || token) await openReplay();
  else watchLive();
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(Math.max(0, step - 1)));
$("next").addEventListener("click", () => show(Math.min(total, step + 1)));
$("last").addEventListener("click", () => show(total));
$("play").addEventListener("click", togglePlay);
$("slider").addEventListener("change", () => show(Number($("slider").value)));
setupLanguage(document.querySelector(".tools")).then(start).catch((err) => showError(err.message));
