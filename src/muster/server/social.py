"""Between the two players of a game: resign, rematch, chat, presence; and each account's block list
(docs/web.md, "Resign and rematch", "Chat"; docs/security.md, "Chat and blocks").

Everything here acts through a seat: the seat's secret token together with its holder (the browser's device
session or the signed-in account, :func:`muster.server.holders.holder_of`), exactly as a move does. So a
spectator, or a player of another game, reaches nothing of it: no chat message is ever sent on a watching
socket or to any request that does not hold one of the game's seats.

* **Resign** ends the game as the resigning seat's loss (stored in ``game_endings``; the game's version moves
  on, so every page and every server process sees it over).
* **Rematch**: one seat offers, the other accepts; the new game swaps the sides, keeps the options and
  rating, and each player opens their new seat from their old one (both seats are bound to their holders at
  once, so nobody else can take them).
* **Chat** is stored with the game, at most :data:`MAX_CHAT_TEXT` characters a message, :data:`CHAT_PER_SEAT`
  messages a minute per seat (counted in the database, so for every process) and :data:`CHAT_PER_ADDRESS` per
  address (per process), :data:`MAX_CHAT_PER_GAME` in all.
* **Blocks**: an account blocks another by name; the blocked person's chat is hidden from the blocker, and
  neither can join the other's open games, claim the other's invitations or start a rematch with them.
* **Presence**: each poll of a seat's page notes when it was last open; the opponent sees "online now"
  (within :data:`ONLINE_S`) or when it was last seen.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from anyio import to_thread
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from muster.core import get_rules
from muster.error_texts import refusal
from muster.server import clocks, notify, ratings
from muster.server.accounts import _aware, _needs_account, name_key
from muster.server.db import (
    AccountBlockRow,
    AccountRow,
    ChatMessageRow,
    GameEndingRow,
    RematchRow,
    SeatPresenceRow,
    SeatRow,
    utcnow,
)
from muster.server.endpoints import api, hub_of, parse, read_json
from muster.server.holders import holder_of
from muster.server.hub import ApiError, Hub, LiveGame, hash_token
from muster.server.names import load_names, set_name

MAX_CHAT_TEXT = 500
"""The longest chat message (characters)."""
CHAT_PER_SEAT = 10
"""Chat messages one seat may send in a minute."""
CHAT_PER_ADDRESS = 30
"""Chat messages one address may send in a minute (over all its seats, in one server process)."""
MAX_CHAT_PER_GAME = 2000
"""Chat messages a game keeps at most (further ones are refused)."""
CHAT_PAGE = 200
"""Messages sent in one answer at most (a page asks again from the last it has)."""
MAX_BLOCKS = 500
"""Accounts one account may block."""
ONLINE_S = 60
"""A seat whose page asked within this many seconds is shown as online now."""
PRESENCE_EVERY_S = 15
"""A seat's presence is written at most this often (per process): the polls in between only read."""


# --- blocks ---------------------------------------------------------------------------------------
def blocked_between(engine: Engine, holders: Sequence[str | None]) -> bool:
    """Whether any two of these holders' accounts block one another (either way); guests block nobody."""
    accounts = {a for a in (ratings.account_of(h) for h in holders) if a is not None}
    if len(accounts) < 2:
        return False
    with Session(engine) as s:
        found = s.scalars(select(AccountBlockRow.account_id).where(AccountBlockRow.account_id.in_(accounts),
                                                                   AccountBlockRow.blocked_id.in_(accounts))).first()
        return found is not None


def blocks_of(engine: Engine, account_id: int) -> set[int]:
    """The accounts that ``account_id`` blocked or that blocked it."""
    with Session(engine) as s:
        out = set(s.scalars(select(AccountBlockRow.blocked_id).where(AccountBlockRow.account_id == account_id)))
        out |= set(s.scalars(select(AccountBlockRow.account_id).where(AccountBlockRow.blocked_id == account_id)))
        return out


def _blocked_by(engine: Engine, account_id: int) -> set[int]:
    with Session(engine) as s:
        return set(s.scalars(select(AccountBlockRow.blocked_id).where(AccountBlockRow.account_id == account_id)))


