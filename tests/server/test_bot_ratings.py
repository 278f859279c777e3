"""The bots' fixed ratings come from the lab's arena between each game's levels (committed in the game's data)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from muster.ai.levels import levels_for
from muster.core.registry import game_module
from muster.server.ratings import ANCHOR_RATING, ARENA_FILE, bot_ratings

from .helpers import Server, database_url


def test_every_game_has_an_arena_between_its_levels_and_the_ratings_follow_it() -> None:
    for game in ("freedom", "hellenes"):
        arena = json.loads((game_module(game).data_dir / ARENA_FILE).read_text())
        elo = {r["bot"]: r["elo"] for r in arena["ratings"]}
        specs = {found.id: found.spec_for(game) for found in levels_for(game)}
        assert set(specs.values()) <= set(elo), f"{game}: the arena did not play every level's spec"
        assert arena["game"] == game and all(r["games"] >= 20 for r in arena["ratings"])
        ratings = bot_ratings(game)
        assert ratings["standard"] == ANCHOR_RATING
        for level_id, spec in specs.items():
            assert ratings[level_id] == round(ANCHOR_RATING + elo[spec] - elo[specs["standard"]])
        # the levels are ordered as the arena found them: each stronger than the one before
        assert ratings["beginner"] < ratings["standard"] < ratings["strongest"]


def test_a_profile_shows_each_games_bots_with_their_arena_ratings(tmp_path: Path) -> None:
    server = Server(database_url("sqlite", tmp_path), tmp_path, env={"MUSTER_SIGNUPS_PER_WINDOW": "0"})
    server.start()
    try:
        with server.client() as c:
            name = "p" + secrets.token_hex(5)
            answer = c.post("/api/account/signup", json={"name": name, "password": "pw-" + secrets.token_hex(8)})
            assert answer.status_code == 201, answer.text
            bots = c.get(f"/api/profile/{name}").json()["bots"]
    finally:
        server.stop()
    shown = {(b["game"], b["level"]): b["rating"] for b in bots}
    assert shown == {(game, level): rating for game in ("freedom", "hellenes")
                     for level, rating in bot_ratings(game).items()}
    assert len(shown) == 6  # three levels of each game, no longer one fixed list for all games
