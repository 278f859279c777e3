// Card names that open the card's face: hover, keyboard focus or tap, anywhere on the page.
// Game-agnostic: the face itself comes from the game's board module (``mod.cardFace``).
import { el } from "./common.js";

let tip = null;
let game = null;
let pinned = null;

/** A card name as a focusable link-like button that shows the card's face. */
export function cardLink(n, text) {
  return el("button", { type: "button", class: "card-link", "data-card": n }, text || game.mod.cardTitle(game.data, n));
}

function show(target) {
  const n = Number(target.dataset.card);
  if (!game || !game.data.cardsByNumber[n]) return;
  tip.replaceChildren(game.mod.cardFace(game.data, n));
  tip.hidden = false;
  const r = target.getBoundingClientRect();
  const w = Math.min(300, window.innerWidth - 16);
  tip.style.width = `${w}px`;
  let left = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8);
  const h = tip.offsetHeight;
  let top = r.top - h - 8;
  if (top < 8) top = Math.min(r.bottom + 8, window.innerHeight - h - 8);
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
}

function hide() { if (tip) tip.hidden = true; pinned = null; }

/** Wire hover/focus/tap on every ``[data-card]`` element of the page (now and later). */
export function enableCardFaces(loaded) {
  game = loaded;
  tip = document.getElementById("card-tip");
  document.addEventListener("pointerover", (e) => {
    const t = e.target.closest?.("[data-card]");
    if (t && e.pointerType !== "touch") show(t);
    else if (!pinned && !e.target.closest?.("#card-tip")) hide();
  });
  document.addEventListener("focusin", (e) => {
    const t = e.target.closest?.("[data-card]");
    if (t) show(t); else hide();
  });
  document.addEventListener("click", (e) => {
    const t = e.target.closest?.(".card-link");
    if (t) { // a tap on a card name pins its face until the next tap
      if (pinned === t) { hide(); return; }
      show(t); pinned = t;
    } else if (!e.target.closest?.("#card-tip")) hide();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
}