def refuse_blocked_invitation(engine: Engine, code: str, holder: str) -> None:
    """Refuse (403) to let ``holder`` claim an invitation into a game where a seat is held by someone it
    blocked or who blocked it (called before the claim)."""
    if ratings.account_of(holder) is None or not isinstance(code, str) or not 8 <= len(code) <= 128:
        return
    with Session(engine) as s:
        game_id = s.scalars(select(SeatRow.game_id).where(SeatRow.invite_hash == hash_token(code))).first()
        holders = list(s.scalars(select(SeatRow.holder).where(SeatRow.game_id == game_id))) if game_id else []
    if blocked_between(engine, [holder, *holders]):
        raise ApiError(403, "blocked", "you cannot join this game")


class BlockBody(BaseModel):
    """An account name to block, or to unblock with ``block`` false."""

    name: str = Field(max_length=100)
    block: bool = True


def _set_block(engine: Engine, account_id: int, name: str, block: bool) -> str:
    with Session(engine) as s, s.begin():
        other = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))).first()
        if other is None:
            raise ApiError(404, "not_found", "no such account")
        if other.id == account_id:
            raise ApiError(400, "malformed", "you cannot block yourself")
        if not block:
            s.execute(delete(AccountBlockRow).where(AccountBlockRow.account_id == account_id,
                                                    AccountBlockRow.blocked_id == other.id))
            return other.name
        count = s.scalar(select(func.count()).select_from(AccountBlockRow)
                         .where(AccountBlockRow.account_id == account_id)) or 0
        if count >= MAX_BLOCKS:
            raise ApiError(429, "too_many", refusal("you can block at most {n} accounts", n=MAX_BLOCKS))
        if s.get(AccountBlockRow, (account_id, other.id)) is None:
            try:
                with s.begin_nested():
                    s.add(AccountBlockRow(account_id=account_id, blocked_id=other.id, created_at=utcnow()))
            except IntegrityError:
                pass  # blocked at the same moment by another request
        return other.name


def _account_name(engine: Engine, account_id: int) -> str | None:
    with Session(engine) as s:
        return s.scalar(select(AccountRow.name).where(AccountRow.id == account_id))


def _block_list(engine: Engine, account_id: int) -> list[str]:
    with Session(engine) as s:
        return list(s.scalars(select(AccountRow.name).join(AccountBlockRow, AccountBlockRow.blocked_id == AccountRow.id)
                              .where(AccountBlockRow.account_id == account_id).order_by(AccountRow.name)))


async def blocks(request: Request) -> Response:
    """The account's block list (GET), or block / unblock one account by name (POST, with the CSRF token)."""
    found = _needs_account(request)
    engine = hub_of(request).store.engine
    if request.method == "POST":
        body = parse(BlockBody, await read_json(request))
        await to_thread.run_sync(_set_block, engine, found.account_id, body.name, body.block)
    return JSONResponse({"blocked": await to_thread.run_sync(_block_list, engine, found.account_id)})


# --- resign ---------------------------------------------------------------------------------------
async def _seat(request: Request) -> tuple[Hub, LiveGame, str]:
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    return hub, live, seat


async def resign(request: Request) -> Response:
    """End the game as this seat's loss (the opponent wins); both pages show it at once."""
    await read_json(request)
    hub, live, seat = await _seat(request)
    if live.seats[seat].kind != "human":
        raise ApiError(403, "forbidden", "only a person resigns")
    engine = hub.store.engine

    def record() -> None:
        with Session(engine) as s, s.begin():
            if s.get(GameEndingRow, live.id) is None:
                s.add(GameEndingRow(game_id=live.id, seat=seat, reason="resigned", created_at=utcnow()))
                notify.enqueue_others(s, "resigned", live.id, seat, key="end")

    def forget() -> None:
        with Session(engine) as s, s.begin():
            s.execute(delete(GameEndingRow).where(GameEndingRow.game_id == live.id))

    version = await hub.resign(live, seat, record, forget)
    await to_thread.run_sync(ratings.settle, engine, live.id)
    outcome = live.game.outcome
    return JSONResponse({"version": version, "winner": outcome.winner if outcome else None})


