"""Undo between two people, in two browsers: the player takes back a free Regroup's first click or a card played,
and the other page never shows it (neither in its page nor in any websocket message it received); once the
turn is committed the other page shows it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import CHROMIUM, Server, act, device_headers, hand_device, remember_device, state
from .test_e2e import DESKTOP, PHONE, step, version, wait_changed

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def two_people(web: Server) -> dict[str, str]:
    """A game between two people on two devices: the Imperial creates it, the Insurgent accepts the invitation."""
    with httpx.Client(base_url=web.url) as imperial, httpx.Client(base_url=web.url) as insurgent:
        made = imperial.post("/api/games", json={"imperial": "human", "insurgent": "human", "seat": "imperial"})
        assert made.status_code == 201, made.text
        claimed = insurgent.post(f"/api/invitations/{made.json()['invitations']['insurgent']}/claim", json={})
        assert claimed.status_code == 200, claimed.text
        tokens = {"imperial": made.json()["tokens"]["imperial"], "insurgent": claimed.json()["token"]}
        remember_device(imperial, tokens["imperial"])
        remember_device(insurgent, tokens["insurgent"])
    return tokens


class Page:
    """One person's page in a browser context of its own, with every websocket message it received."""

    def __init__(self, browser: Any, web: Server, token: str, viewport: dict[str, int] = DESKTOP) -> None:
        phone = viewport == PHONE
        self.context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        hand_device(self.context, web.url, token)
        self.page = self.context.new_page()
        self.received: list[dict[str, Any]] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.goto(f"{web.url}/play/{token}")
        self.page.wait_for_selector("#status[data-version]")

    def _frame(self, payload: Any) -> None:
        self.received.append(json.loads(payload))

    def states(self) -> list[dict[str, Any]]:
        """The state messages received so far."""
        return [m for m in self.received if m.get("type") == "state"]


def click_and_wait(page: Any, selector: str) -> None:
    old = version(page)
    page.click(selector)
    wait_changed(page, old)


def test_a_free_regroup_is_undone_before_the_other_person_sees_it(web: Server, browser: Any) -> None:
    tokens = two_people(web)
    imperial = Page(browser, web, tokens["imperial"])
    insurgent = Page(browser, web, tokens["insurgent"])
    imperial.page.wait_for_selector("body.my-turn")
    click_and_wait(imperial.page, "#actions button[data-verb=done]")  # the Imperial Opening, done at once
    me = insurgent.page
    me.wait_for_selector("body.my-turn")
    assert "Regroup" in (me.text_content("#prompt") or "")
    start = step(me)
    imperial.page.wait_for_function("n => +document.querySelector('#status').dataset.step === n", arg=start)
    seen = len(imperial.states())
    board = imperial.page.inner_html("#board")
    click_and_wait(me, "#board g.space.legal >> nth=0")  # the unit to move: the Regroup begun
    assert me.is_visible("#undo") and me.is_visible("#undo-step")
    click_and_wait(me, "#undo-step")
    assert step(me) == start and me.is_hidden("#undo")
    click_and_wait(me, "#board g.space.legal >> nth=1")  # another unit, then its destination ends the turn
    me.click("#board g.space.legal >> nth=0")
    me.wait_for_selector("#card-menu [data-confirm=yes]")
    old = version(me)
    me.click("#card-menu [data-confirm=yes]")
    wait_changed(me, old)
    imperial.page.wait_for_function("n => +document.querySelector('#status').dataset.step > n", arg=start)
    # the Imperial's page got the Regroup only as it was made: no message showed the first unit picked
    held = [s for s in imperial.states()[seen:] if s["step"] <= start + 1 and s["step"] != start]
    assert held == []
    assert imperial.page.inner_html("#board") != board
    assert any(m["seat"] == "insurgent" for m in imperial.states()[-1]["last"]["actions"])
    imperial.context.close()
    insurgent.context.close()


def to_the_action_phase(web: Server, tokens: dict[str, str]) -> None:
    """Both Openings played over the API (each side done at once) up to the Imperial's first card."""
    with httpx.Client(base_url=web.url) as c:
        while True:
            for token in tokens.values():
                mine = state(c, token)
                if any(i["action"][0] == "ap" for i in mine["legal"]):
                    return
                quick = [i for i in mine["legal"] if i["action"][0] in ("done", "to", "target")]
                if mine["legal"]:
                    assert act(c, token, mine["version"], (quick or mine["legal"])[0]["action"]).status_code == 200


