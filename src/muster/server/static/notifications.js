// The notification settings page: which notices go to which channel, the digest, the e-mail address
// (confirmed by a link) and the webhook (shown as disabled, with the reason, after repeated failures).
// Signed in, the choices are the account's; opened from a game as /notifications#seat=<token>, they are that
// guest seat's own (e-mail and webhook; push notices need an account).
import { api, el } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
/** A guest seat's secret token, from the fragment (never sent to the server in a request line or a referrer). */
const seatToken = new URLSearchParams(location.hash.slice(1)).get("seat");
const SETTINGS = seatToken ? `/api/seat/${encodeURIComponent(seatToken)}/notify` : "/api/notify/settings";
const CHANNELS = seatToken ? ["email", "webhook"] : ["email", "webhook", "push"];
/** A kind of notice in words (called after the catalog loaded). */
const kindName = (kind) => ({
  your_turn: t("Your turn"), game_started: t("A game begins"), invitation: t("A rematch offered"),
  chat: t("A chat message"), resigned: t("The opponent resigned"), game_over: t("A game is over"),
  clock_low: t("Your clock runs low"), timeout: t("Time ran out"),
})[kind] || kind;
let csrf = "";
let current = null;

function say(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

/** POST to an account endpoint with this sign-in's CSRF token. */
async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Muster-CSRF": csrf }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function show(settings) {
  current = settings;
  $("kinds").replaceChildren(...settings.kinds.map((kind) => el("tr", {},
    el("th", { scope: "row", id: `kind-${kind}` }, kindName(kind)),
    ...CHANNELS.map((channel) => {
      const box = el("input", { type: "checkbox", id: `${channel}-${kind}`, "data-channel": channel, "data-kind": kind,
        "aria-labelledby": `kind-${kind} head-${channel}` });
      box.checked = settings.events[channel].includes(kind);
      return el("td", {}, box);
    }))));
  document.querySelectorAll(".notify-table thead th").forEach((th, i) => { if (i) th.id = `head-${CHANNELS[i - 1]}`; });
  $("digest").checked = settings.digest;
  $("notify-lang").value = settings.lang;
  $("email").value = settings.email || "";
  let state = t("No address yet: e-mail notices need one.");
  if (!settings.mail_configured) state = t("This server sends no e-mail.");
  else if (settings.email && settings.email_verified) state = t("Notices go to {email}.", { email: settings.email });
  else if (settings.email) state = t("Waiting for you to open the link sent to {email}.", { email: settings.email });
  $("email-state").textContent = state;
  $("webhook-url").value = settings.webhook_url || "";
  $("webhook-format").value = settings.webhook_format;
  if (!seatToken) showPush(settings);
  say("webhook-state", settings.webhook_error
    ? t("The webhook is disabled after repeated failures ({why}): save it again to turn it back on.", { why: settings.webhook_error })
    : "");
}

function chosen() {
  const events = { email: [], webhook: [], push: [] };
  for (const box of document.querySelectorAll("#kinds input[type=checkbox]")) {
    if (box.checked) events[box.dataset.channel].push(box.dataset.kind);
  }
  return events;
}

function onSubmit(id, handler) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    say("error", "");
    say("notice", "");
    try { await handler(); } catch (err) { say("error", err.message); }
  });
}

onSubmit("settings-form", async () => {
  show(await post(SETTINGS, { events: chosen(), digest: $("digest").checked, lang: $("notify-lang").value }));
  say("notice", t("Saved."));
});

onSubmit("email-form", async () => {
  if (seatToken) {  // a guest seat keeps its own address; saving a new one sends the link to confirm it
    const saved = await post(SETTINGS, { email: $("email").value });
    show(saved);
    say("notice", saved.email && !saved.email_verified ? t("A link to confirm the address is on its way.") : t("Saved."));
    return;
  }
  const done = await post("/api/account/email", { email: $("email").value });
  show(await api("/api/notify/settings"));
  say("notice", done.sent ? t("A link to confirm the address is on its way.") : t("Saved."));
});

onSubmit("webhook-form", async () => {
  show(await post(SETTINGS, { webhook_url: $("webhook-url").value, webhook_format: $("webhook-format").value }));
  say("notice", t("Saved."));
});

$("test").addEventListener("click", async () => {
  say("error", "");
  try {
    const done = await post("/api/notify/test", {});
    say("notice", done.queued ? t("A test notice is on its way.") : t("Nothing to test: set up an address or a webhook first."));
  } catch (err) { say("error", err.message); }
});

/** The service worker that shows push notices; registered on this page, so a subscription can be made. */
const worker = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/static/sw.js").catch(() => null) : Promise.resolve(null);

/** This browser's push subscription, if it has one. */
async function thisSubscription() {
  const registration = await worker;
  return registration && "PushManager" in window ? registration.pushManager.getSubscription().catch(() => null) : null;
}

/** Which of the account's browsers get push notices, and whether this one does (it may stop). */
async function showPush(settings) {
  const mine = await thisSubscription();
  const here = Boolean(mine && settings.push_endpoints.includes(mine.endpoint));
  let state = t("No browser gets notices yet.");
  if (here) state = settings.push > 1 ? t("This browser and {n} others of yours get notices, even when muster is closed.", { n: settings.push - 1 })
    : t("This browser gets notices, even when muster is closed.");
  else if (settings.push) state = t("{n} browsers of yours get notices; this one does not.", { n: settings.push });
  $("push-state").textContent = state;
  $("push").hidden = here;
  $("push-stop").hidden = !here;
}

$("push-stop").addEventListener("click", async () => {
  say("error", "");
  try {
    const mine = await thisSubscription();
    const endpoint = mine ? mine.endpoint : null;
    if (mine) await mine.unsubscribe().catch(() => null);
    show(await post("/api/notify/push", { subscription: null, endpoint }));
    say("notice", t("Saved."));
  } catch (err) { say("error", err.message); }
});

$("push").addEventListener("click", async () => {
  say("error", "");
  try {
    const registration = await worker;
    if (!registration || !("PushManager" in window)) throw new Error(t("This browser cannot receive push notices."));
    if (await Notification.requestPermission() !== "granted") throw new Error(t("Notices are blocked in this browser."));
    const { key } = await api("/api/notify/push/key");
    const raw = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: Uint8Array.from(raw, (c) => c.charCodeAt(0)),
    });
    show(await post("/api/notify/push", { subscription: subscription.toJSON() }));
    say("notice", t("Saved."));
  } catch (err) { say("error", err.message); }
});

async function start() {
  if (seatToken) {
    $("seat-note").hidden = false;
    $("account-only").hidden = true;
    document.querySelector(".notify-table thead th:nth-child(4)").remove();  // push: an account's only
    $("choices").hidden = false;
    show(await api(SETTINGS));
    return;
  }
  const me = await api("/api/account");
  if (!me.signed_in) {
    $("signed-out").hidden = false;
    return;
  }
  csrf = me.csrf;
  $("choices").hidden = false;
  show(await api("/api/notify/settings"));
}

setupLanguage($("lang-slot")).then(start).catch((err) => say("error", err.message));
