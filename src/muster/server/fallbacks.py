"""Moves a bot could not choose, played at random for it: told to the game's players and counted.

When a bot overruns its time, fails, or finds no worker free in time, :class:`muster.server.bots.BotPool`
plays a random legal move instead. The hub records each such move here (table ``bot_fallbacks``,
migration 0007) and every state message carries them (``fallbacks``: the count and the latest notices,
each placed after the log line it follows), so both sides see it in the game's log, also after a restart.
It is a server notice beside the game's own log: the rules core neither knows nor records it.

Kept in memory per game (only games that have any), like the player names, so pushes never read the
database.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine

from muster.i18n import N_, Translator
from muster.server.db import BotFallbackRow

SHOWN = 20
"""The latest notices a state message carries (the count covers them all)."""
NOTICE = N_("The {side} bot could not choose its move in time, so a random legal move was played for it "
            "(step {step}).")

_cache: dict[str, list[Fallback]] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Fallback:
    """One move played at random for a bot: its step, the bot's seat, where it goes in the log, and why
    (the reason stays in the server: it is for operators)."""

    step: int
    seat: str
    log_at: int
    reason: str


def cached(game_id: str) -> list[Fallback]:
    """The fallback moves known for a game (empty for most games)."""
    with _lock:
        return list(_cache.get(game_id, ()))


def _remember(game_id: str, found: list[Fallback]) -> None:
    with _lock:
        if found:
            _cache[game_id] = found
            while len(_cache) > 20000:
                _cache.pop(next(iter(_cache)))
        else:
            _cache.pop(game_id, None)


def load(engine: Engine, game_id: str) -> list[Fallback]:
    """Read a game's fallback moves into the cache (blocking: call from a thread)."""
    with engine.connect() as conn:
        rows = conn.execute(select(BotFallbackRow.step, BotFallbackRow.seat, BotFallbackRow.log_at,
                                   BotFallbackRow.reason).where(BotFallbackRow.game_id == game_id)
                            .order_by(BotFallbackRow.step)).all()
    found = [Fallback(int(step), str(seat), int(log_at), str(reason)) for step, seat, log_at, reason in rows]
    _remember(game_id, found)
    return found


def note(game_id: str, fallback: Fallback) -> None:
    """Put one fallback move in the cache (at once, under the game's lock, so the move's own state
    message already carries its notice); :func:`store` writes it down."""
    with _lock:
        _cache.setdefault(game_id, []).append(fallback)


def store(engine: Engine, game_id: str, fallback: Fallback) -> None:
    """Write one fallback move to the database (blocking: call from a thread)."""
    with engine.begin() as conn:
        conn.execute(insert(BotFallbackRow).values(game_id=game_id, step=fallback.step, seat=fallback.seat,
                                                   log_at=fallback.log_at, reason=fallback.reason[:200]))


def forget_from(engine: Engine, game_id: str, step: int) -> None:
    """An undo took back the steps from ``step`` on: their notices go too (blocking: call from a thread)."""
    with _lock:
        kept = [f for f in _cache.get(game_id, ()) if f.step < step]
    _remember(game_id, kept)
    with engine.begin() as conn:
        conn.execute(delete(BotFallbackRow).where(BotFallbackRow.game_id == game_id, BotFallbackRow.step >= step))


def payload(game_id: str, tr: Translator, side: Any) -> dict[str, Any]:
    """The ``fallbacks`` field of a state message: ``count`` and the latest notices in the reader's
    language (``side``: a seat's name in that language)."""
    found = cached(game_id)
    return {"count": len(found),
            "notices": [{"step": f.step, "seat": f.seat, "log_at": f.log_at,
                         "text": tr.fmt(NOTICE, side=side(f.seat), step=f.step)} for f in found[-SHOWN:]]}
