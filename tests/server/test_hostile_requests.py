"""Hostile requests (docs/security.md, "Requests from other sites, trickled bodies, names, echoes"): each
tried against a real ``muster serve`` process."""

from __future__ import annotations

import json
import socket
import time
import unicodedata
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from .helpers import Server, create, database_url, device_headers, state, ws_connect, ws_recv


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose request bodies may pause 2 s and must be whole within 4 s."""
    tmp = tmp_path_factory.mktemp("hostile")
    server = Server(database_url("sqlite", tmp), tmp, env={"MUSTER_BODY_TIMEOUT_S": "2",
                                                          "MUSTER_BODY_DEADLINE_S": "4"})
    server.start()
    yield server
    server.stop()


def test_a_body_trickled_byte_by_byte_is_cut_off_at_its_deadline(srv: Server) -> None:
    body = json.dumps({"imperial": "human", "insurgent": "human"}).encode().ljust(60)
    head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
        sock.sendall(head)
        answer = b""
        for byte in body:  # one byte a second: never a pause long enough for the pause limit (2 s)
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            sock.settimeout(1)
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                continue
            break
        sock.settimeout(5)
        while answer and b"did not arrive" not in answer:  # the head and the body may come in separate reads
            more = sock.recv(4096)
            if not more:
                break
            answer += more
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 4 s" in answer
    assert time.monotonic() - started < 15  # not the minute the whole body would have taken


def test_a_client_that_hangs_up_mid_body_is_forgotten_quietly(srv: Server) -> None:
    for path in ("/api/games", "/api/my-games"):
        for _ in range(10):
            with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
                sock.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Content-Length: 1000\r\n\r\n{\"tokens\": [").encode())
    time.sleep(0.5)
    assert httpx.get(srv.url + "/api/meta", timeout=10).status_code == 200  # every hang-up handled by now
    time.sleep(0.5)
    log = srv.log()
    assert "Traceback" not in log and "ERROR" not in log, log[-2000:]


GAME = json.dumps({"imperial": "human", "insurgent": "beginner"})


def test_a_cross_site_post_is_refused(srv: Server) -> None:
    with srv.client() as c:
        own = srv.url  # the browser's Origin for our own pages: scheme and host:port as the request's Host
        cases = [
            ({"Content-Type": "text/plain", "Origin": "https://evil.example"}, 403, "cross_site"),
            ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403, "cross_site"),
            ({"Content-Type": "application/json", "Origin": "null"}, 403, "cross_site"),
            ({"Content-Type": "text/plain", "Origin": own}, 415, "unsupported_media_type"),
            ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"),
            ({}, 415, "unsupported_media_type"),
        ]
        for headers, status, code in cases:
            response = c.post("/api/games", content=GAME, headers=headers)
            assert response.status_code == status, (headers, response.text)
            assert response.json()["code"] == code and response.json()["error"]
        assert "another site" in c.post("/api/games", content=GAME, headers={
            "Content-Type": "text/plain", "Origin": "https://evil.example"}).json()["error"]
        assert "application/json" in c.post("/api/games", content=GAME).json()["error"]
        # our own pages, and clients that are not browsers, still create games and act
        for headers in ({"Content-Type": "application/json", "Origin": own},
                        {"Content-Type": "application/json; charset=utf-8"}):
            assert c.post("/api/games", content=GAME, headers=headers).status_code == 201
        made = create(c, imperial="human", insurgent="beginner")
        token = made["tokens"]["imperial"]
        st = state(c, token)
        body = json.dumps({"version": st["version"], "action": st["legal"][0]["action"]})
        refused = c.post(f"/api/seat/{token}/action", content=body,
                         headers={"Content-Type": "text/plain", "Origin": "https://evil.example"})
        assert refused.status_code == 403
        assert state(c, token)["version"] == st["version"]  # nothing happened
        plain = c.post(f"/api/seat/{token}/action", content=body, headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415
        assert c.post(f"/api/seat/{token}/action", content=body,
                      headers={"Content-Type": "application/json", "Origin": own}).status_code == 200
    # a page of another site cannot open a seat's websocket either
    with pytest.raises(InvalidStatus):
        connect(f"{srv.ws_url}/ws/{token}", origin="https://evil.example",  # type: ignore[arg-type]
                additional_headers=device_headers(token), open_timeout=5)
    with connect(f"{srv.ws_url}/ws/{token}", origin=own,  # type: ignore[arg-type]
                 additional_headers=device_headers(token), open_timeout=5) as ws:
        assert ws_recv(ws, "state")["seat"] == "imperial"


ZALGO = "Ala" + "\u0301" * 40 + "n"


def test_names_are_normalised_and_a_side_name_is_refused(srv: Server) -> None:
    with srv.client() as c:
        made = create(c, imperial="human", insurgent="human")
        token = made["tokens"]["imperial"]
        named = c.post(f"/api/seat/{token}/name", json={"name": ZALGO})
        assert named.status_code == 200, named.text
        name = named.json()["name"]
        assert name == unicodedata.normalize("NFC", name)
        assert name == "Al\u00e1\u0301\u0301n"  # a + the first mark composed (NFC), then two marks at most
        decomposed = c.post(f"/api/seat/{token}/name", json={"name": "Zofia Kowalska-Wo\u0301jcik"}).json()["name"]
        assert decomposed == "Zofia Kowalska-Wójcik"  # one composed character, as typed on another keyboard
        for side in ("Imperial", "imperial", " INSURGENT ", "Athens", "sparta", "Imperium", "grecy", "Ateny",
                     "Spartanie", "Gracz Imperium"):
            refused = c.post(f"/api/seat/{token}/name", json={"name": side})
            assert refused.status_code == 400, (side, refused.text)
            assert "name of a side" in refused.json()["error"]
        assert c.post(f"/api/seat/{token}/name", json={"name": "Imperial Guard fan"}).status_code == 200
        answer = c.post("/api/games", json={"imperial": "human", "insurgent": "human", "names": {"imperial": "Sparta"}})
        assert answer.status_code == 400 and "name of a side" in answer.text


def test_an_error_never_echoes_a_large_request(srv: Server) -> None:
    with srv.client() as c:
        made = create(c, imperial="human", insurgent="beginner")
        token = made["tokens"]["imperial"]
        st = state(c, token)
        huge = ["pass", "x" * 60_000]
        answer = c.post(f"/api/seat/{token}/action", json={"version": st["version"], "action": huge})
        assert answer.status_code in (400, 409) and len(answer.content) < 2_000, len(answer.content)
        nested = c.post(f"/api/seat/{token}/action", json={"version": st["version"], "action": [["y" * 30_000]]})
        assert len(nested.content) < 2_000
    with ws_connect(srv.ws_url, token) as ws:
        ws_recv(ws, "state")
        ws.send(json.dumps({"type": "action", "id": "i" * 20_000, "version": st["version"],
                            "action": ["pass", "x" * 40_000]}))
        error = ws.recv(timeout=10)
        assert len(error) < 2_000 and json.loads(error)["type"] == "error"
        ws.send(json.dumps({"type": "x" * 50_000}))
        assert len(ws.recv(timeout=10)) < 2_000
