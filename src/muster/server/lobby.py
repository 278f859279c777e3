"""The lobby: open games anyone may join (docs/web.md, "The lobby").

A person posts an open game (which game, their side or a random one, the ruleset, rated or not): the game is
created at once with the poster in their seat, and the other seat waits behind an invitation that nobody is
given, known only by its hash. Whoever joins from the lobby claims that seat through the same conditional
update as an invitation link (:meth:`muster.server.store.Store.claim`), for their account or their browser's
device session; the first to join wins it, and the post leaves the lobby. Private invitations by link are
unchanged. The poster may withdraw an open game nobody joined (the game is deleted), and open games expire
after :data:`POST_TTL_S` (deleted with their game the next time the lobby is read or posted to).

Bounds (docs/security.md): :data:`POSTS_PER_HOLDER` open posts per person, :data:`POSTS_PER_ADDRESS` per
address, :data:`MAX_POSTS` in all, and a listing of at most :data:`LIST_LIMIT`. A rated game needs an account
on both sides; the posts of someone you blocked (or who blocked you) are neither listed for you nor joinable.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from anyio import to_thread
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from muster.core import game_names, get_rules
from muster.core.registry import default_game
from muster.error_texts import refusal
from muster.server import clocks, notify, ratings
from muster.server.accounts import _aware, signed_in
from muster.server.db import GameRow, LobbyPostRow, SeatRow, utcnow
from muster.server.endpoints import api, hub_of, parse, read_json, seat_answer, web_adapter
from muster.server.holders import ensure_device, holder_of
from muster.server.hub import ApiError, hash_token
from muster.server.names import MAX_NAME, clean_name, set_name
from muster.server.social import blocked_between, blocks_of

POST_TTL_S = 24 * 3600
"""How long an open game waits in the lobby for someone to join (a day)."""
POSTS_PER_HOLDER = 3
"""Open games one person (account or browser) may have in the lobby at once."""
POSTS_PER_ADDRESS = 6
"""Open games one address may have in the lobby at once."""
MAX_POSTS = 500
"""Open games the lobby holds at most."""
LIST_LIMIT = 200
"""Open games listed at most (the newest)."""


class PostBody(BaseModel):
    """An open game: the game, the poster's side ("random" for either), the ruleset, rated or not, and a
    guest's name (an account posts under its own)."""

    game: str | None = Field(default=None, max_length=40)
    side: str = Field(default="random", max_length=16)
    ruleset: str | None = Field(default=None, max_length=16)
    rated: bool = False
    name: str | None = Field(default=None, max_length=MAX_NAME * 4)
    pace: str = Field(default="none", max_length=16)
    """The game's pace (muster.server.clocks): none, live, fast or slow."""


class JoinBody(BaseModel):
    """A guest's name when joining (an account joins under its own)."""

    name: str | None = Field(default=None, max_length=MAX_NAME * 4)


def _address(request: Request) -> str:
    return (request.client.host if request.client else "?")[:60]


def _sweep(engine: Engine) -> list[str]:
    """Delete the expired posts with their games (nobody joined them); the ids of the games deleted."""
    now = utcnow()
    with Session(engine) as s, s.begin():
        game_ids = list(s.scalars(select(LobbyPostRow.game_id).where(LobbyPostRow.expires_at < now).limit(500)))
        if game_ids:
            s.execute(delete(LobbyPostRow).where(LobbyPostRow.game_id.in_(game_ids)))
            s.execute(delete(GameRow).where(GameRow.id.in_(game_ids)))
        return game_ids


def _count_open(engine: Engine, holder: str, address: str) -> tuple[int, int, int]:
    with Session(engine) as s:
        def count(*where: Any) -> int:
            return int(s.scalar(select(func.count()).select_from(LobbyPostRow).where(*where)) or 0)
        return count(LobbyPostRow.poster == holder), count(LobbyPostRow.address == address), count()


def _add_post(engine: Engine, row: LobbyPostRow) -> None:
    with Session(engine) as s, s.begin():
        s.add(row)


