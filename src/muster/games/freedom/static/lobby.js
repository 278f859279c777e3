// Freedom!'s words in the lobby (its sides, its line in the list of games, its introduction, its rules
// editions), in the reader's language (its title is the one /api/meta gives). The shell's lobby (index.js) calls the exported functions below.
import { t } from "../../i18n.js";

/** The lobby's sides: [seat, name, one line on it]. */
export function sides() {
  return [["imperial", t("side:imperial"), t("the Ottoman besiegers: attack")],
    ["insurgent", t("side:insurgent"), t("the Greek defenders of Messolonghi: hold out")]];
}

/** The game's line in the list of games. */
export function choiceLine() { return t("a siege: cards, cannons and the Wall"); }

/** Write the introduction under ``heading`` (the shell's <h1>, holding the title) in ``section``. */
export function intro(section, heading) {
  heading.textContent = t("The siege of Messolonghi, 1825–1826");
  const link = document.createElement("a");
  link.href = "/rules/freedom";
  link.textContent = t("rules summary");
  const first = document.createElement("p");
  first.textContent = t("A card-driven wargame for two. The Imperial player leads the Ottoman army against the walled town of Messolonghi: advance up the trenches, batter the Wall with cannons and storm a bastion or the beach. The Insurgent player holds the town: raid, repair the Wall, keep the lagoon islands and hold out for six rounds.");
  const second = document.createElement("p");
  second.append(`${t("Each round both players take turns playing cards, each for its event or for action points. The rules are enforced for you, every choice explains itself, and the")} `,
    link, ` ${t("is one click away.")}`);
  section.append(first, second);
}

/** An option's name in the "Advanced" part of the form. */
export function optionName(name) { return name === "ruleset" ? t("Rules edition") : name; }

/** One value of an option ("2nd edition"). */
export function optionValue(name, value) { return name === "ruleset" ? t("{name} edition", { name: value }) : value; }
