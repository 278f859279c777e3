"""The play page as a new player meets it, in Debian's headless Chromium: dice as real dice, whole action
labels, the event's words in the card menu, My games in words, the game-over screen with a rematch, and the
phone's way out of a question always on screen."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import httpx
import pytest

from muster.core import Game, get_rules

from .helpers import Server, act, create, hand_device, state
from .test_e2e import CHROMIUM, DESKTOP, PHONE, step, version, wait_changed

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

BUILD_CANNON = "Build Cannon (Row 6: 3 AP, Row 5: 5 AP, Row 4: 7 AP)"


def open_seat(browser: Any, web: Server, token: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page of its own browser context showing the seat (the context holds the seat's device session)."""
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    hand_device(context, web.url, token)
    page = context.new_page()
    page.goto(f"{web.url}/play/{token}")
    page.wait_for_selector("#status[data-version]")
    return page


def spend_the_biggest_card(page: Any, tap: bool = False) -> None:
    """From the Imperial Opening: be done, then play the hand card with the most AP for its AP."""
    click = page.tap if tap else page.click
    old = version(page)
    click("#actions button[data-verb=done]")
    wait_changed(page, old)
    page.wait_for_selector("body.my-turn")
    if tap:
        click("#hand-toggle")
    cards = page.eval_on_selector_all(".hand-card.legal", "els => els.map((e) => [e.dataset.card, "
                                      "parseInt(e.querySelector('.hc-ap').textContent)])")
    best = max(cards, key=lambda c: c[1])[0]
    old = version(page)
    click(f".hand-card[data-card='{best}']")
    click("#card-menu .menu-item[data-verb=ap]")
    if page.locator("#card-menu [data-confirm=yes]").count():
        click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)


def dice_lines() -> list[dict[str, Any]]:
    """Log entries with dice from a few random games, as the server sends them (message, arguments, text)."""
    from muster.server.views import wire_log

    rules = get_rules("freedom")
    lines: list[dict[str, Any]] = []
    for seed in range(4):
        game = Game(rules, seed)
        chooser = random.Random(seed)
        while game.active_seat is not None:
            game.apply(chooser.choice(game.legal_actions()))
        lines += [e for e in wire_log(game, "en") if ": rolls " in e["t"]]
    kinds = {e["m"] for e in lines}
    assert len(kinds) >= 4, kinds
    return lines


def test_dice_show_real_faces_then_the_modifier_and_total(web: Server, browser: Any) -> None:
    """A d6 never shows more than 6: attacks roll d8s, drawn as eight-sided dice; every roll reads the same
    way: faces, modifier, "= total", the number needed and the result. The dice come from each entry's
    message id and arguments, never from its words."""
    lines = dice_lines()
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
    page = open_seat(browser, web, token)
    drawn = page.evaluate("""async (entries) => {
      const log = await import('/static/log.js');
      const board = await import('/static/games/freedom/board.js');
      const game = { mod: board };
      return entries.map((entry) => {
        const d = log.diceOf(game, entry);
        const view = log.diceView(d);
        return { line: entry.t, text: view.textContent, miss: d.miss, result: d.result,
          faces: [...view.querySelectorAll('.die')].map((d) => [
            d.classList.contains('d6') ? 6 : d.classList.contains('d8') ? 8 : 0,
            Number(d.dataset.face), d.querySelectorAll('.pip:not(.off)').length]) };
      });
    }""", lines)
    assert len(drawn) == len(lines) > 20
    for d in drawn:
        assert d["faces"], d
        for sides, face, pips in d["faces"]:
            assert sides in (6, 8) and 1 <= face <= sides, d
            if sides == 6:
                assert pips == face, d  # a d6 face is its pips
        assert "needs" in d["text"], d
        assert d["result"] and d["line"].rstrip(".!").endswith(d["result"]), d  # the result in the line's words
        assert d["miss"] == bool(re.search(r": (miss|no hit|refused|no answer)[.!]?$", d["line"])), d
        if re.search(r"rolls [^:]*([+-]\d| = |, best)", d["line"]):  # a modifier, a sum or the better die: the total
            assert "= " in d["text"], d
        if "fires at" in d["line"]:
            assert all(sides == 6 for sides, _, _ in d["faces"]), d
        if "attack from" in d["line"] or "raid from" in d["line"]:
            assert all(sides == 8 for sides, _, _ in d["faces"]), d
    page.context.close()


