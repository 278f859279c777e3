"""Live fan-out between the server processes of one deployment.

Each process holds its own in-memory copies of the games its clients use; the database is the
only truth (every write checks the game's version). After a commit, the process that made the
change publishes ``(game id, new version, kind, detail, bot's turn)``; the others bring their copy
up to date (apply the one action, or rebuild from the database when they missed something) and
push the new state to their own clients. Bots of a game run only in the process that *owns* the
game id (``int(id[:8], 16) % size == index``).

- :class:`Bus`: one process alone; nothing to tell, every game is ours.
- :class:`UnixBus`: the processes of one machine (``muster serve --workers N``), over Unix datagram
  sockets in a private directory: no extra service, works with SQLite.
- :class:`PostgresBus`: any number of processes on any number of machines sharing a PostgreSQL
  database, over ``LISTEN``/``NOTIFY``; the notification is sent inside the transaction of the
  change, so it is delivered exactly when (and only if) the change commits.
- :class:`LeasedBus`: independent nodes sharing PostgreSQL, where a game's bots run on the node holding
  the game's lease, and the other nodes adopt a dead node's games once its leases run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import orjson

log = logging.getLogger("muster.server.bus")

Handler = Callable[[str, int, str, Any, bool], Coroutine[Any, Any, None]]
CHANNEL = "muster_changes"


class Bus:
    """One server process alone: publishing is a no-op and every game is ours."""

    def __init__(self, index: int = 0, size: int = 1) -> None:
        if not 0 <= index < size:
            raise ValueError(f"process index {index} is not within 0..{size - 1}")
        self.index, self.size = index, size

    def owns(self, game_id: str) -> bool:
        """Whether this process runs the bots of ``game_id`` (games are shared out by id)."""
        if self.size == 1:
            return True
        try:
            return int(game_id[:8], 16) % self.size == self.index
        except ValueError:
            return self.index == 0

    def publish(self, game_id: str, version: int, kind: str, detail: Any, bot_turn: bool) -> None:
        """Tell the other processes that ``game_id`` is now at ``version`` (call after the commit)."""

    def in_transaction(self) -> bool:
        """Whether changes are published by the database writer, inside their own transaction."""
        return False

    def notification(self, game_id: str, version: int, kind: str, detail: Any, bot_turn: bool) -> tuple[str, str]:
        """The ``pg_notify`` arguments for one change (for buses publishing inside the transaction)."""
        raise NotImplementedError

    def announce(self, game_id: str, bot_turn: bool) -> None:
        """Tell the others about a new game (blocking: call it in a thread)."""
        self.tell(game_id, "new", bot_turn)

    def tell(self, game_id: str, kind: str, bot_turn: bool = False) -> None:
        """Tell the others about something of ``game_id`` that is no change of its actions (a new game,
        new player names), outside any change's transaction (blocking: call it in a thread)."""
        self.publish(game_id, 0, kind, None, bot_turn)

    async def start(self, handler: Handler) -> None:
        """Begin delivering other processes' changes to ``handler``."""

    def close(self) -> None:
        """Stop listening."""


def _encode(game_id: str, version: int, kind: str, detail: Any, bot_turn: bool, sender: str = "") -> bytes:
    return orjson.dumps([game_id, version, kind, detail, bot_turn, sender])


class UnixBus(Bus):
    """The server processes of one machine, each with a Unix datagram socket ``<index>.sock`` in ``directory``.

    A datagram the receiver cannot take (its buffer full, or it is restarting) is lost; the receiver
    then notices the gap at the next change of that game (or when a write of its own is refused as
    stale) and rebuilds its copy from the database, so nothing is ever applied wrongly.
    """

    def __init__(self, directory: Path, index: int, size: int) -> None:
        super().__init__(index, size)
        self.directory = directory
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = directory / f"{index}.sock"
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._sock.bind(str(path))
        self._sock.setblocking(False)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
        self._peers = [str(directory / f"{k}.sock") for k in range(size) if k != index]
        self.lost = 0

    def publish(self, game_id: str, version: int, kind: str, detail: Any, bot_turn: bool) -> None:
        """Send the change to every other process (never waits)."""
        data = _encode(game_id, version, kind, detail, bot_turn)
        for peer in self._peers:
            try:
                self._sock.sendto(data, peer)
            except OSError:  # full or restarting: it catches up from the database on its next use
                self.lost += 1

    async def start(self, handler: Handler) -> None:
        """Deliver incoming datagrams to ``handler``, in order, from the event loop."""
        loop = asyncio.get_running_loop()

        def readable() -> None:
            while True:
                try:
                    data = self._sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    return
                game_id, version, kind, detail, bot_turn, _ = orjson.loads(data)
                task = loop.create_task(handler(game_id, version, kind, detail, bot_turn))
                _TASKS.add(task)
                task.add_done_callback(_TASKS.discard)

        loop.add_reader(self._sock.fileno(), readable)

    def close(self) -> None:
        """Stop listening and remove our socket file."""
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self._sock.fileno())
        self._sock.close()
        with contextlib.suppress(OSError):
            (self.directory / f"{self.index}.sock").unlink()


