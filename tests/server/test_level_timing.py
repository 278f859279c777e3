"""The lobby says how long a bot level thinks from what this install measured (muster.ai.timing)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from muster.ai import timing

from .helpers import Server, database_url

WAIT_S = 900.0
"""The first measure on an install plays a few searched decisions per level in a child process at low priority:
seconds of CPU, but on a loaded machine many more of wall clock."""


def level_of(meta: dict, game: str, level_id: str) -> dict:
    game_meta = next(g for g in meta["games"] if g["name"] == game)
    return next(lv for lv in game_meta["levels"] if lv["id"] == level_id)


def test_a_fresh_install_measures_its_levels_and_the_lobby_says_how_long_they_think(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    server = Server(database_url("sqlite", tmp_path), tmp_path, env={"MUSTER_CACHE_DIR": str(cache),
                                                                    "MUSTER_TIMING_DECISIONS": "2"})
    server.start()
    try:
        with server.client() as c:
            # Until the measure is done the lobby promises no time at all.
            first = level_of(c.get("/api/meta").json(), "freedom", "strongest")
            assert first["description"] == "Looks ahead through the cards you might hold."
            deadline = time.monotonic() + WAIT_S
            while (think := level_of(c.get("/api/meta").json(), "freedom", "strongest")["think"]) is None:
                assert time.monotonic() < deadline, "the levels were never timed"
                time.sleep(1.0)
            assert re.fullmatch(r"On this server it thinks about \d+\.\d s over a move\.", think)
            polish = level_of(c.get("/api/meta?lang=pl").json(), "freedom", "strongest")["think"]
            assert re.fullmatch(r"Na tym serwerze zastanawia się nad ruchem około \d+,\d s\.", polish)
            # levels that answer at once are not timed
            assert level_of(c.get("/api/meta").json(), "freedom", "standard")["think"] is None
            assert level_of(c.get("/api/meta").json(), "hellenes", "strongest")["think"] is not None
    finally:
        server.stop()
    # the measure is kept for this install: the next server start reads it instead of measuring again
    kept = json.loads((cache / "level-timings.json").read_text())
    assert len(kept) == 1 and set(next(iter(kept.values()))) == {"freedom", "hellenes"}


def test_a_measure_kept_for_this_install_is_shown_at_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "level-timings.json").write_text(json.dumps({
        timing.fingerprint(): {"freedom": {"strongest": 0.64}, "hellenes": {"strongest": 0.08}},
        "another-install": {"freedom": {"strongest": 9.0}}}))
    server = Server(database_url("sqlite", tmp_path), tmp_path, env={"MUSTER_CACHE_DIR": str(cache)})
    server.start()
    try:
        with server.client() as c:
            deadline = time.monotonic() + 60
            while (think := level_of(c.get("/api/meta").json(), "freedom", "strongest")["think"]) is None:
                assert time.monotonic() < deadline
                time.sleep(0.2)
            assert think == "On this server it thinks about 0.6 s over a move."
            hellenes = level_of(c.get("/api/meta?lang=pl").json(), "hellenes", "strongest")["think"]
            assert hellenes == "Na tym serwerze zastanawia się nad ruchem około 0,1 s."
    finally:
        server.stop()
