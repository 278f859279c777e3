// The lobby: start a game, list the games this browser holds a seat in. It names no game: /api/meta lists every
// registered game, and a game's optional lobby module (/static/games/<game>/lobby.js) gives its words: title,
// sides, introduction, options (docs/web-games.md).
import { api, el, rememberSeat, rememberWatched, rememberedSeats, sideName, watchedGames } from "./common.js";
import { setupLanguage, t } from "./i18n.js";
import { clockText } from "./clock.js";

const form = document.getElementById("new-game");
const errorBox = document.getElementById("error");
let meta = { games: [] };
const lobbies = {}; // game name -> its lobby module (an empty object for a game without one)
const info = (game) => meta.games.find((g) => g.name === game) || { seats: [], seat_names: {}, levels: [], options: {} };
const seatName = (seat) => meta.games.map((g) => g.seat_names[seat]).find(Boolean) || sideName(seat);

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

const chosenGame = () => form.querySelector("input[name=game]:checked")?.value || meta.game;

/** A game's sides as [seat, name, one line]: its lobby module's, else its seats by name. */
function sidesOf(game) {
  const lobby = lobbies[game] || {};
  if (lobby.sides) return lobby.sides();
  return info(game).seats.map((seat) => [seat, info(game).seat_names[seat] || sideName(seat), ""]);
}

/** The game's title in the reader's language. */
const titleOf = (game) => lobbies[game]?.title?.() || info(game).title || game;

/** The introduction of the chosen game: its lobby module writes it, else its title and rules link. */
function showIntro(game) {
  const section = document.getElementById("intro");
  const heading = el("h1", { id: "about", class: "intro-title" }, titleOf(game));
  section.replaceChildren(heading);
  if (lobbies[game]?.intro) lobbies[game].intro(section, heading);
  else if (info(game).rules) section.append(el("p", {}, el("a", { href: info(game).rules }, t("rules summary"))));
}

/** The options the chosen game lets players choose (under "Advanced"), each a select of its values. */
function showOptions(game) {
  const lobby = lobbies[game] || {};
  const fields = Object.entries(info(game).options || {}).map(([name, values]) => el("label", { class: "field" },
    el("span", {}, lobby.optionName?.(name) || name), " ",
    el("select", { name: `option-${name}`, id: `option-${name}`, "data-option": name },
      ...values.map((v) => el("option", { value: v }, lobby.optionValue?.(name, v) || v)))));
  document.getElementById("options").replaceChildren(...fields);
}

/** Sides, levels, intro, options and rules link for the game chosen in the lobby. */
function showGame(game) {
  const g = info(game);
  const sides = document.getElementById("sides");
  sides.replaceChildren(el("legend", {}, t("Your side")), ...sidesOf(game).map(([seat, name, small], k) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "side", value: seat, checked: k === 0 ? "" : null }), el("span", {}, name, small ? el("small", {}, small) : null))));
  const chosen = form.querySelector("input[name=level]:checked")?.value || g.default_level;
  const box = document.getElementById("levels");
  box.replaceChildren(el("legend", {}, t("Computer strength")), ...g.levels.map((level) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "level", value: level.id, id: `level-${level.id}`, checked: level.id === chosen ? "" : null }),
    el("span", {}, t(level.name), el("small", {}, t(level.description), level.think ? ` ${level.think}` : "")))));
  if (!form.querySelector("input[name=level]:checked") && g.levels.length) { // the level chosen before is not this game's
    (form.querySelector(`#level-${g.default_level}`) || form.querySelector("input[name=level]")).checked = true;
  }
  showIntro(game);
  showOptions(game);
  document.getElementById("hints-field").hidden = !g.analysis; // hints come from the game's analysis
  if (!g.analysis) document.getElementById("hints").checked = false;
  const title = titleOf(game);
  document.getElementById("game-title").textContent = title;
  document.title = `muster: ${title}`;
  const rules = document.getElementById("rules-top");
  rules.hidden = !g.rules;
  if (g.rules) rules.href = g.rules;
}

/** Load a game's lobby module, if it has one (a game without one is still offered, in its plain words). */
async function loadLobby(g) {
  try {
    lobbies[g.name] = g.lobby ? await import(g.lobby) : {};
  } catch (err) {
    console.warn(`the lobby module of ${g.name} did not load`, err);
    lobbies[g.name] = {};
  }
}

/** The computer's strength is asked only when a computer plays. */
function showLevels() {
  document.getElementById("levels").hidden = form.opponent.value === "human";
}
for (const input of form.querySelectorAll("input[name=opponent]")) input.addEventListener("change", showLevels);

async function loadMeta() {
  meta = await api("/api/meta");
  const playable = meta.games.filter((g) => g.web);
  await Promise.all(playable.map(loadLobby));
  const list = document.getElementById("games");
  list.replaceChildren(el("legend", {}, t("Game")), ...playable.map((g) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "game", value: g.name, checked: g.name === meta.game ? "" : null,
      onchange: () => showGame(chosenGame()) }),
    el("span", {}, lobbies[g.name].listTitle?.() || titleOf(g.name),
      lobbies[g.name].choiceLine ? el("small", {}, lobbies[g.name].choiceLine()) : null))));
  showGame(chosenGame());
  document.getElementById("delay").value = meta.bot_delay_ms;
  document.getElementById("name").value = localStorage.getItem("muster.name") || "";
}

