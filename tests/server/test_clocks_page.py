"""The clock on the play page, in Debian's Chromium: both players' pages show each side's time, and the time of
the side to decide counts down while they watch; the game lists show the pace."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import CHROMIUM, Server, remember_device
from .test_e2e_undo import Page

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def test_the_clock_is_shown_on_both_pages_and_counts_down(web: Server, browser: Any) -> None:
    with httpx.Client(base_url=web.url) as imperial, httpx.Client(base_url=web.url) as insurgent:
        made = imperial.post("/api/games", json={"imperial": "human", "insurgent": "human", "seat": "imperial",
                                                 "pace": "live"})
        assert made.status_code == 201, made.text
        claimed = insurgent.post(f"/api/invitations/{made.json()['invitations']['insurgent']}/claim", json={})
        assert claimed.status_code == 200, claimed.text
        tokens = {"imperial": made.json()["tokens"]["imperial"], "insurgent": claimed.json()["token"]}
        remember_device(imperial, tokens["imperial"])
        remember_device(insurgent, tokens["insurgent"])
    pages = [Page(browser, web, token) for token in tokens.values()]
    try:
        for p in pages:
            page = p.page
            page.wait_for_selector("#clock .clock-seat.running .clock-time", timeout=30_000)
            assert page.locator("#clock").is_visible()
            assert page.locator("#clock .clock-seat").count() == 2
            first = page.locator("#clock .clock-seat.running .clock-time").text_content()
            # counting: the running side's time changes by itself, with no message from the server
            page.wait_for_function("(old) => document.querySelector('#clock .clock-seat.running .clock-time')"
                                   ".textContent !== old", arg=first, timeout=30_000)
            assert page.locator("#clock button[data-do=pause]").is_visible()
    finally:
        for p in pages:
            p.context.close()
