"""The HTTP and websocket API against a real server process, on SQLite and (when available) PostgreSQL."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

from muster.core import Game, get_rules

from .helpers import Server, act, create, state, wait_finished, wait_for_turn, ws_connect, ws_recv


def test_meta_lists_seats_rulesets_and_named_bot_levels(server: Server) -> None:
    with server.client() as c:
        meta = c.get("/api/meta").json()
    games = {g["name"]: g for g in meta["games"]}
    freedom = games["freedom"]
    assert meta["game"] == "freedom" == meta["games"][0]["name"]  # the game listed first is the lobby's default
    assert freedom["seats"] == ["imperial", "insurgent"]
    assert set(freedom["options"]["ruleset"]) == {"2nd", "1st"} and games["hellenes"]["options"] == {}
    assert [level["id"] for level in freedom["levels"]] == ["beginner", "standard", "strongest"]
    assert freedom["default_level"] == "strongest" and all(level["description"] for level in freedom["levels"])
    assert "bots" not in meta  # the web offers named levels only, never free bot specs
    assert freedom["web"] is True and games["hellenes"]["seats"] == ["athens", "sparta"]
    assert freedom["board"] == "/static/games/freedom/board.js" and freedom["rules"] == "/rules/freedom"
    assert freedom["analysis"] is True and games["hellenes"]["analysis"] is True


def test_game_creation_accepts_level_ids_only(server: Server) -> None:
    with server.client() as c:
        for spec in ("random", "ismcts:seconds=inf", "heuristic", "ismcts:iterations=1e20"):
            response = c.post("/api/games", json={"imperial": "human", "insurgent": spec})
            assert response.status_code == 400 and "level" in response.json()["error"], spec
        made = create(c, imperial="human", insurgent="standard", seed=3, names={"imperial": "Anna\u0007 "})
        status = c.get(f"/api/games/{made['game_id']}/status").json()
        st = state(c, made["tokens"]["imperial"])
    assert status["players"]["insurgent"] == "heuristic" and status["levels"]["insurgent"] == "Standard"
    assert st["seats"]["imperial"]["name"] == "Anna" and st["seats"]["insurgent"]["level"] == "Standard"


def test_a_player_names_their_seat_and_the_opponent_sees_it(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human")
        imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
        named = c.post(f"/api/seat/{ins}/name", json={"name": "  Markos   Botsaris "}).json()
        assert named["name"] == "Markos Botsaris"
        assert state(c, imp)["seats"]["insurgent"]["name"] == "Markos Botsaris"
        assert c.post(f"/api/seat/{ins}/name", json={"name": "x" * 500}).status_code == 400


def test_game_data_serves_the_board_cards_and_tracks(server: Server) -> None:
    with server.client() as c:
        data = c.get("/api/game-data/freedom").json()
        assert c.get("/api/game-data/chess").status_code == 404
    names = {sp["id"]: sp["name"] for sp in data["spaces"]}
    assert names["w6"] == "Bastion Botsaris (fort, Wall 6)" and names["r6c4"] == "Row 6, column 4"
    assert len(data["cards"]) == 100 and len(data["areas"]) == 8 and data["tracks"]["morale"] == [0, 20]


def test_pages_are_served(server: Server) -> None:
    with server.client() as c:
        for path in ("/", "/play/some-token-value", "/replay/abc", "/static/play.js", "/static/app.css"):
            assert c.get(path).status_code == 200, path


def test_create_against_a_bot_gives_one_secret_token(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="beginner", seed=11)
        assert list(made["tokens"]) == ["imperial"]
        assert len(made["tokens"]["imperial"]) >= 32
        st = state(c, made["tokens"]["imperial"])
    assert st["seat"] == "imperial" and st["active_seat"] == "imperial"
    assert st["view"]["hands"]["insurgent"] == {"count": 8}
    assert "rng" not in st["view"] and "seed" not in st["view"]
    assert len(st["hand"]) == 8 and all(isinstance(card, int) for card in st["hand"])
    assert st["legal"] and all("hint" in item for item in st["legal"]) and st["help"]
    assert "svg" not in st and "<svg" not in json.dumps(st)  # the browser draws the board from the view


def test_bad_creation_requests_are_refused(server: Server) -> None:
    with server.client() as c:
        for body in ({"imperial": "human"}, {"imperial": "human", "insurgent": "no-such-bot"},
                     {"imperial": "human", "insurgent": "human", "ruleset": "3rd"},
                     {"imperial": "human", "insurgent": "beginner", "seed": -1}):
            response = c.post("/api/games", json=body)
            assert response.status_code == 400, body
            assert response.json()["error"]
        not_json = c.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
        assert not_json.status_code == 400


def _human_game(c: httpx.Client) -> tuple[str, str, dict[str, Any]]:
    made = create(c, imperial="human", insurgent="human")
    return made["tokens"]["imperial"], made["tokens"]["insurgent"], made


def test_every_bad_action_gets_a_clear_error_and_changes_nothing(server: Server) -> None:
    with server.client() as c:
        imp, ins, _ = _human_game(c)
        before = state(c, imp)
        legal = before["legal"][0]["action"]
        cases = [
            (ins, before["version"], legal, 409, "wrong_seat"),          # not the insurgent's turn
            (imp, before["version"], ["teleport", "camp"], 409, "illegal"),
            (imp, before["version"], ["from", "w1"], 409, "illegal"),     # an Insurgent space
            (imp, before["version"], {"verb": 3}, 400, "malformed"),
            (imp, before["version"], [1, 2, 3], 400, "malformed"),
            (imp, before["version"] - 1, legal, 409, "stale"),
            (imp, "x", legal, 400, "malformed"),
            (imp, None, legal, 400, "malformed"),
            ("not-a-real-token-at-all", before["version"], legal, 404, "not_found"),
        ]
        for token, version, action, status, code in cases:
            response = act(c, token, version, action)
            assert response.status_code == status, (action, response.text)
            assert response.json()["code"] == code and response.json()["error"]
        after = state(c, imp)
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_an_action_applies_and_is_stored(server: Server) -> None:
    with server.client() as c:
        imp, ins, made = _human_game(c)
        st = state(c, imp)
        response = act(c, imp, st["version"], st["legal"][0]["action"])
        assert response.status_code == 200, response.text
        assert response.json()["version"] == st["version"] + 1
        again = state(c, imp)
        assert again["step"] == 1
        export = c.get(f"/api/games/{made['game_id']}/export", params={"token": imp}).json()
        held = c.get(f"/api/games/{made['game_id']}/export", params={"token": ins}).json()
    assert export["actions"] == [st["legal"][0]["action"]]
    assert held["actions"] == []  # the other seat sees the turn once it can no longer be undone
    assert "seed" not in export and "state" not in export


def test_two_simultaneous_actions_exactly_one_applies(server: Server) -> None:
    with server.client() as c:
        imp, _, _ = _human_game(c)
        st = state(c, imp)
        actions = [item["action"] for item in st["legal"][:2]]
    results: list[int] = []
    barrier = threading.Barrier(len(actions))

    def send(action: Any) -> None:
        with server.client() as own:
            barrier.wait()
            results.append(act(own, imp, st["version"], action).status_code)

    threads = [threading.Thread(target=send, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409]
    with server.client() as c:
        assert state(c, imp)["step"] == 1


def test_undo_takes_back_my_turn(server: Server) -> None:
    with server.client() as c:
        imp, ins, _ = _human_game(c)
        st = state(c, imp)
        assert not st["can_undo"]
        assert c.post(f"/api/seat/{imp}/undo", json={"version": st["version"]}).json()["code"] == "undo"
        act(c, imp, st["version"], st["legal"][0]["action"])
        mid = state(c, imp)
        assert mid["can_undo"] and mid["step"] == 1
        assert c.post(f"/api/seat/{ins}/undo", json={"version": mid["version"]}).status_code == 409
        response = c.post(f"/api/seat/{imp}/undo", json={"version": mid["version"]})
        assert response.status_code == 200, response.text
        back = state(c, imp)
    assert back["step"] == 0 and back["version"] == mid["version"] + 1
    assert back["view"] == st["view"]


def test_websocket_play_pushes_state_to_both_seats(server: Server) -> None:
    with server.client() as c:
        imp, ins, _ = _human_game(c)
    with ws_connect(server.ws_url, imp) as wi, ws_connect(server.ws_url, ins) as wn:
        first = ws_recv(wi, "state")
        other = ws_recv(wn, "state")
        assert first["legal"] and not other["legal"]
        assert other["view"]["hands"]["imperial"] == {"count": 8}
        wi.send(json.dumps({"type": "action", "version": first["version"], "action": first["legal"][0]["action"],
                            "id": 7}))
        ack = ws_recv(wi, "ack")
        assert ack["id"] == 7 and ack["version"] == first["version"] + 1
        moved = ws_recv(wi, "state")  # a move the Imperial may still take back: the other seat waits for the turn
        wi.send(json.dumps({"type": "action", "version": ack["version"], "action": moved["legal"][0]["action"]}))
        second = ws_recv(wi, "ack")
        ws_recv(wi, "state")
        wi.send(json.dumps({"type": "action", "version": second["version"], "action": ["done", None]}))
        done = ws_recv(wi, "ack")
        pushed = ws_recv(wn, "state")
        assert pushed["version"] == done["version"] and pushed["log_from"] == len(other["log"])
        for message in (first, other, pushed):  # the browser draws the board: no drawing in any push
            assert "svg" not in message and "<svg" not in json.dumps(message)
        # the opponent's moves are marked for the other seat until it acts
        assert pushed["last"]["actions"] == [{"seat": "imperial", "action": a} for a in
                                             (first["legal"][0]["action"], moved["legal"][0]["action"], ["done", None])]
        wi.send("{broken")
        assert ws_recv(wi, "error")["code"] == "malformed"
        wi.send(json.dumps({"type": "action", "version": first["version"], "action": ["done", None]}))
        assert ws_recv(wi, "error")["code"] == "stale"
        wi.send(json.dumps({"type": "action", "version": done["version"], "action": ["done", None]}))
        assert ws_recv(wi, "error")["code"] == "wrong_seat"


def test_unknown_token_websocket_is_told_and_closed(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed

    with ws_connect(server.ws_url, "no-such-token-here") as ws:
        assert ws_recv(ws)["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_websocket_paths_outside_the_two_routes_are_refused(server: Server) -> None:
    """The websocket routes are matched before Starlette's router (muster.server.app.SocketRoutes): a token or
    game id is exactly one more path segment, as with ``WebSocketRoute``; anything else finds no route."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    for path in ("/ws/watch/some-game/extra", "/ws/a/b", "/ws/", "/wsx/token"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{server.ws_url}{path}", open_timeout=10)
        assert refused.value.response.status_code == 403, path
    with connect(f"{server.ws_url}/ws/watch/no-such-game", open_timeout=10) as ws:  # a route: told why
        assert ws_recv(ws)["code"] == "not_found"


