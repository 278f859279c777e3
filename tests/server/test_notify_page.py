"""The notification settings page in a real browser (Debian's Chromium): it saves per-channel choices and the
digest, shows them again after a reload, registers the push service worker, and has no serious axe-core
violation at phone size or on a desktop, in English and in Polish."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from .helpers import Server
from .test_a11y import serious
from .test_e2e import CHROMIUM, DESKTOP, PHONE

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def _signed_up(browser: Any, web: Server, viewport: dict[str, int], locale: str = "en-GB") -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.goto(web.url + "/account")
    page.fill("#signup-name", "n" + secrets.token_hex(4))
    page.fill("#signup-password", "pw-" + secrets.token_hex(8))
    page.click("#signup-form button")
    page.wait_for_selector("#settings:not([hidden])")
    return context, page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_settings_page_saves_per_channel_choices(web: Server, browser: Any, size: str) -> None:
    context, page = _signed_up(browser, web, PHONE if size == "phone" else DESKTOP)
    page.click("a[href='/notifications']")
    page.wait_for_selector("#email-your_turn")
    assert page.is_checked("#email-your_turn") and not page.is_checked("#email-chat")
    assert page.is_checked("#push-your_turn")
    # the service worker that shows push notices registers
    # (its scope is /static/, so ``ready`` of this page never resolves: ask for its registration instead)
    script = page.evaluate("""async () => {
      for (let i = 0; i < 600; i += 1) {
        const found = await navigator.serviceWorker.getRegistration("/static/sw.js");
        if (found && found.active) return found.active.scriptURL;
        await new Promise((done) => setTimeout(done, 100));
      }
      return "";
    }""")
    assert script.endswith("/static/sw.js")
    assert serious(page) == []
    page.uncheck("#email-your_turn")
    page.check("#email-chat")
    page.uncheck("#webhook-game_over")
    page.uncheck("#push-chat")
    page.check("#digest")
    page.select_option("#notify-lang", "pl")
    page.click("#settings-form button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")
    page.reload()
    page.wait_for_selector("#email-your_turn")
    assert not page.is_checked("#email-your_turn") and page.is_checked("#email-chat")
    assert not page.is_checked("#webhook-game_over") and page.is_checked("#webhook-your_turn")
    assert page.is_checked("#digest") and page.input_value("#notify-lang") == "pl"
    assert not page.is_checked("#push-chat") and page.is_checked("#push-resigned")
    # a webhook to this machine is refused (the server allows only public addresses by default)
    page.fill("#webhook-url", "http://127.0.0.1:9/hook")
    page.click("#webhook-form button")
    page.wait_for_selector("#error:not([hidden])")
    assert "private" in page.text_content("#error")
    assert serious(page) == []
    context.close()


def test_the_settings_and_reset_pages_in_polish(web: Server, browser: Any) -> None:
    context, page = _signed_up(browser, web, PHONE, locale="pl-PL")
    page.goto(web.url + "/notifications")
    page.wait_for_selector("#email-your_turn")
    assert page.text_content("#choices-title") == "Powiadomienia"
    assert "Twoja tura" in page.text_content("#kinds")
    assert serious(page) == []
    page.goto(web.url + "/account/reset")
    page.wait_for_selector("#forgot:not([hidden])")
    assert page.text_content("#forgot-title") == "Nie pamiętasz hasła?"
    assert serious(page) == []
    context.close()


def test_a_guest_chooses_the_notices_of_a_seat_from_its_game(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(web.url + "/")
    made = page.evaluate("""async () => {
      const r = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({imperial: "human", insurgent: "beginner", bot_delay_ms: 0})});
      return r.json();
    }""")
    token = made["tokens"]["imperial"]
    page.goto(f"{web.url}/play/{token}")
    page.click("details.menu summary")
    page.wait_for_selector("#notices-link[href*='#seat=']")
    page.click("#notices-link")
    page.wait_for_selector("#email-your_turn")
    assert page.is_visible("#seat-note") and not page.is_visible("#push")  # a guest seat: no browser push
    assert page.locator("#push-your_turn").count() == 0
    assert serious(page) == []
    page.uncheck("#webhook-chat")
    page.check("#digest")
    page.click("#settings-form button[type=submit]")
    page.wait_for_selector("#notice:not([hidden])")
    page.reload()
    page.wait_for_selector("#email-your_turn")
    assert not page.is_checked("#webhook-chat") and page.is_checked("#webhook-your_turn") and page.is_checked("#digest")
    # the choices are the seat's own, read back through the seat's API (the device that holds it)
    saved = page.evaluate(f"""async () => (await fetch("/api/seat/{token}/notify")).json()""")
    assert "chat" not in saved["events"]["webhook"] and saved["digest"] is True
    context.close()