# --- rematch --------------------------------------------------------------------------------------
def _rematch_row(engine: Engine, game_id: str) -> RematchRow | None:
    with Session(engine) as s:
        return s.get(RematchRow, game_id)


def _offer(engine: Engine, game_id: str, seat: str) -> RematchRow:
    """Record ``seat``'s offer unless one is recorded; the row as it is now."""
    with Session(engine) as s, s.begin():
        row = s.get(RematchRow, game_id)
        if row is None:
            try:
                with s.begin_nested():
                    s.add(RematchRow(game_id=game_id, offered_by=seat, created_at=utcnow()))
                    notify.enqueue_others(s, "invitation", game_id, seat, key="rematch")
            except IntegrityError:
                pass
            row = s.get(RematchRow, game_id)
        assert row is not None
        s.expunge(row)
        return row


def _start(engine: Engine, game_id: str, new_game_id: str, invites: dict[str, str]) -> bool:
    """Record the rematch's new game, unless another request recorded one first."""
    with Session(engine) as s, s.begin():
        done = s.execute(RematchRow.__table__.update()  # type: ignore[attr-defined]
                         .where(RematchRow.game_id == game_id, RematchRow.new_game_id.is_(None))
                         .values(new_game_id=new_game_id, invites=json.dumps(invites)))
        return bool(done.rowcount)  # type: ignore[attr-defined]


async def rematch(request: Request) -> Response:
    """Offer a rematch of a finished game, or accept the opponent's offer (which starts it, sides swapped),
    or, once started, open this player's seat in it (the answer holds its token and link)."""
    await read_json(request)
    hub, live, seat = await _seat(request)
    engine = hub.store.engine
    if live.game.outcome is None:
        raise ApiError(409, "not_over", "a rematch is offered when the game is over")
    seats = live.seats
    if len(seats) != 2 or any(info.kind != "human" or not info.taken for info in seats.values()):
        raise ApiError(409, "forbidden", "a rematch is for a game between two people")
    holders = {s: info.holder for s, info in seats.items()}
    if await to_thread.run_sync(blocked_between, engine, list(holders.values())):
        raise ApiError(403, "blocked", "no rematch with this player")
    row = await to_thread.run_sync(_offer, engine, live.id, seat)
    if row.new_game_id is None and row.offered_by != seat:  # the other seat offered: start it
        other = next(s for s in seats if s != seat)
        swapped = {seat: holders[other], other: holders[seat]}  # each new seat goes to the other side's player
        made = await hub.create({s: "human" for s in seats}, dict(live.game.options), None, None,
                                live.game.rules.info.name)
        invites = {s: hash_token(code) for s, code in made.invitations.items()}
        for new_seat, holder in swapped.items():  # bound at once: nobody else can take them
            if holder is None:
                continue
            await to_thread.run_sync(hub.store.claim, invites[new_seat], hash_token(secrets.token_urlsafe(24)),
                                     holder)
        if not await to_thread.run_sync(_start, engine, live.id, made.game_id, invites):
            await to_thread.run_sync(_drop_game, engine, made.game_id)  # another request started it first
            hub.games.pop(made.game_id, None)
        else:
            names = await to_thread.run_sync(load_names, engine, live.id)
            for new_seat in seats:
                old_seat = next(s for s in seats if s != new_seat)
                if names.get(old_seat):
                    await to_thread.run_sync(set_name, engine, made.game_id, new_seat, names[old_seat])
            if await to_thread.run_sync(ratings.is_rated, engine, live.id):
                await to_thread.run_sync(ratings.mark_rated, engine, made.game_id)
            old_clock = await to_thread.run_sync(clocks.read, engine, live.id)  # the pace carries over
            await request.app.state.clocks.start_game(made.game_id, old_clock.pace if old_clock else "none")
        latest: RematchRow | None = await to_thread.run_sync(_rematch_row, engine, live.id)
        row = latest or row
    if row.new_game_id is None:
        return JSONResponse({"state": "offered", "offered_by": row.offered_by})
    invites = json.loads(row.invites or "{}")
    holder = holders[seat]
    new_seat = next(s for s in seats if s != seat)
    token = secrets.token_urlsafe(24)
    if holder is None:
        raise ApiError(409, "forbidden", "a rematch is for a game between two people")
    await to_thread.run_sync(hub.store.claim, invites[new_seat], hash_token(token), holder)
    new_live = await hub.get(row.new_game_id)
    await hub.seats_changed(new_live)
    return JSONResponse({"state": "started", "game_id": row.new_game_id, "seat": new_seat, "token": token,
                         "link": f"/play/{token}"})


