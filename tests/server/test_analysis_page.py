"""The post-game analysis page and its API, in Debian's headless Chromium against a real server."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import ARGS, CHROMIUM, Server, create, hand_device, wait_finished

DESKTOP = {"width": 1440, "height": 900}


def serious(page: Any) -> list[str]:
    """axe-core's critical and serious violations on the page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("critical", "serious")]


def csp_watch(page: Any) -> list[str]:
    """Collect the page's Content-Security-Policy complaints (the CSP forbids inline and eval'd code)."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
    return seen


def test_analysis_api_is_for_finished_games_and_the_live_curve_for_bot_games(web: Server) -> None:
    with web.client() as client:
        people = create(client, imperial="human", insurgent="human")
        gid = people["game_id"]
        assert client.get(f"/api/games/{gid}/analysis").status_code == 403
        assert client.get(f"/api/games/{gid}/win-probability").status_code == 403  # no unagreed hint
        bots = create(client, imperial="beginner", insurgent="beginner")
        wait_finished(client, bots["game_id"])
        curve = client.get(f"/api/games/{bots['game_id']}/win-probability").json()
        assert curve["finished"] and len(curve["win_probability"]) == len(curve["rounds"]) > 10
        assert client.get("/api/games/nonexistent/analysis").status_code == 404


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_post_game_page_shows_the_curve_and_jumps_into_the_replay(web: Server) -> None:
    from playwright.sync_api import sync_playwright

    with web.client() as client:
        made = create(client, imperial="beginner", insurgent="beginner")
        wait_finished(client, made["game_id"])
    gid = made["game_id"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page: Any = browser.new_page(viewport=DESKTOP)
        csp = csp_watch(page)
        page.goto(f"{web.url}/replay/{gid}")
        page.wait_for_function("() => document.querySelector('#analysis-link')?.hidden === false", timeout=60000)
        page.click("#analysis-link")
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=180000)
        assert page.locator("#curve svg polyline").count() == 1
        assert page.locator("#curve svg circle.wp-mark").count() == 3
        points = page.locator("#turning li.turning-point")
        assert points.count() == 3
        assert "strongest bot" in (points.nth(0).text_content() or "")
        assert serious(page) == []
        step = points.nth(1).get_attribute("data-step")
        points.nth(1).locator("a.jump").click()
        page.wait_for_function(f"() => (document.querySelector('#step')?.textContent || '').startsWith('step {step} ')",
                               timeout=60000)
        assert csp == []
        browser.close()


def test_hints_need_both_people_and_are_refused_until_then(web: Server) -> None:
    with web.client() as client:
        made = create(client, imperial="human", insurgent="human", hints="imperial")
        imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
        status = client.get(f"/api/seat/{ins}/hints/status").json()
        assert status["proposed"] and not status["hinted"]
        for token in (imp, ins):
            refused = client.get(f"/api/seat/{token}/hints")
            assert refused.status_code == 403 and "agreement" in refused.json()["error"]
        accepted = client.post(f"/api/seat/{ins}/hints/accept", json={})
        assert accepted.status_code == 200 and accepted.json()["hinted"]
        for token in (imp, ins):
            assert client.get(f"/api/seat/{token}/hints/status").json()["hinted"]
        answer = client.get(f"/api/seat/{imp}/hints")
        assert answer.status_code == 200
        suggestions = answer.json()["hints"]
        assert 1 <= len(suggestions) <= 3 and suggestions[0]["strongest"]
        assert client.get(f"/api/seat/{ins}/hints").json()["hints"] == []  # not the Insurgent's turn


def test_hints_off_unless_set_at_creation(web: Server) -> None:
    with web.client() as client:
        plain = create(client, imperial="human", insurgent="human")
        token = plain["tokens"]["insurgent"]
        assert client.post(f"/api/seat/{token}/hints/accept", json={}).status_code == 409  # nothing proposed
        assert client.get(f"/api/seat/{token}/hints").status_code == 403
        bad = client.post("/api/games", json={"imperial": "human", "insurgent": "beginner", "hints": "insurgent"})
        assert bad.status_code == 400
        solo = create(client, imperial="human", insurgent="beginner", hints="imperial")
        assert client.get(f"/api/seat/{solo['tokens']['imperial']}/hints").status_code == 200


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_play_page_agrees_to_and_shows_hints(web: Server) -> None:
    from playwright.sync_api import sync_playwright

    with web.client() as client:
        made = create(client, imperial="human", insurgent="human", hints="imperial")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page: Any = browser.new_page(viewport=DESKTOP)
        hand_device(page.context, web.url, made["tokens"]["imperial"])
        page.goto(f"{web.url}{made['links']['imperial']}")
        page.wait_for_function("() => document.querySelector('#hints-panel')?.hidden === false", timeout=30000)
        assert page.locator("#hints-ask").count() == 0  # the invited seat has not agreed yet
        guest = browser.new_page(viewport=DESKTOP)
        hand_device(guest.context, web.url, made["tokens"]["insurgent"])
        guest.goto(f"{web.url}{made['links']['insurgent']}")
        guest.wait_for_selector("#hints-accept", timeout=30000)
        guest.click("#hints-accept")
        guest.wait_for_selector("#hints-ask")
        page.reload()
        page.wait_for_selector("#hints-ask", timeout=30000)
        page.click("#hints-ask")
        page.wait_for_function("() => document.querySelectorAll('#hints-list li').length >= 1", timeout=120000)
        assert "strongest bot" in (page.text_content("#hints-list") or "")
        assert serious(page) == []
        browser.close()
