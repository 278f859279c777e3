// The log, grouped by round › phase › card and coloured by side. Game-agnostic: each entry comes with its
// message id, arguments and text in the reader's language; the board module says from the id and arguments
// what an entry is (classify), which dice it rolled (dice) and in which order to show causes (reorder).
import { el } from "./common.js";
import { cardLink } from "./cards.js";
import { t } from "./i18n.js";

let tokenizer = null;

/** One regular expression finding space names and card titles in a line (longest first). */
function buildTokenizer(game) {
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const names = new Map();
  for (const sp of game.data.spaces) names.set(sp.log_name || sp.name, { space: sp.id });
  for (const c of game.data.cards) {
    names.set(`${c.number}${c.deck} ${c.name}`, { card: c.number });
    names.set(`${c.number}${c.deck} „${c.name}”`, { card: c.number }); // the Polish log quotes card names
  }
  const keys = [...names.keys()].sort((a, b) => b.length - a.length);
  return { re: new RegExp(keys.map(escape).join("|"), "g"), names };
}

/** A line's text with space names (hover: highlight on the map) and card titles (hover: the face). */
export function richText(game, text, onSpace) {
  tokenizer = tokenizer || buildTokenizer(game);
  const out = [];
  let last = 0;
  for (const m of text.matchAll(tokenizer.re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const what = tokenizer.names.get(m[0]);
    if (what.card) out.push(cardLink(what.card, m[0]));
    else {
      const sp = game.data.byId[what.space];
      out.push(el("span", { class: "space-name", tabindex: "0", "data-space": what.space, title: sp.name,
        onmouseenter: () => onSpace(what.space, true), onmouseleave: () => onSpace(what.space, false),
        onfocus: () => onSpace(what.space, true), onblur: () => onSpace(what.space, false) }, m[0]));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

/** One die as it looks: a d6 as a square with its pips, a d8 as an eight-sided stone with its number (an
 * eight-sided die really shows 7 and 8; a square face never does). */
function dieFace(n, sides) {
  const label = t("d{sides} showing {n}", { sides, n });
  if (sides === 6 && PIPS[n]) {
    return el("span", { class: "die d6", role: "img", "aria-label": label, "data-face": n, title: label },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => el("span", { class: PIPS[n].includes(k) ? "pip" : "pip off", "aria-hidden": "true" })));
  }
  return el("span", { class: `die d${sides || "x"}`, role: "img", "aria-label": label, "data-face": n, title: label },
    el("span", { class: "die-n", "aria-hidden": "true" }, n));
}

const signed = (n) => (n > 0 ? `+${n}` : `−${-n}`);

/** Dice as dice, in one format for every roll: the faces as rolled, then the modifier and the total,
 * then the number needed and the result word ("⚂ ⚄ +1 = 9 · needs 12+ · no answer"). */
export function diceView(d) {
  const sides = d.sides || 6;
  const faces = d.dice.map((n) => dieFace(n, sides));
  const word = d.miss ? "miss" : "hit";
  const parts = [];
  if (d.total !== undefined || d.sum) { // a sum of dice and a track
    const total = d.total ?? d.dice.reduce((a, b) => a + b, 0) + d.modifier;
    const track = d.track ? ` ${t(d.track)}` : "";
    parts.push(el("span", { class: "dice-mod" }, `${d.modifier || track ? `${d.modifier >= 0 ? "+" : "−"}${Math.abs(d.modifier)}${track} ` : ""}= ${total}`));
    if (d.need) parts.push(el("span", { class: "dice-need" }, d.below ? t("needs under {need}", d) : t("needs {need}+", d)));
  } else if (d.bands) { // each die on its own: a hit at or under one face, a rout at or over another
    faces.forEach((face, k) => face.classList.add(
      d.dice[k] <= d.hit ? "die-hit" : d.rout && d.dice[k] >= d.rout ? "die-rout" : "die-miss"));
    parts.push(el("span", { class: "dice-need" }, d.rout
      ? t("hit on {hit} or less, rout on {rout} or more", d) : t("hit on {hit} or less", d)));
  } else if (d.cannon) { // each die on its own
    const totals = d.dice.map((n) => n + d.modifier);
    parts.push(el("span", { class: "dice-mod" }, d.modifier ? `${t("{mod} each", { mod: signed(d.modifier) })} = ${totals.join(", ")}` : ""));
    parts.push(el("span", { class: "dice-need" }, t("each needs {need}+", d)));
  } else { // one die, or the better of two
    const top = Math.max(...d.dice);
    const lead = d.dice.length > 1 ? `${t("best {n}", { n: top })} ` : "";
    // a lone die unmodified is its own total: "= 5" after it would say nothing
    if (lead || d.modifier) parts.push(el("span", { class: "dice-mod" }, `${lead}${d.modifier ? `${signed(d.modifier)} ` : ""}= ${top + d.modifier}`));
    parts.push(el("span", { class: "dice-need" }, t("needs {need}+", d)));
  }
  return el("span", { class: "dice", "data-sides": sides }, ...faces, ...parts.filter((p) => p.textContent),
    el("strong", { class: `dice-result ${word}` }, d.result));
}

/** The dice of a log entry, drawn from its message and arguments (the board module's ``dice``), or null. A dice
 * line reads "<who>: <the roll>: <result>" in every language, so the words before the roll and the result are
 * taken from the line's own text in the reader's language. */
export function diceOf(game, entry) {
  const d = entry.m && game.mod.dice ? game.mod.dice(entry) : null;
  if (!d) return null;
  const text = entry.t, cut = text.indexOf(": "), last = text.lastIndexOf(": ");
  return { ...d, before: cut > 0 ? text.slice(0, cut) : text, result: last > 0 ? text.slice(last + 2).replace(/[.!]$/, "") : "" };
}

const PLAIN = { level: null, side: null };

/** What an entry is ({level, side, ...}): the board module reads it from the message id and arguments; a line
 * without a message (an older game's) is a plain line. */
function classifyEntry(game, entry) {
  return entry.m ? game.mod.classify(entry) : PLAIN;
}

function lineItem(game, entry, onSpace) {
  const info = classifyEntry(game, entry);
  const d = diceOf(game, entry);
  const li = el("li", { class: `entry${info.side ? ` side-${info.side}` : ""}${d ? " dice-line" : ""}` });
  if (d) li.append(...richText(game, `${d.before}: `, onSpace), diceView(d));
  else li.append(...richText(game, entry.t, onSpace));
  return li;
}

/** A server notice in the log (a bot's move played at random): not a line of the game's own log. */
function noticeItem(notice) {
  return el("li", { class: "log-notice", role: "note", "data-step": notice.step }, notice.text);
}

/** Render the whole log into ``root`` (an <ol>): rounds › phases › cards, causes before effects. ``entries``:
 * the log as the server sends it, ``{m, a, t}`` each (see :func:`muster.server.views.wire_log`). */
export function renderLog(root, game, entries, onSpace, notices = []) {
  const ordered = game.mod.reorder ? game.mod.reorder(entries) : entries;
  const rounds = [];
  let round = null, phase = null, card = null;
  const newRound = (title) => {
    round = el("li", { class: "log-round" }, el("h3", {}, title), el("ol", {}));
    rounds.push(round); phase = null; card = null;
  };
  const newPhase = (title) => {
    if (!round) newRound(t("Setup"));
    phase = el("li", { class: "log-phase" }, el("h4", {}, t(title)), el("ol", {}));
    round.lastChild.append(phase); card = null;
  };
  const pending = [...notices].sort((a, b) => a.log_at - b.log_at);
  const placeNotices = (upTo) => { // each notice goes after the log line it follows
    while (pending.length && pending[0].log_at <= upTo) {
      const item = noticeItem(pending.shift());
      if (card) card.lastChild.append(item);
      else if (phase) phase.lastChild.append(item);
      else { if (!round) newRound(t("Setup")); round.lastChild.append(item); }
    }
  };
  for (const [k, entry] of ordered.entries()) {
    placeNotices(k);
    const info = classifyEntry(game, entry);
    const item = () => lineItem(game, entry, onSpace);
    if (info.level === "round") {
      newRound(info.round ? t("Round {n}", { n: info.round }) : t(info.title));
      if (info.keep) round.lastChild.append(item());
      continue;
    }
    if (info.level === "phase") {
      if (!(phase && phase.dataset.title === info.title)) { newPhase(info.title); phase.dataset.title = info.title; }
      if (info.keep) phase.lastChild.append(item());
      continue;
    }
    if (!phase) newPhase(round ? "Start" : "Setup");
    if (info.level === "card") {
      card = el("li", { class: `log-card side-${info.side}` }, el("div", { class: "log-card-head" }, ...richText(game, entry.t, onSpace)), el("ol", {}));
      phase.lastChild.append(card);
      continue;
    }
    (card ? card.lastChild : phase.lastChild).append(item());
  }
  placeNotices(Infinity);
  root.replaceChildren(...rounds);
}

/** The latest dice line of the log, drawn as dice (null if none yet). */
export function latestDice(game, entries, onSpace) {
  for (let k = entries.length - 1; k >= 0; k--) {
    const d = diceOf(game, entries[k]);
    if (d) return el("div", { class: "latest-dice" }, ...richText(game, `${d.before}: `, onSpace), diceView(d));
  }
  return null;
}
