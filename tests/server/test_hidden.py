"""No response or websocket message to a seat contains what that seat may not see (over a whole game)."""

from __future__ import annotations

import json
import random
from typing import Any

from muster.core import Action, Game, get_rules
from muster.games.freedom.rules.action_phase import card

from .helpers import Server, create, state, wait_finished, ws_connect, ws_recv

SEED = 48213977  # distinctive, so a leak of the seed would show in the text


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | set().union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value)) if value else set()
    return set()


def _play_imperial(server: Server, token: str) -> list[dict[str, Any]]:
    """Play the Imperial seat by random legal choices over the websocket; return every message received."""
    chooser = random.Random(1)
    seen: list[dict[str, Any]] = []
    with server.client() as c:
        seen.append(state(c, token))
    with ws_connect(server.ws_url, token) as ws:
        while True:
            message = ws_recv(ws, timeout=30)
            seen.append(message)
            if message["type"] != "state":
                continue
            if message["outcome"]:
                break
            if message["legal"]:
                choice = chooser.choice(message["legal"])["action"]
                ws.send(json.dumps({"type": "action", "version": message["version"], "action": choice}))
    return seen


def _hidden_at_each_step(record: dict[str, Any]) -> list[tuple[list[int], set[int]]]:
    """For each step: the Insurgent hand, and the cards public by then (discard piles)."""
    game = Game(get_rules("freedom"), record["seed"], record["options"])
    out = []
    for raw in [*record["actions"], None]:
        discards = set(game.state.discards["A"]) | set(game.state.discards["B"])
        out.append((list(game.state.hands["insurgent"]), discards))
        if raw is not None:
            game.apply(Action.from_json(raw))
    return out


def test_no_message_to_a_seat_holds_the_other_seats_hand(fresh_server: Server) -> None:
    with fresh_server.client() as c:
        made = create(c, imperial="human", insurgent="beginner", seed=SEED)
        messages = _play_imperial(fresh_server, made["tokens"]["imperial"])
        wait_finished(c, made["game_id"])
        record = c.get(f"/api/games/{made['game_id']}/export").json()
    per_step = _hidden_at_each_step(record)
    states = [m for m in messages if m["type"] == "state"]
    assert len(states) > 100 and states[-1]["outcome"]
    for message in messages:
        text = json.dumps(message)
        assert str(SEED) not in text
        assert not {"rng", "seed"} & _keys(message)
        if message["type"] != "state":
            continue
        hand, public = per_step[message["step"]]
        view = message["view"]
        assert view["hands"]["insurgent"] == {"count": len(hand)}
        assert all(set(deck) == {"count"} for deck in view["decks"].values())
        assert not message["legal"] or message["active_seat"] == "imperial"
        fresh = json.dumps({**message, "log": message["log"] if message["log_from"] else []})
        for number in set(hand) - public:
            c_ = card(number)
            assert f"{c_.number}{c_.deck} {c_.name}" not in fresh, (message["step"], number)


def test_the_seed_is_not_in_the_public_log() -> None:
    # rule 2 (setup) is public, but the seed would let a player compute deck order and future dice
    game = Game(get_rules("freedom"), SEED, {})
    assert all(str(SEED) not in line for line in game.log())
