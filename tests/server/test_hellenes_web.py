"""Hellenes in the browser and over the API: a game against a bot, hidden blocks kept hidden, the map
played by clicking in Debian's headless Chromium, and axe-core on its page."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from muster.games.hellenes.datafiles import blocks
from muster.games.hellenes.module import STRONGEST

from .helpers import Server, create
from .test_e2e import DESKTOP, version, wait_changed, wait_my_turn_or


def _revealed_in_battle(log: Any) -> set[str]:
    """The blocks a battle's log line names (the language-neutral log keeps their ids as arguments)."""
    if isinstance(log, dict):
        found = {str(v) for k, v in log.items() if k == "block" and isinstance(v, str)}
        return found.union(*(_revealed_in_battle(v) for v in log.values()))
    if isinstance(log, list):
        return set().union(*(_revealed_in_battle(v) for v in log))
    return set()


def _create(c: Any, **body: Any) -> dict[str, Any]:
    made: dict[str, Any] = create(c, **{"bot_delay_ms": None, **body})
    return made


def _enemy_ids(seat: str) -> set[str]:
    return {bid for bid, d in blocks().items() if d.side != seat}


def _leaks(payload: dict[str, Any], seat: str) -> list[str]:
    """Enemy block identities anywhere in a state message, except those a battle revealed (``known_as``)."""
    view = payload["view"]
    known = {e["known_as"] for e in view.get("enemy", []) if "known_as" in e}
    text = json.dumps({k: v for k, v in payload.items() if k != "log"})
    return [bid for bid in _enemy_ids(seat) - known if f'"{bid}"' in text]


def test_meta_offers_hellenes_on_the_web(web: Server) -> None:
    with web.client() as c:
        games = {g["name"]: g for g in c.get("/api/meta").json()["games"]}
    assert games["hellenes"]["web"] is True and games["freedom"]["web"] is True
    assert games["hellenes"]["seat_names"] == {"athens": "Athens", "sparta": "Sparta"}
    assert c is not None


def test_levels_resolve_per_game_and_bad_bodies_are_refused(web: Server) -> None:
    with web.client() as c:
        made = _create(c, game="hellenes", athens="human", sparta="strongest", seed=5)
        status = c.get(f"/api/games/{made['game_id']}/status").json()
        assert status["players"]["sparta"] == STRONGEST  # Hellenes Strongest: the search, within a CPU budget
        assert c.post("/api/games", json={"game": "hellenes", "imperial": "human", "insurgent": "beginner"}
                      ).status_code == 400
        assert c.post("/api/games", json={"game": "chess", "athens": "human", "sparta": "beginner"}).status_code == 400
        assert c.post("/api/games", json={"game": "hellenes", "athens": "human"}).status_code == 400


def test_a_game_against_a_bot_hides_the_enemy_blocks(web: Server) -> None:
    with web.client() as c:
        made = _create(c, game="hellenes", athens="human", sparta="standard", seed=9)
        token = made["tokens"]["athens"]
        acted = 0
        deadline = time.monotonic() + 120  # the bot's turns take longer on a loaded machine
        while acted < 40 and time.monotonic() < deadline:
            state = c.get(f"/api/seat/{token}").json()
            assert state["game"] == "hellenes"
            assert not _leaks(state, "athens"), _leaks(state, "athens")
            for moved in state["last"]["actions"]:
                if moved["seat"] == "sparta":
                    assert moved["action"][0] != "card" or moved["action"][1] is None  # committed face down
            if state["outcome"]:
                break
            if not state["legal"]:
                time.sleep(0.05)
                continue
            item = state["legal"][-1]
            r = c.post(f"/api/seat/{token}/action", json={"version": state["version"], "action": item["action"]})
            assert r.status_code == 200, r.text
            acted += 1
        assert acted, "the game never reached the person's turn"
        export = c.get(f"/api/games/{made['game_id']}/export", params={"token": token}).json()
        assert export["game"] == "hellenes"
        text = json.dumps(export)
        known = {e["known_as"] for e in export["view"].get("enemy", []) if "known_as" in e}
        known |= _revealed_in_battle(export["view"].get("log", []))  # rule 6.1: both sides saw them
        assert not [b for b in _enemy_ids("athens") - known if f'"{b}"' in text]
        frame = c.get(f"/api/games/{made['game_id']}/replay", params={"token": token, "step": 1})
        assert frame.status_code == 200, frame.text
        assert frame.json()["game"] == "hellenes"