def _drop_game(engine: Engine, game_id: str) -> None:
    from muster.server.db import GameRow

    with Session(engine) as s, s.begin():
        s.execute(delete(GameRow).where(GameRow.id == game_id))


# --- chat -----------------------------------------------------------------------------------------
class ChatBody(BaseModel):
    """One chat message."""

    text: str = Field(min_length=1, max_length=MAX_CHAT_TEXT * 4)


_ADDRESS_CHAT: dict[str, deque[float]] = {}


def _address_allows(address: str) -> bool:
    """Count one message from ``address``; False once it sent :data:`CHAT_PER_ADDRESS` in the last minute."""
    now = time.monotonic()
    sent = _ADDRESS_CHAT.setdefault(address, deque())
    while sent and sent[0] < now - 60:
        sent.popleft()
    if len(sent) >= CHAT_PER_ADDRESS:
        return False
    sent.append(now)
    if len(_ADDRESS_CHAT) > 10_000:  # forget the quietest addresses first (bounded memory)
        for key in [k for k, v in _ADDRESS_CHAT.items() if not v or v[-1] < now - 60]:
            del _ADDRESS_CHAT[key]
        while len(_ADDRESS_CHAT) > 10_000:
            _ADDRESS_CHAT.pop(next(iter(_ADDRESS_CHAT)))
    return True


