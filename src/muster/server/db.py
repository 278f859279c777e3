"""Database tables, engine creation and the automatic Alembic migration at startup."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).with_name("migrations")


def utcnow() -> datetime:
    """The current time, timezone-aware (stored as UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so migrations name constraints predictably."""

    metadata = MetaData(naming_convention={
        "pk": "pk_%(table_name)s", "fk": "fk_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s", "ix": "ix_%(table_name)s_%(column_0_name)s",
    })


class GameRow(Base):
    """One game: how to rebuild it (game, seed, options) and a summary for listings."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    """The seed when it fits 64 bits (local-style seeds chosen at creation); 0 when ``secret_seed`` holds it."""
    secret_seed: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The secret key the game's generator is seeded with (decimal), never sent to a client while the game runs."""
    options: Mapped[str] = mapped_column(Text)
    rules_version: Mapped[str] = mapped_column(String(80))
    """The rules that recorded the actions (:attr:`muster.core.GameInfo.version`): only they may replay them."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    steps: Mapped[int] = mapped_column(Integer, default=0)
    active_seat: Mapped[str | None] = mapped_column(String(16), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="active")
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    bot_delay_ms: Mapped[int] = mapped_column(Integer, default=400)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """Who plays a seat: a person (holding the secret token, bound to its holder) or a bot spec.

    A person's seat not yet claimed has no token, only ``invite_hash`` (migration 0006)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(8))
    bot_spec: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    holder: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)
    """Who the seat belongs to: ``device:<hash of the device session>`` or ``account:<id>``; None for a
    bot, or a seat stored before holders existed (bound to the first device that uses its token)."""
    invite_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    """The hash of the one-use invitation to this seat while nobody has claimed it; None once claimed."""


class ActionRow(Base):
    """One applied action; (game_id, step) is the primary key, so a step can only be taken once."""

    __tablename__ = "actions"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerNameRow(Base):
    """The name a person gave their seat, shown to the opponent (migration 0004; see muster.server.names)."""

    __tablename__ = "player_names"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))


class HintConsentRow(Base):
    """A seat that agreed to hints in its game (migration 0005; see muster.server.hints_routes)."""

    __tablename__ = "hint_consent"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)


class AnalysisRow(Base):
    """A finished game's post-game analysis, computed once by an analysis worker process (migration 0007;
    see muster.server.analysis_routes). ``status`` is ``pending`` while it is computed (``progress`` in
    percent, ``updated_at`` refreshed as it advances), then ``done`` (``body`` holds the JSON) or ``failed``."""

    __tablename__ = "analyses"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    method: Mapped[str] = mapped_column(String(40))
    """Which analysis made it (:data:`muster.server.analysis_routes.METHOD`): another one is recomputed."""
    status: Mapped[str] = mapped_column(String(16))
    progress: Mapped[int] = mapped_column(Integer, default=0)
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated_at: Mapped[int] = mapped_column(BigInteger)
    """Seconds since the epoch (an integer compares the same on every database)."""


class BotFallbackRow(Base):
    """A move a bot could not choose in time (or at all), played for it at random (migration 0007): the
    game's players are told, and the count is shown with the game."""

    __tablename__ = "bot_fallbacks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    step: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(16))
    log_at: Mapped[int] = mapped_column(Integer)
    """How many log lines the game had just after the move (where the notice is shown in the log)."""
    reason: Mapped[str] = mapped_column(String(200))


