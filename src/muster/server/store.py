"""Durable storage of games: every function runs one short transaction and commits before returning.

The functions are synchronous (SQLAlchemy core/ORM); the web app calls them in worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from muster.server import metrics
from muster.server.db import (
    AccountSeatTokenRow,
    ActionRow,
    GameEndingRow,
    GameRow,
    SeatRow,
    sqlite_pragmas,
    utcnow,
)
from muster.server.observe import COMMIT_SECONDS

_SUMMARISE = (
    update(GameRow)
    .where(GameRow.id == bindparam("b_id"), GameRow.version == bindparam("b_expected"))
    .values(version=bindparam("b_version"), steps=bindparam("b_steps"), active_seat=bindparam("b_active"),
            status=bindparam("b_status"), winner=bindparam("b_winner"), result=bindparam("b_result"),
            updated_at=bindparam("b_updated"))
)
_INSERT_ACTION = insert(ActionRow)


class StaleWriteError(Exception):
    """The game changed in the database since the caller read it (another write won the race)."""


@dataclass(frozen=True)
class SeatInfo:
    """Who plays a seat: ``kind`` "human" or "bot" (with its spec); for a person, who holds the seat
    (None while its invitation waits, or for a seat stored before holders existed that nobody opened since)
    and whether it was taken (False while its invitation waits)."""

    seat: str
    kind: str
    bot_spec: str | None
    holder: str | None = None
    taken: bool = True


@dataclass(frozen=True)
class NewSeat:
    """A seat of a game being created: who plays it, and for a person either its token's hash (the
    creator's seat) or its invitation's hash (a seat waiting for the person invited)."""

    info: SeatInfo
    token_hash: str | None = None
    invite_hash: str | None = None


@dataclass(frozen=True)
class Invitation:
    """What an invitation leads to: the game and seat, and whether (and by whom) it was claimed."""

    game_id: str
    game: str
    seat: str
    claimed: bool
    holder: str | None
    status: str


class ClaimRefusedError(Exception):
    """An invitation that cannot be claimed: ``reason`` "unknown" or "taken" (by someone else)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Summary:
    """The listing fields of a game after a change."""

    version: int
    steps: int
    active_seat: str | None
    status: str
    winner: str | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class StoredGame:
    """Everything needed to rebuild a game by replay."""

    id: str
    game: str
    seed: int
    options: dict[str, str]
    rules_version: str
    version: int
    bot_delay_ms: int
    seats: dict[str, SeatInfo]
    actions: list[Any]
    resigned: str | None = None
    """The seat that resigned or ran out of time, ending the game (see :meth:`muster.core.Game.resign`)."""
    ending_reason: str = "resigned"
    """Why that seat lost: ``"resigned"`` or ``"timeout"``."""