def test_engage_choices_carry_the_battle_odds() -> None:
    """Before engaging, the hint gives win/lose odds computed from the seat's view only."""
    import random

    from muster.core import new_game
    from muster.server.games import adapter

    ad = adapter("hellenes")
    for seed in range(6):
        g = new_game("hellenes", seed=seed)
        rng = random.Random(seed)
        while not g.outcome:
            seat = g.active_seat
            view = g.view(seat)
            view.pop("log")  # as the server does before it asks for hints
            for action, label in g.labelled_actions():
                if "(Engage)" in label:
                    hint = ad.hint(view, action, seat)
                    found = re.match(r"Engage: win (\d+)%, lose \d+%", hint)
                    assert found, hint
                    # the board draws the same chance from a number sent beside the words, never from the words
                    chance = ad.chance(view, action, seat)
                    assert chance is not None and round(chance * 100) == int(found[1])
                    assert all(ad.chance(view, other, seat) is None for other, words in g.labelled_actions()
                               if "(Engage)" not in words and other.verb not in ("forced", "sortie", "assault"))
                    return
            g.apply(rng.choice(g.legal_actions()))
    pytest.fail("no engagement offered in six random games")


def start_hellenes(page: Any, url: str, side: str = "athens", seed: int = 4) -> None:
    """From the lobby: Hellenes against the beginner bot, no pause, a fixed seed."""
    page.goto(url + "/")
    page.check("input[name=game][value=hellenes]")
    page.check(f"input[name=side][value={side}]")
    page.check("#level-beginner")
    page.click("details.advanced summary")
    page.fill("#seed", str(seed))
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/"))
    wait_my_turn_or(page)


def act_by_clicking(page: Any, turn: int) -> None:
    """One decision: a hand card (committed face down), a marked area on the map, or a button."""
    old = version(page)
    if page.locator(".hand-card.legal").count():
        page.click(".hand-card.legal >> nth=0")
        page.wait_for_selector("#card-menu .menu-item")
        page.click("#card-menu .menu-item >> nth=0")
    elif page.locator("#board g.legal").count() and (turn % 4 or not page.locator("#actions button").count()):
        # the region itself (its middle may lie under a neighbour's blocks or a name)
        page.locator("#board g.legal >> nth=0").locator("path").first.dispatch_event("click")
        if page.locator("#card-menu .menu-item").count():
            page.click("#card-menu .menu-item >> nth=0")
    else:
        button = page.locator("#actions button:not([data-verb=end])")
        (button.first if button.count() else page.locator("#actions button").first).click()
        if page.locator("#card-menu .menu-item").count():
            page.click("#card-menu .menu-item >> nth=0")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)


def test_a_sortie_question_has_its_own_hints() -> None:
    """Rules revision 3: the Sortie choices are explained in the reader's language (declining is not a block's
    "stay"), and a Sortie shows its battle odds like any engagement."""
    import random

    from muster.core import Action, new_game
    from muster.server.games import adapter

    ad = adapter("hellenes")
    g = new_game("hellenes", seed=1)  # a random game that reaches a Sortie question
    rng = random.Random(1)
    while not g.outcome:
        seat = g.active_seat
        view = g.view(seat)
        if view["stack"][-1]["kind"] == "sortie":
            assert ad.hint(view, Action("stay"), seat) == "No Sortie this Season: the besieged stay inside."
            assert ad.hint(view, Action("stay"), seat, "pl").startswith("Bez wypadu")
            sortie = next(a for a in g.legal_actions() if a.verb == "sortie")
            assert re.match(r"Engage: win \d+%, lose \d+%", ad.hint(view, sortie, seat))  # the Sortie's odds
            assert "oblężone" in ad.decision_help(view, "pl")
            return
        g.apply(rng.choice(g.legal_actions()))
    pytest.fail("no Sortie offered in a random game")


