"""Notifications by e-mail, webhook and Web Push (docs/web.md, "Notifications").

The model: an event (a move that hands a person the turn, a game starting, a rematch offered, a chat
message, a resignation, the end of a game, a clock running low or out) becomes *notices* in the ``notices``
table, one per channel its recipient enabled, through :func:`enqueue`, where possible in the transaction
that records the event. A background task of every ``muster serve`` process (:mod:`.worker`) claims due
notices in one atomic statement, so two processes never send one notice, sends them with timeouts, retries
with back-off, and marks them sent. Nothing of this runs on a move's path: the move is acknowledged before
its notices are even written, and a slow mail server or webhook only delays its own notices.

Recipients are *owners* of settings: ``account:<id>`` for a person signed in, or ``seat:<game>:<seat>`` for a
guest's seat (a guest may leave an e-mail address or a webhook per seat). Nobody is told of their own
move, and a person gets at most one "your turn" per turn (a key per turn makes a second one a no-op).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import time
from datetime import timedelta
from typing import Any

from anyio import to_thread
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from muster.server.db import (
    AccountBlockRow,
    AccountRow,
    GameRow,
    NoticeRow,
    NotifySettingsRow,
    PlayerNameRow,
    SeatRow,
    utcnow,
)
from muster.server.settings import settings

log = logging.getLogger("muster.notify")

KINDS = ("your_turn", "game_started", "invitation", "chat", "resigned", "game_over", "clock_low", "timeout")
"""The kinds of notice a person may choose per channel (``invitation``: a rematch offered to them)."""
SYSTEM_KINDS = ("verify_email", "password_reset", "test")
"""Notices sent whatever the settings say (they answer the person's own request)."""
CHANNELS = ("email", "webhook", "push")
DEFAULT_EVENTS: dict[str, list[str]] = {
    "email": [k for k in KINDS if k != "chat"],
    "webhook": list(KINDS),
    "push": list(KINDS),
}
"""What each channel carries until its owner chooses (e-mail only ever goes to a verified address)."""
WEBHOOK_FORMATS = ("discord", "slack", "json")
SECRET_KINDS = ("password_reset", "verify_email")
"""Notices whose payload holds a secret link: it is blanked once sent."""


def base_url() -> str:
    """The address the links in notices start with (the ``public_url`` setting, else the server's own)."""
    config = settings()
    return (config.public_url or f"http://{config.host}:{config.port}").rstrip("/")


def owner_of_seat(s: Session, game_id: str, seat: str) -> str | None:
    """Whose settings a seat's notices follow (None: a bot, or a seat nobody has taken yet)."""
    row = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)).first()
    if row is None or row.kind != "human" or not row.holder or row.holder == "deleted":
        return None
    return row.holder if row.holder.startswith("account:") else f"seat:{game_id}:{seat}"


def account_id(owner: str) -> int | None:
    """The account an owner is, or None for a guest seat."""
    if owner.startswith("account:"):
        try:
            return int(owner.split(":", 1)[1])
        except ValueError:
            return None
    return None


def events_of(row: NotifySettingsRow | None) -> dict[str, list[str]]:
    """Channel -> kinds an owner chose (the defaults without a settings row)."""
    if row is None:
        return {c: list(k) for c, k in DEFAULT_EVENTS.items()}
    try:
        chosen = json.loads(row.events)
    except ValueError:
        chosen = {}
    return {c: [k for k in chosen.get(c, []) if k in KINDS] for c in CHANNELS}


def email_of(s: Session, owner: str, row: NotifySettingsRow | None) -> str | None:
    """The verified address an owner's e-mail goes to, or None."""
    account = account_id(owner)
    if account is not None:
        found = s.get(AccountRow, account)
        return found.email if found is not None and found.email and found.email_verified else None
    return row.email if row is not None and row.email and row.email_verified else None


MAX_BROWSERS = 10
"""Browsers of one account that receive push notices (a new one past this replaces the oldest)."""


def push_subscriptions(row: NotifySettingsRow | None) -> list[str]:
    """The push subscriptions (each a JSON text) of an owner's browsers, oldest first."""
    if row is None or not row.push:
        return []
    try:
        found = json.loads(row.push)
    except ValueError:
        return []
    if isinstance(found, dict):  # one subscription, as stored before several browsers were kept
        found = [found]
    return [json.dumps(sub, sort_keys=True) for sub in found if isinstance(sub, dict) and sub.get("endpoint")]


