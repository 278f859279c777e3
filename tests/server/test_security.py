"""The attacks docs/security.md defends against, each tried against a real server process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from muster.core import rng
from muster.server.db import make_engine, migrate, normalise_url
from muster.server.guard import Limits
from muster.server.hub import ApiError, Connection, Hub
from muster.server.store import Store

from .helpers import Server, act, create, state, wait_finished, ws_connect, ws_recv


def stored_seed(server: Server, game_id: str) -> tuple[int, str | None]:
    """(seed, secret_seed) as the server stored them (read straight from its database)."""
    engine = create_engine(normalise_url(server.database_url))
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT seed, secret_seed FROM games WHERE id = :id"), {"id": game_id}).one()
    finally:
        engine.dispose()
    return int(row[0]), row[1]


def everything_a_client_sees(server: Server, c: httpx.Client, made: dict[str, Any]) -> str:
    """Every answer either seat (or a stranger) can get about a running game, as one text."""
    gid = made["game_id"]
    texts = [json.dumps(made), c.get("/api/meta").text, c.get(f"/api/games/{gid}/status").text,
             c.post("/api/my-games", json={"tokens": list(made["tokens"].values())}).text]
    for token in made["tokens"].values():
        texts += [c.get(f"/api/seat/{token}").text,
                  c.get(f"/api/games/{gid}/replay", params={"step": 0, "token": token}).text,
                  c.get(f"/api/games/{gid}/export", params={"token": token}).text]
        with ws_connect(server.ws_url, token) as ws:
            texts.append(json.dumps(ws_recv(ws, "state")))
    return "\n".join(texts)


# --- 1. the deal is not predictable ------------------------------------------------------


def test_a_game_between_people_is_dealt_from_a_secret_key_no_client_sees(server: Server) -> None:
    with server.client() as c:
        games = [create(c, imperial="human", insurgent="human") for _ in range(2)]
        seen = [everything_a_client_sees(server, c, made) for made in games]
        hands = [state(c, made["tokens"]["imperial"])["view"]["hands"]["imperial"] for made in games]
    keys = []
    for made, visible in zip(games, seen, strict=True):
        small, secret = stored_seed(server, made["game_id"])
        assert small == 0 and secret is not None
        key = int(secret)
        assert key >= rng.KEYED_SEED_MIN and key.bit_length() > 256  # 256 random bits above the flag
        keys.append(key)
        state_of_generator = rng.seed_state(key)
        for form in (str(key), hex(key), str(state_of_generator), hex(state_of_generator), str(key)[:24]):
            assert form not in visible
        assert '"rng"' not in visible and '"seed"' not in visible
    assert keys[0] != keys[1]
    assert hands[0] != hands[1]  # two games created alike deal differently
    with server.client() as c:  # against a bot without a chosen seed: a secret key too
        assert stored_seed(server, create(c, imperial="human", insurgent="beginner")["game_id"])[1] is not None


def test_games_created_alike_deal_differently(server: Server) -> None:
    with server.client() as c:
        hands = {tuple(state(c, create(c, imperial="human", insurgent="human")["tokens"]["imperial"])
                       ["view"]["hands"]["imperial"]) for _ in range(8)}
    assert len(hands) == 8


# --- 2. no chosen seed between people ----------------------------------------------------


def test_a_chosen_seed_is_refused_between_people_and_allowed_against_a_bot(server: Server) -> None:
    with server.client() as c:
        refused = c.post("/api/games", json={"imperial": "human", "insurgent": "human", "seed": 7})
        assert refused.status_code == 400 and "seed" in refused.json()["error"]
        one = create(c, imperial="human", insurgent="beginner", seed=7)
        two = create(c, imperial="human", insurgent="beginner", seed=7)
        same = [state(c, made["tokens"]["imperial"])["view"]["hands"]["imperial"] for made in (one, two)]
    assert same[0] == same[1]  # a seeded game against a bot is reproducible, as the creator asked
    assert stored_seed(server, one["game_id"]) == (7, None)


# --- the defences in front of the app: a server with the production limits --------------------


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the default per-client limits and short timeouts for half-sent requests."""
    tmp = tmp_path_factory.mktemp("guarded")
    base = Limits()
    srv = Server(f"sqlite:///{tmp / 'muster.db'}", tmp, env={
        "MUSTER_CREATE_PER_MINUTE": str(base.create_per_minute), "MUSTER_CREATE_BURST": str(base.create_burst),
        "MUSTER_REPLAY_PER_SECOND": str(base.replay_per_second), "MUSTER_REPLAY_BURST": str(base.replay_burst),
        "MUSTER_HEAD_TIMEOUT_S": "1", "MUSTER_BODY_TIMEOUT_S": "1"})
    srv.start()
    yield srv
    srv.stop()