class GameLeaseRow(Base):
    """Which node runs a game's bots until ``expires_at`` (migration 0008; see muster.server.bus.LeasedBus)."""

    __tablename__ = "game_leases"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    node: Mapped[str] = mapped_column(String(64), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A person who signed up (migration 0009; see muster.server.accounts): the password only as an Argon2 hash."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    """The name folded to compare case-insensitively: two accounts never differ only in case."""
    password_hash: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the address was confirmed by a link sent to it (only then is mail sent there)."""
    suspended: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountSessionRow(Base):
    """A signed-in browser: the hash of its session cookie, its CSRF token and when it expires."""

    __tablename__ = "account_sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginThrottleRow(Base):
    """Failed logins counted per account name and per address within a window (shared by every process)."""

    __tablename__ = "login_throttle"
    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatTokenRow(Base):
    """An extra token for a seat an account holds, minted to open it on another device of that account."""

    __tablename__ = "account_seat_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameEndingRow(Base):
    """A game ended outside its rules: ``seat`` resigned (migration 0010; see muster.server.social)."""

    __tablename__ = "game_endings"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LobbyPostRow(Base):
    """An open game in the lobby: its free seat waits for whoever joins first (migration 0010; see
    muster.server.lobby). The seat's invitation is known only by its hash, here and on the seat."""

    __tablename__ = "lobby_posts"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(16))
    invite_hash: Mapped[str] = mapped_column(String(64))
    poster: Mapped[str] = mapped_column(String(80), index=True)
    """The holder who posted it (``account:<id>`` or ``device:<hash>``)."""
    poster_name: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(60), index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatedGameRow(Base):
    """A game between two accounts that counts for ratings; ``applied_at`` once its result was rated."""

    __tablename__ = "rated_games"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    applied_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatingRow(Base):
    """An account's rating in one game on one side (the games are asymmetric): OpenSkill's mu and sigma."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    side: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChangeRow(Base):
    """One rating change a rated game made (kept so ratings can be shown per game and recomputed)."""

    __tablename__ = "rating_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(String(16))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class RematchRow(Base):
    """A rematch of a finished game: who offered it and, once accepted, the new game with the hashes of
    the invitations its players claim their seats with (JSON, seat -> hash)."""

    __tablename__ = "rematches"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    offered_by: Mapped[str] = mapped_column(String(16))
    new_game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    invites: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessageRow(Base):
    """A chat message between the players of a game (never shown to spectators)."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountBlockRow(Base):
    """``account_id`` blocked ``blocked_id``: neither sees the other's chat, open games or rematches."""

    __tablename__ = "account_blocks"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatPresenceRow(Base):
    """When a seat's player last had its game open (shown to the opponent as online now or last seen)."""

    __tablename__ = "seat_presence"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameClockRow(Base):
    """A game's pace and clock (migration 0011; see muster.server.clocks). A game without a row has no clock
    (pace "none", as every game stored before paces existed)."""

    __tablename__ = "game_clocks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    pace: Mapped[str] = mapped_column(String(16))
    banks: Mapped[str] = mapped_column(Text)
    """JSON: each seat's time left (seconds) when its time last stopped running."""
    running: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The seat whose time runs (None: nobody's: a bot's turn, the game not started, paused or over)."""
    since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the current decision began (the running seat's time runs from here; a bot's delay too)."""
    grace: Mapped[float] = mapped_column(Float, default=0.0)
    """Vacation seconds granted in the current decision (not charged to the bank)."""
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    remind_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    state: Mapped[str] = mapped_column(String(16), default="waiting")
    """"waiting" (for the players), "running", "paused", "flagged" (a seat out of time), "over"."""
    flagged: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The seat out of time."""
    pause_asked: Mapped[str | None] = mapped_column(String(16), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When a server process took the timeout to act on (another retries it if that process died)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The game's version the clock was last brought up to."""
    rev: Mapped[int] = mapped_column(Integer, default=0)
    """Counts every write: each write is conditional on the revision it read (several processes write)."""


class VacationRow(Base):
    """Vacation an account used in a year (migration 0011; see muster.server.clocks)."""

    __tablename__ = "account_vacations"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    used_days: Mapped[int] = mapped_column(Integer, default=0)


