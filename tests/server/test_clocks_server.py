"""Paces and clocks through real ``muster serve`` processes (SQLite and PostgreSQL), with short test paces (the
``paces`` setting) and waits for events within generous limits: an unrated timeout the opponent claims, a rated
timeout that ends the game once with two server processes, clocks that resume where they were after ``kill
-9``, a pause both players agree to, and a bot that plays at the pace."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from muster.server.db import make_engine

from .helpers import Server, backends, create, database_url, device_headers, state

TEST_PACES = {"fast": {"bank": 2, "increment": 1, "cap": 3, "remind": 1, "bot_delay": 0},
              "slow": {"bank": 3600, "increment": 60, "cap": 7200, "remind": 600, "bot_delay": 6}}
ENV = {"MUSTER_PACES": json.dumps(TEST_PACES), "MUSTER_CLOCK_TICK_S": "0.2", "MUSTER_VACATION_DAYS": "0",
       "MUSTER_SIGNUPS_PER_WINDOW": "0"}


def _until(what: Callable[[], Any], limit: float = 60) -> Any:
    """Poll ``what`` until it returns something true (a generous limit: a loaded machine is slow)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("it did not happen in time")


def _clock(client: httpx.Client, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/seat/{token}/clock", headers=device_headers(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()["clock"]
    return found


def _do(client: httpx.Client, token: str, do: str) -> httpx.Response:
    return client.post(f"/api/seat/{token}/clock", json={"do": do}, headers=device_headers(token))


def _sql(url: str, query: str) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            return list(conn.execute(text(query)))
    finally:
        engine.dispose()


def _active(client: httpx.Client, tokens: dict[str, str]) -> str:
    return next(seat for seat, token in tokens.items() if state(client, token)["legal"])


def _move(client: httpx.Client, token: str) -> None:
    st = state(client, token)
    answer = client.post(f"/api/seat/{token}/action", json={"version": st["version"],
                                                             "action": st["legal"][0]["action"]},
                         headers=device_headers(token))
    assert answer.status_code == 200, answer.text


@pytest.fixture(params=backends(), scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"clocks-{request.param}")
    srv = Server(database_url(request.param, tmp), tmp, env=ENV)
    srv.start()
    yield srv
    srv.stop()


def test_a_game_without_a_pace_has_no_clock_and_an_unknown_pace_is_refused(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="beginner")
        token = next(iter(made["tokens"].values()))
        assert _clock(c, token) is None
        refused = c.post("/api/games", json={"imperial": "human", "insurgent": "beginner", "pace": "blitz"})
        assert refused.status_code == 400
        paces = c.get("/api/meta").json()["games"][0]["paces"]
        assert set(paces) == {"live", "fast", "slow"} and paces["fast"]["bank"] == 2


def test_an_unrated_timeout_lets_the_opponent_claim_the_win(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human", pace="fast")
        tokens = made["tokens"]
        late = _active(c, tokens)
        other = next(s for s in tokens if s != late)
        # the clock starts once the first position reaches it, and a bank of two seconds may already be spent by
        # the time a loaded machine answers: either way it is the player to move whose time runs
        clock = _until(lambda: (found := _clock(c, tokens[other]))["state"] in ("running", "flagged") and found)
        assert clock["pace"] == "fast" and late in (clock["running"], clock["flagged"])
        flagged = _until(lambda: (found := _clock(c, tokens[other]))["state"] == "flagged" and found)
        assert flagged["flagged"] == late and flagged["left"][late] == 0
        assert state(c, tokens[late])["outcome"] is None  # unrated: nothing ends by itself
        assert _do(c, tokens[late], "claim").status_code == 409  # the player out of time claims nothing
        claimed = _do(c, tokens[other], "claim")
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["winner"] == other
        ended = state(c, tokens[late])
        assert ended["outcome"]["winner"] == other
        assert "ran out of time" in ended["prompt"] and "resigned" not in ended["prompt"]  # said as it happened
        assert _clock(c, tokens[other])["state"] == "over"
        ending = _sql(server.database_url, f"SELECT seat, reason FROM game_endings WHERE game_id = '{made['game_id']}'")
        assert [tuple(r) for r in ending] == [(late, "timeout")]
        games = c.post("/api/my-games", json={"tokens": list(tokens.values())}).json()["games"]
        assert {g["clock"]["state"] for g in games if g["game_id"] == made["game_id"]} == {"over"}


def test_a_pause_both_agree_to_stops_the_clock_until_resumed(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human", pace="slow")
        tokens = made["tokens"]
        first = _active(c, tokens)
        other = next(s for s in tokens if s != first)
        # the clock starts running once the new game's first position reaches it, which a loaded machine delays
        _until(lambda: _clock(c, tokens[first])["state"] == "running")
        assert _do(c, tokens[first], "accept").status_code == 409  # nothing asked yet
        assert _do(c, tokens[first], "pause").status_code == 200
        assert _do(c, tokens[first], "accept").status_code == 409  # not one's own request
        paused = _do(c, tokens[other], "accept").json()["clock"]
        assert paused["state"] == "paused" and paused["running"] is None and paused["deadline"] is None
        time.sleep(0.3)
        assert _clock(c, tokens[first])["left"] == paused["left"]  # frozen
        resumed = _do(c, tokens[first], "resume").json()["clock"]
        assert resumed["state"] == "running" and resumed["running"] == first and resumed["deadline"]


def _signup(client: httpx.Client) -> str:
    name = "p" + secrets.token_hex(5)
    answer = client.post("/api/account/signup", json={"name": name, "password": "pw-" + secrets.token_hex(8)})
    assert answer.status_code == 201, answer.text
    return name


@pytest.mark.parametrize("backend", backends())
def test_a_rated_timeout_ends_the_game_once_with_two_server_processes(backend: str, tmp_path: Path) -> None:
    srv = Server(database_url(backend, tmp_path), tmp_path, env=ENV, args=["--workers", "2"])
    srv.start()
    try:
        with srv.client() as alice, srv.client() as bob:
            _signup(alice)
            _signup(bob)
            posted = alice.post("/api/lobby", json={"rated": True, "pace": "fast"})
            assert posted.status_code == 201, posted.text
            listed = bob.get("/api/lobby").json()["posts"]
            assert next(p for p in listed if p["id"] == posted.json()["post_id"])["pace"] == "fast"
            time.sleep(3)  # more than the whole bank: nobody's time runs while the seat waits for a player
            joined = bob.post(f"/api/lobby/{posted.json()['post_id']}/join", json={})
            assert joined.status_code == 200, joined.text
            game_id = posted.json()["game_id"]
            seats = {posted.json()["seat"]: (alice, posted.json()["token"]),
                     joined.json()["seat"]: (bob, joined.json()["token"])}
            late = next(s for s, (who, token) in seats.items() if state(who, token)["legal"])
            winner = next(s for s in seats if s != late)
            status = _until(lambda: (found := alice.get(f"/api/games/{game_id}/status").json())["status"]
                            == "finished" and found)
            assert status["winner"] == winner
        assert [tuple(r) for r in _sql(srv.database_url, f"SELECT seat, reason FROM game_endings "
                                                         f"WHERE game_id = '{game_id}'")] == [(late, "timeout")]
        changes = _until(lambda: _sql(srv.database_url, f"SELECT side FROM rating_changes WHERE game_id = '{game_id}'"))
        time.sleep(1)  # had it been rated twice (once per process), the second would have come by now
        changes = _sql(srv.database_url, f"SELECT side FROM rating_changes WHERE game_id = '{game_id}'")
        assert sorted(r[0] for r in changes) == sorted(seats)  # rated once: one change per side
    finally:
        srv.stop()


def test_clocks_resume_where_they_were_after_kill_9(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=ENV)
    srv.start()
    try:
        with srv.client() as c:
            made = create(c, imperial="human", insurgent="human", pace="slow")
            tokens = made["tokens"]
            first = _active(c, tokens)
            _move(c, tokens[first])
            running = _until(lambda: _clock(c, tokens[first])["running"])
            before = _clock(c, tokens[first])
            taken_at = time.monotonic()
        srv.kill()
        srv.start()
        with srv.client() as c:
            after = _clock(c, tokens[first])
            elapsed = time.monotonic() - taken_at
        assert after["state"] == "running" and after["running"] == running
        # the running seat's time went on running through the crash (neither reset nor frozen)...
        assert before["left"][running] - elapsed - 5 <= after["left"][running] < before["left"][running]
        # ...and the other's stayed as it was
        for seat, left in before["left"].items():
            if seat != running:
                assert after["left"][seat] == left
    finally:
        srv.stop()


def test_a_bot_plays_at_the_pace_and_after_a_restart(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=ENV)
    srv.start()
    try:
        with srv.client() as c:
            made = create(c, imperial="human", insurgent="beginner", pace="slow")
            token = made["tokens"]["imperial"]
            _until(lambda: state(c, token)["legal"])  # the bot's first turn, if it has one, at the pace
            while (st := state(c, token))["legal"]:  # the person's whole turn
                c.post(f"/api/seat/{token}/action", json={"version": st["version"],
                                                          "action": st["legal"][0]["action"]},
                       headers=device_headers(token)).raise_for_status()
            version = st["version"]
            assert set(_clock(c, token)["left"]) == {"imperial"}  # the bot holds no clock
            # the bot waits the pace's delay (6 s) instead of moving at once...
            assert c.get(f"/api/games/{made['game_id']}/status").json()["version"] == version
        srv.kill()  # ...and a restart neither loses nor repeats the wait: the bot moves
        srv.start()
        with srv.client() as c:
            _until(lambda: c.get(f"/api/games/{made['game_id']}/status").json()["version"] > version)
    finally:
        srv.stop()


def test_a_rematch_keeps_the_pace(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human", pace="slow")
        tokens = made["tokens"]
        assert c.post(f"/api/seat/{tokens['imperial']}/resign", json={}, headers=device_headers(
            tokens["imperial"])).status_code == 200
        assert _clock(c, tokens["imperial"])["state"] == "over"
        c.post(f"/api/seat/{tokens['imperial']}/rematch", json={}).raise_for_status()
        started = c.post(f"/api/seat/{tokens['insurgent']}/rematch", json={})
        assert started.status_code == 200 and started.json()["state"] == "started", started.text
        assert _clock(c, started.json()["token"])["pace"] == "slow"
