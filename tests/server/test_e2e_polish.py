"""In Chromium: a whole round of a game page read in Polish, then the switch to English."""

from __future__ import annotations

import re
from typing import Any

import pytest

from muster.games.freedom.web import BASTIONS

from .helpers import Server
from .test_e2e import CHROMIUM, DESKTOP, act_once, start_game, wait_my_turn_or

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

# Words that only English would put on the page (short words Polish also uses, "to", "no", "by", "on", are left out);
# proper names (bastions, the game's title, "English" in the switcher) never are among them.
ENGLISH = frozenset((
    "the", "and", "with", "your", "you", "play", "plays", "played", "card", "cards", "round", "rounds", "turn",
    "choose", "move", "moves", "unit", "units", "wins", "won", "waiting", "hand", "hints", "hint", "live", "empty",
    "click", "side", "game", "over", "imperial", "insurgent", "wall", "row", "column", "camp", "beach", "coast",
    "phase", "action", "actions", "cannon", "cannons", "supplies", "money", "plea", "pressure", "population",
    "preparation", "period", "event", "events", "discard", "end", "done", "from", "of", "for", "is", "are", "not",
    "yes", "this", "that", "its", "at", "an", "or", "be", "will", "can", "may", "left", "each", "both", "players",
    "player", "opponent", "options", "rules", "replay", "step", "next", "back", "last", "first", "nobody",
    "spectator", "view", "log", "hits", "hit", "miss", "none", "new", "link", "copy", "watch", "notify",
    "notifications", "sound", "undo", "help", "show", "offline", "loading",
))
PROPER_NAMES = tuple(BASTIONS.values())
"""Names as the map prints them, whatever the language (the bastions: "William of Orange", "Norman and Miaoulis")."""
VISIBLE_TEXT = """() => {
  const parts = [document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (node.getAttribute(name)) parts.push(node.getAttribute(name));
    }
  }
  return parts.join("\\n");
}"""


def english_lines(page: Any) -> list[str]:
    """Lines with English words on the page: its visible text and the names screen readers read out."""
    text = page.evaluate(VISIBLE_TEXT)
    for name in PROPER_NAMES:
        text = text.replace(name, "")
    return [line for line in text.splitlines() if any(w.lower() in ENGLISH for w in re.findall(r"[A-Za-z]+", line))]


def test_a_full_round_of_a_polish_game_page(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="pl-PL")  # the browser asks for Polish
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_game(page, web.url, seed=21)
    assert page.get_attribute("html", "lang") == "pl"
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Runda 1 z 6')")
    assert page.text_content(".log-title") == "Dziennik" and page.text_content("#rules-link") == "Zasady"
    assert page.get_attribute(".lang-switch a[aria-current=true]", "lang") == "pl"
    hand = page.text_content("#hand") or ""
    assert " PA" in hand and " AP" not in hand
    page.hover("#hand [data-card] >> nth=0")  # the card's face, with its historical note in Polish
    note = page.text_content("#card-tip .card-face-note") or ""
    assert note and note in {c["note"] for c in page.evaluate("fetch('/api/cards?lang=pl').then((r) => r.json())")}
    page.mouse.move(1, 1)

    turns = 0
    while "Runda 1 " in (page.text_content("#status") or ""):
        assert turns < 600, "round 1 did not end"
        wait_my_turn_or(page, "!document.querySelector('#status').textContent.includes('Runda 1 ')")
        if "Runda 1 " not in (page.text_content("#status") or ""):
            break
        act_once(page, turns)
        turns += 1
        if turns % 5 == 1:  # every few decisions: nothing on the page, nor in its labels, is English
            if page.locator("#board g.space.legal").count():  # the hover line names a space and what a click does
                page.hover("#board g.space.legal >> nth=0")
            found = english_lines(page)
            assert not found, found
    assert "Runda 2" in (page.text_content("#status") or "")
    found = english_lines(page)
    assert not found, found
    log = page.text_content("#log") or ""
    assert "Runda 2" in log and "zagrywa kartę" in log and "Round" not in log
    # grouped as in English: rounds, phases and cards, coloured by side
    assert page.locator("#log .log-round").count() >= 2 and page.locator("#log .log-card").count() >= 10
    for side in ("imperial", "insurgent"):
        assert page.locator(f"#log .log-card.side-{side}").count()
    assert page.locator("#log .space-name").count() > 5  # Polish space names still light up the map

    # the switcher: English from now on in this browser, remembered across pages
    page.click(".lang-switch a[lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en' "
                           "&& document.querySelector('#status').textContent.includes('Round 2')")
    page.goto(web.url + "/rules/freedom")
    assert page.get_attribute("html", "lang") == "en"
    assert not errors
    context.close()