def test_my_games_lists_whose_turn_it_is(server: Server) -> None:
    with server.client() as c:
        imp, ins, made = _human_game(c)
        games = c.post("/api/my-games", json={"tokens": [imp, ins, "unknown-token-xyz"]}).json()["games"]
    mine = {g["seat"]: g for g in games if g["game_id"] == made["game_id"]}
    assert mine["imperial"]["your_turn"] and not mine["insurgent"]["your_turn"]
    assert mine["insurgent"]["active_seat"] == "imperial"
    assert mine["imperial"]["players"] == {"imperial": "human", "insurgent": "human"}
    assert mine["imperial"]["rules_version"] == get_rules("freedom").info.version and not mine["imperial"]["outdated"]


def test_against_a_bot_the_bot_moves_on_its_own(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="beginner", insurgent="human", seed=3)
        st = wait_for_turn(c, made["tokens"]["insurgent"])
    assert st["active_seat"] == "insurgent" and st["step"] > 0


def test_two_bots_finish_and_the_replay_steps_through(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="beginner", insurgent="beginner", seed=8)
        assert made["tokens"] == {}
        status = wait_finished(c, made["game_id"])
        record = c.get(f"/api/games/{made['game_id']}/export").json()
        game = Game.from_record(get_rules("freedom"), {k: v for k, v in record.items()
                                                       if k not in ("outcome", "game_id", "players")})
        assert game.outcome is not None and game.outcome.winner == status["winner"]
        first = c.get(f"/api/games/{made['game_id']}/replay", params={"step": 0}).json()
        one = c.get(f"/api/games/{made['game_id']}/replay", params={"step": 1}).json()
        last = c.get(f"/api/games/{made['game_id']}/replay", params={"step": first["total"]}).json()
        assert c.get(f"/api/games/{made['game_id']}/replay", params={"step": 10**6}).status_code == 400
    assert first["total"] == len(record["actions"]) == status["steps"]
    assert one["last_action"] == record["actions"][0]
    assert last["outcome"] == record["outcome"] and last["view"]["hands"]["imperial"]["count"] >= 0


