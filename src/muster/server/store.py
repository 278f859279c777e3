"""Durable storage of games: every function runs one short transaction and commits before returning.

The functions are synchronous (SQLAlchemy core/ORM); the web app calls them in worker threads.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from muster.server.db import ActionRow, GameRow, SeatRow, utcnow

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
    """Who plays a seat."""

    seat: str
    kind: str
    bot_spec: str | None


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


class Store:
    """The games database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new ORM session."""
        return self._session()

    def create_game(self, game_id: str, game: str, rules_version: str, seed: int, options: dict[str, str],
                    bot_delay_ms: int, seats: list[tuple[SeatInfo, str | None]], summary: Summary) -> None:
        """Insert a new game with its seats (each with the hash of its token, or None for a bot)."""
        with self.session() as s, s.begin():
            small = seed < 2**63
            s.add(GameRow(id=game_id, game=game, rules_version=rules_version, seed=seed if small else 0,
                          secret_seed=None if small else str(seed), options=json.dumps(options),
                          version=summary.version,
                          steps=summary.steps, active_seat=summary.active_seat, status=summary.status,
                          winner=summary.winner, result=None, bot_delay_ms=bot_delay_ms))
            s.flush()  # the game row must exist before the seats refer to it (PostgreSQL checks at once)
            for info, token_hash in seats:
                s.add(SeatRow(game_id=game_id, seat=info.seat, kind=info.kind, bot_spec=info.bot_spec,
                              token_hash=token_hash))

    def load(self, game_id: str) -> StoredGame | None:
        """A game with its seats and action list, or None if there is no such game."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = {r.seat: SeatInfo(r.seat, r.kind, r.bot_spec)
                     for r in s.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}
            actions = [json.loads(a) for a in s.scalars(
                select(ActionRow.action).where(ActionRow.game_id == game_id).order_by(ActionRow.step))]
            seed = int(row.secret_seed) if row.secret_seed else row.seed
            return StoredGame(row.id, row.game, seed, json.loads(row.options), row.rules_version, row.version,
                              row.bot_delay_ms, seats, actions)

    def seat_for_token(self, token_hash: str) -> tuple[str, str] | None:
        """(game id, seat) claimed by a token hash, or None."""
        with self.session() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.token_hash == token_hash)).first()
            return (row.game_id, row.seat) if row else None

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

    def games_for_tokens(self, token_hashes: list[str]) -> list[tuple[str, dict[str, Any]]]:
        """For each known token hash: (hash, listing of its game and seat)."""
        if not token_hashes:
            return []
        with self.session() as s:
            rows = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                             .where(SeatRow.token_hash.in_(token_hashes))).all()
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

    def bot_games_waiting(self, rules_version: str) -> list[str]:
        """Ids of unfinished games, recorded by ``rules_version``, whose seat to act is played by a bot
        (to resume after a restart)."""
        with self.session() as s:
            rows = s.execute(select(GameRow.id).join(SeatRow, SeatRow.game_id == GameRow.id)
                             .where(GameRow.status == "active", SeatRow.seat == GameRow.active_seat,
                                    SeatRow.kind == "bot", GameRow.rules_version == rules_version)).all()
            return [r[0] for r in rows]


Job = tuple[Callable[[Session], None], "Future[None]"]


class GroupWriter:
    """Group commit: one thread writes every change, committing whatever queued up together.

    Each change is acknowledged only after the transaction holding it committed (one fsync serves
    many games), so durability before acknowledgement holds at a far higher rate than one commit
    per action. If a batch fails, its changes are retried one by one, so one bad change cannot sink
    the others.
    """

    def __init__(self, store: Store, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="muster-db-writer", daemon=True)
        self._thread.start()

    def submit(self, change: Callable[[Session], None]) -> Future[None]:
        """Queue a change; the future completes once it is committed (or fails with its error)."""
        future: Future[None] = Future()
        self._queue.put((change, future))
        return future

    def close(self) -> None:
        """Finish the queued changes and stop the thread."""
        self._queue.put(None)
        self._thread.join(30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[Job]) -> None:
        try:
            with self.store.session() as s, s.begin():
                for change, _ in batch:
                    change(s)
        except Exception:
            if len(batch) == 1:
                self._one(batch[0])
                return
            for job in batch:  # find the culprit: each change alone in its own transaction
                self._one(job)
            return
        for _, future in batch:
            future.set_result(None)

    def _one(self, job: Job) -> None:
        change, future = job
        try:
            self.store.write(change)
        except Exception as exc:  # handed to the waiting request, which reports it
            future.set_exception(exc)
        else:
            future.set_result(None)
