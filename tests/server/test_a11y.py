"""Accessibility: axe-core (shipped inside axe-playwright-python, no network) on every kind of page.

No violation of impact "critical" or "serious" on the lobby, the rules page, a game page in every
phase a player can meet, and the replay.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from .helpers import Server, act, create, hand_device, state
from .test_e2e import CHROMIUM, DESKTOP, PHONE

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def serious(page: Any) -> list[str]:
    """axe-core's critical and serious violations on the page, as readable lines."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("critical", "serious")]


def test_lobby_and_rules_pages(web: Server, browser: Any) -> None:
    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        page.goto(web.url + "/")
        page.wait_for_selector("#level-strongest")
        assert serious(page) == []
        page.goto(web.url + "/rules/freedom")
        assert serious(page) == []
        page.close()


def test_the_polish_pages(web: Server, browser: Any) -> None:
    """The lobby, the rules summary and a game page read in Polish."""
    context = browser.new_context(viewport=DESKTOP, locale="pl-PL")
    page = context.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#level-strongest")
    assert page.get_attribute("html", "lang") == "pl" and serious(page) == []
    page.goto(web.url + "/rules/freedom")
    assert serious(page) == []
    with web.client() as c:
        token = create(c, imperial="human", insurgent="beginner", seed=9)["tokens"]["imperial"]
    hand_device(context, web.url, token)
    page.goto(f"{web.url}/play/{token}")
    page.wait_for_selector("body.my-turn")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Runda')")
    assert serious(page) == []
    context.close()


def test_a_game_page_in_every_phase(web: Server, browser: Any) -> None:
    chooser = random.Random(3)
    audited: dict[str, list[str]] = {}
    page = browser.new_page(viewport=DESKTOP)
    with web.client() as c:
        made = create(c, imperial="human", insurgent="beginner", seed=9, bot_delay_ms=150)
        token = made["tokens"]["imperial"]
        hand_device(page.context, web.url, token)
        page.goto(f"{web.url}/play/{token}")
        page.wait_for_selector("body.my-turn")
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            st = state(c, token)
            if st["outcome"] or st["round"] >= 5 or len(audited) >= 6:
                break
            if st["phase"] not in audited:  # on my turn or while the bot decides
                page.reload()
                page.wait_for_selector("#status[data-version]")
                audited[st["phase"]] = serious(page)
                if page.locator(".hand-card.legal").count():  # the card menu and its warning, too
                    page.click(".hand-card.legal >> nth=0")
                    audited[st["phase"] + " (card menu)"] = serious(page)
            if st["legal"]:
                choice = chooser.choice([item for item in st["legal"] if item["action"][0] != "end"] or st["legal"])
                act(c, token, st["version"], choice["action"])
            else:
                time.sleep(0.05)
    page.close()
    print("audited:", sorted(audited))
    # Administration asks for a decision only at the Period change (round 4: placing Allied units)
    phases = {"Opening", "Action phase", "Cannon fire", "Replenishment", "Administration"}
    assert phases <= set(audited), audited.keys()
    assert all(found == [] for found in audited.values()), audited


def test_the_replay(web: Server, browser: Any) -> None:
    with web.client() as c:
        made = create(c, imperial="beginner", insurgent="beginner", seed=4)
        deadline = time.monotonic() + 120
        while c.get(f"/api/games/{made['game_id']}/status").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.2)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{web.url}/replay/{made['game_id']}")
    page.wait_for_function("() => /step [1-9]\\d* \\/ /.test(document.querySelector('#step').textContent)",
                           timeout=30000)
    assert serious(page) == []
    page.close()


def test_a_finished_game_page(web: Server, browser: Any) -> None:
    chooser = random.Random(5)
    with web.client() as c:
        made = create(c, imperial="human", insurgent="beginner", seed=6)
        token = made["tokens"]["imperial"]
        deadline = time.monotonic() + 240
        while not (st := state(c, token))["outcome"]:
            assert time.monotonic() < deadline, "the game did not finish"
            if st["legal"]:
                act(c, token, st["version"], chooser.choice(st["legal"])["action"])
    page = browser.new_page(viewport=DESKTOP)
    hand_device(page.context, web.url, token)
    page.goto(f"{web.url}/play/{token}")
    page.wait_for_selector("#status[data-version]")
    assert "Game over" in (page.text_content("#prompt") or "")
    assert serious(page) == []
    page.close()


def test_the_phone_play_page_meets_the_target_size_rule(web: Server, browser: Any) -> None:
    """WCAG 2.2 target size (axe's ``target-size``) on the phone, with the choices of an action and the hand."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    with web.client() as c:
        token = create(c, imperial="human", insurgent="beginner", seed=12)["tokens"]["imperial"]
    hand_device(context, web.url, token)
    page = context.new_page()
    page.goto(f"{web.url}/play/{token}")
    page.wait_for_selector("body.my-turn")
    only_target_size = {"runOnly": {"type": "rule", "values": ["target-size"]}}
    for moment in ("opening", "hand"):
        if moment == "hand":
            page.tap("#actions button[data-verb=done]")
            page.wait_for_selector("#hand-toggle.attention")
            page.tap("#hand-toggle")
            page.wait_for_selector("#hand .hand-card.legal", state="visible")
        response = Axe().run(page, options=only_target_size).response
        found = response["violations"]
        assert found == [], [(v["id"], [n["target"] for n in v["nodes"]][:5]) for v in found]
        checked = sum(len(r["nodes"]) for r in response["passes"] if r["id"] == "target-size")
        assert checked >= 5, checked  # the rule did look at the buttons
        assert serious(page) == []
    context.close()
