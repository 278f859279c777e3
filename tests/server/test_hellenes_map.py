"""Hellenes' drawn map in a real browser: real coastlines, blocks on the map chosen by clicking them, destinations
and battle odds marked on the map, at desktop and phone sizes (a real ``muster serve`` and Debian's Chromium)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from .helpers import Server
from .test_e2e import DESKTOP, PHONE, version, wait_changed, wait_my_turn_or
from .test_hellenes_web import start_hellenes

SHOTS = Path(os.environ.get("MUSTER_SCREENSHOTS", "")) if os.environ.get("MUSTER_SCREENSHOTS") else None
"""Where the screenshots go when a person wants to look at them (unset: none are written)."""


def shot(page: Any, name: str) -> None:
    """A full-page screenshot into ``SHOTS`` (when set)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def season_word(page: Any) -> str:
    """The Season (or New Year) the status line names."""
    return (page.text_content("#status") or "").split(" ")[0]


def wait_own_block_at_least(page: Any, pixels: float) -> None:
    """Until an own block is drawn at least ``pixels`` wide and high on the screen (measured in the page and
    polled: a bot's move may redraw the board while it is measured; fails by timing out)."""
    page.wait_for_function("px => { const r = document.querySelector('#board g.hl-block.own rect');"
                           " if (r === null) return false; const b = r.getBoundingClientRect();"
                           " return b.width >= px && b.height >= px }", arg=pixels, timeout=15000)


def click_map(page: Any) -> str:
    """One decision made on the map where the map offers one: an own block standing in a marked area (its Group),
    else a marked area; a card from the hand; else the first button (never "end" while the map offers more).
    Returns what was clicked: "block", "area", "card" or "button"."""
    old = version(page)
    what = "button"
    if page.locator(".hand-card.legal").count():
        if not page.locator(".hand-card.legal").first.is_visible():  # a phone keeps the hand in a drawer
            page.click("#hand-toggle")
        page.click(".hand-card.legal >> nth=0")
        page.wait_for_selector("#card-menu .menu-item")
        page.click("#card-menu .menu-item >> nth=0")
        what = "card"
    else:
        legal = page.evaluate("() => [...document.querySelectorAll('#board g.space.legal')].map(g => g.dataset.space)")
        blocks = page.locator(",".join(f"#board g.hl-block.own[data-space='{a}']" for a in legal)) if legal else None
        if blocks is not None and blocks.count():
            block = blocks.first
            block.scroll_into_view_if_needed()
            if page.locator("#offscreen").is_visible():  # the shell's "marked places off screen" button
                page.click("#offscreen")  # brings them into view first, as a player would
            block.click(position={"x": 8, "y": 8})
            what = "block"
        elif legal:
            page.locator(f"#board g.space[data-space='{legal[0]}'] path").dispatch_event("click")
            what = "area"
        else:
            button = page.locator("#actions button:not([data-verb=end])")
            (button.first if button.count() else page.locator("#actions button").first).click()
    if page.locator("#card-menu .menu-item").count():
        page.click("#card-menu .menu-item >> nth=0")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    return what


def play_a_season(page: Any, name: str, limit: int = 80, year: bool = False) -> dict[str, int]:
    """Click through the New Year and the first Season until the second Season begins (``year``: through the
    whole Year, until the next New Year or the game's end); count the clicks by kind, taking screenshots on the
    way. Asserts the odds badge whenever an Assault or an engagement is offered."""
    counts = {"block": 0, "area": 0, "card": 0, "button": 0, "odds": 0, "seasons": 0}
    seen_spring = False
    last = ""
    for turn in range(limit):
        page.wait_for_function("() => document.body.classList.contains('my-turn') || "
                               "document.querySelector('#status').textContent.startsWith('Game over')", timeout=60000)
        season = season_word(page)
        if season != last:
            counts["seasons"] += season not in ("New", "Game")
            last = season
        if year and seen_spring and season in ("New", "Game"):
            break  # the Year is over
        if not year and season != "New" and seen_spring and season != "Spring":
            break  # the first Season is over
        seen_spring = seen_spring or season == "Spring"
        hints = page.evaluate("() => [...document.querySelectorAll('#board g.space.legal')].length")
        if hints and page.locator("#board .hl-odds").count():
            counts["odds"] += 1
            if counts["odds"] == 1:
                shot(page, f"{name}-odds")
        # a choice naming a block (Build, board, supply) is made on the map, where the block stands
        assert page.locator("#actions button", has_text="Build:").count() == 0
        if turn in (1, 6):
            shot(page, f"{name}-{turn}")
        counts[click_map(page)] += 1
    shot(page, f"{name}-after-season")
    return counts