class PostgresBus(Bus):
    """Processes anywhere sharing one PostgreSQL database: ``NOTIFY`` sent by the writer inside each
    change's transaction, ``LISTEN`` on a connection of our own in a background thread."""

    def __init__(self, url: str, index: int, size: int) -> None:
        super().__init__(index, size)
        self.url = url.replace("postgresql+psycopg://", "postgresql://")
        self.sender = uuid.uuid4().hex[:12]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def in_transaction(self) -> bool:
        """Changes are announced by the database writer (see :meth:`notification`)."""
        return True

    def notification(self, game_id: str, version: int, kind: str, detail: Any, bot_turn: bool) -> tuple[str, str]:
        """The ``pg_notify`` arguments for one change (payloads stay far below PostgreSQL's 8,000 bytes)."""
        return CHANNEL, _encode(game_id, version, kind, detail, bot_turn, self.sender).decode()

    def tell(self, game_id: str, kind: str, bot_turn: bool = False) -> None:
        """Notify outside any change's transaction (a new game, new names), on a short connection of its own."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", self.notification(game_id, 0, kind, None, bot_turn))

    async def start(self, handler: Handler) -> None:
        """Listen in a thread; hand each notification from another process to ``handler`` in the event loop."""
        loop = asyncio.get_running_loop()

        def deliver(note: list[Any]) -> None:
            game_id, version, kind, detail, bot_turn, _ = note
            task = loop.create_task(handler(game_id, version, kind, detail, bot_turn))
            _TASKS.add(task)
            task.add_done_callback(_TASKS.discard)

        def listen() -> None:
            import psycopg

            while not self._stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        while not self._stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                decoded = orjson.loads(note.payload)
                                # one change, or several packed by the writer (muster.server.store.pack_notes)
                                changes = decoded if decoded and isinstance(decoded[0], list) else [decoded]
                                for change in changes:
                                    if change[5] != self.sender:  # our own changes come back too: skip them
                                        loop.call_soon_threadsafe(deliver, change)
                except Exception:
                    if not self._stop.is_set():
                        log.exception("lost the PostgreSQL notification connection; reconnecting")
                        self._stop.wait(1)

        self._thread = threading.Thread(target=listen, name="muster-listen", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the listening thread."""
        self._stop.set()
        if self._thread:
            self._thread.join(5)