class NoticeRow(Base):
    """One notice waiting to be sent, or sent (migration 0012; see muster.server.notify): the outbox a
    background task of every server process drains, claiming rows so no two processes send one notice."""

    __tablename__ = "notices"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dedup: Mapped[str | None] = mapped_column(String(200), unique=True, nullable=True)
    """Two notices with one key are one: e.g. one "your turn" per seat, channel and turn."""
    recipient: Mapped[str] = mapped_column(String(120), index=True)
    """Whose settings chose it: ``account:<id>`` or ``seat:<game>:<seat>`` (a guest's seat)."""
    channel: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(Text)
    """The e-mail address, webhook URL or push subscription (JSON) it goes to."""
    kind: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seat: Mapped[str | None] = mapped_column(String(16), nullable=True)
    lang: Mapped[str] = mapped_column(String(8))
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``pending``, ``sent``, ``dropped`` (no longer true when its time came) or ``failed``."""
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[int] = mapped_column(BigInteger, index=True)
    """Seconds since the epoch when it is due (an integer compares the same on every database)."""
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until: Mapped[int] = mapped_column(BigInteger, default=0)
    """Until when the process that claimed it is sending it; after that another may (it died)."""
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class NotifySettingsRow(Base):
    """What a person wants to hear of, and where (migration 0012): per account, or per guest seat
    (``seat:<game>:<seat>``). ``events`` is JSON: channel -> the kinds of notice sent on it."""

    __tablename__ = "notify_settings"
    owner: Mapped[str] = mapped_column(String(120), primary_key=True)
    events: Mapped[str] = mapped_column(Text)
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    lang: Mapped[str] = mapped_column(String(8), default="en")
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """A guest seat's address (an account's is ``accounts.email``)."""
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    webhook_format: Mapped[str] = mapped_column(String(16), default="discord")
    webhook_failures: Mapped[int] = mapped_column(Integer, default=0)
    webhook_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    """Why the webhook was disabled after repeated failures; None while it is in use."""
    push: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The browser's Web Push subscription (JSON), if any."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerKeyRow(Base):
    """A secret the server made for itself at first start and keeps (migration 0012): the key that signs
    unsubscribe, verification and password-reset links, and the VAPID key pair of Web Push."""

    __tablename__ = "server_keys"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for plain ``postgresql://`` URLs (psycopg2 is not a dependency)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


SQLITE_SYNC_LEVELS = ("full", "normal")
"""The SQLite ``synchronous`` levels a server may run with (``MUSTER_SQLITE_SYNC``, ``muster serve
--sqlite-sync``); what each survives is in docs/web.md ("Durability and commit latency")."""


def sqlite_sync() -> str:
    """The SQLite ``synchronous`` level chosen (env ``MUSTER_SQLITE_SYNC``, default ``full``)."""
    level = os.environ.get("MUSTER_SQLITE_SYNC", "full").strip().lower() or "full"
    if level not in SQLITE_SYNC_LEVELS:
        raise ValueError(f"MUSTER_SQLITE_SYNC must be one of {', '.join(SQLITE_SYNC_LEVELS)}, not {level!r}")
    return level


def sqlite_pragmas() -> tuple[str, ...]:
    """WAL lets readers run beside the writer. ``synchronous=FULL`` (the default) fsyncs the log at
    every commit, before the actions it holds are acknowledged: they survive a power cut or an OS
    crash, not only a process crash. ``NORMAL`` fsyncs only at checkpoints: an acknowledged action
    survives a crash or ``kill -9`` of the server, but an OS crash or power cut may lose the last ones."""
    return ("PRAGMA journal_mode=WAL", f"PRAGMA synchronous={sqlite_sync().upper()}", "PRAGMA foreign_keys=ON",
            "PRAGMA busy_timeout=10000")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    for pragma in sqlite_pragmas():
        cur.execute(pragma)
    cur.close()


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for ``url``; SQLite files get WAL mode and durable commits."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        sqlite_sync()  # a wrong level fails here, at startup, with its reason
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the database schema to the newest Alembic revision (shipped inside the package)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