def play_card(page: Any, card: str) -> str:
    """Play ``card`` for its AP; the log line it added."""
    lines = page.locator("#log li").count()
    old = version(page)
    page.click(f".hand-card[data-card='{card}']")
    page.click("#card-menu .menu-item[data-verb=ap]")
    if page.locator("#card-menu [data-confirm=yes]").count():
        page.click("#card-menu [data-confirm=yes]")
    wait_changed(page, old)
    added = page.locator("#log li").all_text_contents()[lines:]
    line = next(text for text in added if " AP" in text)
    return line.strip()


def test_a_card_is_undone_before_the_other_person_sees_it(web: Server, browser: Any) -> None:
    tokens = two_people(web)
    to_the_action_phase(web, tokens)
    imperial = Page(browser, web, tokens["imperial"])
    insurgent = Page(browser, web, tokens["insurgent"])
    me, them = imperial.page, insurgent.page
    me.wait_for_selector("body.my-turn .hand-card.legal")
    start, hand = step(me), me.locator("#hand .hand-card").count()
    assert step(them) == start
    committed = {"log": them.inner_text("#log"), "board": them.inner_html("#board"),
                 "tracks": them.inner_html("#tracks"), "opponent": them.inner_text("#opponent")}
    cards = me.eval_on_selector_all(".hand-card.legal", "els => els.map((e) => e.dataset.card)")
    spent = cards[0]
    line = play_card(me, spent)
    assert me.locator(f"#hand .hand-card[data-card='{spent}']").count() == 0
    click_and_wait(me, "#actions button[data-verb=prepare]")  # one action after the card
    assert me.is_visible("#undo") and me.is_visible("#undo-step")
    shots = Path(os.environ.get("MUSTER_UNDO_SHOTS", "") or web.workdir)
    me.screenshot(path=str(shots / "undo-desktop.png"))
    phone = Page(browser, web, tokens["imperial"], PHONE)  # the same seat on a phone, mid-turn
    phone.page.wait_for_selector("#undo:not([hidden])")
    assert phone.page.is_visible("#undo-step")
    box, prompt_bar = phone.page.locator("#undo").bounding_box(), phone.page.locator(".promptbar").bounding_box()
    assert box and prompt_bar and box["y"] + box["height"] <= PHONE["height"]
    phone.page.screenshot(path=str(shots / "undo-phone.png"))
    phone.context.close()
    click_and_wait(me, "#undo")
    assert step(me) == start and me.locator("#hand .hand-card").count() == hand
    assert me.locator(f"#hand .hand-card.legal[data-card='{spent}']").count() == 1
    assert line not in (me.text_content("#log") or "")
    # the other page: as it was when the turn began, and no message it received named the card
    assert them.inner_text("#log") == committed["log"] and them.inner_html("#board") == committed["board"]
    assert them.inner_html("#tracks") == committed["tracks"]
    assert all(s["step"] == start for s in insurgent.states())
    assert not any(line in json.dumps(m, ensure_ascii=False) for m in insurgent.received)
    # another card, and the turn ends: now the other page shows it, and never the card taken back
    other = next(c for c in cards if c != spent)
    new_line = play_card(me, other)
    old = version(me)
    me.click("#actions button[data-verb=end]")
    if me.locator("#card-menu [data-confirm=yes]").count():
        me.click("#card-menu [data-confirm=yes]")
    wait_changed(me, old)
    them.wait_for_function("n => +document.querySelector('#status').dataset.step > n", arg=start)
    them.wait_for_function("line => document.querySelector('#log').textContent.includes(line)", arg=new_line)
    assert line not in (them.text_content("#log") or "")
    assert not any(line in json.dumps(m, ensure_ascii=False) for m in insurgent.received)
    with httpx.Client(base_url=web.url) as c:  # a reload shows the same
        assert new_line in " ".join(e["t"] for e in state(c, tokens["insurgent"])["log"])
        assert c.get(f"/api/seat/{tokens['insurgent']}", headers=device_headers(tokens["insurgent"])).status_code == 200
    imperial.context.close()
    insurgent.context.close()
