"""The account page in a real browser (Debian's Chromium): a guest's game attaches to a new account, the same
person logs in on another browser and opens the game from My games; no serious axe-core violation at phone
size or on a desktop, in English and in Polish."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from .helpers import Server, create, hand_device, secrets_in_log
from .test_a11y import serious
from .test_e2e import CHROMIUM, DESKTOP, PHONE

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def test_a_guest_game_follows_its_player_to_a_new_account_and_another_browser(web: Server, browser: Any) -> None:
    name, password = "anna" + secrets.token_hex(3), "pw-" + secrets.token_hex(8)
    phone = browser.new_context(viewport=PHONE)
    with web.client() as c:  # the phone's browser plays a game as a guest first
        made = create(c, imperial="human", insurgent="beginner", seed=5)
    token = made["tokens"]["imperial"]
    hand_device(phone, web.url, token)
    page = phone.new_page()
    page.goto(web.url + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    assert serious(page) == []
    page.fill("#signup-name", name)
    page.fill("#signup-password", password)
    page.click("#signup-form button")
    page.wait_for_selector("#games-list li")
    assert "guest games" in page.text_content("#notice")
    assert "Beginner" in page.text_content("#games-list") and "Your turn" in page.text_content("#games-list")
    assert serious(page) == []
    # the same person on a laptop: log in, find the game in My games and play it there
    laptop = browser.new_context(viewport=DESKTOP)
    other = laptop.new_page()
    other.goto(web.url + "/account")
    other.fill("#login-name", name.upper())
    other.fill("#login-password", password)
    other.click("#login-form button")
    other.wait_for_selector("#games-list li")
    assert serious(other) == []
    other.click("#games-list li button")
    other.wait_for_url(f"{web.url}/play/*")
    other.wait_for_selector("body.my-turn")
    assert token not in other.url  # a token of its own, which opens the seat only for this account
    # logging out on the phone leaves the laptop signed in
    page.click("#logout")
    page.wait_for_selector("#signup-form", state="visible")
    other.goto(web.url + "/account")
    other.wait_for_selector("#games-list li")
    phone.close()
    laptop.close()
    log = web.log()
    assert password not in log and not secrets_in_log(web)


def test_the_account_page_in_polish(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="pl-PL")
    page = context.new_page()
    page.goto(web.url + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    assert page.get_attribute("html", "lang") == "pl"
    assert page.text_content("#login-title") == "Zaloguj się"
    page.fill("#login-name", "nobody-here")
    page.fill("#login-password", "not the password")
    page.click("#login-form button")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == "błędna nazwa lub hasło"
    assert serious(page) == []
    context.close()