def add_push(row: NotifySettingsRow, subscription: dict[str, Any]) -> None:
    """Keep one more browser's subscription (replacing one with its endpoint; past :data:`MAX_BROWSERS`,
    the oldest goes)."""
    text = json.dumps(subscription, sort_keys=True)
    kept = [json.loads(t) for t in push_subscriptions(row) if json.loads(t)["endpoint"] != subscription["endpoint"]]
    row.push = json.dumps([*kept, json.loads(text)][-MAX_BROWSERS:])


def remove_push(row: NotifySettingsRow, endpoint: str | None) -> None:
    """Forget one browser's subscription by its endpoint (None: every browser's)."""
    kept = [] if endpoint is None else [json.loads(t) for t in push_subscriptions(row)
                                        if json.loads(t)["endpoint"] != endpoint]
    row.push = json.dumps(kept) if kept else None


def forget_push(engine: Engine, owner: str, subscription: str) -> None:
    """Forget a subscription its push service says has ended (blocking: call from a thread)."""
    try:
        endpoint = json.loads(subscription).get("endpoint")
    except (ValueError, AttributeError):
        return
    with Session(engine) as s, s.begin():
        row = s.get(NotifySettingsRow, owner)
        if row is not None and isinstance(endpoint, str):
            remove_push(row, endpoint)


def targets_of(s: Session, owner: str, row: NotifySettingsRow | None, channel: str) -> list[str]:
    """Where an owner's notices on ``channel`` go (empty: not set up, unverified, disabled); a push
    notice goes to each browser that subscribed."""
    if channel == "email":
        address = email_of(s, owner, row) if settings().smtp_host else None
        return [address] if address else []
    if row is None:
        return []
    if channel == "webhook":
        return [row.webhook_url] if row.webhook_url and row.webhook_error is None else []
    if channel == "push":
        return push_subscriptions(row)
    return []


def digest_due(s: Session, owner: str, address: str, now: float) -> int:
    """When the digest a notice made ``now`` joins is sent: with the owner's digest already waiting, or
    ``notify_digest_s`` from now if none is (the first notice opens the period)."""
    waiting = s.scalar(select(func.min(NoticeRow.next_at)).where(
        NoticeRow.recipient == owner, NoticeRow.channel == "email", NoticeRow.target == address,
        NoticeRow.digest.is_(True), NoticeRow.status == "pending"))
    return int(waiting) if waiting is not None else math.ceil(now + settings().notify_digest_s)


def _insert(s: Session, values: dict[str, Any]) -> int:
    """Insert a notice unless one with its key exists; 1 if inserted."""
    dialect = s.get_bind().dialect.name
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = maker(NoticeRow).values(**values).on_conflict_do_nothing(index_elements=["dedup"])
    return int(s.execute(statement).rowcount or 0)  # type: ignore[attr-defined]


def _who(s: Session, game_id: str, seat: str | None) -> str | None:
    if seat is None:
        return None
    named = s.get(PlayerNameRow, (game_id, seat))
    return named.name if named is not None else seat


def blocked(s: Session, owner: str, by_holder: str | None) -> bool:
    """Whether ``owner`` (an account) blocked the account ``by_holder`` (so hears nothing it says)."""
    mine, theirs = account_id(owner), account_id(by_holder or "")
    if mine is None or theirs is None:
        return False
    return s.get(AccountBlockRow, (mine, theirs)) is not None


def _dedup(kind: str, game_id: str | None, seat: str | None, key: str, channel: str, owner: str,
           address: str) -> str:
    """The key that makes one event one notice per channel and address (a push to each browser)."""
    where = f":{hashlib.sha256(address.encode()).hexdigest()[:16]}" if channel == "push" else ""
    return f"{kind}:{game_id}:{seat}:{key}:{channel}:{owner}{where}"[:200]


