"""Post-game analyses and hints are computed in worker processes, never in the web process: an analysis
once per finished game, stored and served from the database (also after a restart), its progress shown
while it is worked out; starting analyses and computing hints are bounded per address and seat."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Server, act, backends, create, database_url, state, wait_finished

CHROMIUM = Path("/usr/bin/chromium")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parent_of(pid: int) -> int:
    """A process's parent id, from /proc."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def finished_game(client: httpx.Client, seed: int) -> str:
    """A game between two random bots, played to its end; its id."""
    gid: str = create(client, imperial="beginner", insurgent="beginner", seed=seed)["game_id"]
    wait_finished(client, gid, timeout=120)
    return gid


def until_done(client: httpx.Client, gid: str, seen: list[float], timeout: float = 600,
               path: str | None = None) -> dict[str, Any]:
    """Ask for a game's analysis (at ``path``: the analysis URL with a query) until it is ready, noting the
    progress reported meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(path or f"/api/games/{gid}/analysis")
        if answer.status_code == 200:
            data: dict[str, Any] = answer.json()
            return data
        assert answer.status_code == 202, answer.text
        body = answer.json()
        assert body["status"] == "in_progress" and 0 <= body["progress"] <= 1
        seen.append(body["progress"])
        time.sleep(0.3)
    raise AssertionError("the analysis was not ready in time")


def computed_lines(log: str, gid: str) -> list[tuple[int, float]]:
    """(process id, CPU-seconds) of each time the server says it computed ``gid``'s analysis."""
    return [(int(pid), float(cpu)) for pid, cpu in
            re.findall(rf"analysis of game {gid} computed by process (\d+) in ([\d.]+) CPU-s", log)]


@pytest.mark.parametrize("backend", backends())
def test_an_analysis_is_computed_once_by_a_worker_and_then_served_from_storage(backend: str,
                                                                                tmp_path: Path) -> None:
    srv = Server(database_url(backend, tmp_path), tmp_path)
    srv.start()
    try:
        assert srv.proc is not None
        web = srv.proc.pid
        with srv.client() as client:
            gid = finished_game(client, seed=5)
            before = cpu_seconds(web)
            first = client.get(f"/api/games/{gid}/analysis")
            assert first.status_code == 202, first.text  # never computed while the request waits
            assert first.json()["status"] == "in_progress"
            seen: list[float] = []
            data = until_done(client, gid, seen)
            web_cpu = cpu_seconds(web) - before
            assert len(data["turning_points"]) == 3 and data["status"] == "done"
            # progress was reported before the end (it may read 1 in the moment between the last turn and storing)
            assert seen and min(seen) < 1
            [(pid, worker_cpu)] = computed_lines(srv.log(), gid)
            assert pid != web and parent_of(pid) == web  # a worker process of the server computed it
            assert web_cpu < 0.25 * worker_cpu, (web_cpu, worker_cpu)  # and the web process barely moved
            again = client.get(f"/api/games/{gid}/analysis")
            assert again.status_code == 200 and again.json() == data
        srv.stop()
        srv.start()
        with srv.client() as client:
            stored = client.get(f"/api/games/{gid}/analysis")
            assert stored.status_code == 200 and stored.json() == data
        assert len(computed_lines(srv.log(), gid)) == 1  # worked out once, whatever was asked since
    finally:
        srv.stop()


def from_address(srv: Server, address: str) -> httpx.Client:
    """A client whose requests come from another loopback address (a per-address limit sees another client)."""
    return httpx.Client(base_url=srv.url, timeout=20, transport=httpx.HTTPTransport(local_address=address))


def test_starting_analyses_is_limited_per_address_and_by_the_queue(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path,
                 env={"MUSTER_ANALYSIS_PER_ADDRESS": "1", "MUSTER_ANALYSIS_QUEUE": "1"})
    srv.start()
    try:
        with srv.client() as client, from_address(srv, "127.0.0.2") as second, \
                from_address(srv, "127.0.0.3") as third:
            a, b, c = (finished_game(client, seed) for seed in (11, 12, 13))
            assert client.get(f"/api/games/{a}/analysis").status_code == 202
            refused = client.get(f"/api/games/{b}/analysis")  # this address has one under way already
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
            assert "retry-after" in refused.headers
            assert client.get(f"/api/games/{a}/analysis").status_code == 202  # following it is free
            assert second.get(f"/api/games/{b}/analysis").status_code == 202  # queued behind the first
            full = third.get(f"/api/games/{c}/analysis")  # one running, one waiting: the queue is full
            assert full.status_code == 503 and full.json()["code"] == "busy"
            seen: list[float] = []
            until_done(client, a, seen)
            until_done(second, b, seen)
        assert len(computed_lines(srv.log(), a)) == len(computed_lines(srv.log(), b)) == 1
        assert computed_lines(srv.log(), c) == []
    finally:
        srv.stop()


