"""Concurrency and crashes in volume: many simultaneous conflicting actions on each database, and
``kill -9`` during concurrent bursts, each checked against the database: no acknowledged action lost, none
applied twice."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from muster.server.db import normalise_url

from .helpers import Server, act, backends, create, database_url, state

TRIALS = 50
"""Simultaneous-conflict trials per database."""
SENDERS = 4
"""Requests racing in each trial."""
KILL_ROUNDS = 3
GAMES_IN_BURST = 6


def stored_actions(url: str, game_id: str) -> list[tuple[int, Any]]:
    """(step, action) of every stored action of a game, in step order, read straight from the database."""
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT step, action FROM actions WHERE game_id = :g ORDER BY step"),
                                {"g": game_id}).all()
    finally:
        engine.dispose()
    return [(int(step), json.loads(action)) for step, action in rows]


def test_simultaneous_conflicting_actions_exactly_one_applies_every_time(server: Server) -> None:
    """Each trial: SENDERS requests at the same version (different legal choices, and the seat not to act)
    released together; exactly one is acknowledged, and the database holds exactly the acknowledged ones."""
    with server.client() as c:
        made = create(c, imperial="human", insurgent="human")
    tokens = made["tokens"]
    acknowledged: list[Any] = []
    barrier = threading.Barrier(SENDERS + 1)
    plan: list[tuple[str, int, Any]] = [("", 0, None)] * SENDERS
    results: list[int] = [0] * SENDERS
    done = threading.Event()

    def sender(k: int) -> None:
        with server.client() as own:
            while True:
                barrier.wait()
                if done.is_set():
                    return
                token, version, action = plan[k]
                results[k] = act(own, token, version, action).status_code
                barrier.wait()

    threads = [threading.Thread(target=sender, args=(k,), daemon=True) for k in range(SENDERS)]
    for t in threads:
        t.start()
    chooser = random.Random(5)
    with server.client() as c:
        for trial in range(TRIALS):
            mover = "imperial" if state(c, tokens["imperial"])["legal"] else "insurgent"
            st = state(c, tokens[mover])
            other = tokens["insurgent" if mover == "imperial" else "imperial"]
            choices = [item["action"] for item in st["legal"]]
            for k in range(SENDERS):  # the last sender is the seat not to act, trying the same choice
                token = other if k == SENDERS - 1 else tokens[mover]
                plan[k] = (token, st["version"], chooser.choice(choices))
            barrier.wait()  # go
            barrier.wait()  # all answered
            assert sorted(results).count(200) == 1, (trial, results)
            assert all(code in (200, 409) for code in results), results
            winner = plan[results.index(200)]
            acknowledged.append(winner[2])
            after = state(c, tokens[mover])
            assert after["version"] == st["version"] + 1 and after["step"] == st["step"] + 1
            if after["outcome"]:
                break
    done.set()
    barrier.wait()
    assert [a for _, a in stored_actions(server.database_url, made["game_id"])] == acknowledged
    assert len(acknowledged) == TRIALS


@pytest.fixture(params=backends())
def crash_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own, on each database, to be killed and restarted."""
    srv = Server(database_url(request.param, tmp_path), tmp_path)
    srv.start()
    yield srv
    srv.stop()


def test_kill_9_during_concurrent_bursts_loses_no_acknowledged_action_and_applies_none_twice(
        crash_server: Server) -> None:
    srv = crash_server
    with srv.client() as c:
        games = [create(c, imperial="human", insurgent="human") for _ in range(GAMES_IN_BURST)]
    acked: dict[str, dict[int, Any]] = {g["game_id"]: {} for g in games}
    for round_ in range(KILL_ROUNDS):
        in_flight: dict[str, tuple[str, int, int, Any]] = {}
        stop = threading.Event()

        def player(made: dict[str, Any], seed: int, stop: threading.Event,
                   in_flight: dict[str, tuple[str, int, int, Any]]) -> None:
            chooser, gid = random.Random(seed), made["game_id"]
            with httpx.Client(base_url=srv.url, timeout=5) as own:
                while not stop.is_set():
                    try:
                        mover = "imperial" if state(own, made["tokens"]["imperial"])["legal"] else "insurgent"
                        st = state(own, made["tokens"][mover])
                        if st["outcome"]:
                            return
                        action = chooser.choice(st["legal"])["action"]
                        in_flight[gid] = (made["tokens"][mover], st["version"], st["step"], action)
                        response = act(own, made["tokens"][mover], st["version"], action)
                    except (httpx.HTTPError, AssertionError):
                        return  # the server died under us: this request's fate is unknown
                    if response.status_code == 200:
                        acked[gid][st["step"]] = action
                        del in_flight[gid]

        before = sum(len(a) for a in acked.values())
        threads = [threading.Thread(target=player, args=(g, 100 * round_ + k, stop, in_flight), daemon=True)
                   for k, g in enumerate(games)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while sum(len(a) for a in acked.values()) - before < 2 * GAMES_IN_BURST:  # the burst is under way
            assert time.monotonic() < deadline, "the burst never got going"
            time.sleep(0.05)
        time.sleep(0.2 * round_)
        srv.kill()  # SIGKILL in the middle of the burst
        stop.set()
        for t in threads:
            t.join(10)
        srv.start()
        with srv.client() as c:
            for made in games:
                gid = made["game_id"]
                rows = stored_actions(srv.database_url, gid)
                steps = [step for step, _ in rows]
                assert steps == list(range(len(rows))), "a gap or a step stored twice"
                stored = dict(rows)
                for step, action in acked[gid].items():  # nothing acknowledged is lost
                    assert stored.get(step) == action, (round_, gid, step)
                unknown = 1 if gid in in_flight else 0  # at most the one request whose answer the kill ate
                assert len(acked[gid]) <= len(rows) <= len(acked[gid]) + unknown
                if gid in in_flight:  # its client retries at the old version: applied at most once
                    token, version, step, action = in_flight[gid]
                    retry = act(c, token, version, action)
                    if step in stored:
                        assert retry.status_code == 409
                    else:
                        assert retry.status_code == 200, retry.text
                    for s2, a2 in stored_actions(srv.database_url, gid):
                        acked[gid][s2] = a2
                # the seat whose turn it is sees every action (the other, its turn once committed)
                step = max(state(c, t)["step"] for t in made["tokens"].values())
                assert step == len(stored_actions(srv.database_url, gid))
        print(f"kill round {round_}: {sum(len(a) for a in acked.values()) - before} acknowledged, "
              f"{len(in_flight)} in flight at the kill")
        assert sum(len(a) for a in acked.values()) - before >= GAMES_IN_BURST  # a real burst was under way