async def post(request: Request) -> Response:
    """Post an open game: created now with the poster seated; the answer holds the poster's seat token."""
    body = parse(PostBody, await read_json(request))
    game = body.game or default_game()
    if game not in game_names() or web_adapter(game) is None:
        raise ApiError(400, "malformed", f"unknown game {game!r}")
    info = get_rules(game).info
    if len(info.seats) != 2:
        raise ApiError(400, "malformed", "the lobby has games for two players")
    if body.side != "random" and body.side not in info.seats:
        raise ApiError(400, "malformed", refusal("choose a side of {seats} or random",
                                                          seats=", ".join(info.seats)))
    ruleset = body.ruleset or (info.options["ruleset"][0] if "ruleset" in info.options else "")  # the game's default
    if "ruleset" in info.options and ruleset not in info.options["ruleset"]:
        raise ApiError(400, "malformed", refusal("unknown ruleset {ruleset}", ruleset=repr(ruleset)))
    clocks.pace(game, body.pace)  # an unknown pace is refused before anything is created
    account = signed_in(request)
    if body.rated and account is None:
        raise ApiError(403, "not_signed_in", "log in to post a rated game")
    name = account.name if account is not None else clean_name(body.name or "") or "Guest"
    hub = hub_of(request)
    engine = hub.store.engine
    holder, device = ensure_device(request)
    address = _address(request)
    for gone in await to_thread.run_sync(_sweep, engine):
        hub.games.pop(gone, None)
    mine, from_address, total = await to_thread.run_sync(_count_open, engine, holder, address)
    if mine >= POSTS_PER_HOLDER or from_address >= POSTS_PER_ADDRESS:
        raise ApiError(429, "too_many", "you have enough open games waiting: withdraw one first")
    if total >= MAX_POSTS:
        raise ApiError(503, "busy", "the lobby is full: try again later")
    seat = body.side if body.side != "random" else secrets.choice(info.seats)
    other = next(s for s in info.seats if s != seat)
    options = {"ruleset": ruleset} if "ruleset" in info.options else {}
    made = await hub.create({s: "human" for s in info.seats}, options, None, None, game, seat, holder)
    await to_thread.run_sync(set_name, engine, made.game_id, seat, name)
    await request.app.state.clocks.start_game(made.game_id, body.pace)  # runs once someone joins
    now = utcnow()
    post_id = secrets.token_hex(8)
    await to_thread.run_sync(_add_post, engine, LobbyPostRow(
        id=post_id, game_id=made.game_id, seat=other, invite_hash=hash_token(made.invitations[other]),
        poster=holder, poster_name=name, address=address, rated=body.rated, created_at=now,
        expires_at=now + timedelta(seconds=POST_TTL_S)))
    token = made.tokens[seat]
    return seat_answer(request, device, {"post_id": post_id, "game_id": made.game_id, "seat": seat,
                                         "token": token, "link": f"/play/{token}"}, status=201)


def _listing(engine: Engine, holder: str | None, hidden: set[int]) -> list[dict[str, Any]]:
    now = utcnow()
    with Session(engine) as s:
        rows = s.execute(select(LobbyPostRow, GameRow).join(GameRow, GameRow.id == LobbyPostRow.game_id)
                         .where(LobbyPostRow.expires_at >= now)
                         .order_by(LobbyPostRow.created_at.desc()).limit(LIST_LIMIT)).all()
    paced = clocks.paces_of(engine, [game.id for _row, game in rows])
    out = []
    for row, game in rows:
        if ratings.account_of(row.poster) in hidden:
            continue
        info = get_rules(game.game).info
        options = _options(game.options)
        out.append({"id": row.id, "game": game.game, "title": info.title, "seat": row.seat,
                    "poster_seat": next(s for s in info.seats if s != row.seat), "poster": row.poster_name,
                    "ruleset": options.get("ruleset"), "rated": row.rated, "mine": row.poster == holder,
                    "pace": paced.get(game.id, "none"),
                    "created_at": _aware(row.created_at).isoformat(),
                    "expires_at": _aware(row.expires_at).isoformat()})
    return out


def _options(text: str) -> dict[str, str]:
    import json

    data = json.loads(text or "{}")
    return data if isinstance(data, dict) else {}


async def listing(request: Request) -> Response:
    """The open games, newest first (without those of anyone you blocked or who blocked you)."""
    hub = hub_of(request)
    engine = hub.store.engine
    for gone in await to_thread.run_sync(_sweep, engine):
        hub.games.pop(gone, None)
    account = signed_in(request)
    hidden = await to_thread.run_sync(blocks_of, engine, account.account_id) if account else set()
    posts = await to_thread.run_sync(_listing, engine, holder_of(request), hidden)
    return JSONResponse({"posts": posts, "signed_in": account is not None})