def rss_kib(server: Server) -> int:
    """The server process's resident memory."""
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def raw_request(server: Server, head: bytes, chunks: Iterator[bytes] | None = None, timeout: float = 10) -> bytes:
    """Send a request over a plain socket (head, then body chunks until the server answers); the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        answer = b""
        for chunk in chunks or iter(()):
            with contextlib.suppress(BlockingIOError):
                answer += sock.recv(65536)
            if answer:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError, BlockingIOError):
                break
        sock.setblocking(True)
        try:
            while b"\r\n\r\n" not in answer:
                more = sock.recv(65536)
                if not more:
                    break
                answer += more
        except (ConnectionResetError, TimeoutError):
            pass
        return answer


# --- 6. bodies are bounded while they arrive ----------------------------------------------------


def test_a_huge_declared_body_is_refused_before_it_is_read(guarded: Server) -> None:
    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 419430400\r\n\r\n")
    answer = raw_request(guarded, head)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_a_huge_streamed_body_is_cut_off_at_the_limit_without_memory_growth(guarded: Server) -> None:
    before = rss_kib(guarded)
    sent = 0

    def body() -> Iterator[bytes]:
        nonlocal sent
        chunk = b"4000\r\n" + b"[" * 0x4000 + b"\r\n"  # 16 KiB chunks of chunked encoding
        while sent < 400 * 2**20:
            sent += 0x4000
            yield chunk

    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    answer = raw_request(guarded, head, body())
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 64 * 2**20  # the server answered long before 400 MB had gone
    assert rss_kib(guarded) - before < 20 * 1024


# --- 7. deep nesting is a plain 400 ----------------------------------------------------------------


DEEP = "[" * 30000 + "]" * 30000


def test_deeply_nested_json_is_a_400_on_every_post_endpoint_and_the_websocket(guarded: Server) -> None:
    with guarded.client() as c:
        made = create(c, imperial="human", insurgent="human")
        token = made["tokens"]["imperial"]
        for path in ("/api/games", "/api/my-games", f"/api/seat/{token}/action", f"/api/seat/{token}/undo"):
            for body in (DEEP, '{"action": ' + "[" * 40 + "]" * 40 + "}"):
                response = c.post(path, content=body, headers={"content-type": "application/json"})
                assert response.status_code == 400, (path, response.text[:200])
                assert response.json()["code"] == "malformed"
        for bad in (b"\xff\xfe{", b'{"tokens": "\xc3"}'):
            assert c.post("/api/my-games", content=bad, headers={"content-type": "application/json"}).json()["code"] \
                == "malformed"
    with ws_connect(guarded.ws_url, token) as ws:
        first = ws_recv(ws, "state")
        ws.send(DEEP)
        assert ws_recv(ws, "error")["code"] == "malformed"
        ws.send(json.dumps({"type": "action", "version": first["version"], "action": first["legal"][0]["action"],
                            "id": 1}))
        assert ws_recv(ws, "ack")["id"] == 1  # the socket is still open and works
    log = (guarded.workdir / "server.log").read_text()
    assert "Traceback" not in log and "ERROR" not in log


# --- 10. headers, half-sent requests, creation rate, live games ------------------------------------


def test_every_answer_carries_the_security_headers(guarded: Server) -> None:
    with guarded.client() as c:
        for path in ("/", "/play/some-token-value", "/static/play.js", "/api/meta", "/api/seat/unknown-token"):
            headers = c.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert "script-src 'self'" in headers["content-security-policy"]
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"


def test_a_request_head_that_never_completes_is_cut_off(guarded: Server) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as sock:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert sock.recv(100) == b""  # closed by the server
    assert time.monotonic() - started < 5
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as sock:  # silent after connecting
        assert sock.recv(100) == b""
    huge = b"GET /api/meta HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 40000 + b"\r\n\r\n"
    assert raw_request(guarded, huge).startswith(b"HTTP/1.1 400")


def test_a_body_that_stops_arriving_is_given_up(guarded: Server) -> None:
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    started = time.monotonic()
    answer = raw_request(guarded, head)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < 5


def test_game_creation_is_rate_limited_per_client(guarded: Server) -> None:
    limits = Limits()
    # the address as a proxy in front of the server would give it (uvicorn trusts 127.0.0.1 to say)
    with guarded.client() as c, guarded.client() as other:
        c.headers["X-Forwarded-For"] = "203.0.113.7"
        started, created, refused = time.monotonic(), 0, None
        for _ in range(int(limits.create_burst) + 60):
            response = c.post("/api/games", json={"imperial": "human", "insurgent": "human"})
            if response.status_code == 429:
                refused = response
                break
            assert response.status_code == 201
            created += 1
        elapsed = time.monotonic() - started
        other.headers["X-Forwarded-For"] = "198.51.100.9"
        assert other.post("/api/games", json={"imperial": "human", "insurgent": "human"}).status_code == 201
    assert refused is not None and refused.json()["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1
    assert limits.create_burst - 1 <= created <= limits.create_burst + elapsed * limits.create_per_minute / 60 + 1


def test_live_games_in_memory_are_bounded_idle_ones_evicted_busy_ones_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = make_engine(f"sqlite:///{tmp_path / 'hub.db'}")
        migrate(engine)
        hub = Hub(Store(engine), default_bot_delay_ms=0, keep_games=3)
        made = [await hub.create({"imperial": "human", "insurgent": "random"}, {"ruleset": "2nd"}, None, 0, "freedom",
                                 "imperial",
                                 "device:test") for _ in range(5)]
        assert len(hub.games) == 3  # the idle ones beyond the bound were evicted
        for live in hub.games.values():  # now every game held is watched by someone
            live.attach(Connection("imperial", lambda text: asyncio.sleep(0), lambda code: asyncio.sleep(0)))
        with pytest.raises(ApiError) as refused:
            await hub.create({"imperial": "human", "insurgent": "random"}, {"ruleset": "2nd"}, None, 0, "freedom",
                             "imperial",
                             "device:test")
        assert refused.value.status == 503 and refused.value.code == "busy"
        with pytest.raises(ApiError):  # an evicted game cannot be loaded either while all are busy
            await hub.by_token(made[0].tokens["imperial"], "device:test")
        assert len(hub.games) == 3
        next(iter(hub.games.values())).conns.clear()  # one player leaves: room again
        live, _ = await hub.by_token(made[0].tokens["imperial"], "device:test")
        assert live.id == made[0].game_id and len(hub.games) == 3
        await hub.close()
        engine.dispose()

    asyncio.run(scenario())


# --- 3. undo never shows the opponent a card that stays hidden -------------------------------------


def _to_imperial_card_turn(c: httpx.Client, imp: str, ins: str) -> dict[str, Any]:
    """Both seats take their first choice until the Imperial seat is to play a card."""
    for _ in range(200):
        mine = state(c, imp)
        if any(item["action"][0] == "ap" for item in mine["legal"]):
            return mine
        token = imp if mine["legal"] else ins
        st = state(c, token)
        assert act(c, token, st["version"], st["legal"][0]["action"]).status_code == 200
    raise AssertionError("no Imperial card turn came")


def test_a_card_taken_back_into_the_hand_was_never_seen_by_the_other_seat(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human")
        imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
        turn = _to_imperial_card_turn(c, imp, ins)
        card = next(item["action"] for item in turn["legal"] if item["action"][0] == "ap")
        assert act(c, imp, turn["version"], card).status_code == 200
        played = state(c, imp)
        assert card[1] not in played["view"]["hands"]["imperial"] and played["can_undo"]
        public = state(c, ins)["view"]["discards"]
        assert card[1] not in public["A"] + public["B"]  # held: the Insurgent sees the turn's start
        prepare = next(item["action"] for item in played["legal"] if item["action"][0] == "prepare")
        assert act(c, imp, played["version"], prepare).status_code == 200
        spent = state(c, imp)
        assert c.post(f"/api/seat/{imp}/undo", json={"version": spent["version"]}).status_code == 200
        back = state(c, imp)
        assert back["step"] == turn["step"] and card[1] in back["view"]["hands"]["imperial"]
        # committed (the turn ends): now the card is public, and it stays played
        assert act(c, imp, back["version"], card).status_code == 200
        again = state(c, imp)
        end = next(item["action"] for item in again["legal"] if item["action"][0] == "end")
        assert act(c, imp, again["version"], end).status_code == 200
        public = state(c, ins)["view"]["discards"]
        assert card[1] in public["A"] + public["B"]
        assert not state(c, imp)["can_undo"]
        assert card[1] not in state(c, imp)["view"]["hands"]["imperial"]


# --- 9. replays: snapshots, ready frames, a rate per client ------------------------------------------


def test_replay_frames_from_snapshots_match_a_full_rebuild_even_after_an_undo() -> None:
    from muster.core import Action, Game, get_rules
    from muster.server.hub import LiveGame
    from muster.server.replay import SNAPSHOT_EVERY, Replays

    rules = get_rules("freedom")
    game, chooser = Game(rules, 17), random.Random(17)
    for _ in range(5 * SNAPSHOT_EVERY + 7):
        game.apply(chooser.choice(game.legal_actions()))
    live = LiveGame("g", game, 1, {}, 0)
    replays = Replays()

    def rebuilt(actions: list[Action], step: int, seat: str | None = "imperial") -> dict[str, Any]:
        fresh = Game(rules, 17)
        for a in actions[:step]:
            fresh.apply(a)
        return Replays().frame(LiveGame("x", fresh, 1, {}, 0), actions, step, seat)

    actions = list(game.actions)
    for step in (len(actions), 0, len(actions), 3, SNAPSHOT_EVERY * 2 + 1, len(actions) - 1, SNAPSHOT_EVERY):
        assert replays.frame(live, actions, step, "imperial") == rebuilt(actions, step)
    # the history changes below the snapshots (as an undo and other choices would): none of them is reused
    branch = actions[:SNAPSHOT_EVERY + 3]
    other = Game(rules, 17)
    for a in branch:
        other.apply(a)
    legal = other.legal_actions()
    other.apply(legal[-1] if legal[-1] != actions[len(branch)] else legal[0])
    for _ in range(2 * SNAPSHOT_EVERY):
        other.apply(chooser.choice(other.legal_actions()))
    changed = list(other.actions)
    for step in (len(changed), 2 * SNAPSHOT_EVERY + 5, SNAPSHOT_EVERY + 4):
        assert replays.frame(live, changed, step, "imperial") == rebuilt(changed, step)
    ready = replays.frame_json(live, 9, changed, 5, None)
    assert json.loads(ready) == json.loads(json.dumps(rebuilt(changed, 5, None)))
    assert replays.frame_json(live, 9, changed, 5, None) is ready  # the second asker gets the kept frame


def test_replays_are_rate_limited_per_client(guarded: Server) -> None:
    limits = Limits()
    with guarded.client() as c:
        made = create(c, imperial="beginner", insurgent="beginner", bot_delay_ms=0)
        deadline = time.monotonic() + 60
        while c.get(f"/api/games/{made['game_id']}/status").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        started, served, refused = time.monotonic(), 0, None
        for k in range(2000):
            response = c.get(f"/api/games/{made['game_id']}/replay", params={"step": k % 2 * 100})
            if response.status_code == 429:
                refused = response
                break
            assert response.status_code == 200
            served += 1
        elapsed = time.monotonic() - started
    assert refused is not None and refused.json()["code"] == "rate_limited"
    assert limits.replay_burst - 1 <= served <= limits.replay_burst + elapsed * limits.replay_per_second + 1


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="Debian's chromium is not installed")
def test_the_pages_work_under_their_content_security_policy(guarded: Server) -> None:
    from playwright.sync_api import sync_playwright

    from .helpers import ARGS, CHROMIUM

    with guarded.client() as c:
        mine = create(c, imperial="human", insurgent="beginner", seed=3)
        bots = create(c, imperial="beginner", insurgent="beginner")
        wait_finished(c, bots["game_id"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page()
        blocked: list[str] = []
        page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
        for path in ("/", f"/play/{mine['tokens']['imperial']}", f"/replay/{bots['game_id']}"):
            page.goto(guarded.url + path, wait_until="load")
            page.wait_for_timeout(1500)  # the scripts fetch and draw (any blocked script or style is logged)
        browser.close()
    assert blocked == []