def clean_text(raw: str) -> str:
    """A chat message as kept: NFC, no control characters but line breaks, at most three lines in a row
    blank, at most :data:`MAX_CHAT_TEXT` characters."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw)
                   if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text.strip()[:MAX_CHAT_TEXT]


def _post_chat(engine: Engine, game_id: str, seat: str, text: str) -> int:
    now = utcnow()
    with Session(engine) as s, s.begin():
        recent = s.scalar(select(func.count()).select_from(ChatMessageRow).where(
            ChatMessageRow.game_id == game_id, ChatMessageRow.seat == seat,
            ChatMessageRow.created_at > now - timedelta(seconds=60))) or 0
        if recent >= CHAT_PER_SEAT:
            raise ApiError(429, "rate_limited", "you are sending messages too fast: wait a minute")
        total = s.scalar(select(func.count()).select_from(ChatMessageRow)
                         .where(ChatMessageRow.game_id == game_id)) or 0
        if total >= MAX_CHAT_PER_GAME:
            raise ApiError(429, "too_many", "this game's chat is full")
        row = ChatMessageRow(game_id=game_id, seat=seat, text=text, created_at=now)
        s.add(row)
        s.flush()
        # one notice per ten minutes of talk, not one per message
        notify.enqueue_others(s, "chat", game_id, seat, key=str(int(now.timestamp()) // 600), text=text[:300])
        return int(row.id)


def _chat_since(engine: Engine, game_id: str, after: int, hidden: set[str]) -> list[dict[str, Any]]:
    with Session(engine) as s:
        rows = s.scalars(select(ChatMessageRow).where(ChatMessageRow.game_id == game_id, ChatMessageRow.id > after)
                         .order_by(ChatMessageRow.id).limit(CHAT_PAGE)).all()
        return [{"id": r.id, "seat": r.seat, "text": "" if r.seat in hidden else r.text,
                 "hidden": r.seat in hidden, "at": _aware(r.created_at).isoformat()} for r in rows]


async def chat(request: Request) -> Response:
    """Send a chat message to the opponent (players only; bounded in size and rate)."""
    body = parse(ChatBody, await read_json(request))
    hub, live, seat = await _seat(request)
    if live.seats[seat].kind != "human":
        raise ApiError(403, "forbidden", "only the players chat")
    text = clean_text(body.text)
    if not text:
        raise ApiError(400, "malformed", "an empty message")
    if not _address_allows((request.client.host if request.client else "?")[:60]):
        raise ApiError(429, "rate_limited", "too many messages from your address: wait a minute")
    message_id = await to_thread.run_sync(_post_chat, hub.store.engine, live.id, seat, text)
    return JSONResponse({"id": message_id}, status_code=201)


# --- what a seat's page polls ------------------------------------------------------------------------
_SEEN: dict[tuple[str, str], float] = {}


def _note_presence(engine: Engine, game_id: str, seat: str) -> None:
    now = utcnow()
    with Session(engine) as s, s.begin():
        row = s.get(SeatPresenceRow, (game_id, seat))
        if row is None:
            try:
                with s.begin_nested():
                    s.add(SeatPresenceRow(game_id=game_id, seat=seat, seen_at=now))
            except IntegrityError:
                pass
        else:
            row.seen_at = now


def _presence(engine: Engine, game_id: str) -> dict[str, dict[str, Any]]:
    now = utcnow()
    with Session(engine) as s:
        rows = s.scalars(select(SeatPresenceRow).where(SeatPresenceRow.game_id == game_id)).all()
        return {r.seat: {"online": (now - _aware(r.seen_at)).total_seconds() <= ONLINE_S,
                         "last_seen": _aware(r.seen_at).isoformat()} for r in rows}


async def social(request: Request) -> Response:
    """What a seat's page polls besides the game: chat after ``?after=``, the rematch, the opponent's
    presence, and the rating changes once the game is over."""
    hub, live, seat = await _seat(request)
    engine = hub.store.engine
    try:
        after = max(0, min(int(request.query_params.get("after", "0")), 2**62))
    except ValueError:
        after = 0
    key = (live.id, seat)
    now = time.monotonic()
    if now - _SEEN.get(key, -PRESENCE_EVERY_S) >= PRESENCE_EVERY_S:
        _SEEN[key] = now
        if len(_SEEN) > 100_000:
            _SEEN.clear()
        await to_thread.run_sync(_note_presence, engine, live.id, seat)
    me = ratings.account_of(live.seats[seat].holder)
    hidden: set[str] = set()
    mine: set[int] = set()
    if me is not None:
        mine = await to_thread.run_sync(_blocked_by, engine, me)
        hidden = {s for s, info in live.seats.items() if ratings.account_of(info.holder) in mine}
    others = [ratings.account_of(info.holder) for s, info in live.seats.items() if s != seat]
    other_account = others[0] if len(others) == 1 else None
    opponent = None
    if other_account is not None:
        name = await to_thread.run_sync(_account_name, engine, other_account)
        opponent = name and {"name": name, "blocked": other_account in mine}
    over = live.game.outcome is not None
    row = await to_thread.run_sync(_rematch_row, engine, live.id) if over else None
    if over:
        await to_thread.run_sync(ratings.settle, engine, live.id)
    presence = await to_thread.run_sync(_presence, engine, live.id)
    return JSONResponse({
        "seat": seat, "over": over,
        "chat": await to_thread.run_sync(_chat_since, engine, live.id, after, hidden),
        "rematch": None if row is None else {"offered_by": row.offered_by, "started": row.new_game_id is not None},
        "presence": {s: p for s, p in presence.items() if s != seat},
        "rated": await to_thread.run_sync(ratings.is_rated, engine, live.id),
        "ratings": await to_thread.run_sync(ratings.changes, engine, live.id) if over else {},
        "seats": list(get_rules(live.game.rules.info.name).info.seats),
        "humans": [s for s, info in live.seats.items() if info.kind == "human"],
        "opponent_account": opponent,
    })


def routes() -> list[Route]:
    """The routes of this module, for :func:`muster.server.app.create_app`."""
    return [
        Route("/api/seat/{token}/resign", api(resign), methods=["POST"]),
        Route("/api/seat/{token}/rematch", api(rematch), methods=["POST"]),
        Route("/api/seat/{token}/chat", api(chat), methods=["POST"]),
        Route("/api/seat/{token}/social", api(social)),
        Route("/api/account/blocks", api(blocks), methods=["GET", "POST"]),
    ]
