// An invitation to a seat: show what it offers, and take the seat for this browser with one click.
import { api, rememberSeat, sideName } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const code = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const side = sideName;

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function show(info) {
  const inviter = Object.values(info.inviter || {}).find(Boolean);
  $("join-offer").textContent = inviter
    ? t("{name} invites you to play {game} as the {side}.", { name: inviter, game: info.title, side: side(info.seat) })
    : t("You are invited to play {game} as the {side}.", { game: info.title, side: side(info.seat) });
  const note = $("join-note");
  note.hidden = true;
  $("join-take").hidden = false;
  if (info.state === "taken") {
    $("join-take").hidden = true;
    note.hidden = false;
    note.textContent = t("Someone else has already accepted this invitation, so the seat is taken. If that was not you, ask whoever invited you for a new game.");
  } else if (info.state === "yours") {
    note.hidden = false;
    note.textContent = t("You already took this seat in this browser.");
    $("join-take").textContent = t("Open my seat");
  } else if (info.finished) {
    $("join-take").hidden = true;
    note.hidden = false;
    note.textContent = t("This game is already over.");
  } else {
    note.hidden = false;
    note.textContent = t("The seat will belong to this browser: open the game here to play it.");
  }
}

async function take() {
  showError("");
  $("join-take").disabled = true;
  try {
    const seat = await api(`/api/invitations/${encodeURIComponent(code)}/claim`, {});
    rememberSeat({ token: seat.token, game_id: seat.game_id, seat: seat.seat });
    location.href = seat.link;
  } catch (err) {
    showError(err.message);
    $("join-take").disabled = false;
    if (err.code === "invitation_taken") show({ ...(await api(`/api/invitations/${encodeURIComponent(code)}`)) });
  }
}

$("join-take").addEventListener("click", take);
setupLanguage($("lang-slot"))
  .then(() => api(`/api/invitations/${encodeURIComponent(code)}`))
  .then(show)
  .catch((err) => { $("join-offer").textContent = ""; showError(err.message); });
