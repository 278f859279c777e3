// The post-game page: the win-probability curve and the turning points, each linked into the replay.
import { el } from "./common.js";
import { setupLanguage, t } from "./i18n.js";
import { TEXT, drawCurve } from "./winprob.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").pop());

/** The stored analysis; while the server works it out (202), its progress is shown and asked again. */
async function analysis() {
  for (;;) {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/analysis`);
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (response.status === 202) {
      $("summary").textContent = TEXT.progress(data.progress || 0, data.queued || 0);
      const bar = $("progress");
      bar.hidden = false;
      bar.value = data.progress || 0;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      continue;
    }
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    $("progress").hidden = true;
    return data;
  }
}

async function start() {
  $("status").textContent = TEXT.status(gameId);
  $("title").textContent = TEXT.title;
  $("turning-title").textContent = TEXT.turningTitle;
  $("summary").textContent = TEXT.loading;
  $("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;
  const data = await analysis();
  // an analysis naming its subject (the seat its chances are for) names the sides by their keyed names
  const sideName = (seat) => t(`side:${seat}`);
  const subject = data.subject ? sideName(data.subject) : null;
  const winner = subject ? (data.winner ? sideName(data.winner) : TEXT.nobody) : TEXT[data.winner] || TEXT.nobody;
  $("summary").textContent = subject ? TEXT.summaryOf(winner, subject, data.win_probability.length)
    : TEXT.summary(winner, data.win_probability.length);
  drawCurve($("curve"), data.start_probability, data.win_probability, data.cards.map((c) => c.round),
    data.turning_points.map((tp) => tp.card));
  $("caption").textContent = subject ? TEXT.captionOf(subject) : TEXT.caption;
  $("turning").replaceChildren(...data.turning_points.map((tp) => {
    const same = JSON.stringify(tp.strongest.action) === JSON.stringify(data.cards[tp.card - 1].action);
    return el("li", { class: "turning-point", "data-step": tp.step },
      el("p", {}, subject ? TEXT.turningOf(tp, sideName(tp.seat), subject) : TEXT.turning(tp)),
      el("p", { class: "muted" }, same ? TEXT.sameAsBot : subject ? TEXT.strongestOf(tp, subject) : TEXT.strongest(tp)),
      tp.luck ? el("p", { class: "luck" }, TEXT.luck) : null,
      el("a", { href: `/replay/${encodeURIComponent(gameId)}?step=${tp.step}`, class: "jump" }, TEXT.showInReplay));
  }));
  $("method").textContent = TEXT.method;
  document.body.dataset.ready = "1";
}

setupLanguage(document.querySelector(".tools")).then(start).catch((err) => {
  $("error").textContent = err.message;
  $("error").hidden = false;
});
