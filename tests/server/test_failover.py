"""Two independent server nodes behind a real reverse proxy (Debian's nginx), sharing one PostgreSQL: one node is
killed mid-burst, and every game goes on through the other with no acknowledged action lost
(docs/hosting.md, "Nodes that fail over")."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from muster.server.db import make_engine

from .helpers import POSTGRES_URL, Server, free_port, fresh_postgres_database

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = [pytest.mark.skipif(not POSTGRES_URL, reason="needs PostgreSQL (scripts/postgres.sh)"),
              pytest.mark.skipif(not Path(NGINX).exists(), reason="needs nginx (apt-get install nginx)")]

NGINX_CONF = """
user root;
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream muster {{
    hash $arg_game consistent;   # every request naming a game goes to the same node while it lives
    server 127.0.0.1:{a} max_fails=1 fail_timeout=2s;
    server 127.0.0.1:{b} max_fails=1 fail_timeout=2s;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://muster;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
      proxy_next_upstream error timeout http_502 http_503;
    }}
  }}
}}
"""


class Proxy:
    """nginx in front of the two nodes."""

    def __init__(self, tmp: Path, a: int, b: int) -> None:
        self.port = free_port()
        self.tmp = tmp
        (tmp / "nginx.conf").write_text(NGINX_CONF.format(tmp=tmp, a=a, b=b, port=self.port))
        self.proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=(tmp / "nginx.out").open("wb"))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not start: {(tmp / 'nginx.out').read_text()}")

    @property
    def url(self) -> str:
        """The proxy's address."""
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop nginx."""
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Server, Server, Proxy, str]]:
    url = fresh_postgres_database()
    nodes = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        node = Server(url, tmp_path / name, bot_delay_ms=50, args=["--node", name],
                      env={"MUSTER_LEASE_TTL_S": "3"})
        node.start()
        nodes.append(node)
    proxy = Proxy(tmp_path, nodes[0].port, nodes[1].port)
    yield nodes[0], nodes[1], proxy, url
    proxy.stop()
    for node in nodes:
        node.stop()


def _owner(url: str, game_id: str) -> str | None:
    """The node holding a live lease of the game (an expired lease is nobody's: the next bot turn adopts it)."""
    engine = make_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text("SELECT node FROM game_leases WHERE game_id = :g AND expires_at > now()"),
                             {"g": game_id}).scalar()
    engine.dispose()
    return str(found) if found else None


def test_a_killed_node_loses_nothing_and_its_games_go_on_through_the_other(
        cluster: tuple[Server, Server, Proxy, str]) -> None:
    a, survivor, proxy, url = cluster
    games: list[dict[str, Any]] = []
    owners: dict[str, str | None] = {}
    for k in range(40):  # person against bot games, created through the proxy (so on either node)
        client = httpx.Client(base_url=proxy.url, timeout=30)
        made = client.post(f"/api/games?game=new{k}", json={"imperial": "human", "insurgent": "beginner",
                                                          "seed": k, "bot_delay_ms": 50})
        assert made.status_code == 201, made.text
        games.append({"client": client, "id": made.json()["game_id"], "token": made.json()["tokens"]["imperial"],
                      "acked": [], "after_kill": None})
        owners[games[-1]["id"]] = _owner(url, games[-1]["id"])
        per_node = [sum(1 for o in owners.values() if o == node) for node in ("a", "b")]
        if len(games) >= 8 and min(per_node) >= 2:
            break  # the proxy's hash spreads games unevenly: go on until both nodes hold a few
    assert set(owners.values()) == {"a", "b"}  # both nodes run games: the kill takes some away

    killed_at: list[float] = []
    stop = threading.Event()

    def play(game: dict[str, Any]) -> None:
        rng = random.Random(game["id"])
        client, token, gid = game["client"], game["token"], game["id"]
        while not stop.is_set():
            try:
                st = client.get(f"/api/seat/{token}?game={gid}")
                if st.status_code != 200:
                    time.sleep(0.2)
                    continue
                body = st.json()
                if body["outcome"]:
                    return
                if not body["legal"]:
                    time.sleep(0.05)
                    continue
                action = rng.choice(body["legal"])["action"]
                answer = client.post(f"/api/seat/{token}/action?game={gid}",
                                     json={"version": body["version"], "action": action})
                if answer.status_code == 200:
                    game["acked"].append((answer.json()["version"], action))
                    if killed_at and game["after_kill"] is None:
                        game["after_kill"] = time.monotonic() - killed_at[0]
            except httpx.HTTPError:
                time.sleep(0.2)  # the node went away mid-request: ask again, as the page does

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    time.sleep(4)  # the burst is under way on both nodes
    assert a.proc is not None
    killed_at.append(time.monotonic())
    a.kill()  # kill -9: no chance to finish anything
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(g["after_kill"] is None for g in games
                                              if not _finished(url, g["id"])):
        time.sleep(0.2)
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join(30)

    engine = make_engine(url)
    lost = 0
    with engine.connect() as conn:
        for game in games:
            stored = {int(step): json.loads(action) for step, action in conn.execute(
                text("SELECT step, action FROM actions WHERE game_id = :g"), {"g": game["id"]}).all()}
            for version, action in game["acked"]:
                # version v was reached by the action at step v - 1 (one action a version, no undo here)
                lost += stored.get(version - 1) != action
    engine.dispose()
    takeover = max(g["after_kill"] for g in games if g["after_kill"] is not None)
    print(f"failover: {sum(len(g['acked']) for g in games)} actions acknowledged, {lost} lost; "
          f"every game moved again within {takeover:.1f} s of the kill")
    assert lost == 0
    assert all(g["after_kill"] is not None or _finished(url, g["id"]) for g in games)
    assert all(len(g["acked"]) > 0 for g in games)
    # no game is held by the dead node any more: its leases ran out, and those its bots were due on moved
    time.sleep(4)  # longer than MUSTER_LEASE_TTL_S, so every lease the dead node took has run out
    for game in games:
        if not _finished(url, game["id"]):
            assert _owner(url, game["id"]) in (None, "b")
    for game in games:
        game["client"].close()
    assert httpx.get(survivor.url + "/readyz", timeout=10).status_code == 200


def _finished(url: str, game_id: str) -> bool:
    engine = make_engine(url)
    with engine.connect() as conn:
        status = conn.execute(text("SELECT status FROM games WHERE id = :g"), {"g": game_id}).scalar()
    engine.dispose()
    return status == "finished"
