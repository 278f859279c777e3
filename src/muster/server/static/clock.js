// The game clock (docs/web.md, "Paces and clocks"): each seat's time left, counting down for the seat whose
// time runs, with the pause and claim buttons on the play page, and a short text for the game lists. The
// server gives the seconds left when it answered; the page counts on from when it got the answer, so a
// difference between the two machines' clocks never shows.
import { api, el } from "./common.js";
import { t } from "./i18n.js";

/** "2 d 3 h", "3 h 05 min", "4:07": seconds left, as precise as matters at that length. */
export function formatLeft(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d > 0) return t("{d} d {h} h", { d, h });
  if (h > 0) return t("{h} h {m} min", { h, m: String(m).padStart(2, "0") });
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** A pace in words ("fast pace"); "none" is no pace at all. */
export function paceName(pace) {
  return { live: t("live pace"), fast: t("fast pace"), slow: t("slow pace") }[pace] || "";
}

/** A clock as the game lists show it: "fast · your time 5 h 02 min" (null without a clock). */
export function clockText(clock, seat) {
  if (!clock) return null;
  if (clock.state === "flagged") return t("out of time");
  if (clock.state === "paused") return t("clock paused");
  if (clock.state === "over" || !clock.left || !(seat in clock.left)) return null;
  return t("{pace} · your time {left}", { pace: paceName(clock.pace), left: formatLeft(clock.left[seat]) });
}

/** The play page's clock in ``root`` for the seat of ``token``; ``refresh()`` asks the server again (the page
 * calls it on every state message: a move, a pause or a timeout sends one). */
export function clockPanel(token, root, seatName, onError) {
  let clock = null, got = 0, seat = null;
  const url = `/api/seat/${encodeURIComponent(token)}/clock`;
  const left = (s) => (clock.running === s ? Math.max(0, clock.left[s] - (performance.now() - got) / 1000) : clock.left[s]);

  async function act(what) {
    try {
      clock = (await api(url, { do: what })).clock ?? clock;
      got = performance.now();
      draw();
    } catch (err) { onError(err.message); }
  }

  function button(label, what) {
    return el("button", { type: "button", class: "clock-button", "data-do": what, onclick: () => act(what) }, label);
  }

  function draw() {
    root.hidden = !clock;
    if (!clock) return;
    const seats = Object.keys(clock.left);
    const parts = seats.map((s) => el("span", { class: `clock-seat side-${s}${clock.running === s ? " running" : ""}`, "data-seat": s },
      `${seatName(s)} `, el("span", { class: "clock-time" }, formatLeft(left(s)))));
    const other = seats.find((s) => s !== seat);
    const extra = [];
    if (clock.state === "over" && clock.flagged) extra.push(t("{side} ran out of time", { side: seatName(clock.flagged) }));
    else if (clock.state === "paused") extra.push(t("paused"), button(t("Resume the clock"), "resume"));
    else if (clock.state === "flagged") {
      extra.push(t("{side} ran out of time", { side: seatName(clock.flagged) }));
      if (clock.flagged !== seat) extra.push(button(t("Claim the win"), "claim"));
    } else if (clock.state === "running" && clock.pause_asked === other) {
      extra.push(t("{side} asks for a pause", { side: seatName(other) }), button(t("Accept the pause"), "accept"), button(t("Decline"), "decline"));
    } else if (clock.state === "running" && clock.pause_asked === seat) {
      extra.push(t("pause asked"), button(t("Cancel"), "decline"));
    } else if (clock.state === "running") extra.push(button(t("Ask for a pause"), "pause"));
    root.replaceChildren(el("span", { class: "clock-pace" }, paceName(clock.pace)), ...parts, ...extra);
  }

  async function refresh(mySeat) {
    seat = mySeat ?? seat;
    try {
      clock = (await api(url)).clock;
      got = performance.now();
      draw();
    } catch { /* the next state message or the next minute asks again */ }
  }

  setInterval(() => { if (clock?.running) draw(); }, 1000);
  setInterval(() => refresh(), 60_000); // a reminder's or another process's change, even without a message
  return { refresh };
}
