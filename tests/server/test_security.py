"""The attacks of issue 13 (docs/security.md), each tried against a real server process."""

from __future__ import annotations

import json
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from muster.core import rng
from muster.server.db import normalise_url

from .helpers import Server, create, state, ws_connect, ws_recv


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
        one = create(c, imperial="human", insurgent="random", seed=7)
        two = create(c, imperial="human", insurgent="random", seed=7)
        same = [state(c, made["tokens"]["imperial"])["view"]["hands"]["imperial"] for made in (one, two)]
    assert same[0] == same[1]  # a seeded game against a bot is reproducible, as the creator asked
    assert stored_seed(server, one["game_id"]) == (7, None)
