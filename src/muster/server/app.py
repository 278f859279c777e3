"""The Starlette app: JSON API, websocket, pages and static files."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from anyio import CapacityLimiter, to_thread
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from starlette._utils import get_route_path
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from muster.ai.levels import DEFAULT_LEVEL, LEVELS, level_name
from muster.ai.timing import LevelTimings
from muster.core import game_names, get_rules
from muster.core.registry import default_game, game_module
from muster.error_texts import refusal
from muster.i18n import N_, json_catalog, translator
from muster.server import clocks, fallbacks, metrics, notify
from muster.server.accounts import AccountSessions, AccountStore
from muster.server.accounts import routes as account_routes
from muster.server.analysis_routes import AnalysisService
from muster.server.analysis_routes import routes as analysis_routes
from muster.server.bots import pool_from_env
from muster.server.bus import bus_from_env
from muster.server.compute import advice_pool_from_env, analysis_pool_from_env
from muster.server.db import MIGRATIONS, make_engine, migrate
from muster.server.endpoints import api, hub_of, parse, read_json, seat_answer, web_adapter
from muster.server.games import adapter, analysis_of, static_data
from muster.server.guard import Guard, Limits, load_json
from muster.server.hints_routes import HintService, propose_at_creation
from muster.server.hints_routes import routes as hint_routes
from muster.server.holders import ensure_device, holder_of
from muster.server.hub import ApiError, Connection, Hub, LiveGame, full_state, hash_token, sight_state, with_log
from muster.server.lang import remember, request_lang
from muster.server.lobby import routes as lobby_routes
from muster.server.logs import RequestLog
from muster.server.names import MAX_NAME, clean_name, load_names, names_of_games, set_name
from muster.server.notify import service as notify_service
from muster.server.notify.routes import routes as notify_routes
from muster.server.observe import Sampler, check_database, healthz, readiness_route
from muster.server.observe import metrics as metrics_endpoint
from muster.server.ratings import routes as rating_routes
from muster.server.replay import Replays
from muster.server.settings import reload as reload_settings
from muster.server.social import refuse_blocked_invitation
from muster.server.social import routes as social_routes
from muster.server.sockets import MessageBudget, SocketGate, SocketLimits, connection_limit, receive_messages
from muster.server.store import Store
from muster.server.views import seat_name as seat_word
from muster.server.wire import batch_writer

STATIC = Path(__file__).with_name("static")


MAX_SEATS = 8
"""The most seats a game may have (a created game names each seat's player in the request body)."""
MAX_SEAT_ID = 16
"""The longest seat id (and option name) accepted in a request body."""
MAX_CHOICE = 200
"""The longest player choice ("human" or a level id) or option value accepted."""


class CreateGame(BaseModel):
    """A new game: each seat of the game is a field, "human" or a bot level id (``{"game": g, "north": "human",
    "south": "strongest"}``; see /api/meta); optional options (the game's, as /api/meta lists them), seed, bot
    pace and the names of the people playing."""

    model_config = ConfigDict(extra="allow")  # the seats are the game's own: each a field of its id

    game: str = Field(default_factory=default_game, max_length=40)
    options: dict[str, str] = Field(default_factory=dict, max_length=MAX_SEATS)
    """The game's options by name (each value one of those /api/meta lists for it)."""
    ruleset: str | None = Field(default=None, max_length=MAX_SEAT_ID)
    """Short for ``options.ruleset`` (a game with a ``ruleset`` option); ignored by a game without one."""
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    bot_delay_ms: int | None = Field(default=None, ge=0, le=10_000)
    names: dict[str, str] = Field(default_factory=dict, max_length=MAX_SEATS)
    hints: str | None = Field(default=None, max_length=MAX_SEAT_ID)
    """The creator's seat when the creator turns hints on (the other person must still accept)."""
    pace: str = Field(default="none", max_length=MAX_SEAT_ID)
    """The game's pace (docs/web.md, "Paces and clocks"): none, live, fast or slow."""
    seat: str | None = Field(default=None, max_length=MAX_SEAT_ID)
    """The creator's own seat among those played by people (default: the first of them); every other seat
    played by a person gets a one-use invitation."""

    @model_validator(mode="after")
    def _seats_bounded(self) -> CreateGame:
        """Each extra field is a seat: a short id with a short text, and no more of them than a game has seats."""
        extra = self.model_extra or {}
        if len(extra) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seats")
        for key, value in extra.items():
            if len(key) > MAX_SEAT_ID or not isinstance(value, str) or not 1 <= len(value) <= MAX_CHOICE:
                raise ValueError(f"{key[:MAX_SEAT_ID]!r}: a seat is given as \"human\" or a bot level id")
        for key, value in self.options.items():
            if len(key) > MAX_SEAT_ID or len(value) > MAX_CHOICE:
                raise ValueError("an option is a short name with a short value")
        return self

    def choice(self, seat: str) -> str | None:
        """The player chosen for ``seat`` (None if not given)."""
        found = (self.model_extra or {}).get(seat)
        return found if isinstance(found, str) else None

    def game_options(self) -> dict[str, str]:
        """The options asked for, ``ruleset`` folded in where the game has that option; each option the lobby
        offers and the body leaves out takes its first value (the game's default). ApiError for an option
        players may not choose."""
        info = get_rules(self.game).info
        options = dict(self.options)
        if self.ruleset is not None and "ruleset" in info.options:
            options.setdefault("ruleset", self.ruleset)
        offered = lobby_options(self.game)
        for name in options:
            if name not in offered:
                raise ApiError(400, "malformed", f"{self.game} has no option {name[:40]!r} to choose")
        return {**{name: info.options[name][0] for name in offered}, **options}

    @field_validator("names")
    @classmethod
    def _names_allowed(cls, names: dict[str, str]) -> dict[str, str]:
        """Refuse (400) a name no player may take, before the game is created."""
        for name in names.values():
            clean_name(name)
        return names


class NameBody(BaseModel):
    """The name a person gives their seat (shown to the opponent)."""

    name: str = Field(max_length=MAX_NAME * 4)


class ActBody(BaseModel):
    """An action (``[verb, arg]``) and the version of the state it was chosen in."""

    version: Any = None
    action: Any = None


class UndoBody(BaseModel):
    """An undo request and the version of the state it was asked in (``steps``: only the turn's last ones)."""

    version: Any = None
    steps: Any = None


class MyGames(BaseModel):
    """The seat tokens a browser remembers."""

    tokens: list[str] = Field(max_length=500)


# The bot levels' names (muster.ai.levels), for the lobby's t(); a test checks they match. How a level plays each
# game is the game's own sentence (its module's levels), translated in its catalog.
LEVEL_WORDS = (N_("Beginner"), N_("Standard"), N_("Strongest"))


def lobby_options(game: str) -> tuple[str, ...]:
    """The options of ``game`` players choose when creating one (its web adapter's ``lobby_options``)."""
    web = web_adapter(game)
    options = get_rules(game).info.options
    return tuple(o for o in getattr(web, "lobby_options", ()) if o in options)


# How long a level's bot thinks, as this install measured it (muster.ai.timing), after the level's sentence.
THINKS = N_("On this server it thinks about %(seconds)s s over a move.")


def think_sentence(tr: Any, seconds: float | None) -> str | None:
    """The lobby's sentence on how long a level thinks here (None until measured, or for a level that answers at
    once): tenths of a second, at least one, written the language's way."""
    if seconds is None:
        return None
    return str(tr.gettext(THINKS) % {"seconds": tr.number(max(0.1, round(seconds, 1)))})


def game_meta(name: str, tr: Any, timings: LevelTimings | None = None) -> dict[str, Any]:
    """What the lobby offers for one game: its title, seats, the options it lets players choose, its bot levels
    (named for players, each with the game's sentence on how it plays and, once ``timings`` measured it, how
    long it thinks on this install), and where its browser files are."""
    module = game_module(name)
    info = get_rules(name).info
    web = web_adapter(name)
    english = {s: d["name"] for s, d in web.static_data()["seats"].items()} if web else {}
    offered = lobby_options(name)
    files = module.static_dir
    return {"name": name, "title": tr.gettext(module.title), "seats": list(info.seats), "web": web is not None,
            "seat_names": {s: seat_word(tr, s, english) for s in info.seats},
            "options": {o: list(info.options[o]) for o in offered},
            "levels": [{"id": lv.id, "name": lv.name, "description": module.levels[lv.id].description,
                        "think": think_sentence(tr, timings.of(name, lv.id) if timings else None)}
                       for lv in LEVELS if lv.id in module.levels],
            "default_level": DEFAULT_LEVEL if DEFAULT_LEVEL in module.levels else next(iter(module.levels), None),
            "analysis": analysis_of(name) is not None, "paces": clocks.table(name),
            "rules": f"/rules/{name}" if module.rules_pages else None,
            "board": f"/static/games/{name}/board.js" if web else None,
            "lobby": f"/static/games/{name}/lobby.js" if (files / "lobby.js").is_file() else None}


@api
async def meta(request: Request) -> Response:
    """What can be chosen when creating a game: every registered game (see :func:`game_meta`), listed first the
    default one, and the bot pace."""
    tr = translator(request_lang(request))
    games = [game_meta(n, tr, getattr(request.app.state, "level_timings", None)) for n in game_names()]
    first = next((g for g in games if g["web"]), games[0])
    return JSONResponse({"games": games, "game": first["name"], "default_level": first["default_level"],
                         "bot_delay_ms": hub_of(request).default_bot_delay_ms}, headers={"Vary": VARY_LANG})


@api
async def cards(request: Request) -> Response:
    """Every card's printed face of a game (public knowledge), in ``?lang=`` or the browser's language."""
    try:
        data = static_data(request.path_params.get("game") or default_game(), request_lang(request))
    except KeyError as exc:
        raise ApiError(404, "not_found", "unknown game") from exc
    return JSONResponse(data.get("cards", []), headers={"Vary": VARY_LANG})


@api
async def i18n_catalog(request: Request) -> Response:
    """The browser's message catalog of one language (the same source as the server's)."""
    try:
        data = json_catalog(request.path_params["lang"])
    except ValueError as exc:
        raise ApiError(404, "not_found", str(exc)) from exc
    return JSONResponse(data, headers={"Cache-Control": "public, max-age=300"})


@api
async def game_data(request: Request) -> Response:
    """A game's public static data for its board module (spaces, areas, cards, track ranges), whether the game
    has an analysis (the shell offers the analysis page and hints only then) and its rules page's address."""
    game = request.path_params["game"]
    try:
        data = {**static_data(game, request_lang(request)), "analysis": analysis_of(game) is not None,
                "rules": f"/rules/{game}" if game_module(game).rules_pages else None}
    except KeyError as exc:
        raise ApiError(404, "not_found", "unknown game") from exc
    return JSONResponse(data, headers={"Cache-Control": "public, max-age=3600", "Vary": VARY_LANG})


def player_spec(seat: str, choice: str | None, game: str) -> str:
    """A seat's player from the lobby: "human" or a level id (never a free bot spec), as the bot playing
    ``game`` at that level (the game's module says which)."""
    if choice is None:
        raise ApiError(400, "malformed", refusal("{seat}: choose \"human\" or a bot level", seat=seat))
    if choice == "human":
        return choice
    levels = game_module(game).levels
    if choice not in levels:
        ids = ", ".join(lv.id for lv in LEVELS if lv.id in levels)
        raise ApiError(400, "malformed", refusal("{seat}: choose \"human\" or a bot level ({levels})", seat=seat,
                                                 levels=ids))
    return levels[choice].spec


@api
async def create_game(request: Request) -> Response:
    """Start a game; the answer holds one secret token per human seat."""
    body = parse(CreateGame, await read_json(request))
    if body.game not in game_names() or web_adapter(body.game) is None:
        raise ApiError(400, "malformed", refusal("unknown game {game}; web games: {games}", game=repr(body.game),
                                                 games=", ".join(n for n in game_names() if web_adapter(n))))
    seats = get_rules(body.game).info.seats
    if any(key not in seats for key in body.model_extra or {}):
        raise ApiError(400, "malformed", refusal("{game} has the seats {seats}", game=body.game,
                                                 seats=", ".join(seats)))
    players = {seat: player_spec(seat, body.choice(seat), body.game) for seat in seats}
    if any(seat not in players or players[seat] != "human" for seat in body.names):
        raise ApiError(400, "malformed", "names may be given only for seats played by people")
    if body.hints and players.get(body.hints) != "human":
        raise ApiError(400, "malformed", "hints must be proposed by a seat played by a person")
    people = [seat for seat in seats if players[seat] == "human"]
    creator = body.seat or (people[0] if people else None)
    if creator is not None and creator not in people:
        raise ApiError(400, "malformed", refusal("your seat must be one played by a person ({seats})",
                                                 seats=", ".join(people) or "none"))
    if body.hints and body.hints != creator:
        raise ApiError(400, "malformed", "hints are proposed by the creator, for the creator's own seat")
    clocks.pace(body.game, body.pace)  # an unknown pace is refused before anything is created
    holder, device = ensure_device(request)
    hub = hub_of(request)
    address = request.client.host if request.client else "?"
    await hub.check_bot_games(address, players)  # games between bots are capped per address (docs/security.md)
    made = await hub.create(players, body.game_options(), body.seed, body.bot_delay_ms, body.game, creator, holder)
    hub.note_bot_game(address, made.game_id, players)
    for seat, name in body.names.items():
        await to_thread.run_sync(set_name, hub.store.engine, made.game_id, seat, name)
    await request.app.state.clocks.start_game(made.game_id, body.pace)
    if body.hints:
        await propose_at_creation(hub.store.engine, await hub.get(made.game_id), body.hints)
    return seat_answer(request, device, {
        "game_id": made.game_id, "seat": creator, "tokens": made.tokens,
        "links": {seat: f"/play/{t}" for seat, t in made.tokens.items()}, "invitations": made.invitations,
        "invitation_links": {seat: f"/join/{code}" for seat, code in made.invitations.items()}}, status=201)


@api
async def invitation(request: Request) -> Response:
    """What an invitation offers (game, seat, the inviter's name) and whether it can still be claimed."""
    hub = hub_of(request)
    code = request.path_params["code"]
    found = await to_thread.run_sync(hub.store.invitation, hash_token(code)) if 8 <= len(code) <= 128 else None
    if found is None:
        raise ApiError(404, "not_found", "unknown invitation")
    names = await to_thread.run_sync(load_names, hub.store.engine, found.game_id)
    holder = holder_of(request)
    state = "open" if not found.claimed else "yours" if holder is not None and found.holder == holder else "taken"
    seats = get_rules(found.game).info.seats
    return JSONResponse({"game": found.game, "title": get_rules(found.game).info.title, "seat": found.seat,
                         "state": state, "finished": found.status != "active",
                         "inviter": {s: names.get(s) for s in seats if s != found.seat}})


@api
async def claim_invitation(request: Request) -> Response:
    """Take the seat an invitation leads to: the answer (and only it) holds the seat's token, bound to this
    browser; afterwards the invitation opens nothing for anyone else."""
    await read_json(request)  # an empty JSON object: the body says nothing, but it must be a JSON request
    holder, device = ensure_device(request)
    hub = hub_of(request)

    await to_thread.run_sync(refuse_blocked_invitation, hub.store.engine, request.path_params["code"], holder)
    live, seat, token = await hub.claim(request.path_params["code"], holder)
    notify.joined(hub.store.engine, live.id, seat, live.game.active_seat)
    return seat_answer(request, device, {"game_id": live.id, "game": live.game.rules.info.name, "seat": seat,
                                         "token": token, "link": f"/play/{token}"})


@api
async def seat_name(request: Request) -> Response:
    """Name this seat's player (shown to the opponent from the next state message on)."""
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    body = parse(NameBody, await read_json(request))
    name = await to_thread.run_sync(set_name, hub.store.engine, live.id, seat, body.name)
    await hub.names_changed(live)
    return JSONResponse({"seat": seat, "name": name})


@api
async def seat_state(request: Request) -> Response:
    """The game as this seat sees it."""
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    await to_thread.run_sync(load_names, hub.store.engine, live.id)
    # the other's turn as far as it cannot be taken back
    return JSONResponse(sight_state(live, seat, request_lang(request)))


@api
async def seat_act(request: Request) -> Response:
    """Apply one action for this seat (refused if stale, illegal, or not this seat's turn)."""
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    body = parse(ActBody, await read_json(request))
    version = await hub.act(live, seat, body.version, body.action)
    return JSONResponse({"type": "ack", "version": version})


@api
async def seat_undo(request: Request) -> Response:
    """Take back this seat's current turn."""
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    body = parse(UndoBody, await read_json(request))
    version = await hub.undo(live, seat, body.version, steps=body.steps)
    return JSONResponse({"type": "ack", "version": version})


@api
async def my_games(request: Request) -> Response:
    """The games of the tokens a browser remembers, with whose turn it is."""
    body = parse(MyGames, await read_json(request))
    by_hash = {hash_token(t): t for t in body.tokens if isinstance(t, str)}
    rows = await to_thread.run_sync(hub_of(request).store.games_for_tokens, list(by_hash), holder_of(request))
    ids = [info["game_id"] for _, info in rows]
    named = await to_thread.run_sync(names_of_games, hub_of(request).store.engine, ids)
    timed = await to_thread.run_sync(clocks.views, hub_of(request).store.engine, ids)
    current = {n: get_rules(n).info.version for n in game_names()}
    # who plays: a bot by its level's name (never its spec), a person by the name they gave
    games = [{**info, "token": by_hash[h], "your_turn": info["active_seat"] == info["seat"],
              "levels": {s: level_name(spec, info["game"]) for s, spec in info["players"].items() if spec != "human"},
              "names": named.get(info["game_id"], {}), "clock": timed.get(info["game_id"]),
              "outdated": info["rules_version"] != current.get(info["game"])} for h, info in rows]
    games.sort(key=lambda g: (not g["your_turn"], g["status"] != "active", g["updated_at"] or ""), reverse=False)
    return JSONResponse({"games": games})


@api
async def game_status(request: Request) -> Response:
    """Public facts of a game: finished or not, whose turn, how many steps (nothing hidden)."""
    live = await hub_of(request).get(request.path_params["game_id"])
    outcome = live.game.outcome
    shown, version = live.sight(None)
    return JSONResponse({"game_id": live.id, "status": "finished" if outcome else "active",
                         "active_seat": live.game.active_seat, "steps": len(shown.actions),
                         "version": version, "winner": outcome.winner if outcome else None,
                         "players": {s: info.bot_spec or "human" for s, info in live.seats.items()},
                         "levels": {s: level_name(info.bot_spec, live.game.rules.info.name)
                                    for s, info in live.seats.items() if info.bot_spec},
                         "bot_fallbacks": len(fallbacks.cached(live.id))})


async def _replay_access(request: Request) -> tuple[LiveGame, str | None]:
    """A finished game is open to anyone (spectator view); an ongoing one only to its seats."""
    hub = hub_of(request)
    token = request.query_params.get("token")
    if token:
        live, seat = await hub.by_token(token, holder_of(request))
        if live.id != request.path_params["game_id"]:
            raise ApiError(403, "forbidden", "that token belongs to another game")
        return live, seat
    live = await hub.get(request.path_params["game_id"])
    if live.game.outcome is None:
        raise ApiError(403, "forbidden", "this game is not finished; only its players may replay it (send a token)")
    return live, None


@api
async def replay(request: Request) -> Response:
    """The game at one step, as the asking seat (or a spectator of a finished game) saw it then."""
    live, seat = await _replay_access(request)
    try:
        step = int(request.query_params.get("step", "0"))
    except ValueError as exc:
        raise ApiError(400, "malformed", "step must be an integer") from exc
    replays: Replays = request.app.state.replays
    async with live.lock:
        actions, version = list(live.sight(seat)[0].actions), live.version
    # one thread builds replay frames, however many clients step at once: play never waits behind them
    body = await to_thread.run_sync(replays.frame_json, live, version, actions, step, seat, request_lang(request),
                                    limiter=request.app.state.replay_threads)
    return Response(body, media_type="application/json")


@api
async def export(request: Request) -> Response:
    """The game as JSON: a full save file once finished; before that, only what the seat may know."""
    live, seat = await _replay_access(request)
    game = live.sight(seat)[0]
    if game.outcome is not None:
        data: dict[str, Any] = {**game.to_record(), "outcome": game.outcome.to_json()}
    else:
        view = game.view(seat)
        data = {"format": "muster-seat-export", "game": game.rules.info.name, "seat": seat,
                "options": game.options, "view": view,
                # a game with hidden choices (face-down cards, upright blocks) shows them masked
                "actions": [adapter(game.rules.info.name).public_action(a) for a in game.actions]}
    data["game_id"] = live.id
    data["players"] = {s: info.bot_spec or "human" for s, info in live.seats.items()}
    headers = {"Content-Disposition": f'attachment; filename="muster-{live.id}.json"'}
    return JSONResponse(data, headers=headers)


async def refuse(ws: WebSocket, exc: ApiError) -> None:
    """Accept, send the error, and close with code 4000 + HTTP status, so the page can say why and stop retrying."""
    await ws.accept()
    message = exc.to_json(request_lang(ws))
    await ws.send_json(message)
    # a close reason is at most 123 bytes: cut the (maybe Polish) message on a character boundary
    await ws.close(code=4000 + exc.status, reason=str(message["error"]).encode()[:120].decode(errors="ignore"))


async def websocket_endpoint(ws: WebSocket) -> None:
    """A seat's live connection: state pushes out; actions, undo and sync requests in."""
    hub = hub_of(ws)
    try:
        live, seat = await hub.by_token(ws.path_params["token"], holder_of(ws))
    except ApiError as exc:
        await refuse(ws, exc)
        return
    await ws.accept()
    await to_thread.run_sync(load_names, hub.store.engine, live.id)
    conn = Connection(seat, ws.send_text, lambda code: ws.close(code), writer=batch_writer(ws.scope))
    conn.lang = request_lang(ws)
    live.attach(conn)
    try:
        live = await hub.fresh(live)
        _push_full_state(live, seat, conn)
        await receive_messages(ws, _budget(ws), lambda: not conn.closed,
                               lambda text: _ws_message(hub, live, seat, conn, text))
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the client went away (possibly while we answered it); it reconnects if it wants
    finally:
        conn.drop(None)


async def watch_endpoint(ws: WebSocket) -> None:
    """A spectator's live connection to a game of bots only (spectator view: both hands hidden)."""
    hub = hub_of(ws)
    try:
        live = await hub.get(ws.path_params["game_id"])
        if any(info.kind == "human" for info in live.seats.values()):
            raise ApiError(403, "forbidden", "only games between bots can be watched")
    except ApiError as exc:
        await refuse(ws, exc)
        return
    await ws.accept()
    conn = Connection(None, ws.send_text, lambda code: ws.close(code), writer=batch_writer(ws.scope))
    conn.lang = request_lang(ws)
    live.attach(conn)
    try:
        live = await hub.fresh(live)
        _push_full_state(live, None, conn)
        # spectators only listen: anything they send is ignored, within the same budget as a seat's messages
        await receive_messages(ws, _budget(ws), lambda: not conn.closed, _ignore)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    finally:
        conn.drop(None)


MAX_MESSAGE_ID = 64
"""The longest string id of a websocket message that is echoed back in its answer."""


def _push_full_state(live: LiveGame, seat: str | None, conn: Connection) -> None:
    """Send ``conn`` the whole state (on opening, or asked by a sync): built at most once per version."""
    conn.full_version = live.version
    conn.shown_version = live.sight(seat)[1]
    conn.log_sent = 0
    conn.push(with_log(full_state(live, seat, conn.lang), conn))


def _budget(ws: WebSocket) -> MessageBudget:
    """A new socket's message budget (the app's :class:`SocketLimits`)."""
    limits: SocketLimits = ws.app.state.socket_limits
    return MessageBudget(limits.messages_per_second, limits.message_burst)


async def _ignore(_text: str) -> None:
    """A spectator's message: nothing to do."""


async def _ws_message(hub: Hub, live: LiveGame, seat: str, conn: Connection, text: str) -> None:
    """Handle one client message; errors go back to this socket only."""
    msg_id: Any = None
    started = time.perf_counter()
    try:
        msg = load_json(text, "message")
        if not isinstance(msg, dict):
            raise ApiError(400, "malformed", "a message is a JSON object with a 'type'")
        msg_id = msg.get("id")
        if not (msg_id is None or (isinstance(msg_id, int) and abs(msg_id) < 2**53)
                or (isinstance(msg_id, str) and len(msg_id) <= MAX_MESSAGE_ID)):
            msg_id = None  # an id is echoed in the answer: only a short one is (a page numbers its messages)
        kind = msg.get("type")
        def ack(version: int) -> None:  # the acting socket hears first, before the state goes out
            conn.push({"type": "ack", "id": msg_id, "version": version})
            if metrics.enabled():  # once the sender has written it (it runs first: it was scheduled first)
                asyncio.get_running_loop().call_soon(metrics.record, started)

        if kind == "action":
            await hub.act(live, seat, msg.get("version"), msg.get("action"), ack=ack)
        elif kind == "undo":
            await hub.undo(live, seat, msg.get("version"), ack=ack, steps=msg.get("steps"))
        elif kind == "sync":
            await hub.fresh(live)
            if conn.full_version == live.version:  # it has the whole state of this version already
                conn.push({"type": "synced", "id": msg_id, "version": live.sight(seat)[1]})
            else:
                _push_full_state(live, seat, conn)
        else:
            raise ApiError(400, "malformed", refusal("unknown message type {kind} (use action, undo or sync)",
                                                     kind=repr(kind)))
    except ApiError as exc:
        conn.push({**exc.to_json(conn.lang), "id": msg_id})


async def readiness(request: Request) -> dict[str, tuple[bool, str]]:
    """The readiness checks: the database answers, its schema is current, the bot workers live."""
    hub = hub_of(request)
    checks = await check_database(hub.store.engine, str(MIGRATIONS))
    workers = list(getattr(hub.bots, "_all", []))
    dead = sum(1 for w in workers if not w.process.is_alive())
    checks["bots"] = (dead == 0, f"{len(workers) - dead} of {len(workers)} bot workers alive" if workers
                      else "bot workers start with the first bot move")
    return checks


VARY_LANG = "Accept-Language, Cookie"  # the answer depends on the reader's language


@functools.cache
def page_text(name: str) -> str:
    """A static page's HTML (read once)."""
    return (STATIC / name).read_text("utf-8")


def page(name: str) -> Any:
    """An endpoint serving one of the static HTML pages."""
    async def endpoint(request: Request) -> Response:
        """Serve the page in the reader's language (never cached, so an upgrade shows at once)."""
        lang = request_lang(request)
        translated = name.replace(".html", f".{lang}.html")  # a page written in that language, if there is one
        html = (page_text(translated) if (STATIC / translated).exists() else page_text(name)).replace(
            '<html lang="en">', f'<html lang="{lang}">', 1).replace("{{default_game}}", default_game())
        response = HTMLResponse(html, headers={"Cache-Control": "no-cache", "Vary": VARY_LANG})
        return remember(response, request)
    endpoint.__doc__ = f"The {name} page."
    return endpoint


@functools.cache
def rules_text(game: str, lang: str) -> str | None:
    """A game's rules page in ``lang`` (its English one, or its first, when it has none in ``lang``), read once;
    None for a game without rules pages."""
    module = game_module(game)
    pages = module.rules_pages
    if not pages:
        return None
    name = pages.get(lang) or pages.get("en") or next(iter(pages.values()))
    return (module.static_dir / name).read_text("utf-8")


async def rules_page(request: Request) -> Response:
    """A game's rules summary (``/rules/<game>``), from its module's ``rules_pages``, in the reader's language
    where the game has it; served like the other pages (never cached)."""
    lang = request_lang(request)
    game = request.path_params["game"]
    html = rules_text(game, lang) if game in game_names() else None
    if html is None:
        return PlainTextResponse("Not Found", status_code=404)
    response = HTMLResponse(html.replace('<html lang="en">', f'<html lang="{lang}">', 1),
                            headers={"Cache-Control": "no-cache", "Vary": VARY_LANG})
    return remember(response, request)


class GameFiles:
    """``/static/games/<game>/<file>``: each game's ``static/`` folder (its ``board.js``, an optional
    ``lobby.js``, pictures), found through its module and served like the shell's own static files (same
    validators, same headers). A game that is not registered answers 404."""

    def __init__(self) -> None:
        self.folders: dict[str, StaticFiles] = {}

    def folder(self, game: str) -> StaticFiles | None:
        """The static files of a registered game (None for any other name)."""
        if game not in self.folders:
            if game not in game_names():
                return None
            self.folders[game] = StaticFiles(directory=game_module(game).static_dir, check_dir=False)
        return self.folders[game]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Serve one file of one game's folder."""
        game, _, rest = get_route_path(scope).lstrip("/").partition("/")
        files = self.folder(game) if game and rest else None
        if files is None:
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
            return
        await files({**scope, "root_path": f"{scope.get('root_path', '')}/{game}"}, receive, send)


async def favicon(request: Request) -> Response:
    """A tiny icon, so browsers do not log a missing file."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


GC_THRESHOLDS = (20_000, 50, 100)
"""The cyclic collector's thresholds in a server process (Python's defaults: 700, 10, 10).

