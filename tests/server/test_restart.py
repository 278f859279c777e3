"""Games survive the server being killed (SIGKILL) mid-game: every acknowledged action was stored."""

from __future__ import annotations

import time

from .helpers import Server, act, create, state


def test_sigkill_mid_game_loses_nothing(fresh_server: Server) -> None:
    with fresh_server.client() as c:
        made = create(c, imperial="human", insurgent="human")
        imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
        for k in range(12):  # take turns: whichever seat is to act takes a legal choice
            token = imp if state(c, imp)["legal"] else ins
            st = state(c, token)
            assert act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"]).status_code == 200
        before = state(c, imp)
    fresh_server.kill()
    fresh_server.start()
    with fresh_server.client() as c:
        after = state(c, imp)
        assert (after["version"], after["step"], after["view"], after["log"]) == (
            before["version"], before["step"], before["view"], before["log"])
        token = imp if after["legal"] else ins
        response = act(c, token, after["version"], state(c, token)["legal"][0]["action"])
        assert response.status_code == 200, response.text
        assert state(c, imp)["step"] == before["step"] + 1


def test_a_waiting_bot_resumes_after_a_restart(fresh_server: Server) -> None:
    with fresh_server.client() as c:
        made = create(c, imperial="beginner", insurgent="human", seed=4, bot_delay_ms=1000)
        token = made["tokens"]["insurgent"]
        assert state(c, token)["step"] == 0
    fresh_server.kill()  # the bot had not moved yet
    fresh_server.start()
    with fresh_server.client() as c:
        deadline = time.monotonic() + 30
        while state(c, token)["step"] == 0:  # the bot's first move after the restart
            assert time.monotonic() < deadline, "the bot did not resume"
            time.sleep(0.05)
        assert c.get(f"/api/games/{made['game_id']}/status").json()["players"]["imperial"] == "random"
