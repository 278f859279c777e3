"""What a host relies on (docs/hosting.md): health and readiness, Prometheus metrics, JSON logs without secrets,
and backup → restore → continue. Each test runs a real ``muster serve``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from .helpers import POSTGRES_URL, Server, act, backends, create, database_url, state, wait_finished, wait_for_turn

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "scrape-me-please"


def _metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a Prometheus text exposition (0 if absent)."""
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


def _scrape(client: httpx.Client) -> str:
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    return answer.text


def _play(client: httpx.Client, token: str, moves: int) -> int:
    """Make ``moves`` actions for a seat against a bot (waiting for its turns); returns how many were made."""
    made = 0
    while made < moves:
        st = wait_for_turn(client, token)
        if st["outcome"]:
            break
        answer = act(client, token, st["version"], st["legal"][0]["action"])
        assert answer.status_code == 200, answer.text
        made += 1
    return made


@pytest.mark.parametrize("workers", [1, 2])
def test_metrics_parse_and_count_a_known_burst_exactly(tmp_path: Path, workers: int) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={"MUSTER_METRICS_TOKEN": TOKEN},
                 args=["--workers", str(workers)] if workers > 1 else [])
    srv.start()
    try:
        with srv.client() as c:
            assert c.get("/metrics").status_code == 404  # without the token the path does not exist
            assert c.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
            before = _scrape(c)
            tokens = [create(c, imperial="human", insurgent="beginner", seed=s)["tokens"]["imperial"]
                      for s in range(3)]
            moves = sum(_play(c, token, 7) for token in tokens)
            stale = c.post(f"/api/seat/{tokens[0]}/action", json={"version": 0, "action": ["x", None]})
            assert stale.json()["code"] == "stale"
            after = _scrape(c)  # a scrape of any one process adds up every process's counters
        assert moves == 21
        human = "muster_actions_total"
        assert _metric(after, human, game="freedom", by="human") - _metric(before, human, game="freedom",
                                                                           by="human") == 21
        assert _metric(after, "muster_games_created_total", game="freedom") == 3
        assert _metric(after, "muster_rejected_total", reason="stale") == 1
        assert _metric(after, "muster_action_seconds_count") >= 21
        assert _metric(after, "muster_commit_seconds_count") >= 21
    finally:
        srv.stop()


@pytest.mark.skipif(not POSTGRES_URL, reason="needs PostgreSQL (scripts/postgres.sh)")
def test_readiness_reflects_a_stopped_database(tmp_path: Path) -> None:
    dir_file = tmp_path / "pgdir"
    url = subprocess.run(["bash", str(ROOT / "scripts/postgres.sh")], capture_output=True, text=True, check=True,
                         env={**os.environ, "MUSTER_PG_DIR_FILE": str(dir_file)}).stdout.strip()
    srv = Server(url, tmp_path)
    srv.start()
    try:
        with srv.client() as c:
            ready = c.get("/readyz")
            assert ready.status_code == 200 and ready.json()["checks"]["database"]["ok"]
            assert ready.json()["checks"]["schema"]["detail"] == "at the newest migration"
            subprocess.run(["bash", str(ROOT / "scripts/postgres.sh"), "stop", dir_file.read_text().strip()],
                           check=True)
            down = c.get("/readyz")
            assert down.status_code == 503 and not down.json()["checks"]["database"]["ok"]
            assert c.get("/health").status_code == 503
            assert c.get("/healthz").status_code == 200  # the process itself is alive: no restart needed
    finally:
        srv.stop()
        if dir_file.exists():
            subprocess.run(["bash", str(ROOT / "scripts/postgres.sh"), "stop", dir_file.read_text().strip()])