def enqueue(session: Session, kind: str, game_id: str | None, seat: str | None, *, key: str | None = None,
            owner: str | None = None, target: tuple[str, str] | None = None, **args: Any) -> int:
    """Queue the notices of one event for the player of ``seat`` in ``game_id`` (or for ``owner``), one per
    channel they enabled for ``kind``, in ``session``'s transaction; how many were queued.

    ``key``: two events with one key are one notice per channel (a "your turn" passes the turn's step);
    ``target``: (channel, address) for a notice that goes there whatever the settings say (an address
    being verified, a password reset). ``by`` (a seat) names who did it; other ``args`` (JSON values) are
    the notice's details (``text`` of a chat message, ``result`` of a game, ``left`` of a clock)."""
    if kind not in KINDS and kind not in SYSTEM_KINDS:
        raise ValueError(f"unknown kind of notice {kind!r}")
    if owner is None:
        if game_id is None or seat is None:
            return 0
        owner = owner_of_seat(session, game_id, seat)
        if owner is None:
            return 0
    game = session.get(GameRow, game_id) if game_id else None
    by = args.pop("by", None)
    if by is not None and game_id is not None:
        if blocked(session, owner, owner_of_seat(session, game_id, by)):
            return 0
        args.setdefault("who", _who(session, game_id, by))
    row = session.get(NotifySettingsRow, owner)
    lang = args.pop("lang", None) or (row.lang if row is not None else "en")
    payload = {**args, "game": game.game if game else None, "game_id": game_id, "seat": seat}
    now = time.time()
    routes: list[tuple[str, str]] = []
    if target is not None:
        routes.append(target)
    else:
        chosen = events_of(row)
        for channel in CHANNELS:
            if kind in chosen[channel]:
                routes.extend((channel, address) for address in targets_of(session, owner, row, channel))
    queued = 0
    for channel, address in routes:
        digest = channel == "email" and row is not None and row.digest and kind in KINDS
        delay = settings().notify_turn_delay_s if kind == "your_turn" else 0.0
        queued += _insert(session, {
            "dedup": None if key is None else _dedup(kind, game_id, seat, key, channel, owner, address),
            "recipient": owner, "channel": channel, "target": address, "kind": kind, "game_id": game_id,
            "seat": seat, "lang": lang, "payload": json.dumps(payload), "status": "pending", "digest": digest,
            "attempts": 0, "next_at": digest_due(session, owner, address, now) if digest else math.ceil(now + delay),
            "claimed_by": None, "claimed_until": 0, "created_at": utcnow(),
        })
    return queued


def enqueue_others(session: Session, kind: str, game_id: str, seat: str, *, key: str | None = None,
                   **args: Any) -> int:
    """:func:`enqueue` for every person's seat in the game but ``seat`` (whose player did it) and but any
    other seat that player holds (a person is not told of their own doing)."""
    rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
    actor = next((r.holder for r in rows if r.seat == seat), None)
    queued = 0
    for row in rows:
        if row.seat == seat or row.kind != "human" or (actor is not None and row.holder == actor):
            continue
        queued += enqueue(session, kind, game_id, row.seat, key=key, by=seat, **args)
    return queued


def run_soon(engine: Engine, work: Any) -> None:
    """Run ``work(session)`` in one transaction in a worker thread, after the current request or move (not
    on its path). Failures are logged, never raised to the move."""
    _TASKS.spawn(engine, work)


