"""End to end in Debian's headless Chromium (driven by Playwright; no browser is downloaded).

The play page is exercised as a player would: by clicking on the map and the hand at 1440×900, by
tapping at phone size (390×844), and with the keyboard alone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from muster.games.freedom.board import board

from .helpers import CHROMIUM, Server

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def version(page: Any) -> str:
    """The state version the page shows."""
    return str(page.get_attribute("#status", "data-version"))


def wait_changed(page: Any, old: str) -> None:
    """Until the page shows a newer state (or an error)."""
    try:
        page.wait_for_function("v => document.querySelector('#status').dataset.version !== v "
                               "|| !document.querySelector('#error').hidden", arg=old, timeout=20000)
    except Exception:
        print("stuck at:", page.inner_text(".promptbar"))  # what the page asked when nothing happened
        raise
    assert page.is_hidden("#error"), page.text_content("#error")


def step(page: Any) -> int:
    """The number of actions taken in the game so far."""
    return int(page.get_attribute("#status", "data-step"))


def wait_my_turn_or(page: Any, condition: str = "false") -> None:
    """Until it is my turn (or ``condition``, a JS expression, holds)."""
    page.wait_for_function(f"() => document.body.classList.contains('my-turn') || ({condition})", timeout=30000)


def start_game(page: Any, url: str, side: str = "imperial", level: str = "beginner", seed: int = 12) -> None:
    """From the lobby: a game against a bot of ``level``, no pause, a fixed seed."""
    page.goto(url + "/")
    page.check(f"input[name=side][value={side}]")
    page.check(f"#level-{level}")
    page.click("details.advanced summary")
    page.fill("#seed", str(seed))
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/"))
    wait_my_turn_or(page)


def play_card(page: Any, prefer: str = "ap") -> None:
    """Click a playable hand card and take its menu item of verb ``prefer`` (else the first)."""
    old = version(page)
    page.click(".hand-card.legal >> nth=0")
    page.wait_for_selector("#card-menu .menu-item")
    preferred = page.locator(f"#card-menu .menu-item[data-verb={prefer}]")
    (preferred if preferred.count() else page.locator("#card-menu .menu-item").first).click()
    if page.locator("#card-menu [data-confirm=yes]").count():  # the warning before a costly click
        page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)


def menu_pick(page: Any) -> None:
    """If a small menu opened, take its first item (and confirm when asked again)."""
    if page.locator("#card-menu .menu-item").count():
        page.click("#card-menu .menu-item >> nth=0")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.click("#card-menu [data-confirm=yes]")


def act_once(page: Any, turn: int) -> None:
    """One decision by clicking: a card from the hand, a marked place on the map, or a button."""
    old = version(page)
    if page.locator(".hand-card.legal").count():
        play_card(page, "ap" if turn % 3 else "event")
        return
    if page.locator("#board g.legal").count() and (turn % 5 or not page.locator("#actions button").count()):
        page.click("#board g.legal >> nth=0")
        menu_pick(page)  # a place with several choices opens a small menu
    else:
        button = page.locator("#actions button:not([data-verb=end])")
        (button.first if button.count() else page.locator("#actions button").first).click()
        menu_pick(page)
    wait_changed(page, old)


def hand_cards_in_viewport(page: Any) -> bool:
    """Every hand card's name and AP lie inside the window."""
    return bool(page.evaluate("""() => [...document.querySelectorAll('#hand .hand-card')].every((card) =>
        [card.querySelector('.hc-name'), card.querySelector('.hc-ap')].every((part) => {
          const r = part.getBoundingClientRect();
          return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
        }))"""))


