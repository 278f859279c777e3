// The win-probability curve as SVG (post-game page and the live view of bot games). Words in TEXT.
export const TEXT = {
  title: "Game analysis",
  loading: "Working out the curve and the turning points…",
  status: (id) => `Game ${id} · analysis`,
  summary: (winner, cards) => `${winner} won. Imperial's estimated chance of winning after each of the ${cards} cards.`,
  caption: "Imperial win chance (0–100%) card by card; dots mark the turning points, vertical lines the rounds.",
  turningTitle: "Turning points",
  turning: (tp) => `Card ${tp.card}, round ${tp.round}: ${tp.side} played “${tp.played}”. Imperial's chance went from ${pct(tp.before)} to ${pct(tp.after)}.`,
  strongest: (tp) => `The strongest bot would have played “${tp.strongest.label}” (Imperial ${pct(tp.strongest.estimate)}; the move played: ${pct(tp.played_estimate)}).`,
  sameAsBot: "The strongest bot would have played the same.",
  showInReplay: "Show in the replay",
  method: "Estimates come from the bots' evaluation calibrated on bot-vs-bot games (see docs/analysis.md); they read only what both sides could see.",
  liveTitle: "Imperial win chance (live)",
  nobody: "Nobody",
  imperial: "Imperial",
  insurgent: "Insurgent",
  axis: "Imperial win chance",
};

export function pct(p) { return `${Math.round(100 * p)}%`; }

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
