"""The lobby, the table (chat, resign, rematch) and the profile in a real browser (Debian's Chromium): two people
sign up in two browser contexts; one posts an open game, the other joins it from the lobby; they move, chat, one
resigns; both see the result and the new ratings; a rematch starts with the sides swapped. axe-core finds no
critical or serious violation on the lobby and the profile at desktop and phone sizes."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import pytest

from .helpers import Server
from .test_a11y import serious
from .test_e2e import CHROMIUM, DESKTOP, PHONE

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
SHOTS = os.environ.get("MUSTER_SCREENSHOTS")
"""A directory to save screenshots of the pages in (for the gallery), when set."""


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _sign_up(page: Any, url: str) -> str:
    name = "p" + secrets.token_hex(4)
    page.goto(url + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "pw-" + secrets.token_hex(8))
    page.click("#signup-form button")
    page.wait_for_selector("#my-games", state="visible")
    return name


def _token(page: Any) -> str:
    return str(page.url.rsplit("/", 1)[1])


def _seat_state(page: Any, base: str) -> dict[str, Any]:
    answer = page.request.get(f"{base}/api/seat/{_token(page)}")
    assert answer.ok, answer.text()
    data: dict[str, Any] = answer.json()
    return data


def test_two_people_meet_in_the_lobby_play_chat_resign_and_rematch(web: Server, browser: Any) -> None:
    alice_context = browser.new_context(viewport=DESKTOP)
    bob_context = browser.new_context(viewport=PHONE)
    alice, bob = alice_context.new_page(), bob_context.new_page()
    for page in (alice, bob):
        page.on("dialog", lambda dialog: dialog.accept())
    alice_name, bob_name = _sign_up(alice, web.url), _sign_up(bob, web.url)
    # alice posts a rated game, taking the first side
    alice.goto(web.url + "/lobby")
    alice.wait_for_selector("#post-side option[value]:not([value=random])", state="attached")
    first_side = alice.eval_on_selector("#post-side option:nth-child(2)", "o => o.value")
    alice.select_option("#post-side", first_side)
    assert alice.is_checked("#post-rated")
    alice.click("#post-form button")
    alice.wait_for_selector("#posted-seat")
    assert serious(alice) == []
    _shot(alice, "open-games")
    alice.click("#posted-seat")
    alice.wait_for_url(f"{web.url}/play/*")
    # bob finds it in the lobby on his phone and joins
    bob.goto(web.url + "/lobby")
    bob.wait_for_selector(f"#posts li:has-text('{alice_name}') button.primary")
    assert serious(bob) == []
    _shot(bob, "mobile-open-games")
    bob.click(f"#posts li:has-text('{alice_name}') button.primary")
    bob.wait_for_url(f"{web.url}/play/*")
    assert _seat_state(alice, web.url)["seat"] == first_side
    bob_side = _seat_state(bob, web.url)["seat"]
    assert bob_side != first_side
    # a move by whoever is to act (through the page's own browser session)
    mover = alice if _seat_state(alice, web.url)["legal"] else bob
    st = _seat_state(mover, web.url)
    moved = mover.request.post(f"{web.url}/api/seat/{_token(mover)}/action",
                               data={"version": st["version"], "action": st["legal"][0]["action"]})
    assert moved.ok, moved.text()
    # they chat: each sees the other's message
    alice.wait_for_selector("#chat-text")
    alice.fill("#chat-text", "good luck")
    alice.press("#chat-text", "Enter")
    bob.wait_for_selector("#side-toggle.news", timeout=30_000)  # on the phone the chat is in the side drawer
    bob.click("#side-toggle")
    bob.wait_for_selector("#chat li:has-text('good luck')", timeout=30_000)
    bob.wait_for_selector("#presence:has-text('online')", timeout=30_000)
    bob.fill("#chat-text", "thanks")
    bob.click("#chat-form button")
    alice.wait_for_selector("#chat li:has-text('thanks')", timeout=30_000)
    alice.wait_for_selector(f"#block:has-text('{bob_name}')")  # a signed-in player may block the other
    # alice resigns: both see the result and the new ratings
    alice.click("#resign")
    alice.wait_for_selector("#game-over:not([hidden])", timeout=30_000)
    bob.click("#side-toggle")  # the phone's drawer closes over the map again
    bob.wait_for_selector("#game-over:not([hidden])", timeout=30_000)
    assert "won" in bob.text_content("#go-title").lower()
    alice.wait_for_selector("#go-rating", timeout=30_000)
    bob.wait_for_selector("#go-rating", timeout=30_000)
    assert "→" in alice.text_content("#go-rating") and "→" in bob.text_content("#go-rating")
    _shot(alice, "resigned")
    _shot(bob, "mobile-resigned")
    # the profile shows the result and the rating, at both sizes
    for page, shot in ((alice, "profile"), (bob, "mobile-profile")):
        other = page.context.new_page()
        other.goto(f"{web.url}/profile/{bob_name}")
        other.wait_for_selector("#ratings tr")
        assert "1" in other.text_content("#record") and alice_name in other.text_content("#results")
        assert serious(other) == []
        _shot(other, shot)
        other.close()
    # bob offers a rematch; alice accepts; both land on the new game with the sides swapped
    bob.click("#game-over #rematch")
    bob.wait_for_selector("#rematch-box:has-text('waiting')", timeout=30_000)
    old_alice, old_bob = alice.url, bob.url
    alice.click("#accept-rematch", timeout=30_000)
    alice.wait_for_url(lambda url: url != old_alice and "/play/" in url, timeout=30_000)
    bob.wait_for_url(lambda url: url != old_bob and "/play/" in url, timeout=30_000)
    assert _seat_state(alice, web.url)["seat"] == bob_side
    assert _seat_state(bob, web.url)["seat"] == first_side
    alice_context.close()
    bob_context.close()
