"""Backups, restores and retention of a server's database (docs/hosting.md, "Backups" and "Retention").

* SQLite: :func:`backup` copies the live database with SQLite's online backup API, page by page, so a
  running server keeps serving and the copy is one consistent moment (WAL included). :func:`restore`
  copies a backup into the target the same way, then brings its schema to the newest migration.
* PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore --clean``, run for you when they are installed
  (Debian: ``postgresql-client``); the same commands are what a host runs from cron or a backup tool.
* :func:`prune` applies a retention policy: each finished game older than a limit (and each abandoned game,
  one nobody has moved in for longer than another limit) is first written as a JSON save file into an
  archive folder, then deleted. A save file loads with ``muster.core.Game.loads``.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine, make_url

from muster.core import Action, Game, GameError, get_rules
from muster.server.db import ActionRow, GameRow, make_engine, migrate, normalise_url
from muster.server.store import Store


class BackupError(Exception):
    """A backup or restore that cannot be done, with the reason in words."""


def _sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL, or None for another database."""
    parsed = make_url(normalise_url(url))
    if not parsed.drivername.startswith("sqlite"):
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(parsed.database)


def _libpq_url(url: str) -> str:
    """A PostgreSQL URL as libpq's tools take it (without SQLAlchemy's driver name)."""
    return make_url(normalise_url(url)).set(drivername="postgresql").render_as_string(hide_password=False)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client); see docs/hosting.md")
    return found


def backup(database_url: str, out: Path) -> int:
    """Write a consistent copy of the database to ``out`` (refusing to overwrite); returns its size in bytes."""
    if out.exists():
        raise BackupError(f"{out} already exists: choose a new file name")
    path = _sqlite_path(database_url)
    if path is None:
        done = subprocess.run([_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={out}",
                               _libpq_url(database_url)], capture_output=True, text=True)
        if done.returncode:
            why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
            raise BackupError(f"pg_dump failed: {why}")
        return out.stat().st_size
    if not path.exists():
        raise BackupError(f"no database at {path}")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(out)
    try:
        with target:
            source.backup(target, pages=1024)  # in steps: the server's writers are not held up for long
    finally:
        target.close()
        source.close()
    return out.stat().st_size


def restore(backup_file: Path, database_url: str, force: bool = False) -> int:
    """Load ``backup_file`` into the database (stop the server first), then migrate it; returns how many
    games it holds. An existing database holding games is replaced only with ``force``."""
    if not backup_file.exists():
        raise BackupError(f"no backup at {backup_file}")
    path = _sqlite_path(database_url)
    engine = make_engine(database_url)
    try:
        if not force and _game_count(engine) > 0:
            raise BackupError("the target database holds games: restore into an empty one, or pass --force "
                              "to replace them")
        if path is None:
            engine.dispose()
            done = subprocess.run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner",
                                   f"--dbname={_libpq_url(database_url)}", str(backup_file)],
                                  capture_output=True, text=True)
            if done.returncode:
                raise BackupError(f"pg_restore failed: {done.stderr.strip()[-300:]}")
        else:
            engine.dispose()
            source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
            target = sqlite3.connect(path)
            try:
                with target:
                    source.backup(target)
            finally:
                target.close()
                source.close()
        engine = make_engine(database_url)
        migrate(engine)  # a backup from an older release gets the newer schema, as a start would give it
        return _game_count(engine)
    finally:
        engine.dispose()


def _game_count(engine: Engine) -> int:
    from sqlalchemy import func, inspect

    if not inspect(engine).has_table("games"):
        return 0
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0)


@dataclass(frozen=True)
class Pruned:
    """What a retention run did: games archived and deleted, by why."""

    finished: int
    abandoned: int
    archived: list[Path]


def prune(database_url: str, archive: Path, finished_days: float | None, abandoned_days: float | None,
          dry_run: bool = False, now: datetime | None = None) -> Pruned:
    """Archive then delete finished games not touched for ``finished_days`` and unfinished games nobody moved in
    for ``abandoned_days`` (None: keep them all). Each game is written as ``<archive>/<game id>.json`` (a save file
    with the game's id and players) before its rows go; a game whose file cannot be written is kept."""
    now = now or datetime.now(UTC)
    engine = make_engine(database_url)
    store = Store(engine)
    archive.mkdir(parents=True, exist_ok=True)
    found: list[tuple[str, str]] = []
    with engine.connect() as conn:
        for status, days in (("finished", finished_days), ("active", abandoned_days)):
            if days is None:
                continue
            cutoff = now - timedelta(days=days)
            rows = conn.execute(select(GameRow.id, GameRow.updated_at).where(GameRow.status == status)).all()
            found += [(gid, status) for gid, updated in rows if _aware(updated) < cutoff]
    archived: list[Path] = []
    counts = {"finished": 0, "active": 0}
    try:
        for game_id, status in found:
            stored = store.load(game_id)
            if stored is None:
                continue
            record = _record(stored.game, stored.seed, stored.options, stored.actions)
            record |= {"game_id": game_id, "status": status,
                       "players": {s: info.bot_spec or "human" for s, info in stored.seats.items()}}
            target = archive / f"{game_id}.json"
            if dry_run:
                counts[status] += 1
                continue
            target.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
            with store.session() as s, s.begin():
                s.execute(delete(ActionRow).where(ActionRow.game_id == game_id))
                s.execute(delete(GameRow).where(GameRow.id == game_id))  # seats, names, consent cascade
            archived.append(target)
            counts[status] += 1
    finally:
        engine.dispose()
    return Pruned(counts["finished"], counts["active"], archived)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes for the UTC ones stored."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _record(game: str, seed: int, options: dict[str, str], actions: list[object]) -> dict[str, object]:
    """A save file of a stored game (rebuilt by replay, so its state is checked); the bare action list when the
    rules of this release can no longer replay it (an archive must never lose a game)."""
    try:
        rebuilt = Game(get_rules(game), seed, options)
        for raw in actions:
            rebuilt.apply(Action.from_json(raw))
        record = rebuilt.to_record()
        if rebuilt.outcome is not None:
            record["outcome"] = rebuilt.outcome.to_json()
        return record
    except (GameError, KeyError):
        return {"format": "muster-archive", "game": game, "seed": seed, "options": options, "actions": actions}