Every live game's state is long-lived, while an action's garbage is freed by reference counting
(a full collection after 2,000 actions over 1,000 live games found no unreachable object). With
the defaults the collector rescanned every live game every second or two at full load, pausing
the server 0.3–1 s each time with 1,000 games held: the worst latency of all. With these, young
collections are rare and full ones far rarer."""


def tune_gc() -> None:
    """At startup: move what was built so far (modules, static data) out of the collector's sight
    for good, and set :data:`GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(database_url: str | None = None, bot_delay_ms: int | None = None, limits: Limits | None = None,
               max_live_games: int | None = None) -> Starlette:
    """The web app, storing games in ``database_url`` (default: the ``database_url`` setting, ./muster.db).

    ``limits``: per-client rates (default: :meth:`Limits.from_env`); ``max_live_games``: how many games the
    process holds in memory at most (default: the ``max_live_games`` setting, 2000; idle ones are evicted
    and rebuilt from the database on demand). Settings: :mod:`muster.server.settings`.
    """
    config = reload_settings()  # this process's settings, read now (muster serve may have just set some)
    url = database_url or config.database_url
    delay = bot_delay_ms if bot_delay_ms is not None else config.bot_delay_ms
    live_cap = max_live_games or config.max_live_games

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """Migrate the database, build the hub and wake waiting bots; stop them at shutdown."""
        # The database writer thread must get the interpreter back soon after each fsync: the default
        # 5 ms switch interval would add up to 5 ms to every acknowledgement while the event loop is busy.
        sys.setswitchinterval(0.0005)
        engine = make_engine(url)
        await to_thread.run_sync(migrate, engine)
        bus = bus_from_env(url)
        app.state.hub = Hub(Store(engine), delay, keep_games=live_cap, bots=pool_from_env(), bus=bus)
        app.state.replays = Replays()
        app.state.accounts = AccountStore(engine)
        app.state.replay_threads = CapacityLimiter(1)
        # analyses, hints and live curves are computed in worker processes of their own, never in this one
        analysis_pool, advice_pool = analysis_pool_from_env(), advice_pool_from_env()
        app.state.analysis = AnalysisService.from_env(engine, analysis_pool, advice_pool)
        app.state.hints = HintService(advice_pool)
        await bus.start(app.state.hub.remote_change)
        app.state.clocks = app.state.hub.clock = clocks.Clocks(app.state.hub)
        app.state.clocks.start()  # every process looks for deadlines; one acts on each (a conditional update)
        await app.state.hub.resume_bots()
        app.state.sampler = Sampler(app.state.hub)
        app.state.sampler.start()
        app.state.level_timings = LevelTimings()  # the lobby says how long each level thinks here, once measured
        app.state.level_timings.start()
        app.state.notifier = await notify_service.start(app, engine)
        tune_gc()
        try:
            yield
        finally:
            await app.state.level_timings.stop()
            await app.state.sampler.stop()
            await app.state.clocks.stop()
            await app.state.hub.close()
            await app.state.notifier.stop()
            await analysis_pool.close()
            await advice_pool.close()
            engine.dispose()
            metrics.save()

    routes = [
        *analysis_routes(page),
        *hint_routes(),
        *account_routes(page),
        *lobby_routes(page), *social_routes(), *rating_routes(page), *clocks.routes(), *notify_routes(page),
        Route("/", page("index.html")),
        Route("/play/{token}", page("play.html")),
        Route("/join/{code}", page("join.html")),
        Route("/rules/{game}", rules_page),
        Route("/replay/{game_id}", page("replay.html")),
        Route("/favicon.ico", favicon),
        Route("/healthz", healthz),
        readiness_route(readiness),
        Route("/health", readiness_route(readiness).endpoint),
        Route("/metrics", metrics_endpoint),
        Route("/api/meta", meta),
        Route("/api/cards", cards),
        Route("/api/cards/{game}", cards),
        Route("/api/i18n/{lang}", i18n_catalog),
        Route("/api/game-data/{game}", game_data),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/my-games", my_games, methods=["POST"]),
        Route("/api/invitations/{code}", invitation),
        Route("/api/invitations/{code}/claim", claim_invitation, methods=["POST"]),
        Route("/api/seat/{token}", seat_state),
        Route("/api/seat/{token}/action", seat_act, methods=["POST"]),
        Route("/api/seat/{token}/undo", seat_undo, methods=["POST"]),
        Route("/api/seat/{token}/name", seat_name, methods=["POST"]),
        Route("/api/games/{game_id}/status", game_status),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/games/{game_id}/export", export),
        Mount("/static/games", GameFiles(), name="game-static"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    sockets = [WebSocketRoute("/ws/watch/{game_id}", watch_endpoint), WebSocketRoute("/ws/{token}", websocket_endpoint)]
    socket_limits = SocketLimits.from_env(total=connection_limit())
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(RequestLog), Middleware(Guard, limits=limits), Middleware(AccountSessions),
                                Middleware(SocketRoutes, routes=sockets, gate=SocketGate(socket_limits))])
    app.state.socket_limits = socket_limits
    return app


class SocketRoutes:
    """The websocket routes, reached straight from the middleware above them.

    A live websocket keeps its whole chain of ASGI calls suspended for as long as it is open. Through
    Starlette's exception middleware and router that chain is a dozen coroutines and wrappers, about 4 KB
    a socket, which a server holding two sockets for each of a thousand live games holds two thousand
    times. So the routes are matched here (by Starlette's own ``WebSocketRoute.matches``) and their endpoints
    called directly. Our endpoints raise none of the exceptions those layers turn into responses, so nothing
    they did is lost. Other paths go on to the app (whose router refuses them).
    """

    def __init__(self, app: Any, routes: Sequence[WebSocketRoute], gate: SocketGate | None = None) -> None:
        self.app = app
        self.routes = routes
        self.gate = gate or SocketGate(SocketLimits())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the endpoint of a websocket route (if the :class:`SocketGate` lets it open), or pass the
        connection on."""
        if scope["type"] == "websocket":
            for route in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    if self.gate.refusal(scope) is not None:
                        # closed before the handshake completes (uvicorn answers 403): no state is built,
                        # no file descriptor kept
                        await send({"type": "websocket.close", "code": 1008})
                        return
                    with self.gate.holding(scope):
                        await route.endpoint(WebSocket(scope, receive=receive, send=send))
                    return
        await self.app(scope, receive, send)
