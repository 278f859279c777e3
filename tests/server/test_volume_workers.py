"""Concurrency and crashes in volume: many simultaneous conflicting actions on each
database, across two server processes so that conflicts reach the database itself; and several
``kill -9`` rounds during concurrent bursts. No acknowledged action is lost, none is duplicated."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Server, act, backends, create, database_url, device_headers, state


@pytest.fixture(params=backends())
def two_processes(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """Two server processes on one database: simultaneous requests land on either copy of a game."""
    srv = Server(database_url(request.param, tmp_path), tmp_path, args=["--workers", "2"])
    srv.start()
    yield srv
    srv.stop()


def _stored_actions(c: httpx.Client, game_id: str, token: str) -> list[Any]:
    response = c.get(f"/api/games/{game_id}/export", params={"token": token}, headers=device_headers(token))
    assert response.status_code == 200, response.text
    actions: list[Any] = response.json()["actions"]
    return actions


def _all_at_once(url: str, jobs: list[tuple[int, str, int, Any]]) -> list[tuple[int, Any, int]]:
    """Send every (game index, token, version, action) at the same moment, each on its own connection."""
    barrier = threading.Barrier(len(jobs))
    clients = [httpx.Client(base_url=url, timeout=30) for _ in jobs]

    def send(n: int) -> tuple[int, Any, int]:
        index, token, version, action = jobs[n]
        barrier.wait()
        return index, action, act(clients[n], token, version, action).status_code

    try:
        with ThreadPoolExecutor(len(jobs)) as pool:
            return list(pool.map(send, range(len(jobs))))
    finally:
        for client in clients:
            client.close()


def test_fifty_simultaneous_conflicts_exactly_one_applies_each(two_processes: Server) -> None:
    rounds, games_per_round, rivals = 5, 10, 4
    with two_processes.client() as c:
        for _ in range(rounds):
            games = []
            for _ in range(games_per_round):
                made = create(c, imperial="human", insurgent="human")
                token = made["tokens"]["imperial"]
                st = state(c, token)
                games.append((made["game_id"], token, st["version"],
                              [item["action"] for item in st["legal"]][:rivals]))
            jobs = [(k, token, version, action) for k, (_, token, version, legal) in enumerate(games)
                    for action in legal]
            results = _all_at_once(two_processes.url, jobs)
            for k, (game_id, token, _, _) in enumerate(games):
                mine = [(action, status) for index, action, status in results if index == k]
                won = [action for action, status in mine if status == 200]
                assert len(won) == 1, mine
                assert all(status == 409 for _, status in mine if status != 200), mine
                assert _stored_actions(c, game_id, token) == won  # the winner, once, and nothing else


def test_kill_during_concurrent_bursts_loses_and_duplicates_nothing(fresh_server: Server) -> None:
    games = 6
    with fresh_server.client() as c:
        made = [create(c, imperial="human", insurgent="human") for _ in range(games)]
    acked: dict[str, list[tuple[int, Any]]] = {m["game_id"]: [] for m in made}
    for _ in range(3):
        stop = threading.Event()

        def play(m: dict[str, Any], stop: threading.Event = stop) -> None:
            tokens = list(m["tokens"].values())
            with httpx.Client(base_url=fresh_server.url, timeout=10) as own:
                while not stop.is_set():
                    try:
                        for token in tokens:
                            st = state(own, token)
                            if st["legal"]:
                                action = st["legal"][len(st["legal"]) // 2]["action"]
                                response = act(own, token, st["version"], action)
                                if response.status_code == 200:
                                    acked[m["game_id"]].append((response.json()["version"], action))
                    except (httpx.HTTPError, AssertionError):
                        return  # the server is gone mid-request: that action was not acknowledged

        threads = [threading.Thread(target=play, args=(m,)) for m in made]
        for t in threads:
            t.start()
        time.sleep(1.5)
        fresh_server.kill()
        stop.set()
        for t in threads:
            t.join(30)
        fresh_server.start()
    with fresh_server.client() as c:
        total = 0
        for m in made:
            # the seat whose turn it is sees every action (the other, its turn once committed)
            stored = max((_stored_actions(c, m["game_id"], t) for t in m["tokens"].values()), key=len)
            versions = [v for v, _ in acked[m["game_id"]]]
            assert len(versions) == len(set(versions))  # no version acknowledged twice
            for version, action in acked[m["game_id"]]:
                assert stored[version - 1] == action  # every acknowledged action is there, in its place
            assert max(state(c, t)["step"] for t in m["tokens"].values()) == len(stored)
            total += len(versions)
        assert total > 20  # the bursts did act
