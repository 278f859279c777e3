// The log, grouped by round › phase › card and coloured by side. Game-agnostic: the board module
// says what each line is (classify), fixes its wording (polish, reorder) and finds dice in it.
import { el } from "./common.js";
import { cardLink } from "./cards.js";

let tokenizer = null;

/** One regular expression finding space names and card titles in a line (longest first). */
function buildTokenizer(game) {
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const names = new Map();
  for (const sp of game.data.spaces) names.set(sp.log_name || sp.name, { space: sp.id });
  for (const c of game.data.cards) names.set(`${c.number}${c.deck} ${c.name}`, { card: c.number });
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

/** Dice as dice: faces, modifier, the number needed and the result word. */
export function diceView(d) {
  const faces = d.dice.map((n) => el("span", { class: "die", "aria-label": `die ${n}` }, n));
  const mod = d.modifier ? el("span", { class: "dice-mod" }, d.modifier > 0 ? `+${d.modifier}` : `−${-d.modifier}`) : null;
  const word = /^(miss|no hit|0 hit|refused|no answer)/.test(d.result) ? "miss" : "hit";
  if (d.total !== undefined) {
    return el("span", { class: "dice" }, ...faces, el("span", { class: "dice-mod" }, `+${d.modifier} = ${d.total}`),
      el("strong", { class: `dice-result ${word}` }, d.result));
  }
  const rule = d.cannon ? `each die${d.modifier ? " with it" : ""} needs ${d.need}+`
    : d.best ? `the better die${d.modifier ? " with it" : ""} needs ${d.need}+` : `needs ${d.need}+`;
  return el("span", { class: "dice" }, ...faces, mod, el("span", { class: "dice-need" }, rule),
    el("strong", { class: `dice-result ${word}` }, d.result));
}

function lineItem(game, raw, onSpace) {
  const text = game.mod.polish(raw);
  const info = game.mod.classify(raw);
  const d = game.mod.parseDice(text);
  const li = el("li", { class: `entry${info.side ? ` side-${info.side}` : ""}${d ? " dice-line" : ""}` });
  if (d) li.append(...richText(game, `${d.before}: `, onSpace), diceView(d));
  else li.append(...richText(game, text, onSpace));
  return li;
}

/** Render the whole log into ``root`` (an <ol>): rounds › phases › cards, causes before effects. */
export function renderLog(root, game, lines, onSpace) {
  const ordered = game.mod.reorder(lines);
  const rounds = [];
  let round = null, phase = null, card = null;
  const newRound = (title) => {
    round = el("li", { class: "log-round" }, el("h3", {}, title), el("ol", {}));
    rounds.push(round); phase = null; card = null;
  };
  const newPhase = (title) => {
    if (!round) newRound("Setup");
    phase = el("li", { class: "log-phase" }, el("h4", {}, title), el("ol", {}));
    round.lastChild.append(phase); card = null;
  };
  for (const raw of ordered) {
    const info = game.mod.classify(raw);
    if (info.level === "round") { newRound(info.title); if (/^Setup/.test(raw)) round.lastChild.append(lineItem(game, raw, onSpace)); continue; }
    if (info.level === "phase") {
      if (!(phase && phase.dataset.title === info.title)) { newPhase(info.title); phase.dataset.title = info.title; }
      if (info.keep) phase.lastChild.append(lineItem(game, raw, onSpace));
      continue;
    }
    if (!phase) newPhase(round ? "Start" : "Setup");
    if (info.level === "card") {
      card = el("li", { class: `log-card side-${info.side}` }, el("div", { class: "log-card-head" }, ...richText(game, game.mod.polish(raw), onSpace)), el("ol", {}));
      phase.lastChild.append(card);
      continue;
    }
    (card ? card.lastChild : phase.lastChild).append(lineItem(game, raw, onSpace));
  }
  root.replaceChildren(...rounds);
}

/** The latest dice line of the log, drawn as dice (null if none yet). */
export function latestDice(game, lines, onSpace) {
  for (let k = lines.length - 1; k >= 0; k--) {
    const text = game.mod.polish(lines[k]);
    const d = game.mod.parseDice(text);
    if (d) return el("div", { class: "latest-dice" }, ...richText(game, `${d.before}: `, onSpace), diceView(d));
  }
  return null;
}