def test_an_ongoing_game_is_replayed_only_by_its_players(server: Server) -> None:
    with server.client() as c:
        _, ins, made = _human_game(c)
        gid = made["game_id"]
        assert c.get(f"/api/games/{gid}/replay", params={"step": 0}).status_code == 403
        assert c.get(f"/api/games/{gid}/export").status_code == 403
        other = _human_game(c)[0]
        assert c.get(f"/api/games/{gid}/replay", params={"step": 0, "token": other}).status_code == 403
        mine = c.get(f"/api/games/{gid}/replay", params={"step": 0, "token": ins}).json()
    assert mine["seat"] == "insurgent" and mine["view"]["hands"]["imperial"] == {"count": 8}
    assert isinstance(mine["view"]["hands"]["insurgent"], list)


def test_a_game_of_bots_can_be_watched_live_but_a_game_of_people_cannot(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with server.client() as c:
        bots = create(c, imperial="beginner", insurgent="beginner", seed=2, bot_delay_ms=50)
        _, _, people = _human_game(c)
    with connect(f"{server.ws_url}/ws/watch/{bots['game_id']}", max_size=2**24) as ws:
        first = ws_recv(ws, "state")
        later = ws_recv(ws, "state")
    assert later["version"] > first["version"] and later["log_from"] > 0
    for message in (first, later):
        assert message["seat"] is None and message["legal"] == [] and message["hand"] == []
        assert all(set(h) == {"count"} for h in message["view"]["hands"].values())
    with connect(f"{server.ws_url}/ws/watch/{people['game_id']}") as ws:
        assert ws_recv(ws)["code"] == "forbidden"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_every_bot_level_moves_on_its_own(server: Server) -> None:
    import time

    from muster.ai.levels import LEVELS

    with server.client() as c:
        for level in LEVELS:
            made = create(c, imperial=level.id, insurgent="human", seed=6)
            deadline = time.monotonic() + 60
            while c.get(f"/api/games/{made['game_id']}/status").json()["steps"] == 0:
                assert time.monotonic() < deadline, f"the {level.name} bot never moved"
                time.sleep(0.05)
