"""The background task of every ``muster serve`` process that delivers due notices.

Claiming: one ``UPDATE`` marks up to :data:`BATCH` due, unclaimed notices with this round's random claim
and a lease (``claimed_until``). On SQLite the statement runs under the database's single write lock; on
PostgreSQL its inner ``SELECT … FOR UPDATE SKIP LOCKED`` lets two processes claim disjoint rows at once.
Either way no notice is claimed twice while its lease runs. A process killed while sending leaves its
claims to expire, and another process (or the same one restarted) sends them then; a pending notice that
was never claimed is sent exactly once.

Delivery runs with a deadline per notice and at most :data:`PARALLEL` at once; a failure is retried after
``notify_retry_s`` seconds, doubling each time, up to ``notify_attempts`` tries. A webhook whose notice
failed every try is disabled (its owner sees why on the settings page, and saving it again re-enables it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from muster.server.db import GameRow, NoticeRow, NotifySettingsRow, utcnow
from muster.server.notify import KINDS, base_url, events_of, forget_push, targets_of, texts
from muster.server.notify.keys import server_key, sign
from muster.server.notify.senders import DeliveryError, GoneError, mail, send_mail, send_webhook, webhook_body
from muster.server.settings import settings

log = logging.getLogger("muster.notify")

BATCH = 100
PARALLEL = 8
LEASE_S = 120
"""How long a claim lasts: well beyond one delivery's deadline, so a live process never loses its claim."""
KEEP_SENT_DAYS = 30
UNSUBSCRIBE_TTL_S = 400 * 86400


def unsubscribe_link(engine: Engine, owner: str, channel: str) -> str:
    """A link that turns ``channel`` off for ``owner`` in one click (signed; nothing stored)."""
    return f"{base_url()}/notify/unsubscribe/{sign(server_key(engine), 'unsub', UNSUBSCRIBE_TTL_S, o=owner, c=channel)}"


@dataclass
class Claimed:
    """A claimed notice, detached from its session."""

    id: int
    recipient: str
    channel: str
    target: str
    kind: str
    game_id: str | None
    seat: str | None
    lang: str
    payload: dict[str, Any]
    digest: bool
    attempts: int


