"""Seats belong to their players: the creator of a game between two people gets its own seat and a one-use
invitation, never the other seat; a seat opens only for the browser holding it (docs/security.md, "Seats and
credentials"). Every test runs a real server on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from muster.server.db import make_engine

from .helpers import DEVICE_COOKIE, Server, ws_close_code


def _people_game(creator: httpx.Client, side: str = "insurgent") -> dict[str, Any]:
    made = creator.post("/api/games", json={"imperial": "human", "insurgent": "human", "seat": side,
                                            "names": {side: "Notis"}})
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


def _claim(client: httpx.Client, code: str) -> httpx.Response:
    return client.post(f"/api/invitations/{code}/claim", json={})


def test_the_creator_holding_all_it_was_sent_cannot_read_or_act_for_the_invited_seat(server: Server) -> None:
    with server.client() as creator, server.client() as guest:
        made = _people_game(creator)
        # the creator gets its own seat and an invitation, not the other seat's token
        assert set(made["tokens"]) == {"insurgent"} and set(made["invitations"]) == {"imperial"}
        mine, code = made["tokens"]["insurgent"], made["invitations"]["imperial"]
        assert made["invitation_links"] == {"imperial": f"/join/{code}"}
        assert creator.get(f"/api/seat/{code}").status_code == 404  # an invitation is not a seat token
        before = creator.get(f"/api/seat/{mine}").json()
        assert before["seats"]["imperial"]["taken"] is False  # both players see the seat is not taken yet

        assert guest.get(f"/api/invitations/{code}").json()["state"] == "open"
        claimed = _claim(guest, code)
        assert claimed.status_code == 200, claimed.text
        theirs = claimed.json()["token"]
        assert theirs not in str(made) and claimed.json()["seat"] == "imperial"
        assert guest.get(f"/api/seat/{theirs}").json()["seat"] == "imperial"

        # everything the creator was sent, and its own browser session, opens nothing of the other seat
        assert _claim(creator, code).status_code == 410
        assert creator.get(f"/api/invitations/{code}").json()["state"] == "taken"
        for secret in (code, *made["tokens"].values()):
            st = creator.get(f"/api/seat/{secret}")
            assert st.status_code == 404 or st.json()["seat"] == "insurgent"
        # even the guest's seat token, should the creator learn it, does not work in the creator's browser
        seen = guest.get(f"/api/seat/{theirs}").json()
        assert creator.get(f"/api/seat/{theirs}").json()["code"] == "not_your_seat"
        acted = creator.post(f"/api/seat/{theirs}/action", json={"version": seen["version"],
                                                                 "action": seen["legal"][0]["action"]})
        assert acted.status_code == 403
        assert creator.post(f"/api/seat/{theirs}/name", json={"name": "I resign, gg"}).status_code == 403
        assert creator.post(f"/api/seat/{theirs}/hints/accept", json={}).status_code == 403
        assert creator.get(f"/api/games/{made['game_id']}/export?token={theirs}").status_code == 403
        assert creator.get(f"/api/games/{made['game_id']}/replay?token={theirs}&step=0").status_code == 403
        cookies = "; ".join(f"{k}={v}" for k, v in creator.cookies.items())
        assert ws_close_code(server, theirs, {"Cookie": cookies}) == 4403
        # the guest's seat is untouched and its holder is known to both
        after = guest.get(f"/api/seat/{theirs}").json()
        assert after["version"] == seen["version"] and after["seats"]["imperial"]["name"] is None
        assert creator.get(f"/api/seat/{mine}").json()["seats"]["imperial"]["taken"] is True
        assert after["seats"]["insurgent"]["name"] == "Notis" and after["seats"]["imperial"]["together"] is False


def test_a_seat_link_forwarded_to_another_browser_opens_nothing(server: Server) -> None:
    with server.client() as creator, server.client() as stranger, httpx.Client(base_url=server.url) as bare:
        made = creator.post("/api/games", json={"imperial": "human", "insurgent": "beginner", "seed": 4}).json()
        token = made["tokens"]["imperial"]
        assert creator.get(f"/api/seat/{token}").status_code == 200
        stranger.post("/api/games", json={"imperial": "human", "insurgent": "beginner"})  # a session of its own
        assert stranger.cookies.get(DEVICE_COOKIE) not in (None, creator.cookies.get(DEVICE_COOKIE))
        for client in (stranger, bare):
            refused = client.get(f"/api/seat/{token}")
            assert refused.status_code == 403 and "another browser" in refused.json()["error"]
        assert ws_close_code(server, token, {}) == 4403
        assert ws_close_code(server, token, {"Cookie": f"{DEVICE_COOKIE}={'x' * 43}"}) == 4403
        # My games lists a seat only for the browser that holds it
        assert creator.post("/api/my-games", json={"tokens": [token]}).json()["games"]
        assert bare.post("/api/my-games", json={"tokens": [token]}).json()["games"] == []


def test_a_second_claimer_is_told_plainly_that_the_seat_is_taken(server: Server) -> None:
    with server.client() as creator, server.client() as first, server.client() as second:
        code = _people_game(creator)["invitations"]["imperial"]
        assert _claim(first, code).status_code == 200
        late = _claim(second, code)
        assert late.status_code == 410 and late.json()["code"] == "invitation_taken"
        assert "someone else has already accepted this invitation" in late.json()["error"]
        polish = second.post(f"/api/invitations/{code}/claim?lang=pl", json={})
        assert "ktoś inny przyjął już to zaproszenie" in polish.json()["error"]
        again = _claim(first, code)  # the claimer may take it up again (a new token; the old one dies)
        assert again.status_code == 200
        assert first.get(f"/api/seat/{again.json()['token']}").status_code == 200
        assert _claim(creator, "no-such-invitation").status_code == 404


def test_simultaneous_claims_have_exactly_one_winner(server: Server) -> None:
    with server.client() as creator:
        codes = [_people_game(creator)["invitations"]["imperial"] for _ in range(5)]
    for code in codes:
        results: list[int] = []
        barrier = threading.Barrier(4)

        def claim(code: str = code, results: list[int] = results, barrier: threading.Barrier = barrier) -> None:
            with server.client() as own:
                barrier.wait()
                results.append(_claim(own, code).status_code)

        threads = [threading.Thread(target=claim) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [200, 410, 410, 410]


def test_a_browser_that_claims_its_own_invitation_holds_both_seats_and_both_see_it(server: Server) -> None:
    with server.client() as alone:
        made = _people_game(alone)
        other = _claim(alone, made["invitations"]["imperial"]).json()["token"]
        seats = alone.get(f"/api/seat/{other}").json()["seats"]
        assert seats["imperial"]["together"] and seats["insurgent"]["together"]


def test_seats_stored_before_holders_belong_to_the_first_browser_that_opens_them(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as maker, srv.client() as first, srv.client() as second:
            made = maker.post("/api/games", json={"imperial": "human", "insurgent": "beginner", "seed": 2}).json()
            token = made["tokens"]["imperial"]
            engine = make_engine(srv.database_url)
            with engine.begin() as conn:  # as a release before seat holders left it
                conn.execute(text("UPDATE seats SET holder = NULL WHERE game_id = :g"), {"g": made["game_id"]})
            engine.dispose()
            for client in (first, second):  # two other browsers, each with a session of its own
                client.post("/api/games", json={"imperial": "human", "insurgent": "beginner"})
            assert first.get(f"/api/seat/{token}").status_code == 200  # the first browser to open it keeps it
            assert second.get(f"/api/seat/{token}").status_code == 403
            assert maker.get(f"/api/seat/{token}").status_code == 403
            assert first.get(f"/api/seat/{token}").status_code == 200
    finally:
        srv.stop()
