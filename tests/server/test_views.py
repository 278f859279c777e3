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


def _at_insurgent_card_turn_with(card: int, seed: int) -> Game:
    """A game played at random until the Insurgent may play ``card``'s event."""
    game = Game(get_rules("freedom"), seed)
    chooser = random.Random(seed)
    while game.active_seat is not None:
        if game.active_seat == "insurgent" and any(a.verb == "event" and a.arg == card for a in game.legal_actions()):
            return game
        game.apply(chooser.choice(game.legal_actions()))
    raise AssertionError("the card never came")


def test_an_event_that_would_do_only_its_fallback_says_so_before_the_click() -> None:
    """Notis Botsaris with no attack possible only gives 1 Morale: the card's menu says so before it is played,
    worked out from the player's own view only."""
    game = _at_insurgent_card_turn_with(2, 4)
    payload = seat_payload(game, "views-test-event", 1, "insurgent", SEATS)
    event = next(item for item in payload["legal"] if item["action"] == ["event", 2])
    morale = game.state.tracks["insurgent"]["morale"]
    assert event["effect"] == f"Played now: Insurgent Morale {morale} → {morale + 1}."
    # the same words whatever the opponent's hand and the decks hold
    from muster.games.freedom.web import ADAPTER

    view = game.view("insurgent")
    legal = game.legal_actions()
    rules = get_rules("freedom")
    other_world = rules.view(rules.determinize(view, "insurgent", 99), "insurgent")
    assert ADAPTER.effects_now(view, "insurgent", legal) == ADAPTER.effects_now(other_world, "insurgent", legal)
    polish = seat_payload(game, "views-test-event", 1, "insurgent", SEATS, lang="pl")
    assert next(i for i in polish["legal"] if i["action"] == ["event", 2])["effect"].startswith("Zagrane teraz:")


def test_a_click_that_ends_the_turn_asks_first_and_an_explicit_ending_does_not() -> None:
    """The destination of the Insurgent's free Regroup hands the turn over: it carries a question; "done"
    and "end" say so themselves and carry none (unless they lose something, like AP left)."""
    game = Game(get_rules("freedom"), 12)
    while game.active_seat == "imperial":
        done = [a for a in game.legal_actions() if a.verb == "done"]
        game.apply(done[0] if done else game.legal_actions()[0])
    game.apply(game.legal_actions()[0])  # the unit to regroup
    payload = seat_payload(game, "views-test-regroup", 1, "insurgent", SEATS)
    assert payload["legal"] and all("ends your turn" in item["confirm"] for item in payload["legal"]
                                    if item["action"][0] == "to")
    assert payload["can_undo"]  # and the unit picked can still be taken back
    # an attack's target rolls dice: it asks too; choosing an action (no dice yet) does not
    chooser = random.Random(2)
    seen = set()
    for _ in range(3000):
        if game.active_seat is None or len(seen) == 2:
            break
        seat = game.active_seat
        payload = seat_payload(game, "views-test-regroup", 2, seat, SEATS)
        for item in payload["legal"]:
            if item["action"][0] in ("end", "done", "event", "ap", "trigger"):  # they say so themselves
                assert "cannot be undone" not in item.get("confirm", "")
            if "rolls dice" in item.get("confirm", ""):
                seen.add("dice")
            if "ends your turn" in item.get("confirm", ""):
                seen.add("turn")
        game.apply(chooser.choice(game.legal_actions()))
    assert seen == {"dice", "turn"}
