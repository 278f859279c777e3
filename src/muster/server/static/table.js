// Around the board, between the two players: chat, resign, a rematch between people, the opponent's
// presence, and the rating changes once a rated game is over (docs/web.md, "Resign and rematch", "Chat").
// It asks the server every few seconds through the seat's own token; nothing here reaches a spectator.
import { api, el, rememberSeat } from "./common.js";
import { loadMessages, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/seat/${encodeURIComponent(token)}`;
let lastId = 0;
let latest = null;
let opening = false;

function panel() {
  let box = $("table-panel");
  if (box) return box;
  const form = el("form", { id: "chat-form", class: "chat-form" },
    el("label", { for: "chat-text", class: "sr-only" }, t("Message to your opponent")),
    el("input", { id: "chat-text", maxlength: "500", autocomplete: "off", placeholder: t("Message to your opponent") }),
    el("button", { type: "submit" }, t("Send")));
  form.addEventListener("submit", (event) => { event.preventDefault(); send(); });
  const resign = el("button", { type: "button", id: "resign" }, t("Resign"));
  resign.addEventListener("click", resignGame);
  const block = el("button", { type: "button", id: "block", hidden: "" });
  block.addEventListener("click", toggleBlock);
  box = el("section", { id: "table-panel", class: "table-panel", "aria-label": t("Chat") },
    el("p", { id: "presence", class: "muted" }),
    el("p", { id: "rating-change", hidden: "" }),
    el("ol", { id: "chat", class: "chat", "aria-live": "polite", "aria-label": t("Chat") }),
    form, el("p", {}, resign, " ", block));
  $("side").prepend(box);
  return box;
}

function since(iso) {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  if (minutes < 60) return t("{n} min ago", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("{n} h ago", { n: hours });
  return t("{n} days ago", { n: Math.round(hours / 24) });
}

function show(social) {
  latest = social;
  const people = social.humans.length === 2;
  panel().hidden = false;
  $("chat-form").hidden = !people;
  $("chat").hidden = !people;
  $("resign").hidden = social.over || !social.humans.includes(social.seat);
  const other = social.humans.find((s) => s !== social.seat);
  const seen = other && social.presence[other];
  $("presence").textContent = !other ? "" : !seen ? t("Your opponent has not opened the game yet.")
    : seen.online ? t("Your opponent is online now.") : t("Your opponent was last seen {when}.", { when: since(seen.last_seen) });
  for (const m of social.chat) {
    lastId = Math.max(lastId, m.id);
    const who = m.seat === social.seat ? t("You") : t("Opponent");
    $("chat").append(el("li", { class: m.seat === social.seat ? "mine" : "theirs" }, el("strong", {}, `${who}: `),
      m.hidden ? el("em", {}, t("(a message from someone you blocked)")) : m.text));
  }
  if (social.chat.length) $("chat").scrollTop = $("chat").scrollHeight;
  const drawer = $("side-toggle"); // on a phone the chat sits in the side drawer: mark news on its button
  if (drawer && drawer.getAttribute("aria-expanded") !== "true" && social.chat.some((m) => m.seat !== social.seat)) {
    drawer.classList.add("news");
  }
  const account = social.opponent_account;
  $("block").hidden = !account || !signedIn;
  if (account) {
    $("block").textContent = account.blocked ? t("Unblock {name}", { name: account.name }) : t("Block {name}", { name: account.name });
  }
  const mine = social.ratings[social.seat];
  $("rating-change").hidden = !mine;
  if (mine) {
    const words = t("Your rating: {before} → {after}", mine);
    $("rating-change").textContent = words;
    if (!$("go-rating") && $("go-why")) $("go-why").after(el("p", { id: "go-rating", class: "go-rating" }));
    if ($("go-rating")) $("go-rating").textContent = words; // on the game-over screen too, where a phone shows it
  }
  showRematch(social);
}

function showRematch(social) {
  const box = $("rematch-box");
  if (!box || !social.over || social.humans.length !== 2) return;
  const r = social.rematch;
  if (!r) return;
  if (r.started) {
    if (!opening) { opening = true; rematchWithPerson().catch(() => { opening = false; }); }
    return;
  }
  if (r.offered_by === social.seat) {
    box.replaceChildren(el("p", {}, t("Rematch offered: waiting for your opponent to accept.")));
  } else {
    const accept = el("button", { type: "button", class: "primary", id: "accept-rematch" }, t("Accept the rematch"));
    accept.addEventListener("click", () => { accept.disabled = true; rematchWithPerson().catch(showError); });
    box.replaceChildren(el("p", {}, t("Your opponent offers a rematch with sides swapped.")), accept);
  }
  box.hidden = false;
}

function showError(err) {
  const box = $("error");
  if (box) { box.textContent = err.message || String(err); box.hidden = false; }
}

/** Offer a rematch to the other person, accept theirs, or (once it started) go to this player's new seat. */
export async function rematchWithPerson() {
  const answer = await api(`${base}/rematch`, {});
  if (answer.state === "started") {
    rememberSeat({ token: answer.token, game_id: answer.game_id, seat: answer.seat });
    location.href = answer.link;
    return;
  }
  await poll();
}

async function send() {
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    await api(`${base}/chat`, { text });
    input.value = "";
    await poll();
  } catch (err) { showError(err); }
}

async function resignGame() {
  if (!window.confirm(t("Resign this game? It counts as a loss."))) return;
  try { await api(`${base}/resign`, {}); await poll(); } catch (err) { showError(err); }
}

let signedIn = false;
let csrf = "";

/** Block the opponent's account (their chat is hidden from you; no more games or rematches together), or unblock. */
async function toggleBlock() {
  const account = latest?.opponent_account;
  if (!account) return;
  if (!account.blocked && !window.confirm(t("Block {name}? You will not see their messages, and neither of you can join the other's games or ask for a rematch.", { name: account.name }))) return;
  try {
    const response = await fetch("/api/account/blocks", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Muster-CSRF": csrf },
      body: JSON.stringify({ name: account.name, block: !account.blocked }),
    });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || `HTTP ${response.status}`);
    lastId = 0;
    $("chat").replaceChildren();
    await poll();
  } catch (err) { showError(err); }
}

async function poll() {
  const social = await api(`${base}/social?after=${lastId}`);
  show(social);
}

/** Whether the opponent is a person (the rematch then goes through the server, both seats bound). */
export function againstPerson() {
  return Boolean(latest && latest.humans.length === 2);
}

$("side-toggle")?.addEventListener("click", () => $("side-toggle").classList.remove("news"));

function loop() {
  poll().catch(() => {}).finally(() => setTimeout(loop, document.hidden ? 15000 : 4000));
}

api("/api/account").then((me) => { signedIn = Boolean(me.signed_in); csrf = me.csrf || ""; }).catch(() => {});
loadMessages().finally(loop); // its words in the page's language from the start