class Notifier:
    """Claims and delivers due notices until stopped (one per server process)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._limit = asyncio.Semaphore(PARALLEL)
        self.postgres = engine.dialect.name == "postgresql"
        self.last_sweep = 0.0
        self.on_stop: list[Callable[[], None]] = []
        """Undone when this notifier stops (the listeners it added to other parts of the server)."""

    def start(self) -> None:
        """Start delivering in the background."""
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop after the deliveries under way (their claims are released if cut short)."""
        for undo in self.on_stop:
            undo()
        self.on_stop.clear()
        self._stop.set()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, settings().notify_timeout_s + 5)
            except TimeoutError:
                self.task.cancel()

    async def _run(self) -> None:
        from anyio import to_thread

        while not self._stop.is_set():
            try:
                claimed = await to_thread.run_sync(self.claim)
                if claimed:
                    await self.deliver_all(claimed)
                if time.time() - self.last_sweep > 3600:
                    self.last_sweep = time.time()
                    await to_thread.run_sync(self.sweep)
            except Exception:
                log.exception("notification delivery failed")
                claimed = []
            if len(claimed) < BATCH:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), settings().notify_poll_s)

    # --- the database -----------------------------------------------------------------------------
    def claim(self) -> list[Claimed]:
        """Claim the due notices nobody holds; they are this round's to send."""
        token, now = secrets.token_hex(16), int(time.time())
        lock = " FOR UPDATE SKIP LOCKED" if self.postgres else ""
        with Session(self.engine) as s, s.begin():
            s.execute(text(
                "UPDATE notices SET claimed_by = :token, claimed_until = :until, attempts = attempts + 1 "
                "WHERE id IN (SELECT id FROM notices WHERE status = 'pending' AND next_at <= :now "
                f"AND claimed_until < :now ORDER BY next_at, id LIMIT :batch{lock})"),
                {"token": token, "until": now + LEASE_S, "now": now, "batch": BATCH})
        with Session(self.engine) as s:
            rows = s.query(NoticeRow).filter(NoticeRow.claimed_by == token).order_by(NoticeRow.id).all()
            return [Claimed(r.id, r.recipient, r.channel, r.target, r.kind, r.game_id, r.seat, r.lang,
                            json.loads(r.payload), r.digest, r.attempts) for r in rows]

    def still_wanted(self, notice: Claimed) -> bool:
        """Whether a notice is still true and still wanted now that its time came: its owner did not turn
        it off or change the address, and a "your turn" is still that seat's turn."""
        if notice.kind not in KINDS:
            return True
        with Session(self.engine) as s:
            row = s.get(NotifySettingsRow, notice.recipient)
            if notice.kind not in events_of(row)[notice.channel]:
                return False
            if notice.target not in targets_of(s, notice.recipient, row, notice.channel):
                return False
            if notice.kind == "your_turn" and notice.game_id:
                game = s.get(GameRow, notice.game_id)
                return game is not None and game.status == "active" and game.active_seat == notice.seat
        return True

    def finish(self, ids: list[int], status: str, error: str | None = None) -> None:
        """Mark notices sent or dropped (a secret link in one sent is forgotten)."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(NoticeRow).where(NoticeRow.id.in_(ids)).values(
                status=status, sent_at=utcnow(), claimed_by=None, last_error=error))
            s.execute(update(NoticeRow).where(NoticeRow.id.in_(ids), NoticeRow.kind.in_(
                ("password_reset", "verify_email"))).values(payload="{}", target=""))
            if status == "sent":
                for notice in s.query(NoticeRow).filter(NoticeRow.id.in_(ids), NoticeRow.channel == "webhook"):
                    s.execute(update(NotifySettingsRow).where(NotifySettingsRow.owner == notice.recipient)
                              .values(webhook_failures=0))

    def failed(self, notice: Claimed, error: str) -> None:
        """A delivery failed: try again later, or give up (disabling the webhook that kept failing)."""
        config = settings()
        with Session(self.engine) as s, s.begin():
            if notice.attempts >= config.notify_attempts:
                s.execute(update(NoticeRow).where(NoticeRow.id == notice.id).values(
                    status="failed", claimed_by=None, last_error=error[:300]))
                if notice.channel == "webhook":
                    row = s.get(NotifySettingsRow, notice.recipient, with_for_update=True)
                    if row is not None and row.webhook_url == notice.target:
                        row.webhook_failures += 1
                        row.webhook_error = error[:300]
                        log.warning("webhook of %s disabled after %d failed tries: %s", notice.recipient,
                                    notice.attempts, error)
                return
            pause = config.notify_retry_s * 2 ** (notice.attempts - 1)
            s.execute(update(NoticeRow).where(NoticeRow.id == notice.id).values(
                claimed_by=None, claimed_until=0, next_at=int(time.time() + pause), last_error=error[:300]))

    def sweep(self) -> None:
        """Forget notices finished long ago."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(NoticeRow).where(NoticeRow.status != "pending",
                                              NoticeRow.created_at < utcnow() - timedelta(days=KEEP_SENT_DAYS)))

    # --- sending ----------------------------------------------------------------------------------
    async def deliver_all(self, claimed: list[Claimed]) -> None:
        """Deliver a round's notices (a digest's gathered into one e-mail per address)."""
        digests: dict[tuple[str, str], list[Claimed]] = {}
        singles: list[list[Claimed]] = []
        for notice in claimed:
            if notice.digest and notice.channel == "email":
                digests.setdefault((notice.recipient, notice.target), []).append(notice)
            else:
                singles.append([notice])
        await asyncio.gather(*(self._deliver(group) for group in [*singles, *digests.values()]))

    async def _deliver(self, group: list[Claimed]) -> None:
        from anyio import to_thread

        async with self._limit:
            wanted = []
            for notice in group:
                if await to_thread.run_sync(self.still_wanted, notice):
                    wanted.append(notice)
            dropped = [n.id for n in group if n not in wanted]
            if dropped:
                await to_thread.run_sync(self.finish, dropped, "dropped")
            if not wanted:
                return
            try:
                await self.send(wanted)
            except GoneError as exc:  # the browser unsubscribed or its subscription expired: forget it
                for notice in wanted:
                    await to_thread.run_sync(forget_push, self.engine, notice.recipient, notice.target)
                await to_thread.run_sync(self.finish, [n.id for n in wanted], "dropped", str(exc))
                return
            except DeliveryError as exc:
                for notice in wanted:
                    await to_thread.run_sync(self.failed, notice, str(exc))
                return
            except Exception as exc:  # a bug must not stop the other deliveries
                log.exception("notice %d could not be sent", wanted[0].id)
                for notice in wanted:
                    await to_thread.run_sync(self.failed, notice, type(exc).__name__)
                return
            await to_thread.run_sync(self.finish, [n.id for n in wanted], "sent")

    def link(self, notice: Claimed) -> str | None:
        """Where a notice leads: a link it carries, or an account's games (a guest's seat link is secret
        and not stored, so a guest opens the game from the link they kept)."""
        if notice.payload.get("link"):
            return str(notice.payload["link"])
        if notice.recipient.startswith("account:"):
            return f"{base_url()}/account"
        return None

    async def send(self, group: list[Claimed]) -> None:
        """Send one notice (or one digest of several) on its channel."""
        first = group[0]
        link = self.link(first)
        if first.channel == "email":
            unsubscribe = (unsubscribe_link(self.engine, first.recipient, "email")
                           if first.kind in KINDS else None)
            if len(group) > 1 or first.digest:
                subject, body = texts.digest(first.lang, [texts.title(n.kind, n.lang, n.payload) for n in group],
                                             link, unsubscribe)
            else:
                subject = texts.title(first.kind, first.lang, first.payload)
                body = texts.body(first.kind, first.lang, first.payload, link, unsubscribe)
            await send_mail(mail(first.target, subject, body, unsubscribe))
        elif first.channel == "webhook":
            with Session(self.engine) as s:
                row = s.get(NotifySettingsRow, first.recipient)
                fmt = row.webhook_format if row is not None else "discord"
            line = texts.title(first.kind, first.lang, first.payload)
            if link:
                line = f"{line} {link}"
            details = {"id": first.id, "event": first.kind, "game": first.payload.get("game"), "game_id": first.game_id,
                       "seat": first.seat, "url": link}
            await send_webhook(first.target, webhook_body(fmt, line, details))
        elif first.channel == "push":
            from muster.server.notify.push import send_push

            await send_push(self.engine, first.target, texts.title(first.kind, first.lang, first.payload), link)
        else:
            raise DeliveryError(f"unknown channel {first.channel}")

