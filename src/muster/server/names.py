"""Player names per seat: what a person calls themselves, shown to their opponent.

Kept apart from the game tables (their own table, ``player_names``, migration 0004) and cached in
memory per game, so state pushes read them without touching the database.
"""

from __future__ import annotations

import functools
import threading
import unicodedata

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine

from muster.core import game_names, get_rules
from muster.error_texts import refusal
from muster.i18n import LANGS, catalog, domains
from muster.server.db import PlayerNameRow
from muster.server.errors import ApiError

MAX_NAME = 40
MAX_MARKS = 2
"""Combining marks kept on one character (after NFC composition a written language needs at most two, as
Vietnamese does; a stack of dozens only spills over the text around the name)."""


_cache: dict[str, dict[str, str]] = {}
_lock = threading.Lock()


@functools.cache
def side_names() -> frozenset[str]:
    """Every name of every game's sides, in every language (case-folded): no player may take one, so a
    name can never pass for a side (or for the other player) in the log and on the board."""
    found = {seat for name in game_names() for seat in get_rules(name).info.seats}
    for lang in LANGS:
        for domain in domains():
            for msg in catalog(lang, domain):
                if isinstance(msg.id, str) and msg.id.startswith("side:") and isinstance(msg.string, str):
                    found.update((msg.id.split(":")[1], msg.string))
    return frozenset(_folded(name) for name in found if name)


def _folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def clean_name(raw: str) -> str:
    """A name as shown: NFC, printable characters only, at most :data:`MAX_MARKS` combining marks on a
    character, spaces collapsed, at most 40 characters. A side's name is refused (400)."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw) if unicodedata.category(ch)[0] != "C")
    kept: list[str] = []
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks <= MAX_MARKS:
            kept.append(ch)
    name = " ".join("".join(kept).split())[:MAX_NAME]
    if name and _folded(name) in side_names():
        raise ApiError(400, "malformed", refusal("{name} is the name of a side: choose another name",
                                                         name=name))
    return name


def cached_names(game_id: str) -> dict[str, str]:
    """The names known for a game (empty until loaded or set)."""
    with _lock:
        return dict(_cache.get(game_id, {}))


def load_names(engine: Engine, game_id: str) -> dict[str, str]:
    """Read a game's names from the database into the cache (blocking: call from a thread)."""
    with engine.connect() as conn:
        rows = conn.execute(select(PlayerNameRow.seat, PlayerNameRow.name)
                            .where(PlayerNameRow.game_id == game_id)).all()
    names = {str(seat): str(name) for seat, name in rows}
    with _lock:
        _cache[game_id] = names
        if len(_cache) > 20000:
            _cache.pop(next(iter(_cache)))
    return names


def set_name(engine: Engine, game_id: str, seat: str, name: str) -> str:
    """Store (or clear, with an empty name) a seat's name; returns the cleaned name."""
    cleaned = clean_name(name)
    with engine.begin() as conn:
        conn.execute(delete(PlayerNameRow).where(PlayerNameRow.game_id == game_id, PlayerNameRow.seat == seat))
        if cleaned:
            conn.execute(insert(PlayerNameRow).values(game_id=game_id, seat=seat, name=cleaned))
    with _lock:
        names = _cache.setdefault(game_id, {})
        if cleaned:
            names[seat] = cleaned
        else:
            names.pop(seat, None)
    return cleaned


def names_of_games(engine: Engine, game_ids: list[str]) -> dict[str, dict[str, str]]:
    """The names given in several games at once, ``{game_id: {seat: name}}`` (blocking: call from a thread).

    The lobby's list of a browser's games shows who plays each seat; one query serves the whole list."""
    if not game_ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(select(PlayerNameRow.game_id, PlayerNameRow.seat, PlayerNameRow.name)
                            .where(PlayerNameRow.game_id.in_(set(game_ids)))).all()
    out: dict[str, dict[str, str]] = {}
    for game_id, seat, name in rows:
        out.setdefault(str(game_id), {})[str(seat)] = str(name)
    return out