def test_logs_are_json_lines_with_request_ids_and_no_secret(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as c, srv.client() as guest:
            made = create(c, imperial="human", insurgent="beginner", seed=3)
            token = made["tokens"]["imperial"]
            people = c.post("/api/games", json={"imperial": "human", "insurgent": "human"}).json()
            code = people["invitations"]["insurgent"]
            theirs = guest.post(f"/api/invitations/{code}/claim", json={}).json()["token"]
            state(c, token)
            _play(c, token, 2)
            c.get(f"/api/games/{made['game_id']}/replay?token={token}&step=1")
            c.get(f"/play/{token}")
            answer = c.get("/api/meta", headers={"X-Request-ID": "trace-42"})
            assert answer.headers["x-request-id"] == "trace-42"
            secrets = [token, code, theirs, *people["tokens"].values(), c.cookies["muster_device"],
                       guest.cookies["muster_device"]]
        srv.stop()
        lines = [line for line in srv.log().splitlines() if line.startswith("{")]
        events = [json.loads(line) for line in lines]
        assert {"request", "action"} <= {e["event"] for e in events}
        assert any(e.get("request_id") == "trace-42" for e in events)
        assert all({"ts", "level", "logger", "event"} <= set(e) for e in events)
        text = srv.log()
        for secret in secrets:
            assert secret not in text
            assert secret[:12] not in text
        assert re.search(r"/play/[A-Za-z0-9_-]{4}…", text)
    finally:
        srv.stop()


@pytest.mark.parametrize("backend", backends())
def test_backup_restore_and_continue_the_game(backend: str, tmp_path: Path) -> None:
    source = database_url(backend, tmp_path)
    srv = Server(source, tmp_path)
    srv.start()
    try:
        with srv.client() as c:
            made = create(c, imperial="human", insurgent="beginner", seed=8)
            token = made["tokens"]["imperial"]
            _play(c, token, 3)
            version = state(c, token)["version"]
            out = tmp_path / "muster.backup"
            done = subprocess.run([sys.executable, "-m", "muster.cli.main", "backup", str(out), "--database-url",
                                   source], capture_output=True, text=True)  # while the server runs
            assert done.returncode == 0, done.stderr
            _play(c, token, 1)  # a move after the backup: not in it
    finally:
        srv.stop()
    target = database_url(backend, tmp_path / "restored") if backend == "postgres" else \
        f"sqlite:///{tmp_path / 'restored.db'}"
    done = subprocess.run([sys.executable, "-m", "muster.cli.main", "restore", str(out), "--database-url", target],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "restored 1 games" in done.stdout
    again = subprocess.run([sys.executable, "-m", "muster.cli.main", "restore", str(out), "--database-url", target],
                           capture_output=True, text=True)
    assert again.returncode == 2 and "--force" in again.stderr  # never over a database holding games
    restored = Server(target, tmp_path)
    restored.start()
    try:
        with restored.client() as c:
            st = state(c, token)
            assert st["version"] == version  # the position at the backup
            assert _play(c, token, 2) == 2  # and the game goes on
    finally:
        restored.stop()



def test_prune_archives_old_finished_and_abandoned_games_then_deletes_them(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import text

    from muster.core import Game, get_rules
    from muster.server.backup import prune
    from muster.server.db import make_engine

    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as c:
            finished = create(c, imperial="beginner", insurgent="beginner", seed=4)["game_id"]
            wait_finished(c, finished)
            abandoned = create(c, imperial="human", insurgent="beginner", seed=5)
            recent = create(c, imperial="human", insurgent="beginner", seed=6)["game_id"]
    finally:
        srv.stop()
    engine = make_engine(srv.database_url)
    old = datetime.now(UTC) - timedelta(days=400)
    with engine.begin() as conn:
        conn.execute(text("UPDATE games SET updated_at = :t WHERE id IN (:a, :b)"),
                     {"t": old, "a": finished, "b": abandoned["game_id"]})
    engine.dispose()
    counted = prune(srv.database_url, tmp_path / "archive", 365, 60, dry_run=True)
    assert (counted.finished, counted.abandoned, counted.archived) == (1, 1, [])
    done = prune(srv.database_url, tmp_path / "archive", 365, 60)
    assert (done.finished, done.abandoned) == (1, 1)
    archived = {p.stem: json.loads(p.read_text()) for p in done.archived}
    assert set(archived) == {finished, abandoned["game_id"]}
    replayed = Game.loads(get_rules("freedom"), json.dumps(
        {k: v for k, v in archived[finished].items() if k not in ("game_id", "status", "players", "outcome")}))
    assert replayed.outcome is not None  # the archived save file is the whole finished game
    engine = make_engine(srv.database_url)
    with engine.connect() as conn:
        left = {r[0] for r in conn.execute(text("SELECT id FROM games"))}
        orphans = conn.execute(text("SELECT count(*) FROM seats WHERE game_id IN (:a, :b)"),
                               {"a": finished, "b": abandoned["game_id"]}).scalar()
    engine.dispose()
    assert left == {recent} and orphans == 0
