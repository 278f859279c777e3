// The lobby: start a game, list the games this browser holds a seat in.
import { SEAT_NAME, api, el, rememberSeat, rememberWatched, rememberedSeats, watchedGames } from "./common.js";

const form = document.getElementById("new-game");
const errorBox = document.getElementById("error");

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

async function loadMeta() {
  const meta = await api("/api/meta");
  const bot = document.getElementById("bot");
  for (const level of meta.bot_levels) bot.append(el("option", { value: level.spec }, level.label));
  const preferred = ["heuristic", "random"].find((n) => meta.bots.includes(n));
  if (preferred) bot.value = preferred;
  const ruleset = document.getElementById("ruleset");
  for (const name of meta.rulesets) ruleset.append(el("option", { value: name }, `${name} edition`));
  document.getElementById("delay").value = meta.bot_delay_ms;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  const side = form.side.value;
  const other = side === "imperial" ? "insurgent" : "imperial";
  const mode = form.opponent.value;
  const body = { ruleset: form.ruleset.value, [side]: mode === "bots" ? form.bot.value : "human",
    [other]: mode === "human" ? "human" : form.bot.value };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  if (form.delay.value !== "") body.bot_delay_ms = Number(form.delay.value);
  try {
    const made = await api("/api/games", body);
    if (mode === "bots") {
      rememberWatched(made.game_id);
      location.href = `/replay/${made.game_id}`;
      return;
    }
    rememberSeat({ token: made.tokens[side], game_id: made.game_id, seat: side });
    if (mode === "human") {
      const link = new URL(made.links[other], location.href).href;
      const box = document.getElementById("created");
      box.replaceChildren(
        el("p", {}, `Send this link to your opponent (it is their seat, ${SEAT_NAME[other]}; keep it secret):`),
        el("input", { id: "invite-link", readonly: "", value: link, size: 60 }),
        el("p", {}, el("a", { href: made.links[side], id: "my-link" }, "Go to my seat")));
      box.hidden = false;
      refresh();
    } else {
      location.href = made.links[side];
    }
  } catch (err) {
    showError(err.message);
  }
});

function turnText(game) {
  if (game.outdated) return "recorded under older rules (open it with the release that made it)";
  if (game.status === "finished") return game.winner ? `finished: ${SEAT_NAME[game.winner]} won` : "finished";
  return game.your_turn ? "your turn" : `${SEAT_NAME[game.active_seat] || "?"} to play`;
}

function opponentText(game) {
  const other = game.seat === "imperial" ? "insurgent" : "imperial";
  const who = game.players[other];
  return who === "human" ? "a person" : `${who} bot`;
}

async function refresh() {
  const body = document.querySelector("#my-games tbody");
  const seats = rememberedSeats();
  const { games } = await api("/api/my-games", { tokens: seats.map((s) => s.token) });
  const rows = games.map((g) => el("tr", { class: g.your_turn ? "your-turn" : "" },
    el("td", {}, g.game_id), el("td", {}, SEAT_NAME[g.seat]), el("td", {}, opponentText(g)),
    el("td", {}, turnText(g)), el("td", {}, g.steps),
    el("td", {}, el("a", { href: `/play/${g.token}` }, "open"), " ",
      el("a", { href: `/replay/${g.game_id}?token=${encodeURIComponent(g.token)}` }, "replay"))));
  for (const id of watchedGames()) {
    try {
      const s = await api(`/api/games/${id}/status`);
      rows.push(el("tr", {}, el("td", {}, id), el("td", {}, "watching"),
        el("td", {}, `${s.players.imperial} vs ${s.players.insurgent}`),
        el("td", {}, s.status === "finished" ? `finished: ${SEAT_NAME[s.winner] || "draw"} won` : "bots playing"),
        el("td", {}, s.steps), el("td", {}, el("a", { href: `/replay/${id}` }, "watch / replay"))));
    } catch { /* a game from another server's database: skip it */ }
  }
  body.replaceChildren(...rows);
  document.getElementById("no-games").hidden = rows.length > 0;
}

loadMeta().catch((err) => showError(err.message));
refresh().catch((err) => showError(err.message));
setInterval(() => refresh().catch(() => {}), 5000);
