// Opt-in hints on the play page: agree to them, then ask for the strongest bot's top three choices.
// Words in TEXT (for translation). The server refuses hints until every person in the game agreed.
import { api, el } from "./common.js";
import { lang, t } from "./i18n.js";

const TEXT = {
  get title() { return t("Hints"); },
  get proposed() { return t("Your opponent proposes hints for both sides (the strongest bot's suggestions on request)."); },
  get accept() { return t("Agree to hints"); },
  get waiting() { return t("Hints are on once your opponent agrees."); },
  get ask() { return t("Show hints"); },
  get thinking() { return t("Thinking…"); },
  get notYourTurn() { return t("Hints are for your own decisions."); },
  get hinted() { return t("Hints are on in this game (for both sides)."); },
  chance: (p) => t("{chance} to win", { chance: pct(p) }),
  get strongest() { return t("the strongest bot's choice"); },
};

function pct(p) { return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(p); }

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/seat/${encodeURIComponent(token)}/hints`;

function render(status, list, error = null) {
  const panel = $("hints-panel");
  if (!status.proposed) { panel.hidden = true; return; }
  const parts = [el("h2", {}, TEXT.title)];
  if (!status.hinted && !status.agreed.includes(status.seat)) {
    parts.push(el("p", {}, TEXT.proposed),
      el("button", { type: "button", id: "hints-accept", onclick: () => accept() }, TEXT.accept));
  } else if (!status.hinted) {
    parts.push(el("p", { class: "muted" }, TEXT.waiting));
  } else {
    parts.push(el("p", { class: "muted" }, TEXT.hinted),
      el("button", { type: "button", id: "hints-ask", onclick: () => ask(status) }, TEXT.ask));
    if (error) parts.push(el("p", { class: "muted", role: "status" }, error)); // e.g. asked too often: wait
    if (list) {
      parts.push(list.length ? el("ol", { id: "hints-list" }, ...list.map((h) => el("li", {},
        el("strong", {}, h.label), ` — ${TEXT.chance(h.chance)}${h.strongest ? ` (${TEXT.strongest})` : ""}: ${h.reason}`)))
        : el("p", { class: "muted" }, TEXT.notYourTurn));
    }
  }
  panel.replaceChildren(...parts);
  panel.hidden = false;
}

async function accept() {
  render(await api(`${base}/accept`, {}), null);
}

async function ask(status) {
  $("hints-ask").disabled = true;
  $("hints-ask").textContent = TEXT.thinking;
  try {
    const answer = await api(base);
    render(status, answer.hints);
  } catch (err) {
    render(status, null, err.message);
  }
}

api(`${base}/status`).then((status) => render(status, null)).catch(() => {});
