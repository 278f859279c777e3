// A player's profile: ratings per game and side, the bots' fixed ratings, and the latest results.
import { api, el } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function start() {
  await setupLanguage($("lang-slot"));
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const [meta, profile] = await Promise.all([api("/api/meta"), api(`/api/profile/${encodeURIComponent(name)}`)]);
  const info = (game) => (meta.games || []).find((g) => g.name === game) || { title: game, seat_names: {}, levels: [] };
  const side = (game, seat) => info(game).seat_names[seat] || seat;
  document.title = `muster: ${profile.name}`;
  $("who").textContent = profile.name;
  $("record").textContent = t("{won} won, {lost} lost", { won: profile.won, lost: profile.lost });
  $("ratings").replaceChildren(...profile.ratings.map((r) => el("tr", {},
    el("td", {}, info(r.game).title), el("td", {}, side(r.game, r.side)),
    el("td", {}, r.provisional ? t("{rating} (provisional)", { rating: r.rating }) : String(r.rating)),
    el("td", {}, String(r.games)))));
  $("no-ratings").hidden = profile.ratings.length > 0;
  const levels = (meta.games || []).flatMap((g) => g.levels || []);
  $("bots").replaceChildren(...profile.bots.map((b) => el("li", { class: "game-line" }, `${info(b.game).title}, `,
    t("the {level} bot", { level: t(levels.find((l) => l.id === b.level)?.name || b.level) }), ": ", String(b.rating))));
  $("results").replaceChildren(...profile.results.map((r) => {
    const result = r.result === "won" ? t("Won") : r.result === "lost" ? t("Lost") : t("A draw");
    const opponent = !r.opponent ? "" : r.opponent.kind === "bot" ? t("a bot") : r.opponent.name || t("a person");
    const bits = [info(r.game).title, t("as {side}", { side: side(r.game, r.seat) }), t("against {who}", { who: opponent })];
    if (r.resigned) bits.push(r.resigned === r.seat ? t("resigned") : t("the opponent resigned"));
    if (r.rating) bits.push(t("rating {before} → {after}", r.rating));
    return el("li", { class: "game-line" }, el("strong", {}, result), " · ", bits.join(" · "), " ",
      el("a", { href: `/replay/${encodeURIComponent(r.game_id)}` }, t("Replay")));
  }));
  $("no-results").hidden = profile.results.length > 0;
}

start().catch((err) => showError(err.message));