def _post_row(engine: Engine, post_id: str) -> LobbyPostRow | None:
    with Session(engine) as s:
        return s.get(LobbyPostRow, post_id)


def _take_post(engine: Engine, post_id: str) -> None:
    with Session(engine) as s, s.begin():
        s.execute(delete(LobbyPostRow).where(LobbyPostRow.id == post_id))


async def join(request: Request) -> Response:
    """Join an open game: its free seat becomes this person's (first come, first served)."""
    body = parse(JoinBody, await read_json(request))
    post_id = request.path_params["post_id"]
    hub = hub_of(request)
    engine = hub.store.engine
    row = await to_thread.run_sync(_post_row, engine, post_id) if len(post_id) <= 32 else None
    if row is None or _aware(row.expires_at) < utcnow():
        raise ApiError(404, "not_found", "this open game is gone (joined, withdrawn or expired)")
    account = signed_in(request)
    holder, device = ensure_device(request)
    if row.poster == holder:
        raise ApiError(409, "own_game", "this is your own open game")
    if row.rated and account is None:
        raise ApiError(403, "not_signed_in", "log in to join a rated game")
    if await to_thread.run_sync(blocked_between, engine, [row.poster, holder]):
        raise ApiError(403, "blocked", "you cannot join this game")
    token = secrets.token_urlsafe(24)
    from muster.server.store import ClaimRefusedError

    try:
        game_id, seat = await to_thread.run_sync(hub.store.claim, row.invite_hash, hash_token(token), holder)
    except ClaimRefusedError as exc:
        raise ApiError(410, "invitation_taken", "someone else joined this game first") from exc
    await to_thread.run_sync(_take_post, engine, post_id)
    name = account.name if account is not None else clean_name(body.name or "") or "Guest"
    await to_thread.run_sync(set_name, engine, game_id, seat, name)
    if row.rated and ratings.account_of(row.poster) is not None:
        await to_thread.run_sync(ratings.mark_rated, engine, game_id)
    live = await hub.get(game_id)
    await hub.seats_changed(live)
    await hub.names_changed(live)
    notify.joined(engine, game_id, seat, live.game.active_seat)
    return seat_answer(request, device, {"game_id": game_id, "seat": seat, "token": token,
                                         "link": f"/play/{token}"})


def _withdraw(engine: Engine, post_id: str, holder: str | None) -> str | None:
    """Delete one's own open game nobody joined; its game id (None if there is no such post of ``holder``)."""
    with Session(engine) as s, s.begin():
        row = s.get(LobbyPostRow, post_id)
        if row is None or holder is None or row.poster != holder:
            return None
        joined = s.scalars(select(SeatRow.id).where(SeatRow.game_id == row.game_id, SeatRow.seat == row.seat,
                                                    SeatRow.token_hash.is_not(None))).first()
        s.execute(delete(LobbyPostRow).where(LobbyPostRow.id == post_id))
        if joined is None:
            s.execute(delete(GameRow).where(GameRow.id == row.game_id))
        return row.game_id


async def withdraw(request: Request) -> Response:
    """Withdraw one's own open game (the game is deleted: nobody had joined it)."""
    await read_json(request)
    post_id = request.path_params["post_id"]
    hub = hub_of(request)
    game_id = await to_thread.run_sync(_withdraw, hub.store.engine, post_id[:32], holder_of(request))
    if game_id is None:
        raise ApiError(404, "not_found", "no such open game of yours")
    hub.games.pop(game_id, None)
    return JSONResponse({"withdrawn": True})


def routes(page: Any) -> list[Route]:
    """The lobby's routes, for :func:`muster.server.app.create_app` (``page`` serves a static page)."""
    return [
        Route("/lobby", page("lobby.html")),
        Route("/api/lobby", api(listing)),
        Route("/api/lobby", api(post), methods=["POST"]),
        Route("/api/lobby/{post_id}/join", api(join), methods=["POST"]),
        Route("/api/lobby/{post_id}/withdraw", api(withdraw), methods=["POST"]),
    ]
