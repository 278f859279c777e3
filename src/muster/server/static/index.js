// The lobby: start a game, list the games this browser holds a seat in.
import { api, el, rememberSeat, rememberWatched, rememberedSeats, watchedGames } from "./common.js";
import { setupLanguage, t } from "./i18n.js";
import * as hellenesLobby from "./games/hellenes/lobby.js";

const form = document.getElementById("new-game");
const errorBox = document.getElementById("error");
let meta = { seat_names: { imperial: "Imperial", insurgent: "Insurgent" }, levels: [] };
const ALL_SEATS = { athens: "Athens", sparta: "Sparta" };
const seatName = (seat) => meta.seat_names[seat] || ALL_SEATS[seat] || seat;

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

// The lobby's words for each game's sides (one place, for translation).
const SIDES = {
  freedom: [["imperial", "Imperial", "the Ottoman besiegers: attack"],
    ["insurgent", "Insurgent", "the Greek defenders of Messolonghi: hold out"]],
  get hellenes() { return hellenesLobby.sides(); },  // its words live in the Hellenes catalog
};
const TITLES = { freedom: "Freedom! Messolonghi 1825–1826", get hellenes() { return hellenesLobby.title(); } };
const chosenGame = () => form.game.value || "freedom";
const seatsOf = (game) => SIDES[game].map(([seat]) => seat);

/** Sides, levels, intro and rules link for the game chosen in the lobby. */
function showGame(game) {
  const info = (meta.games || []).find((g) => g.name === game) || {};
  meta.seat_names = { ...meta.seat_names, ...(info.seat_names || {}) };
  const sides = document.getElementById("sides");
  sides.replaceChildren(el("legend", {}, t("Your side")), ...SIDES[game].map(([seat, name, small], k) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "side", value: seat, checked: k === 0 ? "" : null }), el("span", {}, t(name), el("small", {}, t(small))))));
  const chosen = form.level?.value || meta.default_level;
  const box = document.getElementById("levels");
  box.replaceChildren(el("legend", {}, t("Computer strength")), ...(info.levels || meta.levels).map((level) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "level", value: level.id, id: `level-${level.id}`, checked: level.id === chosen ? "" : null }),
    el("span", {}, t(level.name), el("small", {}, t(level.description))))));
  for (const name of Object.keys(SIDES)) document.getElementById(`intro-${name}`).hidden = name !== game;
  document.getElementById("ruleset-field").hidden = game !== "freedom";
  document.getElementById("game-title").textContent = TITLES[game];
  document.getElementById("rules-top").href = `/rules/${game}`;
}

/** The computer's strength is asked only when a computer plays. */
function showLevels() {
  document.getElementById("levels").hidden = form.opponent.value === "human";
}
for (const input of form.querySelectorAll("input[name=opponent]")) input.addEventListener("change", showLevels);

async function loadMeta() {
  meta = await api("/api/meta");
  for (const input of form.querySelectorAll("input[name=game]")) {
    const info = (meta.games || []).find((g) => g.name === input.value);
    if (!info || !info.web) input.closest("label").remove();
    input.addEventListener("change", () => showGame(chosenGame()));
  }
  showGame(chosenGame());
  const ruleset = document.getElementById("ruleset");
  for (const name of meta.rulesets) ruleset.append(el("option", { value: name }, t("{name} edition", { name })));
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
  const other = seatsOf(game).find((seat) => seat !== side);
  const mode = form.opponent.value;
  const level = form.level.value || meta.default_level;
  const body = { game, [side]: mode === "bots" ? level : "human", [other]: mode === "human" ? "human" : level };
  if (mode !== "bots") body.seat = side;
  if (game === "freedom") body.ruleset = form.ruleset.value;
  const name = form.name.value.trim();
  localStorage.setItem("muster.name", name);
  if (name && mode !== "bots") body.names = { [side]: name };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  if (form.delay.value !== "") body.bot_delay_ms = Number(form.delay.value);
  if (form.hints.checked && mode !== "bots") body.hints = side;
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
  return game.your_turn ? t("your turn") : t("{side} to play", { side: seatName(game.active_seat) || "?" });
}

/** Who plays a seat, in words: a person by the name they gave, a bot by its level (never its settings). */
function whoText(kind, name, levelName) {
  if (kind === "human") return name ? t("{name} (a person)", { name }) : t("a person");
  return levelName ? t("the {level} bot", { level: t(levelName) }) : t("a bot");
}

function opponentText(game) {
  const other = Object.values(SIDES).map((list) => list.map(([seat]) => seat)).find((seats) => seats.includes(game.seat))
    ?.find((seat) => seat !== game.seat);
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

setupLanguage(document.getElementById("lang-slot")).then(() => {
  hellenesLobby.translateIntro(document.getElementById("intro-hellenes"));
  const line = document.querySelector("input[name=game][value=hellenes] + span small");
  if (line && document.documentElement.lang !== "en") line.textContent = hellenesLobby.choiceLine();
}).then(loadMeta).catch((err) => showError(err.message));
refresh().catch((err) => showError(err.message));
setInterval(() => refresh().catch(() => {}), 5000);