def hint_lines(log: str, gid: str) -> list[int]:
    """The process ids that computed hints of ``gid``, one per computation."""
    return [int(pid) for pid in re.findall(rf"hints for game {gid} \(\w+\) computed by process (\d+)", log)]


def test_hints_are_computed_by_a_worker_once_per_position_and_rate_limited_per_seat(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path,
                 env={"MUSTER_HINTS_SEAT_PER_MINUTE": "2", "MUSTER_HINTS_ADDRESS_PER_MINUTE": "0"})
    srv.start()
    try:
        assert srv.proc is not None
        with srv.client() as client:
            made = create(client, imperial="human", insurgent="human", hints="imperial")
            imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
            gid = made["game_id"]
            assert client.post(f"/api/seat/{ins}/hints/accept", json={}).status_code == 200
            start = state(client, imp)
            first = client.get(f"/api/seat/{imp}/hints")
            assert first.status_code == 200 and first.json()["hints"]
            assert client.get(f"/api/seat/{imp}/hints").json() == first.json()  # the same position: cached
            [pid] = hint_lines(srv.log(), gid)
            assert pid != srv.proc.pid and parent_of(pid) == srv.proc.pid
            assert client.get(f"/api/seat/{ins}/hints").json()["hints"] == []  # not its turn: nothing computed
            # the opening: Imperial advances units one by one, and each advance can be taken back
            first_move = start["legal"][0]["action"]
            assert act(client, imp, start["version"], first_move).status_code == 200
            after = state(client, imp)
            assert after["legal"] and after["can_undo"]
            moved = client.get(f"/api/seat/{imp}/hints")
            assert moved.status_code == 200  # a new position: computed (the seat's second of two a minute)
            assert len(hint_lines(srv.log(), gid)) == 2
            # an undo comes back to a known position: its hints are found again, and cost no allowance
            assert client.post(f"/api/seat/{imp}/undo", json={"version": after["version"]}).status_code == 200
            back = client.get(f"/api/seat/{imp}/hints")
            assert back.status_code == 200 and back.json()["hints"] == first.json()["hints"]
            again = state(client, imp)
            assert act(client, imp, again["version"], first_move).status_code == 200
            assert client.get(f"/api/seat/{imp}/hints").json()["hints"] == moved.json()["hints"]
            assert len(hint_lines(srv.log(), gid)) == 2
            now = state(client, imp)
            assert act(client, imp, now["version"], now["legal"][0]["action"]).status_code == 200
            refused = client.get(f"/api/seat/{imp}/hints")  # a third new position within the minute
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
            assert "retry-after" in refused.headers
        assert "Traceback" not in srv.log()
    finally:
        srv.stop()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_analysis_page_shows_progress_while_the_analysis_is_worked_out(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as client:
            gid = finished_game(client, seed=21)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            page: Any = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{srv.url}/analysis/{gid}")
            page.wait_for_function("() => document.querySelector('#progress')?.hidden === false", timeout=60000)
            assert re.search(r"\d+\s?% done", page.text_content("#summary") or "")
            page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=600000)
            assert page.locator("#progress").is_hidden()
            assert page.locator("#turning li.turning-point").count() == 3
            browser.close()
    finally:
        srv.stop()


def test_hint_and_turning_point_labels_arrive_in_polish_with_their_message(tmp_path: Path) -> None:
    """A worker sends each label with its message (JSON would lose it): a Polish reader's hints and turning
    points are rendered from it, and the message travels on beside the Polish words."""
    from muster.games.freedom.texts import names
    from muster.i18n import render

    english, polish = names("en"), names("pl")

    def polish_from_message(item: dict[str, Any]) -> None:
        message = item["message"]
        assert item["label"] == render(message, polish) != render(message, english), item

    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as client:
            made = create(client, imperial="human", insurgent="human", hints="imperial")
            imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
            assert client.post(f"/api/seat/{ins}/hints/accept", json={}).status_code == 200
            hints = client.get(f"/api/seat/{imp}/hints?lang=pl")
            assert hints.status_code == 200 and hints.json()["hints"]
            for hint in hints.json()["hints"]:
                polish_from_message(hint)
            gid = finished_game(client, seed=5)
            data = until_done(client, gid, [], path=f"/api/games/{gid}/analysis?lang=pl")
            assert data["turning_points"]
            for card in data["cards"]:
                polish_from_message(card)
            for tp in data["turning_points"]:
                polish_from_message(tp["strongest"])
                assert tp["played"] == data["cards"][tp["card"] - 1]["label"]
        assert "Traceback" not in srv.log()
    finally:
        srv.stop()