def test_hellenes_played_by_clicking_on_the_map(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    start_hellenes(page, web.url)
    assert page.locator("#board svg.hellenes").count() == 1
    assert page.locator("#board g.space").count() == 54  # 44 land areas and 10 seas
    # the enemy's blocks stand upright: no label, no strength
    assert page.locator("#board g.hl-block.upright text").count() == 0
    assert page.locator("#board g.hl-block.upright").count() > 0
    assert page.locator("#board g.hl-block.own text").count() > 0
    clicked_map = 0
    for turn in range(14):
        page.wait_for_function("() => document.body.classList.contains('my-turn') || "
                               "document.querySelector('#status').textContent.startsWith('Game over')", timeout=30000)
        if page.locator("#board g.legal").count():
            clicked_map += 1
        act_by_clicking(page, turn)
    assert clicked_map > 0
    assert "Hellenes" in page.title()
    page.close()


def test_hellenes_page_has_no_serious_accessibility_violations(web: Server, browser: Any) -> None:
    from .test_a11y import serious

    page = browser.new_page(viewport=DESKTOP)
    start_hellenes(page, web.url, side="sparta", seed=8)
    assert serious(page) == []
    page.goto(web.url + "/rules/hellenes")
    assert serious(page) == []
    page.goto(web.url + "/")
    page.check("input[name=game][value=hellenes]")
    assert serious(page) == []
    page.close()


def test_no_push_names_a_hidden_enemy_block(web: Server) -> None:
    """Over the websocket, as the game runs: no enemy identity beyond what battles revealed, no enemy card."""
    import random

    from .helpers import ws_connect, ws_recv

    chooser = random.Random(3)
    with web.client() as c:
        made = _create(c, game="hellenes", athens="human", sparta="standard", seed=21, bot_delay_ms=0)
    token = made["tokens"]["athens"]
    states = 0
    with ws_connect(web.ws_url, token) as ws:
        while states < 150:
            message = ws_recv(ws, timeout=30)
            if message["type"] != "state":
                continue
            states += 1
            assert not _leaks(message, "athens"), _leaks(message, "athens")
            assert all(set(h) == {"count"} for s, h in message["view"]["hands"].items() if s == "sparta")
            for moved in message["last"]["actions"]:
                if moved["seat"] == "sparta":
                    verb, arg = moved["action"]
                    assert verb != "card" or arg is None
                    assert not (isinstance(arg, str) and (arg in blocks() or "@" in arg))
            if message["outcome"]:
                break
            if message["legal"]:
                choice = chooser.choice(message["legal"])["action"]
                ws.send(json.dumps({"type": "action", "version": message["version"], "action": choice}))
    assert states > 20


def test_every_level_has_a_bot_for_every_web_game() -> None:
    """Each lobby level builds a bot that knows the game; a bot that does not is refused."""
    from muster.ai import make_bot
    from muster.ai.base import BotSpecError
    from muster.ai.levels import LEVELS, level, level_name
    from muster.core import get_rules

    for game in ("freedom", "hellenes"):
        for lv in LEVELS:
            assert make_bot(lv.spec_for(game), seed=0, rules=get_rules(game)) is not None
    # ISMCTS beat the heuristic in docs/hellenes-balance.md: it is the Hellenes Strongest level
    assert level("strongest").spec_for("hellenes") == STRONGEST
    assert level_name("heuristic", "hellenes") == "Standard"
    assert level_name("ismcts", "hellenes") == "Strongest"
    with pytest.raises(BotSpecError):
        make_bot("ismcts:tree=cards", seed=0, rules=get_rules("hellenes"))


def test_a_hellenes_area_is_chosen_with_the_keyboard(web: Server, browser: Any) -> None:
    """Legal areas take the focus and Enter picks them (a menu opens where an area has several choices)."""
    page = browser.new_page(viewport=DESKTOP)
    start_hellenes(page, web.url, seed=6)
    for turn in range(20):
        wait_my_turn_or(page)
        if page.locator("#board g.legal").count():
            break
        act_by_clicking(page, turn)
    target = page.locator("#board g.legal").first
    assert target.get_attribute("tabindex") == "0" and target.get_attribute("role") == "button"
    old = version(page)
    target.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('legal')")
    page.keyboard.press("Enter")
    if page.locator("#card-menu .menu-item").count():
        page.keyboard.press("Enter")  # the menu's first item has the focus
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.keyboard.press("Enter")
    wait_changed(page, old)
    page.close()


def test_hellenes_reads_polish_in_the_browser(web: Server, browser: Any) -> None:
    """A browser asking for Polish reads Hellenes' lobby, map, choices, hints and log in Polish."""
    context = browser.new_context(viewport=DESKTOP, locale="pl-PL")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url + "/")
    page.wait_for_selector("#level-strongest")  # the catalog and the lobby's data have loaded
    page.check("input[name=game][value=hellenes]")
    lobby = page.text_content("main") or ""
    assert "Ateny przeciw Sparcie, 431 p.n.e." in lobby and "Związek Peloponeski: hoplici Sparty" in lobby
    assert page.text_content("#game-title") == "Hellenowie: kampanie wojny peloponeskiej"
    page.check("input[name=side][value=athens]")
    page.check("#level-beginner")
    page.click("details.advanced summary")
    page.fill("#seed", "4")
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/"))
    wait_my_turn_or(page)
    assert page.get_attribute("html", "lang") == "pl"
    status = page.text_content("#status") or ""
    assert "p.n.e." in status and "rok 1 z" in status
    assert "Ateny: Nowy Rok 431: wybierz kartę noworoczną (zakrytą)" in (page.text_content("body") or "")
    assert page.get_attribute("#board svg.hellenes", "aria-label") == "Mapa Grecji i Morza Egejskiego"
    assert page.locator("#board .names text", has_text="Attyka").count() == 1
    for turn in range(6):
        page.wait_for_function("() => document.body.classList.contains('my-turn') || "
                               "document.querySelector('#status').textContent.startsWith('Gra')", timeout=30000)
        act_by_clicking(page, turn)
    log = page.text_content("#log") or ""
    assert "Karta noworoczna" in log and "New-Year card" not in log
    page.goto(web.url + "/rules/hellenes")  # the rules summary, written in Polish
    assert page.get_attribute("html", "lang") == "pl" and "Rok, pora po porze" in (page.text_content("main") or "")
    assert not errors
    context.close()


