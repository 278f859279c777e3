"""End to end in Debian's headless Chromium (driven by Playwright; no browser is downloaded)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from muster.games.freedom.board import board

from .helpers import Server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with a fresh SQLite database; bots move without pause."""
    tmp = tmp_path_factory.mktemp("e2e")
    srv = Server(f"sqlite:///{tmp / 'muster.db'}", tmp)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium launched by its path."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


def _version(page: object) -> str:
    return str(page.get_attribute("#status", "data-version"))  # type: ignore[attr-defined]


def _wait_changed(page: object, version: str) -> None:
    # Predicates are written as functions: the pages' Content-Security-Policy forbids evaluating strings,
    # and Playwright polls a bare expression by evaluating it as a string.
    page.wait_for_function(  # type: ignore[attr-defined]
        "v => document.querySelector('#status').dataset.version !== v "
        "|| !document.querySelector('#error').hidden", arg=version, timeout=15000)


def _step(page: object) -> int:
    text = page.text_content("#status") or ""  # type: ignore[attr-defined]
    return int(re.search(r"step (\d+)", text).group(1))  # type: ignore[union-attr]


def test_play_a_whole_round_against_a_bot_by_clicking(web: Server, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url + "/")
    page.select_option("#side", "imperial")
    page.select_option("#opponent", "bot")
    page.select_option("#bot", "random")
    page.fill("#seed", "12")
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body.my-turn", timeout=15000)
    assert "Round 1" in (page.text_content("#status") or "")
    assert page.locator("#board g.space").count() == len(board().ids) and page.locator("#hand .card").count() == 8
    assert "destroyed Wall" in (page.text_content("#legend") or "")  # the board's key, shared with the replay

    # Opening: click a highlighted space, then where to go; the turn can then be undone.
    start = _step(page)
    version = _version(page)
    page.click("#board g.space.legal >> nth=1")
    _wait_changed(page, version)
    version = _version(page)
    page.click("#board g.space.legal >> nth=0")
    _wait_changed(page, version)
    assert _step(page) == start + 2 and page.is_visible("#undo")
    version = _version(page)
    page.click("#undo")
    _wait_changed(page, version)
    assert _step(page) == start and not page.is_visible("#undo")

    clicks, reloaded = 0, False
    while "Round 1" in (page.text_content("#status") or ""):
        assert clicks < 600, "round 1 did not end"
        page.wait_for_function("() => document.body.classList.contains('my-turn') "
                               "|| !document.querySelector('#status').textContent.includes('Round 1')",
                               timeout=20000)
        if "Round 1" not in (page.text_content("#status") or ""):
            break
        if clicks == 8 and not reloaded:  # reload in the middle of my turn: nothing is lost
            before = (_version(page), page.text_content("#prompt"))
            page.reload()
            page.wait_for_selector("body.my-turn")
            assert (_version(page), page.text_content("#prompt")) == before
            reloaded = True
        version = _version(page)
        if page.locator(".card-action").count():
            page.click(".card-action >> nth=0")
        elif clicks % 2 == 0 and page.locator("#board g.space.legal").count():
            page.click("#board g.space.legal >> nth=0")
        else:
            page.click("#actions button >> nth=0")
        _wait_changed(page, version)
        assert page.is_hidden("#error"), page.text_content("#error")
        clicks += 1
    assert reloaded and "Round 2" in (page.text_content("#status") or "")
    assert page.locator("#log li").count() > 20
    assert not errors
    page.close()


def test_two_bots_finish_and_the_replay_steps_through(web: Server, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    page.goto(web.url + "/")
    page.select_option("#opponent", "bots")
    page.select_option("#bot", "random")
    page.fill("#delay", "0")
    page.click("#create")
    page.wait_for_url(re.compile(r"/replay/"))
    page.wait_for_function("() => /step [1-9]\\d* \\/ /.test(document.querySelector('#step').textContent)",
                           timeout=60000)
    total = int((page.text_content("#step") or "").split("/")[1])
    assert "wins" in (page.text_content("#outcome") or "")
    page.click("#first")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 ')")
    for n in (1, 2, 3):
        page.click("#next")
        page.wait_for_function(f"() => document.querySelector('#step').textContent.startsWith('step {n} ')")
    assert page.locator("#board g.space").count() == len(board().ids)
    assert page.locator("#legend span").count() == 10
    page.click("#last")
    page.wait_for_function(f"() => document.querySelector('#step').textContent.startsWith('step {total} ')")
    export = page.request.get(web.url + page.get_attribute("#export-link", "href"))
    assert export.ok and len(export.json()["actions"]) == total
    page.goto(web.url + "/")
    page.wait_for_selector("#my-games tbody tr")
    assert "finished" in (page.text_content("#my-games") or "")
    page.close()


def test_two_people_play_live_through_the_invite_link(web: Server, browser: object) -> None:
    creator = browser.new_page()  # type: ignore[attr-defined]
    creator.goto(web.url + "/")
    creator.select_option("#side", "insurgent")
    creator.select_option("#opponent", "human")
    creator.click("#create")
    creator.wait_for_selector("#invite-link")
    invite = creator.input_value("#invite-link")
    creator.click("#my-link")
    creator.wait_for_selector("#status[data-version]")
    guest = browser.new_context().new_page()  # type: ignore[attr-defined]  # another browser: no shared storage
    guest.goto(invite)
    guest.wait_for_selector("body.my-turn")
    assert "You: Imperial" in (guest.text_content("#status") or "")
    assert "Waiting for the Imperial player" in (creator.text_content("#prompt") or "")
    creator.wait_for_selector(".connection.live")
    version = _version(creator)
    guest.click("#actions button >> nth=0")
    _wait_changed(creator, version)  # pushed over the creator's websocket, no reload
    assert _step(creator) == 1
    creator.goto(web.url + "/")
    creator.wait_for_selector("#my-games tbody tr")
    assert "Insurgent" in (creator.text_content("#my-games") or "")
    guest.close()
    creator.close()