def test_a_full_round_by_clicking_on_the_map(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_game(page, web.url)
    assert "Round 1" in (page.text_content("#status") or "")
    assert page.locator("#board g.space").count() == len(board().ids) and page.locator("#hand .hand-card").count() == 8
    assert page.locator("#board .counter").count() > 20 and page.locator("#tracks .track").count() == 11
    # counts on the counters are at least 14 px tall on screen, unzoomed
    count_px = page.evaluate("Math.min(...[...document.querySelectorAll('#board .counter .count')]"
                             ".map((t) => t.getBoundingClientRect().height))")
    assert count_px >= 14, count_px
    # the map zooms with the wheel and pans by dragging
    box = page.locator("#board svg").bounding_box()
    before = page.get_attribute("#board svg", "viewBox")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    zoomed = page.get_attribute("#board svg", "viewBox")
    assert float(zoomed.split()[2]) < float(before.split()[2])
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 40, steps=5)
    page.mouse.up()
    assert page.get_attribute("#board svg", "viewBox").split()[:2] != zoomed.split()[:2]
    page.click("#zoom-fit")

    # Opening: click a marked space (its piece is then marked as selected), then where it goes; undo
    start = step(page)
    old = version(page)
    page.click("#board g.space.legal >> nth=1")
    wait_changed(page, old)
    assert page.locator("#board g.space.selected").count() == 1
    assert page.get_attribute("#board g.space.legal >> nth=0", "tabindex") == "0"
    old = version(page)
    page.click("#board g.space.legal >> nth=0")
    wait_changed(page, old)
    assert step(page) == start + 2 and page.is_visible("#undo")
    old = version(page)
    page.click("#undo")
    wait_changed(page, old)
    assert step(page) == start and not page.is_visible("#undo")

    turns, reloaded, saw_cards, saw_marks = 0, False, 0, False
    while "Round 1" in (page.text_content("#status") or ""):
        assert turns < 600, "round 1 did not end"
        wait_my_turn_or(page, "!document.querySelector('#status').textContent.includes('Round 1')")
        if "Round 1" not in (page.text_content("#status") or ""):
            break
        if turns == 8 and not reloaded:  # reload in the middle of my turn: nothing is lost
            before = (version(page), page.text_content("#prompt"))
            page.reload()
            page.wait_for_selector("body.my-turn")
            assert (version(page), page.text_content("#prompt")) == before
            reloaded = True
        if page.locator(".hand-card.legal").count():
            # while a card is chosen, every hand card shows its name and AP inside the window
            assert hand_cards_in_viewport(page)
            saw_cards += 1
            saw_marks = saw_marks or page.locator("#board .marks > *").count() > 0
        act_once(page, turns)
        turns += 1
    assert reloaded and saw_cards >= 5 and saw_marks
    assert "Round 2" in (page.text_content("#status") or "")
    assert page.locator("#log .log-round").count() >= 2 and page.locator("#log .log-card").count() >= 10
    for side in ("imperial", "insurgent"):  # the log coloured by side
        assert page.locator(f"#log .log-card.side-{side}").count()
    # the dice of round 1 as rolled: a d6 never shows more than 6 (attacks roll d8s, drawn as such)
    dice = page.evaluate("[...document.querySelectorAll('#log .die')]"
                         ".map((d) => [d.className, Number(d.dataset.face)])")
    assert dice and all(("d6" in cls and face <= 6) or ("d8" in cls and face <= 8) for cls, face in dice), dice
    assert not errors
    page.close()


