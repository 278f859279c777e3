"""Games between bots cannot starve a person's bot: its choices are served first, games between bots are
capped per address, and a move a bot could not choose (played at random) is announced in the game's log
and counted, also after a restart."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Server, act, backends, create, database_url, state, ws_connect, ws_recv


def play_as_person(client: httpx.Client, token: str, decisions: int, timeout: float = 600) -> dict[str, Any]:
    """Play random legal moves for a seat until its bot opponent has moved ``decisions`` times (or the game
    ends); the last state seen."""
    rng = random.Random(3)
    bot_moves = 0
    deadline = time.monotonic() + timeout
    last_step = state(client, token)["step"]
    while time.monotonic() < deadline:
        st = state(client, token)
        if st["outcome"]:
            return st
        if not st["legal"]:
            time.sleep(0.05)
            continue
        bot_moves += st["step"] - last_step
        if bot_moves >= decisions:
            return st
        response = act(client, token, st["version"], rng.choice(st["legal"])["action"])
        assert response.status_code == 200, response.text
        last_step = st["step"] + 1
    raise AssertionError("the bot did not move often enough in time")


def test_bot_only_games_do_not_starve_a_persons_strongest_bot(tmp_path: Path) -> None:
    # a generous time limit: with the rules in pure Python on a loaded machine, a card of the strongest bot
    # can take 20 s of wall time by itself, and this test is about waiting, not thinking. The order in which
    # waiting choices are served is tested exactly below.
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={"MUSTER_BOT_GAMES_PER_ADDRESS": "4"},
                 args=["--bot-time-limit", "120"])
    srv.start()
    try:
        with srv.client() as client:
            crowd = [create(client, imperial="strongest", insurgent="strongest")["game_id"] for _ in range(4)]
            time.sleep(1)  # the four games are thinking already
            made = create(client, imperial="human", insurgent="strongest")
            gid, token = made["game_id"], made["tokens"]["imperial"]
            play_as_person(client, token, decisions=12)
            status = client.get(f"/api/games/{gid}/status").json()
            for other in crowd:
                assert client.get(f"/api/games/{other}/status").json()["steps"] > 0  # they played meanwhile
        fell_back = [line for line in srv.log().splitlines() if f"game {gid}," in line and "random legal" in line]
        assert fell_back == []
        assert status["bot_fallbacks"] == 0
    finally:
        srv.stop()


def test_a_choice_for_a_game_with_a_person_is_served_before_queued_bot_only_choices() -> None:
    from muster.core import Game, get_rules
    from muster.server.bots import BotPool, Job

    game = Game(get_rules("freedom"), 5, {"ruleset": "2nd"})
    seat = game.active_seat
    assert seat is not None
    view, legal = game.view(seat), [a.to_json() for a in game.legal_actions()]

    async def scenario() -> list[str]:
        pool = BotPool(workers=1, time_limit=120)  # generous: nothing here may time out on a busy machine
        served: list[str] = []

        async def choose(name: str, urgent: bool) -> None:
            job = Job(name, "heuristic", 1, seat, view, legal, "freedom")
            await pool.choose(job, where=name, urgent=urgent)
            served.append(name)

        try:
            await choose("warm-up", False)  # the worker process is up and its bots imported
            served.clear()
            tasks = [asyncio.create_task(choose(f"bots-{k}", False)) for k in range(4)]
            await asyncio.sleep(0)  # the first bot-only choice has the worker; three wait for it
            tasks.append(asyncio.create_task(choose("person", True)))
            await asyncio.gather(*tasks)
        finally:
            pool.close()
        return served

    served = asyncio.run(scenario())
    assert served[:2] == ["bots-0", "person"], served  # the person's bot goes straight after the running choice
    assert sorted(served) == ["bots-0", "bots-1", "bots-2", "bots-3", "person"]


def test_games_between_bots_are_capped_per_address(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={"MUSTER_BOT_GAMES_PER_ADDRESS": "2"})
    srv.start()
    try:
        with srv.client() as client, httpx.Client(
                base_url=srv.url, timeout=20, transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
            slow = {"imperial": "standard", "insurgent": "standard", "bot_delay_ms": 5000}
            for _ in range(2):
                create(client, **slow)
            refused = client.post("/api/games", json=slow)
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
            create(client, imperial="beginner", insurgent="beginner")  # random bots cost nothing: not counted
            create(client, imperial="human", insurgent="strongest")  # a person's game is never refused for it
            create(other, **slow)  # another address has its own allowance
    finally:
        srv.stop()


@pytest.mark.parametrize("backend", backends())
def test_a_random_fallback_move_is_announced_in_the_log_and_counted(backend: str, tmp_path: Path) -> None:
    # a bot queue of 0: every choice a bot must think about is played at random at once
    srv = Server(database_url(backend, tmp_path), tmp_path, env={"MUSTER_BOT_QUEUE": "0"})
    srv.start()
    try:
        with srv.client() as client:
            made = create(client, imperial="human", insurgent="standard", seed=7)
            gid, token = made["game_id"], made["tokens"]["imperial"]
            with ws_connect(srv.ws_url, token) as ws:
                ws_recv(ws, "state")
                seen = play_as_person(client, token, decisions=6)
                count = seen["fallbacks"]["count"]
                assert count >= 1
                notice = seen["fallbacks"]["notices"][0]
                assert notice["seat"] == "insurgent" and "random legal move" in notice["text"]
                assert 0 < notice["log_at"] <= seen["log_from"] + len(seen["log"])
                while (pushed := ws_recv(ws, "state"))["fallbacks"]["count"] < count:
                    pass  # the websocket's pushes carry the notices too
                assert pushed["fallbacks"]["notices"][0] == notice
            status = client.get(f"/api/games/{gid}/status").json()
            assert status["bot_fallbacks"] == count
            polish = client.get(f"/api/seat/{token}", params={"lang": "pl"}).json()
            assert "losowy" in polish["fallbacks"]["notices"][0]["text"]
            srv.stop()
            srv.start()  # the same port: this client (and its device session) goes on
            after = state(client, token)
            assert after["fallbacks"]["count"] == count
            assert after["fallbacks"]["notices"][0] == notice
    finally:
        srv.stop()


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_play_page_shows_a_fallback_notice_in_the_log(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from .helpers import device_headers

    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={"MUSTER_BOT_QUEUE": "0"})
    srv.start()
    try:
        with srv.client() as client:
            made = create(client, imperial="human", insurgent="standard", seed=7)
            token = made["tokens"]["imperial"]
            seen = play_as_person(client, token, decisions=6)
            assert seen["fallbacks"]["count"] >= 1
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            cookie = device_headers(token).get("Cookie")
            if cookie:  # the seat is bound to the device that created it
                name, value = cookie.split("=", 1)
                context.add_cookies([{"name": name, "value": value, "url": srv.url}])
            page: Any = context.new_page()
            page.goto(f"{srv.url}/play/{token}")
            page.wait_for_selector("#log .log-notice", timeout=60000)
            text = page.text_content("#log .log-notice") or ""
            assert "random legal move" in text and "Insurgent" in text
            # an item of the log's own lists (placed after the line it follows), where the game's lines are
            assert page.evaluate("() => document.querySelector('#log .log-notice').parentElement.closest('li') "
                                 "!== null")
            browser.close()
    finally:
        srv.stop()