class Store:
    """The games database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new ORM session."""
        return self._session()

    def create_game(self, game_id: str, game: str, rules_version: str, seed: int, options: dict[str, str],
                    bot_delay_ms: int, seats: list[NewSeat], summary: Summary) -> None:
        """Insert a new game with its seats (a person's with the hash of its token or of its invitation)."""
        with self.session() as s, s.begin():
            small = seed < 2**63
            s.add(GameRow(id=game_id, game=game, rules_version=rules_version, seed=seed if small else 0,
                          secret_seed=None if small else str(seed), options=json.dumps(options),
                          version=summary.version,
                          steps=summary.steps, active_seat=summary.active_seat, status=summary.status,
                          winner=summary.winner, result=None, bot_delay_ms=bot_delay_ms))
            s.flush()  # the game row must exist before the seats refer to it (PostgreSQL checks at once)
            for new in seats:
                info = new.info
                s.add(SeatRow(game_id=game_id, seat=info.seat, kind=info.kind, bot_spec=info.bot_spec,
                              token_hash=new.token_hash, invite_hash=new.invite_hash, holder=info.holder))

    def load(self, game_id: str) -> StoredGame | None:
        """A game with its seats and action list, or None if there is no such game."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = self._seats(s, game_id)
            actions = [json.loads(a) for a in s.scalars(
                select(ActionRow.action).where(ActionRow.game_id == game_id).order_by(ActionRow.step))]
            seed = int(row.secret_seed) if row.secret_seed else row.seed
            ending = s.execute(select(GameEndingRow.seat, GameEndingRow.reason)
                               .where(GameEndingRow.game_id == game_id)).first()
            return StoredGame(row.id, row.game, seed, json.loads(row.options), row.rules_version, row.version,
                              row.bot_delay_ms, seats, actions, ending[0] if ending else None,
                              str(ending[1] or "resigned") if ending else "resigned")

    def version_of(self, game_id: str) -> int | None:
        """The stored version of a game (None if there is no such game)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(GameRow.version).where(GameRow.id == game_id)).first()
            return int(found[0]) if found else None

    @staticmethod
    def _seats(s: Session, game_id: str) -> dict[str, SeatInfo]:
        return {r.seat: SeatInfo(r.seat, r.kind, r.bot_spec, r.holder, r.kind != "human" or r.token_hash is not None)
                for r in s.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}

    def seats_of(self, game_id: str) -> dict[str, SeatInfo]:
        """Who plays each seat of a game now (after a claim: who holds it)."""
        with self.session() as s:
            return self._seats(s, game_id)

    def seat_for_token(self, token_hash: str) -> tuple[str, str, str | None] | None:
        """(game id, seat, holder) of the seat a token hash opens, or None. Besides the seat's own token, an
        account opens a seat it holds with the tokens it minted for its other devices (muster.server.accounts):
        such a token opens the seat only while that account still holds it."""
        with self.session() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.token_hash == token_hash)).first()
            if row is not None:
                return row.game_id, row.seat, row.holder
            minted = s.execute(select(SeatRow.game_id, SeatRow.seat, AccountSeatTokenRow.account_id, SeatRow.holder)
                               .join(SeatRow, (SeatRow.game_id == AccountSeatTokenRow.game_id)
                                     & (SeatRow.seat == AccountSeatTokenRow.seat))
                               .where(AccountSeatTokenRow.token_hash == token_hash)).first()
            if minted is None:
                return None
            game_id, seat, account_id, holder = minted
            # the holder is reported as the minting account's, so a seat it no longer holds refuses the token
            return game_id, seat, holder if holder == f"account:{account_id}" else f"minted-by:{account_id}"

    def bind_holder(self, token_hash: str, holder: str) -> bool:
        """Bind a seat stored before holders existed to the first holder that opens it; False if another
        holder was bound first (the update only touches a seat that has none)."""
        with self.session() as s, s.begin():
            done = s.execute(update(SeatRow).where(SeatRow.token_hash == token_hash, SeatRow.holder.is_(None))
                             .values(holder=holder))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def invitation(self, invite_hash: str) -> Invitation | None:
        """The seat an invitation leads to, or None if there is no such invitation."""
        with self.session() as s:
            found = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                              .where(SeatRow.invite_hash == invite_hash)).first()
            if found is None:
                return None
            seat, game = found
            return Invitation(game.id, game.game, seat.seat, seat.token_hash is not None, seat.holder, game.status)

    def claim(self, invite_hash: str, token_hash: str, holder: str) -> tuple[str, str]:
        """Claim the seat an invitation leads to for ``holder``, with a new token: (game id, seat).

        One conditional update decides a race: the seat is taken only while nobody holds it, or again by
        the holder that took it (whose earlier token is replaced). Raises :class:`ClaimRefusedError`."""
        with self.session() as s, s.begin():
            done = s.execute(update(SeatRow)
                             .where(SeatRow.invite_hash == invite_hash,
                                    (SeatRow.token_hash.is_(None)) | (SeatRow.holder == holder))
                             .values(token_hash=token_hash, holder=holder))
            row = s.scalars(select(SeatRow).where(SeatRow.invite_hash == invite_hash)).first()
            if row is None:
                raise ClaimRefusedError("unknown")
            if not done.rowcount:  # type: ignore[attr-defined]
                raise ClaimRefusedError("taken")
            return row.game_id, row.seat

    def _summarise(self, s: Session, game_id: str, expected_version: int, summary: Summary) -> None:
        done = s.execute(_SUMMARISE, {
            "b_id": game_id, "b_expected": expected_version, "b_version": summary.version, "b_steps": summary.steps,
            "b_active": summary.active_seat, "b_status": summary.status, "b_winner": summary.winner,
            "b_result": json.dumps(summary.result) if summary.result else None, "b_updated": utcnow(),
        })
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleWriteError(f"game {game_id} is no longer at version {expected_version}")

    def append_in(self, s: Session, game_id: str, expected_version: int, step: int, seat: str, action: Any,
                  summary: Summary) -> None:
        """Within a transaction: record one applied action; StaleWriteError if the game moved on."""
        self._summarise(s, game_id, expected_version, summary)
        try:  # prepared Core statements: the hot path skips ORM bookkeeping and statement building
            s.execute(_INSERT_ACTION, {"game_id": game_id, "step": step, "seat": seat, "action": json.dumps(action),
                                       "created_at": utcnow()})
        except IntegrityError as exc:
            raise StaleWriteError(f"step {step} of game {game_id} is already taken") from exc

    def truncate_in(self, s: Session, game_id: str, expected_version: int, keep: int, summary: Summary) -> None:
        """Within a transaction: undo, deleting the actions from step ``keep`` on."""
        self._summarise(s, game_id, expected_version, summary)
        s.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.step >= keep))

    def write(self, change: Callable[[Session], None]) -> None:
        """Run one change in its own transaction and commit it."""
        with self.session() as s, s.begin():
            change(s)

    def games_for_tokens(self, token_hashes: list[str], holder: str | None) -> list[tuple[str, dict[str, Any]]]:
        """For each token hash of a seat ``holder`` holds (or that nobody holds yet): (hash, listing of its
        game and seat). A token whose seat belongs to someone else lists nothing."""
        if not token_hashes:
            return []
        with self.session() as s:
            rows = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                             .where(SeatRow.token_hash.in_(token_hashes),
                                    SeatRow.holder.is_(None) | (SeatRow.holder == holder))).all()
            players: dict[str, dict[str, str]] = {}
            for r in s.scalars(select(SeatRow).where(SeatRow.game_id.in_({g.id for _, g in rows}))):
                players.setdefault(r.game_id, {})[r.seat] = r.bot_spec or "human"
            out = []
            for seat, game in rows:
                out.append((seat.token_hash or "", {
                    "game_id": game.id, "game": game.game, "seat": seat.seat, "players": players.get(game.id, {}),
                    "status": game.status, "active_seat": game.active_seat,
                    "winner": game.winner, "steps": game.steps, "options": json.loads(game.options),
                    "rules_version": game.rules_version,
                    "updated_at": game.updated_at.isoformat() if game.updated_at else None,
                }))
            return out

    def active_among(self, game_ids: list[str]) -> set[str]:
        """Those of ``game_ids`` that are still being played."""
        if not game_ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(select(GameRow.id).where(GameRow.id.in_(game_ids), GameRow.status == "active"))
            return {str(r[0]) for r in rows}

    def bot_games_waiting(self, rules_version: str) -> list[str]:
        """Ids of unfinished games, recorded by ``rules_version``, whose seat to act is played by a bot
        (to resume after a restart)."""
        with self.session() as s:
            rows = s.execute(select(GameRow.id).join(SeatRow, SeatRow.game_id == GameRow.id)
                             .where(GameRow.status == "active", SeatRow.seat == GameRow.active_seat,
                                    SeatRow.kind == "bot", GameRow.rules_version == rules_version)).all()
            return [r[0] for r in rows]


