"""The state message's game-agnostic parts: last-move marks, hints and warnings, no drawing."""

from __future__ import annotations

import json
import random

from muster.core import Game, get_rules
from muster.server.store import SeatInfo
from muster.server.views import last_moves, seat_payload

SEATS = {"imperial": SeatInfo("imperial", "human", None), "insurgent": SeatInfo("insurgent", "human", None)}


def _play_until_insurgent_card_done(game: Game) -> None:
    chooser = random.Random(4)
    while not (game.active_seat == "imperial" and game.view("imperial")["played"]["insurgent"] >= 1):
        game.apply(chooser.choice(game.legal_actions()))


def test_last_moves_are_the_opponents_actions_since_mine_with_board_changes() -> None:
    game = Game(get_rules("freedom"), 11)
    _play_until_insurgent_card_done(game)
    last = last_moves("views-test-1", game, "imperial")
    assert last["actions"] and all(a["seat"] == "insurgent" for a in last["actions"])
    assert last["from_step"] + len(last["actions"]) == len(game.actions)
    # the changes are exactly the difference of the public board over that span
    before = Game(get_rules("freedom"), 11)
    for action in game.actions[: last["from_step"]]:
        before.apply(action)
    old, new = before.view(None)["spaces"], game.view(None)["spaces"]
    for kind in ("exp", "ally", "ins"):
        for space in set(old[kind]) | set(new[kind]):
            delta = new[kind].get(space, 0) - old[kind].get(space, 0)
            assert last["changes"].get(space, {}).get(kind, 0) == delta, (kind, space)
    # for the Insurgent, who acted last, nothing is marked
    assert last_moves("views-test-1", game, "insurgent")["actions"] == []


def test_marks_follow_an_undo() -> None:
    game = Game(get_rules("freedom"), 11)
    _play_until_insurgent_card_done(game)
    assert last_moves("views-test-2", game, "imperial")["actions"]
    game.apply(game.legal_actions()[0])
    shorter = Game(get_rules("freedom"), 11)
    for action in game.actions[:3]:
        shorter.apply(action)
    assert len(last_moves("views-test-2", shorter, "imperial")["actions"]) <= 3  # rebuilt, not stale


def test_the_payload_carries_hints_warnings_and_no_drawing() -> None:
    game = Game(get_rules("freedom"), 5)
    chooser = random.Random(1)
    warned = False
    for _ in range(400):
        seat = game.active_seat
        payload = seat_payload(game, "views-test-3", 1, seat, SEATS)
        assert "<svg" not in json.dumps(payload) and "svg" not in payload
        assert payload["legal"] and all(isinstance(item["hint"], str) for item in payload["legal"])
        for item in payload["legal"]:
            if item["action"][0] == "ap" and "confirm" in item:
                warned = True
                assert "opponent" in item["confirm"]  # rule 4.3.1: the opponent may use the event
        game.apply(chooser.choice(game.legal_actions()))
        if game.outcome:
            break
    assert warned
