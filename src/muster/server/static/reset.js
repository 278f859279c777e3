// The page a password-reset e-mail links to: the token is in the address's fragment (never sent to the
// server in a request line, so never in an access log); the new password is posted with it.
import { api } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const token = location.hash.slice(1);

function say(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

$("reset-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  say("error", "");
  try {
    await api("/api/account/reset", { token, password: $("reset-password").value });
    $("reset-password").value = "";
    history.replaceState(null, "", location.pathname);
    say("notice", t("Your password is changed: log in with it."));
  } catch (err) { say("error", err.message); }
});

$("forgot-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  say("error", "");
  try {
    await api("/api/account/forgot", { email: $("forgot-email").value });
    say("notice", t("If that address belongs to an account, a link is on its way."));
  } catch (err) { say("error", err.message); }
});

$(token ? "reset" : "forgot").hidden = false;
setupLanguage($("lang-slot")).catch((err) => say("error", err.message));