@dataclass(frozen=True)
class Write:
    """One change for the group writer: append an action (``step``, ``seat``, ``action``) or, with
    ``keep`` set, undo back to ``keep`` actions; both move the game from ``expected`` to ``summary``."""

    game_id: str
    expected: int
    summary: Summary
    step: int = 0
    seat: str = ""
    action: Any = None
    keep: int | None = None
    note: tuple[str, str] | None = None
    """``pg_notify`` channel and payload, sent in the same transaction (PostgreSQL fan-out)."""


Job = tuple[Write, "asyncio.Future[None]"]


class GroupWriter:
    """Group commit in plain SQL: one thread writes every change, committing whatever queued up together.

    Each change is acknowledged only after the transaction holding it committed (one fsync serves
    many games), so durability before acknowledgement holds at a far higher rate than one commit
    per action. The statements are plain, prepared SQL on the driver's own connection (the ORM cost
    more than the database itself). Each change checks the game's version and the step: a change
    that lost a race fails alone with :class:`StaleWriteError`; if a batch fails otherwise, its
    changes are retried one by one, so one bad change cannot sink the others.

    ``window_ms``: after the first change of a batch, wait this long for more to join it (0 by
    default: under load, changes queue up while the previous commit runs anyway).
    """

    def __init__(self, store: Store, max_batch: int = 512, window_ms: float = 0.0) -> None:
        self.store = store
        self.max_batch = max_batch
        self.window_ms = window_ms
        # SimpleQueue: its put and get are C, with no Python-level Condition to notify; the event loop hands
        # over at every turn under load, and queue.Queue's put cost it about 3% of its time
        self._queue: queue.SimpleQueue[list[Job] | None] = queue.SimpleQueue()
        self._pending: list[Job] = []
        dialect = store.engine.dialect
        self._sqlite = dialect.name == "sqlite"
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self._insert = (f"INSERT INTO actions (game_id, step, seat, action, created_at) VALUES "
                        f"({mark}, {mark}, {mark}, {mark}, {mark}) ON CONFLICT DO NOTHING")
        self._update = (f"UPDATE games SET version = {mark}, steps = {mark}, active_seat = {mark}, status = {mark}, "
                        f"winner = {mark}, result = {mark}, updated_at = {mark} WHERE id = {mark} AND version = {mark}")
        self._unstep = f"DELETE FROM actions WHERE game_id = {mark} AND step = {mark}"
        self._truncate = f"DELETE FROM actions WHERE game_id = {mark} AND step >= {mark}"
        self._notify = f"SELECT pg_notify({mark}, {mark})"
        self._conn: Any = None
        self._lock_file: Any = None
        self._raw: Any = None
        self._checkpointer: threading.Thread | None = None
        self._stopped = threading.Event()
        self._last_commit = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="muster-db-writer", daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> asyncio.Future[None]:
        """Queue a change (from the event loop); the future completes once it is committed (or fails
        with its error).

        The changes submitted during one turn of the event loop are handed to the writer thread
        together at its end: one wake-up of the thread per turn, not one per change (each wake-up
        makes the two threads trade the interpreter lock)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._hand_over)
        self._pending.append((write, future))
        return future

    def _hand_over(self) -> None:
        pending, self._pending = self._pending, []
        if pending:
            self._queue.put(pending)

    def close(self) -> None:
        """Finish the queued changes and stop the thread."""
        self._hand_over()
        self._queue.put(None)
        self._thread.join(30)
        self._stopped.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)

    def _connect(self) -> Any:
        if self._sqlite:
            import sqlite3

            path = self.store.engine.url.database or ":memory:"
            if path != ":memory:" and self._lock_file is None:
                # Writers of several server processes take turns through this lock: a waiting writer
                # sleeps in the kernel and wakes the moment the other commits, where SQLite's own busy
                # handler would poll with growing sleeps.
                self._lock_file = open(path + "-writer.lock", "a+b")  # noqa: SIM115 (held for the writer's life)
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
            for pragma in sqlite_pragmas():
                conn.execute(pragma)
            if path != ":memory:" and self._checkpointer is None:
                # Checkpoints (copying the log into the database, with their own fsyncs) run beside the
                # commits, not inside one: no acknowledgement waits for them.
                conn.execute("PRAGMA wal_autocheckpoint=0")
                self._checkpointer = threading.Thread(target=self._checkpoints, args=(path,),
                                                      name="muster-db-checkpoint", daemon=True)
                self._checkpointer.start()
            return conn
        # Held for the writer's whole life: the pool must not hand this connection to anyone else.
        self._raw = self.store.engine.raw_connection()
        return self._raw.driver_connection

    def _checkpoints(self, path: str) -> None:
        import sqlite3

        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        try:
            while not self._stopped.wait(1.0):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never blocks the writer
        finally:
            conn.close()

    def _run(self) -> None:
        waiting: list[Job] = []
        stop = False
        while True:
            if not waiting:
                first = self._queue.get()
                if first is None:
                    return
                waiting = first
                if self.window_ms:
                    time.sleep(self.window_ms / 1000)
            while not stop and len(waiting) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                waiting += item
            batch, waiting = waiting[:self.max_batch], waiting[self.max_batch:]
            self._commit(batch)
            if stop and not waiting:
                if self._raw is not None:
                    self._raw.close()
                elif self._conn is not None:
                    self._conn.close()
                if self._lock_file is not None:
                    self._lock_file.close()
                return

    def _timestamp(self) -> Any:
        now = utcnow()
        # SQLAlchemy's SQLite DateTime stores this text form; PostgreSQL takes the datetime itself
        return now.strftime("%Y-%m-%d %H:%M:%S.%f") if self._sqlite else now

    def _apply(self, cur: Any, write: Write, now: Any) -> Exception | None:
        """Run one change's statements; a lost race comes back as a StaleWriteError (nothing of it applied)."""
        s = write.summary
        result = json.dumps(s.result) if s.result else None
        if write.keep is None:
            cur.execute(self._insert, (write.game_id, write.step, write.seat, json.dumps(write.action), now))
            if cur.rowcount != 1:
                return StaleWriteError(f"step {write.step} of game {write.game_id} is already taken")
        cur.execute(self._update, (s.version, s.steps, s.active_seat, s.status, s.winner, result, now,
                                   write.game_id, write.expected))
        if cur.rowcount != 1:
            if write.keep is None:
                cur.execute(self._unstep, (write.game_id, write.step))
            return StaleWriteError(f"game {write.game_id} is no longer at version {write.expected}")
        if write.keep is not None:
            cur.execute(self._truncate, (write.game_id, write.keep))
        return None

    def _apply_all(self, cur: Any, writes: list[Write], now: Any) -> list[Exception | None] | None:
        """The common case in a few driver calls: every change is an appended action that wins its race.
        None if any did not (the caller then rolls back and goes one by one).

        Few calls matter: between two statements this thread must win the interpreter lock back from
        the busy event loop, so a statement per change would make every commit wait on it."""
        if any(write.keep is not None for write in writes):
            return None
        if self._sqlite:
            return self._apply_all_sqlite(cur, writes, now)
        cur.executemany(self._insert, [(w.game_id, w.step, w.seat, json.dumps(w.action), now) for w in writes])
        if cur.rowcount != len(writes):
            return None
        cur.executemany(self._update, [
            (w.summary.version, w.summary.steps, w.summary.active_seat, w.summary.status, w.summary.winner,
             json.dumps(w.summary.result) if w.summary.result else None, now, w.game_id, w.expected)
            for w in writes])
        if cur.rowcount != len(writes):
            return None
        return [None] * len(writes)

    def _apply_all_sqlite(self, cur: Any, writes: list[Write], now: Any) -> list[Exception | None] | None:
        """:meth:`_apply_all` for SQLite in multi-row statements: Python's sqlite3 releases and retakes
        the interpreter lock around every row's step, even in ``executemany``, and each retake waits for
        the busy event loop to let go of it; one statement per chunk of rows waits once."""
        if len({w.game_id for w in writes}) != len(writes):
            return None  # a game twice in one batch: the one-by-one path checks each version in turn
        inserted = updated = 0
        for chunk in _chunks(writes):
            rows = len(chunk)
            cur.execute(_sqlite_insert(rows), [x for w in chunk for x in (w.game_id, w.step, w.seat,
                                                                           json.dumps(w.action), now)])
            inserted += cur.rowcount
            cur.execute(_sqlite_update(rows), [now, *(x for w in chunk for x in (
                w.game_id, w.expected, w.summary.version, w.summary.steps, w.summary.active_seat, w.summary.status,
                w.summary.winner, json.dumps(w.summary.result) if w.summary.result else None))])
            updated += cur.rowcount
        if inserted != len(writes) or updated != len(writes):
            return None
        return [None] * len(writes)

    def _transaction(self, batch: list[Job]) -> list[Exception | None]:
        if self._conn is None:
            self._conn = self._connect()
        conn = self._conn
        now = self._timestamp()
        cur = conn.cursor()
        if self._lock_file is not None:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX)
        try:
            if self._sqlite:
                cur.execute("BEGIN IMMEDIATE")
            outcomes = self._apply_all(cur, [write for write, _ in batch], now)
            if outcomes is None:  # some change lost a race: start again, one change at a time
                cur.execute("ROLLBACK") if self._sqlite else conn.rollback()
                if self._sqlite:
                    cur.execute("BEGIN IMMEDIATE")
                outcomes = [self._apply(cur, write, now) for write, _ in batch]
            notes = [write.note for (write, _), failed in zip(batch, outcomes, strict=True)
                     if failed is None and write.note]
            if notes:  # delivered with the commit, in commit order
                cur.executemany(self._notify, pack_notes(notes))
            cur.execute("COMMIT") if self._sqlite else conn.commit()
            return outcomes
        except BaseException:
            try:
                cur.execute("ROLLBACK") if self._sqlite else conn.rollback()
            except Exception:  # a broken connection: open a fresh one next time
                if self._raw is not None:
                    self._raw.invalidate()
                self._conn = self._raw = None
            raise
        finally:
            cur.close()
            if self._lock_file is not None:
                fcntl.flock(self._lock_file, fcntl.LOCK_UN)

    def _commit(self, batch: list[Job]) -> None:
        entry = None
        started = time.perf_counter()
        outcomes = self._outcomes(batch)
        ended = time.perf_counter()
        COMMIT_SECONDS.observe(ended - started)
        if metrics.enabled():
            idle = started - self._last_commit
            self._last_commit = ended
            entry = metrics.record_commit(len(batch), ended - started, idle)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]] = {}
        for (_, future), failed in zip(batch, outcomes, strict=True):
            by_loop.setdefault(future.get_loop(), []).append((future, failed))
        for loop, settled in by_loop.items():  # one wake-up of the event loop per batch, not per change
            with contextlib.suppress(RuntimeError):  # that loop has closed: nobody waits any more
                if entry is not None:
                    loop.call_soon_threadsafe(metrics.record_settle, entry, self._last_commit)
                loop.call_soon_threadsafe(_settle, settled)

    def _outcomes(self, batch: list[Job]) -> list[Exception | None]:
        try:
            return self._transaction(batch)
        except Exception as exc:
            if len(batch) == 1:
                return [exc]
            # find the culprit: each change alone in its own transaction
            return [self._outcomes([job])[0] for job in batch]