class LeasedBus(PostgresBus):
    """Independent server nodes (``muster serve --node NAME``) sharing one PostgreSQL database: changes travel
    as with :class:`PostgresBus`, and a game's bots run on the node holding the game's *lease*.

    A node takes the lease of each game it creates. Every ``period`` seconds it renews its leases for
    ``ttl`` seconds (a lease of a finished game is let go) and adopts *orphans*: unfinished games waiting
    for a bot whose lease has run out or was never taken, e.g. because the node that held it died. So when
    a node is killed, its games' bots move again on another node within ``ttl + period`` seconds, and
    players, reconnecting through the proxy, find their games served by the node still running (any node
    serves any game's players: the database is the truth, and ``NOTIFY`` keeps every copy current)."""

    def __init__(self, url: str, node: str, ttl: float = 6.0, period: float = 1.0) -> None:
        super().__init__(url, 0, 2)  # "more than one process": read your writes through the database
        if not 1 <= len(node) <= 64:
            raise ValueError("a node name is 1 to 64 characters")
        self.node, self.ttl, self.period = node, ttl, period
        self.held: set[str] = set()
        self._keeper: asyncio.Task[None] | None = None
        self._engine: Any = None

    def _db(self) -> Any:
        if self._engine is None:
            from muster.server.db import make_engine

            self._engine = make_engine(self.url)
        return self._engine

    def owns(self, game_id: str) -> bool:
        """Whether this node holds the lease of ``game_id`` (and so runs its bots)."""
        return game_id in self.held

    def acquire(self, game_id: str) -> bool:
        """Take the lease of ``game_id`` if nobody holds a live one (blocking); True if this node holds it."""
        from sqlalchemy import text

        with self._db().begin() as conn:
            got = conn.execute(text(
                "INSERT INTO game_leases (game_id, node, expires_at) "
                "VALUES (:g, :n, now() + make_interval(secs => :ttl)) "
                "ON CONFLICT (game_id) DO UPDATE SET node = :n, expires_at = now() + make_interval(secs => :ttl) "
                "WHERE game_leases.node = :n OR game_leases.expires_at < now() RETURNING game_id"),
                {"g": game_id, "n": self.node, "ttl": self.ttl}).first()
        if got is not None:
            self.held.add(game_id)
        return got is not None

    def renew(self) -> set[str]:
        """Extend this node's leases of unfinished games; forget the rest (blocking). Returns the games held."""
        from sqlalchemy import text

        with self._db().begin() as conn:
            rows = conn.execute(text(
                "UPDATE game_leases SET expires_at = now() + make_interval(secs => :ttl) WHERE node = :n "
                "AND game_id IN (SELECT id FROM games WHERE status = 'active') RETURNING game_id"),
                {"n": self.node, "ttl": self.ttl}).all()
            conn.execute(text("DELETE FROM game_leases WHERE node = :n AND expires_at < now()"), {"n": self.node})
        self.held = {r[0] for r in rows}
        return self.held

    def orphans(self) -> list[str]:
        """Unfinished games waiting for a bot whose lease is missing or has run out (blocking)."""
        from sqlalchemy import text

        with self._db().connect() as conn:
            rows = conn.execute(text(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.active_seat "
                "LEFT JOIN game_leases l ON l.game_id = g.id "
                "WHERE g.status = 'active' AND s.kind = 'bot' AND (l.game_id IS NULL OR l.expires_at < now()) "
                "LIMIT 200")).all()
        return [r[0] for r in rows]

    def announce(self, game_id: str, bot_turn: bool) -> None:
        """A new game made here: take its lease first, then tell the others."""
        self.acquire(game_id)
        super().announce(game_id, bot_turn)

    async def start(self, handler: Handler) -> None:
        """Listen for changes, and keep the leases: renew ours, adopt orphans (handed to ``handler`` as
        ``adopt`` notes, so the hub loads them and wakes their bots)."""
        await super().start(handler)

        async def keep() -> None:
            while not self._stop.is_set():
                try:
                    await asyncio.to_thread(self.renew)
                    for game_id in await asyncio.to_thread(self.orphans):
                        if await asyncio.to_thread(self.acquire, game_id):
                            log.info("node %s adopted game %s", self.node,  game_id,
                                     extra={"event": "adopted", "game_id": game_id, "node": self.node})
                            await handler(game_id, 0, "adopt", None, True)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not keep the game leases of node %s", self.node)
                await asyncio.sleep(self.period)

        self._keeper = asyncio.get_running_loop().create_task(keep())

    def close(self) -> None:
        """Stop keeping leases (they run out by themselves) and stop listening."""
        if self._keeper is not None:
            self._keeper.cancel()
        super().close()
        if self._engine is not None:
            self._engine.dispose()


_TASKS: set[asyncio.Task[None]] = set()


def bus_from_env(database_url: str) -> Bus:
    """The bus this process should use: ``MUSTER_WORKER_INDEX``/``MUSTER_WORKERS`` say which of how many
    processes it is; ``MUSTER_BUS`` is ``unix:<directory>`` (one machine) or ``postgres`` (any machines)."""
    from muster.server.settings import settings

    config = settings()
    if config.node:
        if not database_url.startswith("postgres"):
            raise ValueError("server nodes (MUSTER_NODE, muster serve --node) share a PostgreSQL database")
        return LeasedBus(database_url, config.node, ttl=config.lease_ttl_s)
    size = int(os.environ.get("MUSTER_WORKERS", "1"))
    index = int(os.environ.get("MUSTER_WORKER_INDEX", "0"))
    kind = os.environ.get("MUSTER_BUS", "")
    if size <= 1 and not kind:
        return Bus()
    if kind.startswith("unix:"):
        return UnixBus(Path(kind[5:]), index, size)
    if kind == "postgres" or (not kind and database_url.startswith("postgres")):
        return PostgresBus(database_url, index, size)
    raise ValueError("several server processes need MUSTER_BUS=unix:<directory> or MUSTER_BUS=postgres")