def test_action_buttons_keep_their_whole_label_on_desktop_and_phone(web: Server, browser: Any) -> None:
    """A colon inside brackets is part of the name: the Imperial's Build Cannon button keeps its costs."""
    for viewport in (DESKTOP, PHONE):
        with httpx.Client(base_url=web.url) as c:
            token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
        page = open_seat(browser, web, token, viewport)
        page.wait_for_selector("body.my-turn")
        spend_the_biggest_card(page, tap=viewport == PHONE)
        button = page.locator("#actions button[data-verb=build]")
        assert button.text_content() == BUILD_CANNON
        assert page.evaluate("(b) => b.scrollWidth <= b.clientWidth", button.element_handle())
        page.context.close()


def test_the_desktop_card_menu_shows_the_event_text(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
        cards = {card["number"]: card for card in c.get("/api/game-data/freedom").json()["cards"]}
    page = open_seat(browser, web, token)
    page.wait_for_selector("body.my-turn")
    old = version(page)
    page.click("#actions button[data-verb=done]")
    wait_changed(page, old)
    page.wait_for_selector("body.my-turn .hand-card.legal")
    shown = 0
    for number in page.eval_on_selector_all(".hand-card.legal", "els => els.map((e) => Number(e.dataset.card))"):
        page.click(f".hand-card[data-card='{number}']")
        page.wait_for_selector("#card-menu .menu-item")
        event = page.locator("#card-menu .menu-item[data-verb=event]")
        if event.count():
            # without hovering: the event's own words are in the menu, under "Play the event"
            assert event.locator(".menu-hint").is_visible()
            assert event.locator(".menu-hint").text_content() == cards[number]["text"]
            shown += 1
        page.keyboard.press("Escape")
        page.wait_for_selector("#card-menu", state="hidden")
    assert shown >= 2
    page.context.close()


def test_my_games_names_the_opponent_in_words(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        bot = create(c, imperial="human", insurgent="strongest", seed=3)
        people = create(c, imperial="human", insurgent="human", seat="imperial", names={"imperial": "Anna"})
        c.post(f"/api/seat/{people['tokens']['insurgent']}/name", json={"name": "Notis"})
    seats = [{"token": made["tokens"]["imperial"], "game_id": made["game_id"], "seat": "imperial"}
             for made in (bot, people)]
    context = browser.new_context(viewport=DESKTOP)
    hand_device(context, web.url, bot["tokens"]["imperial"])
    context.add_init_script(f"localStorage.setItem('muster.seats', {json.dumps(json.dumps(seats))})")
    page = context.new_page()
    page.goto(web.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#my-games tbody tr').length === 2")
    against = page.eval_on_selector_all("#my-games tbody tr td:nth-child(3)", "els => els.map((e) => e.textContent)")
    assert sorted(against) == ["Notis (a person)", "the Strongest bot"], against
    # nothing of a bot's settings, and no cell wider than its column
    assert not any(re.search(r"[:=]|ismcts|heuristic", text) for text in against)
    assert page.evaluate("() => [...document.querySelectorAll('#my-games td')]"
                         ".every((td) => td.scrollWidth <= td.clientWidth + 1)")
    assert page.evaluate("() => document.querySelector('#my-games').scrollWidth"
                         " <= document.querySelector('.table-wrap').clientWidth")  # the table fits its panel
    context.close()


def play_out(c: httpx.Client, tokens: list[str], seed: int) -> None:
    """Drive the given seats through the API to the end of the game (a bot plays any other seat), ending
    turns early to keep it short."""
    chooser = random.Random(seed)
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        progressed = False
        for token in tokens:
            st = state(c, token)
            if st["outcome"]:
                return
            if st["legal"]:
                quick = [i for i in st["legal"] if i["action"][0] in ("end", "done")]
                choice = chooser.choice(quick or st["legal"])
                act(c, token, st["version"], choice["action"])
                progressed = True
        if not progressed:
            time.sleep(0.02)


def test_the_game_over_screen_and_a_rematch_against_the_bot(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        made = create(c, imperial="beginner", insurgent="human", seat="insurgent", seed=3)
        token = made["tokens"]["insurgent"]
        play_out(c, [token], 3)
        outcome = state(c, token)["outcome"]
    page = open_seat(browser, web, token)
    page.wait_for_selector("#game-over", state="visible")
    title = page.text_content("#go-title") or ""
    assert title == ("You won!" if outcome["winner"] == "insurgent" else "Imperial wins")
    assert page.text_content("#go-why")
    assert page.locator("#go-history svg path.hist-line").count() == 2  # both Morale tracks over the game
    assert page.get_attribute("#go-analysis", "href") == f"/analysis/{made['game_id']}"
    assert page.get_attribute("#go-replay", "href").startswith(f"/replay/{made['game_id']}")
    # the map stays one click away, and the result comes back
    page.click("#go-map")
    assert page.is_hidden("#game-over") and page.is_visible("#show-result")
    page.click("#show-result")
    page.wait_for_selector("#game-over", state="visible")
    # a rematch: the same bot level, sides swapped, started at once
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + re.escape(token) + ")"))
    page.wait_for_selector("#status[data-version]")
    new_token = page.url.rsplit("/", 1)[1]
    st = page.request.get(f"{web.url}/api/seat/{new_token}").json()  # with this browser's device session
    assert st["seat"] == "imperial" and st["game_id"] != made["game_id"]
    assert st["seats"]["insurgent"]["kind"] == "bot" and st["seats"]["insurgent"]["level"] == "Beginner"
    assert not st["outcome"]
    page.context.close()


def test_a_rematch_between_people_invites_the_other_person(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        made = create(c, imperial="human", insurgent="human", seat="imperial", names={"imperial": "Anna"})
        tokens = made["tokens"]
        play_out(c, [tokens["imperial"], tokens["insurgent"]], 4)
    page = open_seat(browser, web, tokens["imperial"])
    page.wait_for_selector("#game-over", state="visible")
    page.click("#rematch")
    page.wait_for_selector("#rematch-link")
    link = page.input_value("#rematch-link")
    assert "/join/" in link
    with httpx.Client(base_url=web.url) as other:  # the other person's browser
        offer = other.get("/api/invitations/" + link.rsplit("/", 1)[1]).json()
        assert offer["seat"] == "imperial" and offer["state"] == "open"  # they take the side Anna leaves
        assert offer["inviter"] == {"insurgent": "Anna"}
    page.click("#rematch-seat")
    page.wait_for_selector("#status[data-version]")
    assert "You: Insurgent (Anna)" in (page.text_content("#players") or "")
    page.context.close()


def test_the_phone_keeps_the_way_out_of_a_question_on_screen(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
    page = open_seat(browser, web, token, PHONE)
    page.wait_for_selector("body.my-turn")
    # the Imperial Opening: the Camp lies beyond the phone's first view, and a button says so and shows it
    page.wait_for_selector("#offscreen", state="visible")
    assert "off screen" in (page.text_content("#offscreen") or "")
    page.tap("#offscreen")
    page.wait_for_selector("#offscreen", state="hidden")
    spend_the_biggest_card(page, tap=True)
    # the hand drawer gave the map back once the card was chosen
    assert page.is_hidden("#hand .hand-card")
    assert page.locator("#actions button").count() >= 5
    end = page.locator("#actions button[data-verb=end]")
    box = end.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] + box["height"] < PHONE["height"] / 2
    # nothing covers it, and the prompt is no box to scroll
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.dataset.verb",
                         [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]) == "end"
    assert page.evaluate("() => { const p = document.querySelector('.promptbar');"
                         " return p.scrollHeight <= p.clientHeight + 1; }")
    old = version(page)
    end.tap()  # ending with AP left asks once more
    page.tap("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    page.context.close()


def test_options_close_with_escape(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
    page = open_seat(browser, web, token)
    page.click(".menu summary")
    assert page.is_visible("#notify")
    page.keyboard.press("Escape")
    assert page.is_hidden("#notify")
    page.click(".menu summary")
    page.mouse.click(400, 500)  # a click elsewhere closes it too
    assert page.is_hidden("#notify")
    page.context.close()


def test_a_free_regroup_asks_before_it_ends_the_turn_and_its_first_click_undoes(web: Server, browser: Any) -> None:
    """The destination of the Insurgent's free Regroup hands the turn over: it asks first, and a change of mind
    takes nothing back that cannot be; the unit picked before is undone by "Undo my turn"."""
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="beginner", insurgent="human", seat="insurgent", seed=12)["tokens"]["insurgent"]
    page = open_seat(browser, web, token)
    page.wait_for_selector("body.my-turn")
    assert "Regroup" in (page.text_content("#prompt") or "")
    start = step(page)
    old = version(page)
    page.click("#board g.space.legal >> nth=0")  # the unit to move
    wait_changed(page, old)
    old = version(page)
    page.click("#board g.space.legal >> nth=0")  # where it goes: this would end the turn
    page.wait_for_selector("#card-menu [data-confirm=yes]")
    assert "ends your turn" in (page.text_content("#card-menu .menu-warning") or "")
    page.click("#card-menu .menu-cancel")  # No, go back: nothing happened
    assert version(page) == old and page.is_visible("body.my-turn")
    page.click("#undo")
    wait_changed(page, old)
    assert step(page) == start
    old = version(page)
    page.click("#board g.space.legal >> nth=0")
    wait_changed(page, old)
    old = version(page)
    page.click("#board g.space.legal >> nth=0")
    page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    assert step(page) >= start + 2  # the Regroup was made (and the bot may already have gone on)
    page.context.close()


def test_against_a_bot_undo_takes_back_the_card_played(web: Server, browser: Any) -> None:
    """The bot reads the game only on its own turn, so the card played is seen by nobody before the turn ends:
    "Undo my turn" puts it back in the hand, and its line leaves the log."""
    with httpx.Client(base_url=web.url) as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
    page = open_seat(browser, web, token)
    page.wait_for_selector("body.my-turn")
    old = version(page)
    page.click("#actions button[data-verb=done]")
    wait_changed(page, old)
    page.wait_for_selector("body.my-turn .hand-card.legal")
    start, hand = step(page), page.locator("#hand .hand-card").count()
    spent = page.get_attribute(".hand-card.legal >> nth=0", "data-card")
    old = version(page)
    page.click(f".hand-card[data-card='{spent}']")
    page.click("#card-menu .menu-item[data-verb=ap]")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    assert page.locator(f"#hand .hand-card[data-card='{spent}']").count() == 0
    old = version(page)
    page.click("#actions button[data-verb=prepare]")  # one action after the card
    wait_changed(page, old)
    old = version(page)
    page.click("#undo")
    wait_changed(page, old)
    assert step(page) == start and page.locator("#hand .hand-card").count() == hand
    assert page.locator(f"#hand .hand-card.legal[data-card='{spent}']").count() == 1
    assert " for 4 AP" not in (page.text_content("#log") or "").split("Action phase")[-1]
    page.context.close()


def test_the_lobby_fits_the_first_screen_and_asks_strength_only_of_a_computer(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(web.url + "/")
    page.wait_for_selector("#level-strongest")
    box = page.locator("#create").bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"]  # Start without scrolling at 1440×900
    page.check("input[name=opponent][value=human]")
    assert page.is_hidden("#levels")
    page.check("input[name=opponent][value=bot]")
    assert page.is_visible("#levels")
    page.close()
