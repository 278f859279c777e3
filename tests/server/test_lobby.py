"""The lobby, resign, rematch, chat, blocks, ratings and presence (docs/web.md, "The lobby", "Resign and
rematch", "Chat", "Ratings"), through a real server on SQLite and on PostgreSQL: two people sign up, one posts
an open game and the other joins it from the lobby; they move, chat, one resigns, both see the result and the
new ratings, and a rematch starts with the sides swapped. Security: chat reaches only the game's own seats,
and a blocked person can neither join, claim an invitation nor rematch."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from muster.core import get_rules
from muster.server.db import make_engine

from .helpers import Server, backends, create, database_url, state


@pytest.fixture(params=backends(), scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"lobby-{request.param}")
    srv = Server(database_url(request.param, tmp), tmp, env={"MUSTER_SIGNUPS_PER_WINDOW": "0"})
    srv.start()
    yield srv
    srv.stop()


def _signup(client: httpx.Client) -> str:
    name = "p" + secrets.token_hex(5)
    answer = client.post("/api/account/signup", json={"name": name, "password": "pw-" + secrets.token_hex(8)})
    assert answer.status_code == 201, answer.text
    return name


def _csrf(client: httpx.Client) -> dict[str, str]:
    return {"X-Muster-CSRF": client.get("/api/account").json()["csrf"]}


def _sql(server: Server, query: str, **params: Any) -> list[Any]:
    engine = make_engine(server.database_url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(query), params)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


@contextlib.contextmanager
def _two_people(server: Server) -> Iterator[tuple[httpx.Client, httpx.Client, str, str]]:
    """Two people, each signed up in their own browser."""
    with server.client() as alice, server.client() as bob:
        yield alice, bob, _signup(alice), _signup(bob)


def _post(client: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/lobby", json=body)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _join(client: httpx.Client, post_id: str) -> dict[str, Any]:
    answer = client.post(f"/api/lobby/{post_id}/join", json={})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _move(client: httpx.Client, token: str) -> None:
    """The seat plays its first legal action."""
    st = state(client, token)
    assert st["legal"], st["prompt"]
    answer = client.post(f"/api/seat/{token}/action", json={"version": st["version"],
                                                             "action": st["legal"][0]["action"]})
    assert answer.status_code == 200, answer.text


def _on_turn(a: tuple[httpx.Client, str], b: tuple[httpx.Client, str]) -> tuple[httpx.Client, str]:
    return a if state(*a)["legal"] else b


def test_post_join_move_chat_resign_ratings_and_rematch(server: Server) -> None:
    with _two_people(server) as (alice, bob, alice_name, bob_name):
        posted = _post(alice, side="random", rated=True)
        listed = bob.get("/api/lobby").json()["posts"]
        mine = next(p for p in listed if p["id"] == posted["post_id"])
        assert mine["poster"] == alice_name and mine["rated"] and not mine["mine"]
        assert mine["seat"] != posted["seat"]
        assert mine["game"] in [g["name"] for g in alice.get("/api/meta").json()["games"]]
        assert next(p for p in alice.get("/api/lobby").json()["posts"] if p["id"] == posted["post_id"])["mine"]
        joined = _join(bob, posted["post_id"])
        assert joined["game_id"] == posted["game_id"] and joined["seat"] == mine["seat"]
        assert posted["post_id"] not in [p["id"] for p in bob.get("/api/lobby").json()["posts"]]
        # a third person finds it gone
        with server.client() as carol:
            assert carol.post(f"/api/lobby/{posted['post_id']}/join", json={}).status_code == 404
        a, b = (alice, posted["token"]), (bob, joined["token"])
        players = state(*a)["seats"]
        assert players[posted["seat"]]["name"] == alice_name and players[joined["seat"]]["name"] == bob_name
        assert players[joined["seat"]]["taken"]
        _move(*_on_turn(a, b))
        # chat both ways, in order
        assert alice.post(f"/api/seat/{a[1]}/chat", json={"text": "good luck!"}).status_code == 201
        assert bob.post(f"/api/seat/{b[1]}/chat", json={"text": "you too\u0000"}).status_code == 201
        assert alice.get(f"/api/seat/{a[1]}/social").json()["presence"] == {}  # bob's page has not asked yet
        seen = bob.get(f"/api/seat/{b[1]}/social").json()
        assert [m["text"] for m in seen["chat"]] == ["good luck!", "you too"]
        assert seen["presence"][posted["seat"]]["online"]  # alice's page asked a moment ago
        later = alice.get(f"/api/seat/{a[1]}/social", params={"after": seen["chat"][0]["id"]}).json()
        assert [m["text"] for m in later["chat"]] == ["you too"]
        # alice resigns: both see bob's win and the new ratings
        resigned = alice.post(f"/api/seat/{a[1]}/resign", json={})
        assert resigned.status_code == 200, resigned.text
        assert resigned.json()["winner"] == joined["seat"]
        for who in (a, b):
            st = state(*who)
            assert st["outcome"]["winner"] == joined["seat"] and st["outcome"]["reason"] == "resigned"
            assert not st["legal"]
        assert alice.post(f"/api/seat/{a[1]}/resign", json={}).status_code == 409
        changes = bob.get(f"/api/seat/{b[1]}/social").json()["ratings"]
        assert changes[joined["seat"]]["after"] > changes[joined["seat"]]["before"]
        assert changes[posted["seat"]]["after"] < changes[posted["seat"]]["before"]
        profile = alice.get(f"/api/profile/{bob_name}").json()
        assert profile["won"] == 1 and profile["results"][0]["rated"]
        assert profile["results"][0]["opponent"]["name"] == alice_name
        assert [(r["side"], r["games"]) for r in profile["ratings"]] == [(joined["seat"], 1)]
        # rematch: bob offers, alice accepts, the sides are swapped, each opens their own new seat
        offer = bob.post(f"/api/seat/{b[1]}/rematch", json={})
        assert offer.json() == {"state": "offered", "offered_by": joined["seat"]}
        assert alice.get(f"/api/seat/{a[1]}/social").json()["rematch"] == {"offered_by": joined["seat"],
                                                                          "started": False}
        accepted = alice.post(f"/api/seat/{a[1]}/rematch", json={}).json()
        assert accepted["state"] == "started" and accepted["seat"] == joined["seat"]
        opened = bob.post(f"/api/seat/{b[1]}/rematch", json={}).json()
        assert opened["game_id"] == accepted["game_id"] and opened["seat"] == posted["seat"]
        assert state(alice, accepted["token"])["seat"] == joined["seat"]
        assert state(bob, opened["token"])["seat"] == posted["seat"]
        assert bob.get(f"/api/seat/{accepted['token']}").status_code == 403  # alice's seat is not bob's
        assert _sql(server, "SELECT game_id FROM rated_games WHERE game_id = :g", g=accepted["game_id"])


def test_chat_reaches_only_the_games_own_seats(server: Server) -> None:
    with _two_people(server) as (alice, bob, _, _), server.client() as eve:
        posted = _post(alice)
        joined = _join(bob, posted["post_id"])
        assert alice.post(f"/api/seat/{posted['token']}/chat", json={"text": "secret plan"}).status_code == 201
        # another game's player, with their own seat, sees nothing of it
        other = create(eve, imperial="human", insurgent="beginner")
        token = other["tokens"]["imperial"]
        assert eve.get(f"/api/seat/{token}/social").json()["chat"] == []
        # a seat link in another browser opens nothing, chat included
        for path in (f"/api/seat/{posted['token']}/social", f"/api/seat/{joined['token']}/social"):
            answer = eve.get(path)
            assert answer.status_code == 403 and "secret plan" not in answer.text
        assert eve.post(f"/api/seat/{joined['token']}/chat", json={"text": "hi"}).status_code == 403
        # the public listings and status never carry it
        for path in (f"/api/games/{posted['game_id']}/status", "/api/lobby"):
            assert "secret plan" not in eve.get(path).text
        # a bot game's spectator socket is the only watching there is; a game between people refuses it
        from websockets.sync.client import connect

        with connect(f"{server.ws_url}/ws/watch/{posted['game_id']}", open_timeout=10) as ws:
            assert "secret plan" not in ws.recv(timeout=10)


def test_chat_is_bounded_in_size_and_rate(server: Server) -> None:
    with _two_people(server) as (alice, bob, _, _):
        posted = _post(alice)
        _join(bob, posted["post_id"])
        path = f"/api/seat/{posted['token']}/chat"
        assert alice.post(path, json={"text": "x" * 2001}).status_code == 400
        assert alice.post(path, json={"text": " \u200b "}).status_code == 400
        assert alice.post(path, json={"text": "y" * 600}).status_code == 201
        kept = alice.get(f"/api/seat/{posted['token']}/social").json()["chat"][-1]["text"]
        assert len(kept) == 500
        codes = [alice.post(path, json={"text": f"m{i}"}).status_code for i in range(12)]
        assert codes.count(201) == 9 and codes[-1] == 429  # ten a minute per seat


def test_blocked_person_cannot_join_claim_or_rematch_and_their_chat_is_hidden(server: Server) -> None:
    with _two_people(server) as (alice, bob, _, bob_name):
        posted = _post(alice)
        joined = _join(bob, posted["post_id"])
        bob.post(f"/api/seat/{joined['token']}/chat", json={"text": "rude words"})
        blocked = alice.post("/api/account/blocks", json={"name": bob_name}, headers=_csrf(alice))
        assert blocked.status_code == 200 and blocked.json()["blocked"] == [bob_name]
        assert alice.post("/api/account/blocks", json={"name": bob_name}).status_code == 403  # CSRF
        social = alice.get(f"/api/seat/{posted['token']}/social").json()
        assert social["chat"][0]["hidden"] and "rude" not in str(social["chat"])
        assert social["opponent_account"] == {"name": bob_name, "blocked": True}
        # open games: hidden both ways and not joinable
        second = _post(alice)
        assert second["post_id"] not in [p["id"] for p in bob.get("/api/lobby").json()["posts"]]
        assert bob.post(f"/api/lobby/{second['post_id']}/join", json={}).status_code == 403
        third = _post(bob)
        assert third["post_id"] not in [p["id"] for p in alice.get("/api/lobby").json()["posts"]]
        # an invitation link from the blocker is refused to the blocked person
        made = alice.post("/api/games", json={"imperial": "human", "insurgent": "human"}).json()
        code = next(iter(made["invitations"].values()))
        assert bob.post(f"/api/invitations/{code}/claim", json={}).status_code == 403
        # rematch refused
        alice.post(f"/api/seat/{posted['token']}/resign", json={})
        assert bob.post(f"/api/seat/{joined['token']}/rematch", json={}).status_code == 403
        assert alice.post(f"/api/seat/{posted['token']}/rematch", json={}).status_code == 403
        # unblocking restores it
        alice.post("/api/account/blocks", json={"name": bob_name, "block": False}, headers=_csrf(alice))
        assert bob.post(f"/api/seat/{joined['token']}/rematch", json={}).json()["state"] == "offered"


def test_withdraw_expiry_and_bounds(server: Server) -> None:
    with server.client() as guest, server.client() as other:
        posted = _post(guest, name="Zosia", rated=False)
        assert guest.post("/api/lobby", json={"rated": True}).status_code == 403  # a rated game needs an account
        assert other.post(f"/api/lobby/{posted['post_id']}/withdraw", json={}).status_code == 404
        assert guest.post(f"/api/lobby/{posted['post_id']}/join", json={}).status_code == 409
        assert guest.post(f"/api/lobby/{posted['post_id']}/withdraw", json={}).status_code == 200
        assert other.get(f"/api/games/{posted['game_id']}/status").status_code == 404  # the game went with it
        made = [_post(guest) for _ in range(3)]
        assert guest.post("/api/lobby", json={}).status_code == 429  # three open games each
        # an expired post leaves the lobby with its game
        _sql(server, "UPDATE lobby_posts SET expires_at = :t WHERE id = :i", t="2000-01-01 00:00:00+00:00",
             i=made[0]["post_id"])
        assert made[0]["post_id"] not in [p["id"] for p in other.get("/api/lobby").json()["posts"]]
        assert other.get(f"/api/games/{made[0]['game_id']}/status").status_code == 404
        for body in ({"side": "nobody"}, {"game": "chess"}, {"ruleset": "9th"}, {"name": "x" * 500}):
            assert guest.post("/api/lobby", json=body).status_code == 400, body
        # a guest joins a guest's unrated game under a name of their choice
        joined = other.post(f"/api/lobby/{made[1]['post_id']}/join", json={"name": "Jan"}).json()
        seen = state(other, joined["token"])
        assert joined["seat"] in get_rules(seen["game"]).info.seats
        assert seen["seats"][joined["seat"]]["name"] == "Jan"
        assert seen["seats"][made[1]["seat"]]["name"] == "Guest"


def test_a_resignation_survives_a_restart(server: Server) -> None:
    with server.client() as client:
        made = create(client, imperial="human", insurgent="beginner")
        token = made["tokens"]["imperial"]
        assert client.post(f"/api/seat/{token}/resign", json={}).status_code == 200
    server.stop()
    server.start()
    with server.client() as client:
        client.cookies.update({"muster_device": _device_of(token)})
        st = state(client, token)
        assert st["outcome"] == {"winner": "insurgent", "reason": "resigned", "detail": st["outcome"]["detail"]}
        assert "resigned" in st["outcome"]["detail"]


def _device_of(token: str) -> str:
    from .helpers import _DEVICES

    return _DEVICES[token]
