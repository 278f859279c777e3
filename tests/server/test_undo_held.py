"""Undo between two people: a person's turn, card included, can be taken back until it is committed (it ends,
or dice or hidden cards are revealed), and until then the other seat sees the game as it was when the turn
began: its view, log, marks, counts and version, over HTTP and websockets, from one or two server processes,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Server, act, backends, create, database_url, device_headers, state, ws_connect, ws_recv

SOCKETS = 4
"""The other seat's websockets: with two server processes sharing the port, some land on each."""


def _setups() -> list[Any]:
    """Each backend, with one and with two server processes."""
    out = []
    for backend in backends():
        name, marks = (backend, ()) if isinstance(backend, str) else (backend.values[0], backend.marks)
        out += [pytest.param((name, workers), marks=marks, id=f"{name}-{workers}proc") for workers in (1, 2)]
    return out


@pytest.fixture(scope="module", params=_setups())
def two_people(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server (one or two processes) on each backend."""
    backend, workers = request.param
    tmp = tmp_path_factory.mktemp(f"undo-{backend}-{workers}")
    srv = Server(database_url(backend, tmp), tmp, args=["--workers", str(workers)] if workers > 1 else [])
    srv.start()
    yield srv
    srv.stop()


def to_the_action_phase(c: httpx.Client) -> dict[str, str]:
    """A game between two people, played through the Opening up to the Imperial's first card."""
    tokens: dict[str, str] = create(c, imperial="human", insurgent="human", seat="imperial")["tokens"]
    while True:
        moved = False
        for token in tokens.values():
            mine = state(c, token)
            if any(i["action"][0] == "ap" for i in mine["legal"]):
                return tokens
            quick = [i for i in mine["legal"] if i["action"][0] in ("done", "to", "target")]
            if mine["legal"]:
                assert act(c, token, mine["version"], (quick or mine["legal"])[0]["action"]).status_code == 200
                moved = True
        assert moved


def held_parts(c: httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    """Everything the other seat can read of the game besides its state: the export, the replay's length and
    last frame, the public status."""
    headers = device_headers(token)
    export = c.get(f"/api/games/{game_id}/export", params={"token": token}, headers=headers).json()
    frame = c.get(f"/api/games/{game_id}/replay", params={"token": token, "step": 10_000}, headers=headers).json()
    last = c.get(f"/api/games/{game_id}/replay", params={"token": token, "step": frame.get("total", 0)},
                 headers=headers).json()
    status = c.get(f"/api/games/{game_id}/status").json()
    return {"export": export, "total": frame.get("total"), "last": last, "steps": status["steps"],
            "version": status["version"]}


def test_a_card_played_then_undone_is_never_shown_to_the_other_person(two_people: Server) -> None:
    with two_people.client() as c:
        tokens = to_the_action_phase(c)
        imp, ins = tokens["imperial"], tokens["insurgent"]
        start = state(c, imp)
        game_id = start["game_id"]
        before = state(c, ins)  # the other seat's view where the turn begins: the committed point
        before_parts = held_parts(c, game_id, ins)
        with ExitStack() as stack:
            sockets = [stack.enter_context(ws_connect(two_people.ws_url, ins)) for _ in range(SOCKETS)]
            for ws in sockets:
                assert ws_recv(ws, "state")["view"] == before["view"]
            hand = list(start["hand"])
            card = next(i for i in start["legal"] if i["action"][0] == "ap")["action"]
            assert act(c, imp, start["version"], card).status_code == 200
            mid = state(c, imp)
            assert card[1] not in mid["hand"] and mid["can_undo"]
            prepare = next(i for i in mid["legal"] if i["action"][0] == "prepare")["action"]
            assert act(c, imp, mid["version"], prepare).status_code == 200
            held = state(c, imp)
            assert held["can_undo"] and held["step"] == start["step"] + 2
            for _ in range(3):  # whichever process answers, the other seat sees the committed point exactly
                assert state(c, ins) == before
                assert held_parts(c, game_id, ins) == before_parts
            # one step back, then the whole turn: the card returns to the hand, its line leaves the log
            one = c.post(f"/api/seat/{imp}/undo", json={"version": held["version"], "steps": 1},
                         headers=device_headers(imp))
            assert one.status_code == 200, one.text
            back = state(c, imp)
            assert back["step"] == start["step"] + 1 and back["can_undo"] and card[1] not in back["hand"]
            whole = c.post(f"/api/seat/{imp}/undo", json={"version": back["version"]}, headers=device_headers(imp))
            assert whole.status_code == 200, whole.text
            undone = state(c, imp)
            assert sorted(undone["hand"]) == sorted(hand) and not undone["can_undo"]
            assert undone["step"] == start["step"] and undone["view"] == start["view"]
            assert undone["log"] == start["log"]
            assert state(c, ins) == before
            # another card, and the turn ends: now, and only now, the other seat sees it
            other_card = next(i for i in undone["legal"] if i["action"][0] == "ap" and i["action"] != card)["action"]
            assert act(c, imp, undone["version"], other_card).status_code == 200
            now = state(c, imp)
            end = next(i for i in now["legal"] if i["action"][0] == "end")["action"]
            assert act(c, imp, now["version"], end).status_code == 200
            after = state(c, ins)
            assert after["step"] == start["step"] + 2 and after["version"] > before["version"]
            for ws in sockets:  # up to the committed turn, nothing but the turn's start came (resent, at most)
                pushed = ws_recv(ws, "state")
                while pushed["step"] != after["step"]:
                    assert (pushed["step"], pushed["version"], pushed["view"]) == (
                        before["step"], before["version"], before["view"])
                    pushed = ws_recv(ws, "state")
                assert pushed["version"] == after["version"]
                text = " ".join(e["t"] for e in pushed["log"])
                assert str(card[1]) not in {str(a["action"][1]) for a in pushed["last"]["actions"]}
                assert pushed["last"]["card"] == other_card[1]
                assert any(e["m"] == "{side} plays {card} for {n} AP." for e in pushed["log"]), text


def test_undo_steps_are_bounded_and_only_the_acting_seat_undoes(two_people: Server) -> None:
    with two_people.client() as c:
        tokens = to_the_action_phase(c)
        imp, ins = tokens["imperial"], tokens["insurgent"]
        st = state(c, imp)
        assert act(c, imp, st["version"], next(i for i in st["legal"] if i["action"][0] == "ap")["action"]
                   ).status_code == 200
        st = state(c, imp)
        for steps in (0, -1, 1001, "1", True, 1.5):
            refused = c.post(f"/api/seat/{imp}/undo", json={"version": st["version"], "steps": steps},
                             headers=device_headers(imp))
            assert refused.status_code == 400 and refused.json()["code"] == "malformed", steps
        theirs = c.post(f"/api/seat/{ins}/undo", json={"version": st["version"]}, headers=device_headers(ins))
        assert theirs.status_code == 409
        assert state(c, imp)["version"] == st["version"]
        # the other seat's held state is made once, yet a name given meanwhile shows in it
        waiting = state(c, ins)
        named = c.post(f"/api/seat/{imp}/name", json={"name": "Kolokotronis"}, headers=device_headers(imp))
        assert named.status_code == 200, named.text
        renamed = state(c, ins)
        assert renamed["seats"]["imperial"]["name"] == "Kolokotronis"
        assert {**renamed, "seats": waiting["seats"]} == waiting


def test_a_reload_in_the_middle_of_a_held_turn_shows_the_same(tmp_path: Path) -> None:
    """A server restarted mid-turn rebuilds the game from its stored actions: the acting seat can still take the
    card back, and the other seat still sees the turn's start."""
    srv = Server(database_url("sqlite", tmp_path), tmp_path)
    srv.start()
    try:
        with srv.client() as c:
            tokens = to_the_action_phase(c)
            imp, ins = tokens["imperial"], tokens["insurgent"]
            before = state(c, ins)
            st = state(c, imp)
            card = next(i for i in st["legal"] if i["action"][0] == "ap")["action"]
            assert act(c, imp, st["version"], card).status_code == 200
            mine = state(c, imp)
        srv.stop()
        srv.start()
        with srv.client() as c:
            assert state(c, imp) == mine
            assert state(c, ins) == before
            assert c.post(f"/api/seat/{imp}/undo", json={"version": mine["version"]},
                          headers=device_headers(imp)).status_code == 200
            assert card[1] in state(c, imp)["hand"]
    finally:
        srv.stop()