def _chunks(writes: list[Write]) -> list[list[Write]]:
    """A batch cut into chunks of 64, 32, … 1 rows (so only a few distinct statements are ever
    prepared, and each chunk stays far below SQLite's limit on parameters)."""
    out: list[list[Write]] = []
    start = 0
    size = 64
    while start < len(writes):
        while size > len(writes) - start:
            size //= 2
        out.append(writes[start:start + size])
        start += size
    return out


@functools.cache
def _sqlite_insert(rows: int) -> str:
    """Insert ``rows`` actions in one statement (a step already taken is skipped and not counted)."""
    values = ", ".join(["(?, ?, ?, ?, ?)"] * rows)
    return f"INSERT INTO actions (game_id, step, seat, action, created_at) VALUES {values} ON CONFLICT DO NOTHING"


@functools.cache
def _sqlite_update(rows: int) -> str:
    """Move ``rows`` games to their new versions in one statement, each only from its expected version."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
    return ("UPDATE games SET version = v.column3, steps = v.column4, active_seat = v.column5, status = v.column6, "
            f"winner = v.column7, result = v.column8, updated_at = ? FROM (VALUES {values}) AS v "
            "WHERE games.id = v.column1 AND games.version = v.column2")


NOTE_BYTES = 7000
"""The largest packed notification payload (PostgreSQL refuses payloads of 8,000 bytes or more)."""


def pack_notes(notes: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The notifications of one commit, several to a ``pg_notify``: each payload a JSON array, packed
    into one array of arrays while it stays under :data:`NOTE_BYTES` (fewer statements to run, and
    fewer wake-ups in every listener). Order is kept."""
    packed: list[tuple[str, str]] = []
    parts: list[str] = []
    channel, size = "", 0
    for note_channel, payload in notes:
        length = len(payload.encode()) + 1
        if parts and (note_channel != channel or size + length > NOTE_BYTES):
            packed.append((channel, "[" + ",".join(parts) + "]"))
            parts, size = [], 0
        channel = note_channel
        parts.append(payload)
        size += length
    if parts:
        packed.append((channel, "[" + ",".join(parts) + "]"))
    return packed


def _settle(settled: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    """In the event loop: complete the futures of a committed batch."""
    for future, failed in settled:
        if future.done():  # its request was cancelled (the client left)
            continue
        if failed is None:
            future.set_result(None)
        else:
            future.set_exception(failed)
