// The lobby: the open games anyone may join, and a form to post one (docs/web.md, "The lobby").
import { api, el, rememberSeat } from "./common.js";
import { setupLanguage, t } from "./i18n.js";
import { paceName } from "./clock.js";

const $ = (id) => document.getElementById(id);
let meta = null;
let me = { signed_in: false };

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function gameInfo(name) {
  return (meta.games || []).find((g) => g.name === name) || { seat_names: {}, title: name, seats: [] };
}

function sideName(game, seat) {
  return gameInfo(game).seat_names[seat] || seat;
}

function fillForm() {
  const games = (meta.games || []).filter((g) => g.web && g.seats.length === 2);
  $("post-game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  const sync = () => {
    const g = gameInfo($("post-game").value);
    $("post-side").replaceChildren(el("option", { value: "random" }, t("Random")),
      ...g.seats.map((s) => el("option", { value: s }, sideName(g.name, s))));
    const rulesets = (g.options || {}).ruleset || [];
    $("post-ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r }, r)));
    $("post-ruleset").disabled = rulesets.length === 0;
    if (rulesets.length) $("post-ruleset").value = rulesets[0];
  };
  $("post-game").addEventListener("change", sync);
  sync();
  $("post-rated").disabled = !me.signed_in;
  $("post-rated").checked = me.signed_in;
  $("post-name").hidden = $("guest-name-label").hidden = me.signed_in;
  if (me.signed_in) {
    $("profile-link").href = `/profile/${encodeURIComponent(me.name)}`;
    $("profile-link").hidden = false;
  }
}

function postLine(post) {
  const what = t("{name} plays {side}; you play {free}", {
    name: post.poster, side: sideName(post.game, post.poster_seat), free: sideName(post.game, post.seat) });
  const tags = [gameInfo(post.game).title || post.title, post.ruleset, post.rated ? t("rated") : t("unrated"),
    paceName(post.pace) || null]
    .filter(Boolean).join(" · ");
  let button;
  if (post.mine) {
    button = el("button", { type: "button" }, t("Withdraw"));
    button.addEventListener("click", () => act(button, async () => {
      await api(`/api/lobby/${encodeURIComponent(post.id)}/withdraw`, {});
      await refresh();
    }));
  } else {
    button = el("button", { type: "button", class: "primary" }, t("Join"));
    button.addEventListener("click", () => act(button, async () => {
      const joined = await api(`/api/lobby/${encodeURIComponent(post.id)}/join`, { name: $("post-name").value || null });
      rememberSeat({ token: joined.token, game_id: joined.game_id, seat: joined.seat });
      location.href = joined.link;
    }));
  }
  return el("li", { class: "game-line" }, el("strong", {}, what), " · ", el("span", { class: "muted" }, tags), " ", button);
}

async function act(button, work) {
  showError("");
  button.disabled = true;
  try { await work(); } catch (err) { showError(err.message); } finally { button.disabled = false; }
}

async function refresh() {
  const { posts } = await api("/api/lobby");
  $("posts").replaceChildren(...posts.map(postLine));
  $("no-posts").hidden = posts.length > 0;
}

$("post-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const button = $("post-form").querySelector("button");
  act(button, async () => {
    const body = { game: $("post-game").value, side: $("post-side").value, rated: $("post-rated").checked };
    if (!$("post-ruleset").disabled) body.ruleset = $("post-ruleset").value;
    if ($("post-pace").value !== "none") body.pace = $("post-pace").value;
    if (!me.signed_in && $("post-name").value) body.name = $("post-name").value;
    const made = await api("/api/lobby", body);
    rememberSeat({ token: made.token, game_id: made.game_id, seat: made.seat });
    $("posted").replaceChildren(t("Your game is posted."), " ",
      el("a", { href: made.link, id: "posted-seat" }, t("Go to my seat to wait for an opponent")));
    $("posted").hidden = false;
    await refresh();
  });
});

async function start() {
  await setupLanguage($("lang-slot"));
  [meta, me] = await Promise.all([api("/api/meta"), api("/api/account")]);
  fillForm();
  await refresh();
  setInterval(() => { if (!document.hidden) refresh().catch(() => {}); }, 10000);
}

start().catch((err) => showError(err.message));