def test_a_year_played_on_the_drawn_map_at_desktop_size(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_hellenes(page, web.url, seed=4)
    svg = page.locator("#board svg.hellenes")
    # the coastlines, the 44 land areas and 10 seas as regions, the 39 Cities at their places
    assert page.locator("#board path.hl-landmass").count() == 1
    assert page.locator("#board g.space.hl-land path.hl-region").count() == 44
    assert page.locator("#board g.space.hl-sea path.hl-water").count() == 10
    assert page.locator("#board .hl-citymark").count() == 39
    assert len(page.get_attribute("#board path.hl-landmass", "d") or "") > 10000  # a real coast, not a few lines
    css = page.get_attribute("link[data-hellenes-css]", "href") or ""
    assert css.endswith("/static/games/hellenes/board.css")
    # blocks: at least 14 px on the screen, labelled for their owner, blank for the enemy, CV as pips
    wait_own_block_at_least(page, 14)
    font = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#board g.hl-block.own text'))"
                         ".fontSize) * document.querySelector('#board svg').getScreenCTM().a")
    assert font >= 9  # 14 px in the map's units, at the map's fitted scale
    assert page.locator("#board g.hl-block.own circle.pip").count() > 0
    assert page.locator("#board g.hl-block.upright").count() > 0
    assert page.locator("#board g.hl-block.upright text").count() == 0
    assert page.locator("#board g.hl-block.upright circle").count() == 0
    assert svg.count() == 1
    shot(page, "hellenes-map-desktop")
    # a whole Year (the New Year, then Spring to Winter) played by clicking blocks and areas on the map
    counts = play_a_season(page, "hellenes-desktop", limit=400, year=True)
    assert counts["seasons"] >= 5 or season_word(page) == "Game", counts
    assert counts["block"] >= 3, counts  # Groups chosen by clicking their blocks on the map
    assert counts["odds"] >= 1, counts  # the Assault on Potidaea (or an engagement) showed its odds first
    # the battles' dice are drawn in the log, each die marked by what it did
    dice = page.locator("#log .dice-line .die.d6")
    assert dice.count() >= 1 and page.locator("#log .dice-line .die-hit, #log .dice-line .die-miss, "
                                              "#log .dice-line .die-rout").count() == dice.count()
    shot(page, "hellenes-desktop-year")
    from .test_a11y import serious

    assert serious(page) == []  # axe-core, with the battle dice in the log
    assert "click to to" not in (page.text_content("body") or "")
    assert not errors
    page.close()


def test_a_season_on_a_phone(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_hellenes(page, web.url, seed=5)
    # the phone opens on Greece itself, zoomed: a block is bigger on screen than at the whole map's scale
    wait_own_block_at_least(page, 14)
    shot(page, "hellenes-map-phone")
    counts = play_a_season(page, "hellenes-phone")
    assert counts["block"] + counts["area"] >= 1, counts
    assert not errors
    context.close()


def test_odds_are_on_the_map_before_an_assault(web: Server, browser: Any) -> None:
    """Athens starts with an established Siege of Potidaea: in its first Combat phase it may Assault, and the
    map marks Chalcidice with the chance of winning before anything is clicked."""
    page = browser.new_page(viewport=DESKTOP)
    start_hellenes(page, web.url, seed=4)
    for _turn in range(80):
        wait_my_turn_or(page)
        verbs = page.evaluate("() => [...document.querySelectorAll('#board g.space.legal')]"
                              ".map(g => g.getAttribute('aria-label') || '')")
        if any("Assault" in v for v in verbs):
            badge = page.locator("#board .hl-odds text")
            assert badge.count() >= 1
            assert re.fullmatch(r"⚔ \d{1,3}%", badge.first.text_content() or "")
            shot(page, "hellenes-assault-odds")
            page.close()
            return
        click_map(page)
    raise AssertionError("no Assault offered in the first Year")


def test_the_hellenes_map_has_no_serious_accessibility_violations(web: Server, browser: Any) -> None:
    from .test_a11y import serious

    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        start_hellenes(page, web.url, seed=7)
        assert serious(page) == []
        page.close()