def test_the_opening_and_a_card_on_a_phone(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#level-strongest:checked")
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    start_game(page, web.url, seed=21)
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    prompt = page.locator("#prompt").bounding_box()
    assert prompt and prompt["y"] + prompt["height"] < PHONE["height"] / 3  # pinned at the top
    # the Opening: tap a unit, then where it goes, then be done
    for _ in range(2):
        old = version(page)
        page.tap("#board g.space.legal >> nth=0")
        wait_changed(page, old)
    old = version(page)
    page.tap("#actions button[data-verb=done]")
    wait_changed(page, old)
    wait_my_turn_or(page)
    page.wait_for_selector("#hand-toggle.attention")
    assert not page.is_visible("#hand .hand-card")  # the hand is a drawer
    page.tap("#hand-toggle")
    page.wait_for_selector("#hand .hand-card.legal", state="visible")
    old = version(page)
    page.tap("#hand .hand-card.legal >> nth=0")
    page.wait_for_selector("#card-menu .card-face")  # on a phone the menu shows the whole card
    page.tap("#card-menu .menu-item >> nth=0")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.tap("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    # the map pinch-zooms and pans by touch (two and one fingers, sent as real touch input)
    if page.is_visible("#hand"):
        page.tap("#hand-toggle")
    box = page.locator("#board svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})

    before = [float(v) for v in page.get_attribute("#board svg", "viewBox").split()]
    touch("touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for d in range(40, 90, 10):
        touch("touchMove", [(cx - d, cy), (cx + d, cy)])
    touch("touchEnd", [])
    pinched = [float(v) for v in page.get_attribute("#board svg", "viewBox").split()]
    assert pinched[2] < before[2]  # zoomed in
    touch("touchStart", [(cx, cy)])
    for d in range(0, 60, 10):
        touch("touchMove", [(cx + d, cy + d)])
    touch("touchEnd", [])
    panned = [float(v) for v in page.get_attribute("#board svg", "viewBox").split()]
    assert panned[:2] != pinched[:2] and panned[2] == pinched[2]
    context.close()


def focus_until(page: Any, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement && document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_card_and_an_action_with_the_keyboard_only(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    start_game(page, web.url, seed=5)
    # the Opening: one unit forward, chosen on the map by Tab and Enter (then arrows move between targets)
    old = version(page)
    focus_until(page, "#board g.space.legal")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.matches('#board g.space.legal')")
    outline = page.evaluate("getComputedStyle(document.activeElement.querySelector('.frame')).strokeWidth")
    assert outline == "7px"  # a visible focus ring
    page.keyboard.press("Enter")
    wait_changed(page, old)
    old = version(page)
    focus_until(page, "#board g.space.legal")
    page.keyboard.press("Enter")
    wait_changed(page, old)
    old = version(page)
    focus_until(page, "#actions button[data-verb=done]")
    page.keyboard.press("Enter")
    wait_changed(page, old)
    wait_my_turn_or(page)
    # a card: Tab to it, Enter opens its menu, arrows pick "use for AP", Enter (and Enter to confirm)
    old = version(page)
    focus_until(page, ".hand-card.legal")
    page.keyboard.press("Enter")
    page.wait_for_selector("#card-menu .menu-item")
    for _ in range(4):
        if page.evaluate("document.activeElement.dataset.verb") == "ap":
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    if page.locator("#card-menu [data-confirm=yes]").count():
        assert page.evaluate("document.activeElement.dataset.confirm") == "yes"
        page.keyboard.press("Enter")
    wait_changed(page, old)
    assert page.locator("#actions button").count()  # now spending the card's AP
    # one action: movement, its unit and its destination on the map, all by keyboard
    old = version(page)
    focus_until(page, "#actions button[data-verb=move]")
    page.keyboard.press("Enter")
    wait_changed(page, old)
    before = step(page)
    for _ in range(2):
        old = version(page)
        focus_until(page, "#board g.legal")
        page.keyboard.press("Enter")
        wait_changed(page, old)
    assert step(page) == before + 2
    page.close()


def test_card_faces_show_on_hover_in_the_prompt_and_the_log(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    start_game(page, web.url, seed=8)
    old = version(page)
    page.click("#actions button[data-verb=done]")
    wait_changed(page, old)
    wait_my_turn_or(page)
    play_card(page, "ap")
    page.hover("#prompt .card-link")  # "… · with 13A Byron's Legacy"
    page.wait_for_selector("#card-tip .card-face", state="visible")
    name = page.text_content("#prompt .card-link") or ""
    assert name.split(" ", 1)[1] in (page.text_content("#card-tip") or "")
    page.mouse.move(5, 880)
    page.wait_for_selector("#card-tip", state="hidden")
    page.hover("#log .card-link >> nth=0")
    page.wait_for_selector("#card-tip .card-face", state="visible")
    page.hover("#hand .hand-card >> nth=0")
    page.wait_for_selector("#card-tip .card-face", state="visible")
    # a space named in the log lights up on the map
    page.hover("#log .space-name >> nth=0")
    assert page.locator("#board g.spotlight").count() == 1
    page.close()


def test_two_bots_finish_and_the_replay_steps_through(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(web.url + "/")
    page.check("input[name=opponent][value=bots]")
    page.check("#level-beginner")
    page.click("details.advanced summary")
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/replay/"))
    # a whole game between two bots plays out first: about a minute on a busy two-core machine
    page.wait_for_function("() => /step [1-9]\\d* \\/ /.test(document.querySelector('#step')?.textContent || '')",
                           timeout=150000)
    total = int((page.text_content("#step") or "").split("/")[1])
    assert "wins" in (page.text_content("#outcome") or "")
    page.click("#first")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 ')")
    for n in (1, 2, 3):
        page.click("#next")
        page.wait_for_function(f"() => document.querySelector('#step').textContent.startsWith('step {n} ')")
    assert page.locator("#board g.space").count() == len(board().ids)
    page.click("#last")
    page.wait_for_function(f"() => document.querySelector('#step').textContent.startsWith('step {total} ')")
    export = page.request.get(web.url + page.get_attribute("#export-link", "href"))
    assert export.ok and len(export.json()["actions"]) == total
    page.goto(web.url + "/")
    page.wait_for_selector("#my-games tbody tr")
    assert "finished" in (page.text_content("#my-games") or "")
    page.close()


def test_two_people_play_live_through_the_invite_link(web: Server, browser: Any) -> None:
    creator = browser.new_page()
    creator.goto(web.url + "/")
    creator.check("input[name=side][value=insurgent]")
    creator.check("input[name=opponent][value=human]")
    creator.fill("#name", "Notis")
    creator.click("#create")
    creator.wait_for_selector("#invite-link")
    assert creator.is_visible("#copy-invite")
    invite = creator.input_value("#invite-link")
    creator.click("#my-link")
    creator.wait_for_selector("#status[data-version]")
    assert "/join/" in invite
    guest = browser.new_context().new_page()  # another browser: no shared storage
    guest.context.grant_permissions(["notifications"])
    guest.goto(invite)
    guest.wait_for_selector("#join-take:not([hidden])")
    offer = guest.text_content("#join-offer") or ""
    assert "Notis invites you to play Freedom! Messolonghi 1825–1826 as the Imperial" in offer
    guest.click("#join-take")
    guest.wait_for_selector("body.my-turn")
    seat_link = guest.url
    late = browser.new_page()  # whoever opens the invitation next is told the seat is taken
    late.goto(invite)
    late.wait_for_selector("#join-note:not([hidden])")
    assert "Someone else has already accepted this invitation" in (late.text_content("#join-note") or "")
    assert late.is_hidden("#join-take")
    late.goto(seat_link)  # the guest's seat link, forwarded to another browser, opens nothing
    late.wait_for_selector("#error:not([hidden])")
    assert "belongs to the browser that took it" in (late.text_content("#error") or "")
    late.close()
    assert guest.title().startswith("● Your turn")
    guest.click(".menu summary")  # notifications are asked for only on a click, never on load
    guest.click("#notify")
    guest.wait_for_function("() => document.querySelector('#notify').textContent.includes('on')")
    assert "You: Imperial" in (guest.text_content("#players") or "")
    assert "Notis" in (guest.text_content("#players") or "")  # the opponent's name
    assert "Waiting for the Imperial player" in (creator.text_content("#prompt") or "")
    creator.wait_for_selector(".connection.live")
    old = version(creator)
    guest.click("#actions button >> nth=0")
    wait_changed(creator, old)  # pushed over the creator's websocket, no reload
    assert step(creator) == 1
    creator.goto(web.url + "/")
    creator.wait_for_selector("#my-games tbody tr")
    assert "Insurgent" in (creator.text_content("#my-games") or "")
    guest.close()
    creator.close()