function inviteBox(link, other, myLink) {
  const input = el("input", { id: "invite-link", readonly: "", value: link, "aria-label": t("Invitation link") });
  const copy = el("button", { type: "button", id: "copy-invite", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = t("Copied");
    } catch {
      input.select();
      copy.textContent = document.execCommand("copy") ? t("Copied") : t("Select and copy");
    }
  } }, t("Copy link"));
  return [el("p", {}, t("Send this invitation to your opponent ({side}). The first person to open it takes the seat; after that it opens nothing for anyone else, you included.", { side: seatName(other) })),
    el("div", { class: "invite" }, input, copy), el("p", {}, el("a", { href: myLink, id: "my-link" }, t("Go to my seat")))];
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  const game = chosenGame();
  const side = form.side.value;
  const others = info(game).seats.filter((seat) => seat !== side);
  const other = others[0];
  const mode = form.opponent.value;
  const level = form.level.value || info(game).default_level;
  const body = { game, [side]: mode === "bots" ? level : "human" };
  for (const seat of others) body[seat] = mode === "human" ? "human" : level;
  if (mode !== "bots") body.seat = side;
  const options = Object.fromEntries([...form.querySelectorAll("[data-option]")].map((s) => [s.dataset.option, s.value]));
  if (Object.keys(options).length) body.options = options;
  const name = form.name.value.trim();
  localStorage.setItem("muster.name", name);
  if (name && mode !== "bots") body.names = { [side]: name };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  if (form.delay.value !== "") body.bot_delay_ms = Number(form.delay.value);
  if (form.hints.checked && mode !== "bots") body.hints = side;
  if (form.pace.value !== "none") body.pace = form.pace.value;
  try {
    const made = await api("/api/games", body);
    if (mode === "bots") {
      rememberWatched(made.game_id);
      location.href = `/replay/${made.game_id}`;
      return;
    }
    rememberSeat({ token: made.tokens[side], game_id: made.game_id, seat: side });
    if (mode === "human") {
      const box = document.getElementById("created");
      box.replaceChildren(...inviteBox(new URL(made.invitation_links[other], location.href).href, other, made.links[side]));
      box.hidden = false;
      box.scrollIntoView({ block: "nearest" }); // the link to send is the next step: never below the fold
      document.getElementById("invite-link").focus();
      refresh();
    } else {
      location.href = made.links[side];
    }
  } catch (err) {
    showError(err.message);
  }
});

function turnText(game) {
  if (game.outdated) return t("recorded under older rules (open it with the release that made it)");
  if (game.status === "finished") return game.winner ? t("finished: {side} won", { side: seatName(game.winner) }) : t("finished");
  const turn = game.your_turn ? t("your turn") : t("{side} to play", { side: seatName(game.active_seat) || "?" });
  const clock = clockText(game.clock, game.seat); // refreshed with the list: the time counts down
  return clock ? `${turn} · ${clock}` : turn;
}

/** Who plays a seat, in words: a person by the name they gave, a bot by its level (never its settings). */
function whoText(kind, name, levelName) {
  if (kind === "human") return name ? t("{name} (a person)", { name }) : t("a person");
  return levelName ? t("the {level} bot", { level: t(levelName) }) : t("a bot");
}

function opponentText(game) {
  const other = Object.keys(game.players || {}).find((seat) => seat !== game.seat);
  const who = game.players[other];
  return whoText(who === "human" ? "human" : "bot", (game.names || {})[other], (game.levels || {})[other]);
}

async function refresh() {
  const body = document.querySelector("#my-games tbody");
  const seats = rememberedSeats();
  const { games } = await api("/api/my-games", { tokens: seats.map((s) => s.token) });
  const rows = games.map((g) => el("tr", { class: g.your_turn ? "your-turn" : "" },
    el("td", {}, g.game_id.slice(0, 8)), el("td", {}, seatName(g.seat)), el("td", {}, opponentText(g)),
    el("td", {}, turnText(g)), el("td", {}, g.steps),
    el("td", {}, el("a", { href: `/play/${g.token}` }, t("open")), " ",
      el("a", { href: `/replay/${g.game_id}?token=${encodeURIComponent(g.token)}` }, t("replay")))));
  for (const id of watchedGames()) {
    try {
      const s = await api(`/api/games/${id}/status`);
      const who = Object.entries(s.players).map(([seat, spec]) => whoText(spec === "human" ? "human" : "bot", null, (s.levels || {})[seat]));
      rows.push(el("tr", {}, el("td", {}, id.slice(0, 8)), el("td", {}, t("watching")),
        el("td", {}, who.join(` ${t("vs")} `)),
        el("td", {}, s.status === "finished" ? t("finished: {side} won", { side: seatName(s.winner) || t("nobody") }) : t("bots playing")),
        el("td", {}, s.steps), el("td", {}, el("a", { href: `/replay/${id}` }, t("watch / replay")))));
    } catch { /* a game from another server's database: skip it */ }
  }
  body.replaceChildren(...rows);
  document.getElementById("no-games").hidden = rows.length > 0;
}

setupLanguage(document.getElementById("lang-slot")).then(loadMeta).catch((err) => showError(err.message));
refresh().catch((err) => showError(err.message));
setInterval(() => refresh().catch(() => {}), 5000);
