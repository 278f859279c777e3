// A small line chart of how tracks moved over a game (the game-over screen). Game-agnostic: the board
// module reads the series out of the log (trackHistory); this draws them.
export const SVG_NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** ``history``: {series: [{name, side, points: [[x, value]]}], rounds: [x], length, range: [lo, hi]}. */
export function historyChart(history, word, sideName) {
  const W = 320, H = 130, left = 26, right = 84, top = 8, bottom = 22; // the right margin holds the end values
  const [lo, hi] = history.range;
  const X = (x) => left + (x / Math.max(1, history.length)) * (W - left - right);
  const Y = (v) => top + (1 - (v - lo) / (hi - lo)) * (H - top - bottom);
  const last = (sr) => sr.points[sr.points.length - 1]?.[1];
  const root = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "history-svg", role: "img",
    "aria-label": history.series.map((sr) => `${word(sr.name)}: ${sr.points[0]?.[1]} → ${last(sr)}`).join("; ") });
  for (const v of [lo, (lo + hi) / 2, hi]) {
    root.append(s("line", { x1: left, x2: W - right, y1: Y(v), y2: Y(v), class: "hist-grid" }),
      s("text", { x: left - 4, y: Y(v) + 4, class: "hist-axis" }, String(v)));
  }
  history.rounds.forEach((x, k) => root.append(s("line", { x1: X(x), x2: X(x), y1: top, y2: H - bottom, class: "hist-round" }),
    s("text", { x: X(x) + 3, y: H - 8, class: "hist-axis start" }, String(k + 1))));
  // the end values sit right of the lines, pushed apart when they would overlap
  const ends = history.series.filter((sr) => sr.points.length).map((sr) => ({ sr, y: Y(last(sr)) + 4 }))
    .sort((a, b) => a.y - b.y);
  for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + 12);
  for (const sr of history.series) {
    if (!sr.points.length) continue;
    // a track keeps its value until it changes: steps, not slopes
    let d = `M${X(sr.points[0][0])} ${Y(sr.points[0][1])}`;
    for (let k = 1; k < sr.points.length; k++) d += ` H${X(sr.points[k][0])} V${Y(sr.points[k][1])}`;
    root.append(s("path", { d, class: `hist-line side-${sr.side}` }),
      s("text", { x: W - right + 5, y: ends.find((e) => e.sr === sr).y, class: `hist-label side-${sr.side}` }, `${sideName(sr.side)} ${last(sr)}`));
  }
  return root;
}
