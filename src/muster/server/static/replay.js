// The replay viewer: step through a finished game (or, with my seat's token, my view of an ongoing one).
import { SEAT_NAME, api, el, isDice, rememberedSeats } from "./common.js";

const $ = (id) => document.getElementById(id);
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
    $("step").textContent = `step ${step} / ${total}`;
    $("board").innerHTML = frame.svg;
    const who = frame.seat ? `${SEAT_NAME[frame.seat]}'s view` : "spectator view";
    $("status").textContent = `Game ${gameId} · ${who} · Round ${frame.round} · ${frame.phase}`;
    $("outcome").textContent = frame.outcome ? `${SEAT_NAME[frame.outcome.winner] || "Nobody"} wins: ${frame.outcome.detail}`
      : frame.active_seat ? `${SEAT_NAME[frame.active_seat]} to decide` : "";
    $("last-line").textContent = frame.log.length ? frame.log[frame.log.length - 1] : "";
    $("log").replaceChildren(...frame.log.slice(-200).map((line) => el("li", { class: isDice(line) ? "dice-line" : "" }, line)));
    $("log").scrollTop = $("log").scrollHeight;
    showError("");
  } catch (err) {
    showError(err.message);
  } finally {
    loading = false;
  }
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ play"; return; }
  $("play").textContent = "⏸ pause";
  timer = setInterval(() => { if (step >= total) togglePlay(); else show(step + 1); }, 300);
}

async function waitForFinish() {
  // A game of bots still running and no seat of mine: wait until it ends, then open the replay.
  const status = await api(`/api/games/${gameId}/status`);
  if (status.status === "finished" || token) { $("export-link").href = `/api/games/${gameId}/export?${query.slice(1)}`; await show(0); await show(total); return; }
  $("status").textContent = `Game ${gameId}: the bots are playing (step ${status.steps})…`;
  setTimeout(() => waitForFinish().catch((err) => showError(err.message)), 1000);
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(Math.max(0, step - 1)));
$("next").addEventListener("click", () => show(Math.min(total, step + 1)));
$("last").addEventListener("click", () => show(total));
$("play").addEventListener("click", togglePlay);
$("slider").addEventListener("change", () => show(Number($("slider").value)));
waitForFinish().catch((err) => showError(err.message));
