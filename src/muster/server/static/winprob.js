// The win-probability curve as SVG (post-game page and the live view of bot games). Words in TEXT (via t()).
import { lang, t, tn } from "./i18n.js";
export const TEXT = {
  get title() { return t("Game analysis"); },
  get loading() { return t("Working out the curve and the turning points…"); },
  progress: (p, queued) => (queued
    ? tn("Working out the curve and the turning points: {done} done; {n} other analysis is ahead of this one.",
      "Working out the curve and the turning points: {done} done; {n} other analyses are ahead of this one.", queued,
      { done: pct(p) })
    : t("Working out the curve and the turning points: {done} done.", { done: pct(p) })),
  status: (id) => t("Game {id} · analysis", { id }),
  summary: (winner, cards) => tn("{winner} won. The Imperial side's estimated chance of winning after each of the {n} cards.",
    "{winner} won. The Imperial side's estimated chance of winning after each of the {n} cards.", cards, { winner }),
  get caption() { return t("Imperial win chance (0–100%) card by card; dots mark the turning points, vertical lines the rounds."); },
  get turningTitle() { return t("Turning points"); },
  turning: (tp) => t("Card {card}, round {round}: {side} played “{played}”. The Imperial side's chance went from {before} to {after}.",
    { card: tp.card, round: tp.round, side: sideWord(tp.side), played: tp.played, before: pct(tp.before), after: pct(tp.after) }),
  strongest: (tp) => t("The strongest bot would have played “{label}” (Imperial side {estimate}; the move played: {played}).",
    { label: tp.strongest.label, estimate: pct(tp.strongest.estimate), played: pct(tp.played_estimate) }),
  get sameAsBot() { return t("The strongest bot would have played the same."); },
  get luck() { return t("The swing was mostly luck: the dice and the cards that followed moved the chance more than the choice itself did."); },
  get showInReplay() { return t("Show in the replay"); },
  get method() { return t("Estimates come from the bots' evaluation calibrated on bot-vs-bot games (see docs/analysis.md); they read only what both sides could see."); },
  // a game whose analysis names its subject side (its estimates are that side's chance, turn by turn, Years as
  // rounds): the same sentences with the side named
  summaryOf: (winner, side, turns) => tn("{winner} won. {side}: the estimated chance of winning after each of the {n} turns.",
    "{winner} won. {side}: the estimated chance of winning after each of the {n} turns.", turns, { winner, side }),
  captionOf: (side) => t("{side}: the win chance (0–100%) turn by turn; dots mark the turning points, vertical lines the Years.", { side }),
  turningOf: (tp, side, subject) => t("Turn {card}, {year} BC: {side} played “{played}”. {subject}: the chance went from {before} to {after}.",
    { card: tp.card, year: tp.round, side, subject, played: tp.played, before: pct(tp.before), after: pct(tp.after) }),
  strongestOf: (tp, subject) => t("The strongest bot would have played “{label}” ({subject}: {estimate}; the move played: {played}).",
    { label: tp.strongest.label, subject, estimate: pct(tp.strongest.estimate), played: pct(tp.played_estimate) }),
  get liveTitle() { return t("Imperial win chance (live)"); },
  get nobody() { return t("Nobody"); },
  get imperial() { return t("Imperial"); },
  get insurgent() { return t("Insurgent"); },
  get axis() { return t("Imperial win chance"); },
};

/** A side's name from the analysis data (English "Imperial" / "Insurgent") in the reader's language. */
function sideWord(side) { return t(side); }

export function pct(p) { return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(p); }

const NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Draw [start, ...after each card] as an SVG line; `marks` are card numbers to dot, `rounds` per card. */
export function drawCurve(container, start, values, rounds = [], marks = [], height = 220) {
  const ys = [start, ...values];
  const w = 900, h = height, pad = 30;
  const x = (i) => pad + (w - 2 * pad) * (ys.length > 1 ? i / (ys.length - 1) : 0);
  const y = (p) => h - pad - (h - 2 * pad) * p;
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": TEXT.axis, class: "winprob-svg" });
  for (const p of [0, 0.5, 1]) {
    svg.append(svgEl("line", { x1: pad, x2: w - pad, y1: y(p), y2: y(p), class: p === 0.5 ? "wp-mid" : "wp-grid" }));
    const label = svgEl("text", { x: 2, y: y(p) + 4, class: "wp-label" });
    label.textContent = pct(p);
    svg.append(label);
  }
  for (let i = 1; i < rounds.length; i++) {
    if (rounds[i] !== rounds[i - 1]) svg.append(svgEl("line", { x1: x(i + 0.5), x2: x(i + 0.5), y1: pad, y2: h - pad, class: "wp-round" }));
  }
  const points = ys.map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
  svg.append(svgEl("polyline", { points, class: "wp-line" }));
  for (const card of marks) {
    if (card < ys.length) svg.append(svgEl("circle", { cx: x(card), cy: y(ys[card]), r: 6, class: "wp-mark" }));
  }
  container.replaceChildren(svg);
}
