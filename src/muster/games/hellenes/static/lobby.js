// Hellenes' words in the lobby (its sides, its title, its introduction), in the reader's language. They live
// here, beside the board module, so their messages belong to the Hellenes catalog (hellenes.po). The shell's
// lobby (index.js) calls the exported functions below.
import { el } from "../../common.js";
import { t } from "../../i18n.js";

/** The lobby's sides: [seat, name, one line on it]. */
export function sides() {
  return [["athens", t("side:athens"), t("the Delian League: the fleets and the walls of Athens")],
    ["sparta", t("side:sparta"), t("the Peloponnesian League: the hoplites of Sparta")]];
}

/** The game's title. */
export function title() { return t("Hellenes: Campaigns of the Peloponnesian War"); }

/** The game's name in the list of games (short: the full title heads the page). */
export function listTitle() { return t("Hellenes"); }

/** The game's line in the list of games. */
export function choiceLine() { return t("the Peloponnesian War: hidden blocks on a map of Greece"); }

/** Write the introduction under ``heading`` (the shell's <h1>, holding the title) in ``section``. */
export function intro(section, heading) {
  heading.textContent = t("Athens against Sparta, 431 BC");
  section.append(el("p", {}, t("A block wargame for two on a map of Greece and the Aegean. Athens rules the sea with her fleets and allies; Sparta leads the finest hoplites of the Peloponnese. Your blocks stand upright: your opponent sees where they are, not what they are, until a battle shows them.")),
    el("p", {}, t("Each season both sides commit a card face down for its Actions or its Event; move, muster, build, besiege and fight for Prestige over three years. Before you engage, the battle odds are computed for you from what you can see."),
      " ", el("a", { href: "/rules/hellenes" }, t("Read the rules summary."))));
}