class _Background:
    """The enqueue tasks under way, held so they finish (bounded: past the cap new ones are dropped, with a
    warning, rather than piling up behind a stuck database)."""

    CAP = 2000

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, engine: Engine, work: Any) -> None:
        if len(self.tasks) >= self.CAP:
            log.warning("notification queue full: a notice was dropped")
            return
        task = asyncio.get_running_loop().create_task(self._run(engine, work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    async def _run(engine: Engine, work: Any) -> None:
        def go() -> None:
            with Session(engine) as s, s.begin():
                work(s)
        try:
            await to_thread.run_sync(go)
        except Exception:
            log.exception("could not queue a notice")

    async def drain(self) -> None:
        """Wait for the tasks under way (at shutdown)."""
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=10)


_TASKS = _Background()


def drain() -> Any:
    """Await the enqueue tasks still under way (the server's shutdown)."""
    return _TASKS.drain()


def turn_events(live: Any, seat: str) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """(kind, seat told, key, details) after ``seat`` acted in ``live``: the turn passed to a person, or the
    game ended (each person but the actor is told)."""
    game = live.game
    holder = live.seats[seat].holder if seat in live.seats else None
    events: list[tuple[str, str, str | None, dict[str, Any]]] = []

    def person(other: str) -> bool:
        info = live.seats.get(other)
        return (info is not None and info.kind == "human" and other != seat
                and (holder is None or info.holder != holder))

    outcome = game.outcome
    if outcome is not None:
        for other in live.seats:
            if person(other):
                result = "draw" if outcome.winner is None else "won" if outcome.winner == other else "lost"
                events.append(("game_over", other, "end", {"result": result}))
        return events
    active = game.active_seat
    if active is not None and person(active):
        events.append(("your_turn", active, str(live.shown_step()), {}))  # the key the sweep uses too
    return events


def moved(engine: Engine, live: Any, seat: str) -> None:
    """After ``seat``'s move in ``live`` (a :class:`muster.server.hub.LiveGame`) was stored and broadcast:
    queue the notices it causes (off the move's path)."""
    events = turn_events(live, seat)
    if not events:
        return
    game_id = live.id

    def work(s: Session) -> None:
        for kind, told, key, details in events:
            enqueue(s, kind, game_id, told, key=key, **details)
    run_soon(engine, work)


def joined(engine: Engine, game_id: str, seat: str, active: str | None = None) -> None:
    """A person took ``seat``: the game's other players hear it has begun (and whose turn it is)."""
    def work(s: Session) -> None:
        enqueue_others(s, "game_started", game_id, seat, key="start")
        if active is not None and active != seat:
            enqueue(s, "your_turn", game_id, active, key="0")
    run_soon(engine, work)


def clock_event(engine: Engine, event: Any) -> None:
    """A clock's reminder or timeout (a :class:`muster.server.clocks.ClockEvent`): the seat whose time runs
    low or ran out hears it, and so does the opponent when the time ran out."""
    if event.kind not in ("clock_low", "timeout"):
        return  # a vacation day: the clock moved, nobody needs telling
    left = ""
    if event.kind == "clock_low" and event.deadline is not None:
        left = _duration(event.deadline.timestamp() - time.time())
    key = f"{event.kind}:{event.deadline.isoformat() if event.deadline else ''}"

    def work(s: Session) -> None:
        details: dict[str, Any] = {"left": left} if left else {}
        enqueue(s, event.kind, event.game_id, event.seat, key=key, **details)
        if event.kind == "timeout":
            enqueue_others(s, "timeout", event.game_id, event.seat, key=key)
    run_soon(engine, work)


def _duration(seconds: float) -> str:
    """A time left in the largest whole unit that fits (``3 h``, ``25 min``, ``40 s``): the same in every
    language the notices are written in."""
    seconds = max(0.0, seconds)
    if seconds >= 7200:
        return f"{int(seconds // 3600)} h"
    if seconds >= 120:
        return f"{int(seconds // 60)} min"
    return f"{int(seconds)} s"


SWEEP_HOURS = 24
SWEEP_GAMES = 5000


def sweep_turns(engine: Engine) -> int:
    """Queue the "your turn" a crash may have lost: a move is stored before its notices are written, so a
    process killed in between leaves a turn unannounced. At start-up, every game changed in the last
    :data:`SWEEP_HOURS` whose turn is a person's gets its notice, under the same key as the one written
    after the move (a turn already announced, or dropped, is never announced again). A seat whose player
    also holds another seat of the game (hot seat) is skipped: that player made the last move."""
    since = utcnow() - timedelta(hours=SWEEP_HOURS)
    queued = 0
    with Session(engine) as s, s.begin():
        games = s.execute(select(GameRow.id, GameRow.active_seat, GameRow.steps).where(
            GameRow.status == "active", GameRow.active_seat.is_not(None), GameRow.updated_at >= since)
            .order_by(GameRow.updated_at.desc()).limit(SWEEP_GAMES)).all()
        for game_id, active, steps in games:
            seats = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
            mine = next((r for r in seats if r.seat == active), None)
            if mine is None or mine.kind != "human" or not mine.holder:
                continue
            if any(r.seat != active and r.holder == mine.holder for r in seats):
                continue
            queued += enqueue(s, "your_turn", game_id, active, key=str(steps))
    return queued