def test_hellenes_post_game_analysis_and_hints(web: Server, browser: Any) -> None:
    """A finished Hellenes game has its review (Athens' chance turn by turn, the turning points) on the analysis
    page, in Hellenes' words; a player who asked for hints against a bot gets them on their turn."""
    from .helpers import wait_finished, wait_for_turn
    from .test_analysis_page import serious

    with web.client() as c:
        bots = _create(c, game="hellenes", athens="beginner", sparta="beginner", seed=3)
        wait_finished(c, bots["game_id"], timeout=300)
        solo = _create(c, game="hellenes", athens="human", sparta="beginner", hints="athens", seed=4)
        wait_for_turn(c, solo["tokens"]["athens"], timeout=60)  # Sparta, a bot, opens the year
        answer = c.get(f"/api/seat/{solo['tokens']['athens']}/hints", timeout=120)
        assert answer.status_code == 200, answer.text
        suggestions = answer.json()["hints"]
        assert 1 <= len(suggestions) <= 3 and suggestions[0]["strongest"]
        assert all(0 <= h["chance"] <= 1 and h["reason"] for h in suggestions)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{web.url}/analysis/{bots['game_id']}")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=600000)
    assert page.locator("#curve svg polyline").count() == 1
    summary = page.text_content("#summary") or ""
    assert "Athens: the estimated chance" in summary and "Imperial" not in (page.text_content("main") or "")
    assert 1 <= page.locator("#turning li.turning-point").count() <= 3
    assert serious(page) == []
    page.close()
