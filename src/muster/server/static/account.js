// The account page: log in or sign up, My games (on every device), and the account's own settings.
import { api, el, sideName } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const side = sideName;
let csrf = "";

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function notice(message) {
  $("notice").textContent = message;
  $("notice").hidden = !message;
}

/** POST to an account endpoint with this sign-in's CSRF token (refused without it). */
async function post(path, body = {}) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Muster-CSRF": csrf },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

/** The opponents of a game in words: a person's name or the bot's level, never a bot's settings. */
function opponents(game) {
  return game.opponents.map((o) => {
    if (o.kind === "bot") return t("the {level} bot", { level: t(o.level) });
    if (o.waiting) return t("the person invited (not joined yet)");
    return o.name || t("a person");
  }).join(", ");
}

function since(iso) {
  if (!iso) return "";
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  if (minutes < 60) return t("{n} min ago", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("{n} h ago", { n: hours });
  return t("{n} days ago", { n: Math.round(hours / 24) });
}

function gameLine(game) {
  let status;
  if (game.status !== "active") {
    status = game.winner === game.seat ? t("You won") : game.winner ? t("You lost") : t("Finished");
  } else {
    status = game.your_turn ? t("Your turn") : t("Waiting for the opponent");
  }
  const open = el("button", { type: "button", class: game.your_turn ? "primary" : "" },
    game.status === "active" ? t("Play") : t("Open"));
  open.addEventListener("click", async () => {
    showError("");
    try {
      const seat = await post(`/api/account/games/${encodeURIComponent(game.game_id)}/${encodeURIComponent(game.seat)}/open`);
      location.href = seat.url;
    } catch (err) { showError(err.message); }
  });
  const links = [open];
  if (game.status !== "active") {
    links.push(" ", el("a", { href: `/replay/${encodeURIComponent(game.game_id)}` }, t("Replay")));
  }
  return el("li", { class: "game-line" },
    el("strong", {}, status), " · ",
    t("{side} against {opponent}", { side: side(game.seat), opponent: opponents(game) }), " · ",
    el("span", { class: "muted" }, since(game.updated_at)), " ", ...links);
}

async function showSignedIn(me) {
  csrf = me.csrf;
  $("signed-out").hidden = true;
  $("my-games").hidden = false;
  $("settings").hidden = false;
  $("who").textContent = t("Logged in as {name}.", { name: me.name });
  const { games } = await api("/api/account/games");
  const vacation = await api("/api/account/vacation").catch(() => null);
  $("vacation").textContent = vacation ? t("Vacation: {left} of {days} days left this year (used a day at a time when a clock of yours would run out).", vacation) : "";
  $("games-list").replaceChildren(...games.map(gameLine));
  $("no-games").hidden = games.length > 0;
}

function showSignedOut() {
  csrf = "";
  $("signed-out").hidden = false;
  $("my-games").hidden = true;
  $("settings").hidden = true;
}

async function refresh() {
  const me = await api("/api/account");
  if (me.signed_in) await showSignedIn(me);
  else showSignedOut();
}

function onSubmit(id, handler) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    notice("");
    const button = $(id).querySelector("button");
    button.disabled = true;
    try { await handler(); } catch (err) { showError(err.message); } finally { button.disabled = false; }
  });
}

onSubmit("login-form", async () => {
  const done = await api("/api/account/login", { name: $("login-name").value, password: $("login-password").value });
  $("login-password").value = "";
  if (done.attached) notice(t("Your guest games in this browser are now your account's."));
  await refresh();
});

onSubmit("signup-form", async () => {
  const done = await api("/api/account/signup", {
    name: $("signup-name").value, password: $("signup-password").value, email: $("signup-email").value || null,
  });
  $("signup-password").value = "";
  if (done.attached) notice(t("Your guest games in this browser are now your account's."));
  await refresh();
});

onSubmit("password-form", async () => {
  await post("/api/account/password", { current: $("password-current").value, new: $("password-new").value });
  $("password-current").value = "";
  $("password-new").value = "";
  notice(t("Password changed; your other devices are logged out."));
});

onSubmit("delete-form", async () => {
  if (!window.confirm(t("Delete your account for good?"))) return;
  await post("/api/account/delete", { password: $("delete-password").value });
  $("delete-password").value = "";
  notice(t("Your account is deleted."));
  showSignedOut();
});

$("logout").addEventListener("click", async () => {
  showError("");
  try {
    await post("/api/account/logout");
    showSignedOut();
  } catch (err) { showError(err.message); }
});

setupLanguage($("lang-slot")).then(refresh).catch((err) => showError(err.message));
