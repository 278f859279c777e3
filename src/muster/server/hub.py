"""Live games in memory: one lock per game, durable writes before acknowledging, broadcasts, bots.

Every change goes through :meth:`Hub.act` or :meth:`Hub.undo`, which hold the game's lock,
check the client's version (stale actions are refused), let :class:`muster.core.Game` validate
the action for that seat, store it durably, and only then acknowledge and broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from anyio import to_thread

from muster.ai import BotSpecError
from muster.core import (
    Action,
    Game,
    GameError,
    IllegalActionError,
    MalformedActionError,
    UndoError,
    game_names,
    get_rules,
)
from muster.core.rng import KEYED_SEED_MIN
from muster.error_texts import refusal
from muster.server import fallbacks
from muster.server.bots import BotPool, Choice, Job, check_spec
from muster.server.bus import Bus
from muster.server.errors import ApiError, words_of
from muster.server.names import load_names
from muster.server.observe import GAMES_CREATED, observe_action
from muster.server.sockets import STATES
from muster.server.store import (
    ClaimRefusedError,
    GroupWriter,
    NewSeat,
    SeatInfo,
    StaleWriteError,
    Store,
    StoredGame,
    Summary,
    Write,
)
from muster.server.views import seat_payload
from muster.server.wire import Writer

log = logging.getLogger("muster.server")


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a database leak must not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def encode(message: dict[str, Any]) -> bytes:
    """A message as JSON bytes (orjson: several times faster than the standard library).

    Messages are str-keyed as a rule, and orjson encodes those about twice as fast without its option for
    other keys (measured on a state message: 20 against 39 µs); a message with an int key somewhere is
    encoded again with it (its int keys become strings, as ``json.dumps`` makes them)."""
    try:
        return orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError is a TypeError: a key that is not a str
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def dumps(message: dict[str, Any]) -> str:
    """A message as JSON text (see :func:`encode`)."""
    return encode(message).decode()


class Connection:
    """One websocket of one seat (or a spectator), with its own bounded send queue.

    Messages are queued by :meth:`push` (which never waits) and sent in order: with a :class:`Writer`
    (uvicorn's websockets), everything queued is written at the event loop's next turn in one system
    call while the socket takes writes; otherwise (or while it does not) by the connection's own task,
    each send bounded by ``send_timeout`` seconds. A state waiting to be
    sent is replaced by a newer one (log lines merged), so a slow reader gets the latest position
    rather than a backlog. A client that still does not keep up (its queue reaches ``max_queue``
    messages, or one send times out) is dropped: its socket is closed and it gets no more messages
    (a page reconnects and resynchronises). So a slow or hostile reader can never hold back a game,
    another socket or an acknowledgement.
    """

    def __init__(self, seat: str | None, send_text: Callable[[str], Awaitable[None]],
                 close: Callable[[int], Awaitable[None]], max_queue: int = 64, send_timeout: float = 5.0,
                 writer: Writer | None = None) -> None:
        self.seat = seat
        self._send_text = send_text
        self._writer = writer
        """Writes several encoded messages at once (:mod:`muster.server.wire`); None: one ``send_text`` each."""
        self._flush_soon = False
        self._close = close
        self.max_queue = max_queue
        self.send_timeout = send_timeout
        self._queue: deque[dict[str, Any]] = deque()
        self.closed = False
        self.on_drop: Callable[[Connection], None] | None = None
        self.log_sent = 0
        self._task: asyncio.Task[None] | None = None  # the sender, alive only while there is something to send
        self.lang = "en"  # the reader's language: the log and messages are rendered in it
        self.shown_version = -1
        """The version of the last state pushed (:meth:`Hub.broadcast` sends no state twice for a move)."""
        self.full_version = -1
        """The game's version when this connection was last sent the full state (a sync at that version
        again is answered without it: the connection has it, or will have it, in order)."""

    def push(self, message: dict[str, Any]) -> None:
        """Queue one message (never waits); drops the connection if its queue is full."""
        if self.closed:
            return
        if len(self._queue) >= self.max_queue:
            self.drop(f"it fell {self.max_queue} messages behind")
            return
        if self._queue and message["type"] == "state" and self._queue[-1]["type"] == "state":
            # not sent yet: the newer state replaces it (a lagging reader gets the latest, not a backlog)
            self._queue[-1] = coalesce(self._queue[-1], message)
        else:
            self._queue.append(message)
        if self._task is None or self._task.done():
            if self._writer is None:
                self._task = asyncio.get_running_loop().create_task(self._pump())
            elif not self._flush_soon:
                # written at the loop's next turn, with whatever else is queued by then (an action's
                # acknowledgement and its new state go out in one system call): a callback, not a task
                self._flush_soon = True
                asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Write everything queued at once if the socket takes writes now; else leave it to the sender task,
        which waits (bounded by ``send_timeout``)."""
        self._flush_soon = False
        if self.closed or not self._queue or self._writer is None or (self._task is not None and not self._task.done()):
            return
        if not self._writer.ready():
            self._task = asyncio.get_running_loop().create_task(self._pump())
            return
        batch = [encode(m) for m in self._queue]
        self._queue.clear()
        try:
            self._writer.write_now(batch)
        except Exception:  # the socket died: the client reconnects if it wants
            self.drop(None)

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            # one timer per run of the sender (no extra task per send, unlike wait_for), restarted before
            # each further message: every send is bounded by send_timeout
            async with asyncio.timeout(self.send_timeout) as window:
                while self._queue:
                    if self._writer is not None:  # everything queued, in order, in one write
                        batch = [encode(m) for m in self._queue]
                        self._queue.clear()
                        await self._writer(batch)
                    else:
                        await self._send_text(dumps(self._queue.popleft()))
                    if self._queue:
                        window.reschedule(loop.time() + self.send_timeout)
        except TimeoutError:
            self.drop(f"a send took over {self.send_timeout:g} s")
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket died: the client reconnects if it wants
            self.drop(None)

    def drop(self, why: str | None) -> None:
        """Stop sending to this client and close its socket (in the background: closing may wait too)."""
        if self.closed:
            return
        self.closed = True
        self._queue.clear()
        if why:
            log.warning("dropped a slow websocket client (%s seat): %s", self.seat or "spectator", why)
        if self.on_drop:
            self.on_drop(self)
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        if why:
            task = asyncio.get_running_loop().create_task(self._close_quietly())
            _BACKGROUND.add(task)
            task.add_done_callback(_BACKGROUND.discard)

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(1013), 30)  # 1013: try again later


_BACKGROUND: set[asyncio.Task[None]] = set()


@dataclass
class LiveGame:
    """A game rebuilt in memory, with its lock, connections and bot task."""

    id: str
    game: Game
    version: int
    seats: dict[str, SeatInfo]
    bot_delay_ms: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bot_seeds: dict[str, int] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    stale: bool = False
    """Set when the database turned out to be ahead of this copy: it is rebuilt before its next use."""
    held: dict[tuple[str | None, str], dict[str, Any]] = field(default_factory=dict)
    """The state messages (whole log) of the seats shown the position at ``shown_at``, by seat and language,
    made once per position: the marks of the last moves replay the game to reach a position behind the
    newest, which a seat reloading again and again must not make the server do each time."""
    held_at: tuple[int, int] = (-1, -1)
    """The ``shown_at`` the messages in ``held`` are of."""
    shown_at: tuple[int, int] = (0, 0)
    """``(step, version)``: the position every seat but the acting one sees (see :meth:`shown_step`) and the
    version it is shown with. The version moves only when that position does, so an opponent learns
    nothing, not even that something happened, from a turn still being played or taken back."""

    def __post_init__(self) -> None:
        # Every seat reads the game through this server, which shows the others only the position at
        # shown_step: what a person does in a turn that can still be undone (a card played included) is
        # seen by nobody else, so the whole turn can be taken back (Game.hold_reveals).
        self.game.hold()
        step = self.shown_step()
        # a game rebuilt in the middle of a turn: the version the turn began at is not stored; each held
        # action took at least one version, so this one is never below it (nor above the current one)
        self.shown_at = (step, self.version - (len(self.game.actions) - step))

    def shown_step(self) -> int:
        """How many actions every seat but the acting one sees: a person's turn that can still be undone
        is held back from them; a bot's moves are shown as they are made (a bot never takes one back)."""
        active = self.game.active_seat
        info = self.seats.get(active) if active is not None else None
        if info is None or info.kind != "human":
            return len(self.game.actions)
        return self.game.shown_step

    def note_shown(self) -> None:
        """After a change of the game (with its lock held): move the others' position if it moved."""
        step = self.shown_step()
        if step != self.shown_at[0]:
            self.shown_at = (step, self.version)

    def sight(self, seat: str | None) -> tuple[Game, int]:
        """The game as ``seat`` (None: a spectator) may see it now, and the version to show it with: the
        acting seat sees everything; the others the position at :meth:`shown_step` (the held turn unseen)."""
        if seat is not None and seat == self.game.active_seat:
            return self.game, self.version
        step, version = self.shown_at
        if step == len(self.game.actions):
            return self.game, version
        return self.game.shown(), version

    def summary(self) -> Summary:
        """The listing fields after the latest change (the steps the other seats may see)."""
        outcome = self.game.outcome
        return Summary(self.version, self.shown_step(), self.game.active_seat,
                       "finished" if outcome else "active", outcome.winner if outcome else None,
                       outcome.to_json() if outcome else None)

    def bot_seed(self, seat: str) -> int:
        """The seed of the bot playing ``seat``.

        In a game with a secret key it is secret too and unrelated to the key, so the bot's choices reveal
        nothing about the deal or the dice. In a game whose creator chose the seed (only allowed against
        bots) it follows from that seed: the same seed and the same moves replay the same game, bots included.
        """
        if seat not in self.bot_seeds:
            if self.game.seed < KEYED_SEED_MIN:
                digest = hashlib.blake2b(f"bot:{self.game.seed}:{seat}".encode(), digest_size=8).digest()
                self.bot_seeds[seat] = int.from_bytes(digest, "big") >> 2
            else:
                self.bot_seeds[seat] = secrets.randbits(62)
        return self.bot_seeds[seat]

    def attach(self, conn: Connection) -> None:
        """Start pushing this game's changes to ``conn`` (it leaves by itself when dropped)."""
        conn.on_drop = self.conns.discard
        self.conns.add(conn)


@dataclass
class Created:
    """A new game: its id, the creator's seat token (none for a game of bots) and the invitations to the
    other seats played by people (each opens its seat once, for whoever claims it first)."""

    game_id: str
    tokens: dict[str, str] = field(default_factory=dict)
    invitations: dict[str, str] = field(default_factory=dict)


def secret_seed() -> int:
    """A fresh secret key for a game's generator: 256 bits from :mod:`secrets`, above
    :data:`muster.core.rng.KEYED_SEED_MIN`, so the game uses the keyed (cryptographic) generator."""
    return (1 << 256) | secrets.randbits(256)


class Hub:
    """All live games of this server process."""

    def __init__(self, store: Store, default_bot_delay_ms: int = 400, keep_games: int = 2000,
                 bots: BotPool | None = None, bus: Bus | None = None) -> None:
        self.store = store
        self.writer = GroupWriter(store)
        self.default_bot_delay_ms = default_bot_delay_ms
        self.games: dict[str, LiveGame] = {}
        self.keep_games = keep_games
        self._loading: dict[str, asyncio.Lock] = {}
        self.bots = bots or BotPool()
        self.bus = bus or Bus()
        self.closing = False
        self.bot_games_per_address = bot_games_per_address_from_env()
        """How many games between thinking bots one address may run at once (0: no limit)."""
        self._bot_games: dict[str, set[str]] = {}
        self.clock: Any = None
        """The game clocks (:class:`muster.server.clocks.Clocks`, set by the app): told of every change, and
        asked how long a bot waits."""
        self.on_move: Callable[[LiveGame, str], None] | None = None
        """Called after each stored and broadcast move with the game and the seat that moved (it must not
        wait: the server's notifications queue their work from it)."""

    # --- finding games --------------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The live game by id, rebuilt from the database by replay on first use."""
        if game_id in self.games:
            live = self.games.pop(game_id)  # move to the end: the dict's order is least recently used first
            self.games[game_id] = live
            if self.bus.size > 1 and not live.stale:  # read your writes made through another process
                stored_version = await to_thread.run_sync(self.store.version_of, game_id)
                live.stale = stored_version is not None and stored_version > live.version
            return await self.fresh(live)
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                if game_id in self.games:  # another request loaded it while we waited
                    return self.games[game_id]
                self._make_room()
                live = await self._load(game_id)
                self.games[game_id] = live
                self._evict()
                return live
        finally:
            self._loading.pop(game_id, None)  # unknown ids must not pile up locks

    async def _load(self, game_id: str) -> LiveGame:
        """Read a game from the database and rebuild it by replaying its actions."""
        stored = await to_thread.run_sync(self.store.load, game_id)
        if stored is None:
            raise ApiError(404, "not_found", refusal("no game {game}", game=repr(game_id)))
        current = get_rules(stored.game).info.version
        if stored.rules_version != current:
            # Replaying under other rules could fail, or worse, succeed with a position the players never saw.
            raise ApiError(409, "outdated", refusal(
                "game {game} was recorded under rules version {recorded}, and this server plays {current}: it can only "
                "be continued by the muster release that recorded it (the stored game is kept unchanged)",
                game=game_id, recorded=stored.rules_version, current=current))
        try:
            live = await to_thread.run_sync(self._rebuild, stored)
        except GameError as exc:  # e.g. recorded under rules that have changed since
            log.error("game %s does not replay: %s", game_id, exc)
            # the details stay in the server log: they may describe the other seat's decision
            raise ApiError(500, "corrupt", refusal(
                "game {game} cannot be rebuilt from its stored actions with the current rules (was it recorded by an "
                "older version?)", game=game_id)) from exc
        await to_thread.run_sync(fallbacks.load, self.store.engine, game_id)
        return live

    def _make_room(self) -> None:
        """Before holding one more game: evict idle ones; if every held game is busy, refuse (503), so
        memory stays bounded however many games are opened at once."""
        self._evict(room_for=1)
        if len(self.games) >= self.keep_games:
            raise ApiError(503, "busy", refusal(
                "the server holds {n} busy games, its limit: try again in a minute", n=len(self.games)))

    def _evict(self, room_for: int = 0) -> None:
        """Forget the oldest idle games beyond ``keep_games`` (they are rebuilt from the database on demand).

        Idle: nobody connected, no bot running, nobody holding its lock. Should a request still hold
        an evicted copy, the database's version check refuses its write, so nothing can apply twice.
        """
        excess = len(self.games) + room_for - self.keep_games
        for game_id in list(self.games):
            if excess <= 0:
                return
            live = self.games[game_id]
            if not live.conns and not live.lock.locked() and (live.bot_task is None or live.bot_task.done()):
                del self.games[game_id]
                excess -= 1

    @staticmethod
    def _rebuild(stored: StoredGame) -> LiveGame:
        game = Game(get_rules(stored.game), stored.seed, stored.options)
        game.hold()  # before the replay: a card played in the turn still open stays undoable
        for raw in stored.actions:
            game.apply(Action.from_json(raw))
        if stored.resigned is not None:
            game.resign(stored.resigned, stored.ending_reason)
        return LiveGame(stored.id, game, stored.version, stored.seats, stored.bot_delay_ms)

    async def by_token(self, token: str, holder: str | None) -> tuple[LiveGame, str]:
        """The game and seat a secret token opens for ``holder`` (who the request speaks for: see
        :mod:`muster.server.holders`). The token alone opens nothing: the seat must belong to ``holder``.
        A seat stored before holders existed becomes the first holder's."""
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            raise ApiError(404, "not_found", "unknown seat token")
        token_hash = hash_token(token)
        found = await to_thread.run_sync(self.store.seat_for_token, token_hash)
        if found is None:
            raise ApiError(404, "not_found", "unknown seat token")
        game_id, seat, bound = found
        if holder is None or (bound is not None and bound != holder) or (
                bound is None and not await to_thread.run_sync(self.store.bind_holder, token_hash, holder)):
            raise ApiError(403, "not_your_seat", "this seat belongs to the browser that took it: open it there "
                                                 "(a seat link does not work in another browser)")
        live = await self.get(game_id)
        if bound is None:
            await self.seats_changed(live)
        return live, seat

    async def claim(self, code: str, holder: str) -> tuple[LiveGame, str, str]:
        """Claim the seat an invitation leads to for ``holder``: (game, seat, the seat's new token).

        The token is made here and given only to the claimer; the invitation then opens nothing for anyone
        else. Claiming it again from the same holder replaces that holder's token."""
        if not isinstance(code, str) or not 8 <= len(code) <= 128:
            raise ApiError(404, "not_found", "unknown invitation")
        token = secrets.token_urlsafe(24)
        try:
            game_id, seat = await to_thread.run_sync(self.store.claim, hash_token(code), hash_token(token), holder)
        except ClaimRefusedError as exc:
            if exc.reason == "taken":
                raise ApiError(410, "invitation_taken", "someone else has already accepted this invitation: the seat "
                                                        "is taken (ask whoever invited you for a new game)") from exc
            raise ApiError(404, "not_found", "unknown invitation") from exc
        live = await self.get(game_id)
        await self.seats_changed(live)
        return live, seat, token

    async def seats_changed(self, live: LiveGame) -> None:
        """Who holds a seat changed: reread the seats, and tell this game's connections here and in the other
        processes."""
        live.seats = await to_thread.run_sync(self.store.seats_of, live.id)
        self.broadcast(live)
        if self.clock is not None:  # the clock starts once every person's seat is taken
            self.clock.moved(live)
        if self.bus.size > 1:
            await to_thread.run_sync(self.bus.tell, live.id, "seats")

    # --- bot-only games per address ---------------------------------------------------------
    async def check_bot_games(self, address: str, players: dict[str, str]) -> None:
        """Before creating a game between bots that think (not only random ones): refuse (429) if
        ``address`` already has ``bot_games_per_address`` of them running (created through this
        server process; whichever process plays them, the database says which are still running)."""
        if not self.bot_games_per_address or not _thinking_bots_only(players):
            return
        running = self._bot_games.get(address, set())
        if len(running) >= self.bot_games_per_address:
            still = await to_thread.run_sync(self.store.active_among, list(running))
            running.intersection_update(still)
        if len(running) >= self.bot_games_per_address:
            raise ApiError(429, "rate_limited", refusal(
                "your address already runs {n} games between bots: wait until one is over", n=len(running)))

    def note_bot_game(self, address: str, game_id: str, players: dict[str, str]) -> None:
        """A game between bots was created from ``address`` (counted by :meth:`check_bot_games`)."""
        if self.bot_games_per_address and _thinking_bots_only(players):
            self._bot_games.setdefault(address, set()).add(game_id)
            while len(self._bot_games) > 10_000:  # forget the oldest addresses (their games are long over)
                self._bot_games.pop(next(iter(self._bot_games)))

    # --- creating -------------------------------------------------------------------------
    async def create(self, players: dict[str, str], options: dict[str, str], seed: int | None,
                     bot_delay_ms: int | None, game_name: str, creator: str | None = None,
                     holder: str | None = None) -> Created:
        """Start a game of ``game_name``; ``players`` maps each seat to "human" or a bot spec, ``options`` are
        the game's (each one it has, with one of the values it allows).

        ``creator`` (a seat played by a person) is taken at once by ``holder``, with a token for the creator;
        every other seat played by a person gets a one-use invitation instead (see :meth:`claim`)."""
        rules = get_rules(game_name)
        if set(players) != set(rules.info.seats):
            raise ApiError(400, "malformed", refusal("give a player for each seat: {seats}",
                                                             seats=", ".join(rules.info.seats)))
        for name, value in options.items():
            if name not in rules.info.options:
                raise ApiError(400, "malformed", f"{game_name} has no option {name[:40]!r}")
            if value not in rules.info.options[name]:
                raise ApiError(400, "malformed", f"unknown {name[:40]} {value[:40]!r}")
        if creator is not None and (players.get(creator) != "human" or holder is None):
            raise ApiError(400, "malformed", "the creator's seat must be one played by a person")
        seats: list[NewSeat] = []
        made = Created("")
        for seat, who in players.items():
            if who == "human" and seat == creator:
                made.tokens[seat] = secrets.token_urlsafe(24)
                seats.append(NewSeat(SeatInfo(seat, "human", None, holder), token_hash=hash_token(made.tokens[seat])))
            elif who == "human":
                made.invitations[seat] = secrets.token_urlsafe(24)
                seats.append(NewSeat(SeatInfo(seat, "human", None, None, taken=False),
                                     invite_hash=hash_token(made.invitations[seat])))
            else:
                try:
                    check_spec(who, rules.info.name, max_seconds=self.bots.time_limit * 0.8)
                except Exception as exc:  # an unknown bot or a bad option: tell the player why
                    raise ApiError(400, "malformed", refusal("bad bot {bot}: {error}", bot=repr(who[:200]),
                                                                     error=str(exc))) from exc
                seats.append(NewSeat(SeatInfo(seat, "bot", who)))
        if seed is not None and all(new.info.kind == "human" for new in seats):
            # Whoever picks the seed of a game between people could compute the other's hand from it.
            raise ApiError(400, "malformed", "a game between two people is dealt from a secret key: "
                                             "a chosen seed is only for games against a bot")
        seed = secret_seed() if seed is None else seed
        self._make_room()
        delay = self.default_bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        made.game_id = game_id = secrets.token_hex(8)
        game = Game(rules, seed, options)
        live = LiveGame(game_id, game, 0, {new.info.seat: new.info for new in seats}, delay)
        await to_thread.run_sync(self.store.create_game, game_id, rules.info.name, rules.info.version, seed,
                                 game.options, delay, seats, live.summary())
        if self.bus.size > 1:  # first: with leases, announcing a new game takes its lease
            await to_thread.run_sync(self.bus.announce, game_id, self._bot_turn(live, game.active_seat))
        if self.bus.owns(game_id):  # another process gets its sockets: it loads the game when they come
            self.games[game_id] = live
            self._evict()
        self.schedule_bot(live)
        GAMES_CREATED.labels(game=rules.info.name).inc()
        return made

    # --- changing -------------------------------------------------------------------------
    @staticmethod
    def _check_version(live: LiveGame, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(400, "malformed", "send the version of the state you are acting on (an integer)")
        if version != live.version:
            raise ApiError(409, "stale", refusal(
                "the game has moved on (version {version}, you sent {sent}); reload the state and choose again",
                version=live.version, sent=version))

    async def act(self, live: LiveGame, seat: str, version: Any, raw_action: Any,
                  ack: Callable[[int], None] | None = None, fallback: str | None = None) -> int:
        """Validate and apply one action for ``seat``; stored durably before returning the new version.

        ``ack`` (if given) is called with the new version right after the commit, before anyone
        else is told: the acting client hears first. ``fallback`` (a bot's move played at random) is
        why: its notice is recorded with the move, so the players are told both at once."""
        started = time.perf_counter()
        try:
            action = Action.from_json(raw_action)
        except MalformedActionError as exc:
            raise ApiError(400, "malformed", refusal("not an action: {value}", value=repr(raw_action))) from exc
        async with live.lock:
            await self._catch_up(live, version)
            self._check_version(live, version)
            active = live.game.active_seat
            if active is not None and seat != active:
                raise ApiError(409, "wrong_seat", refusal("it is not {seat}'s turn (waiting for {active})", seat=seat,
                                                          active=active))
            game, expected = live.game, live.version
            old_state, step = game.state, len(game.actions)
            try:
                game.apply(action, seat=seat)
            except IllegalActionError as exc:
                if game.active_seat is None:
                    raise ApiError(409, "illegal", "the game is over") from exc
                raise ApiError(409, "illegal", refusal("illegal action {action} (prompt: {prompt})",
                                                       action=action.to_json(), prompt=str(game.prompt))) from exc
            except GameError as exc:
                raise ApiError(409, "illegal", words_of(exc)) from exc
            action_json = action.to_json()
            bot_turn = await self._commit(live, old_state, None, lambda new: Write(
                live.id, expected, new, step=step, seat=seat, action=action_json), "act", [seat, action_json])
            new_version = live.version
            notice = (fallbacks.Fallback(step, seat, len(game.log()), fallback) if fallback is not None
                      else None)
            if notice is not None:
                fallbacks.note(live.id, notice)
        if notice is not None:
            try:
                await to_thread.run_sync(fallbacks.store, self.store.engine, live.id, notice)
            except Exception:  # the notice is shown all the same; only a restart would forget it
                log.exception("could not store a fallback notice of game %s", live.id)
        if ack:
            ack(new_version)
        observe_action(live.game.rules.info.name, live.seats[seat].kind, started)
        if log.isEnabledFor(logging.INFO):
            log.info("game %s: %s acted (version %d)", live.id, seat, new_version,
                     extra={"event": "action", "game_id": live.id, "seat": seat, "version": new_version})
        if not self.bus.in_transaction():
            self.bus.publish(live.id, new_version, "act", [seat, action_json], bot_turn)
        self.changed(live)
        if self.on_move is not None:  # e.g. notices of the turn passing: queued after the move, off its path
            self.on_move(live, seat)
        return new_version

    async def undo(self, live: LiveGame, seat: str, version: Any, ack: Callable[[int], None] | None = None,
                   steps: Any = None) -> int:
        """Take back ``seat``'s current turn (when the rules allow it), or only its last ``steps`` actions."""
        if steps is not None and (not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 1000):
            raise ApiError(400, "malformed", "steps must be an integer from 1 to 1000 (or left out: the whole turn)")
        async with live.lock:
            await self._catch_up(live, version)
            self._check_version(live, version)
            game, expected = live.game, live.version
            old_state, old_actions = game.state, game.actions  # undo replays into a new list: this one stays as is
            try:
                game.undo(seat, steps)
            except UndoError as exc:
                raise ApiError(409, "undo", str(exc)) from exc
            keep = len(game.actions)
            bot_turn = await self._commit(live, old_state, old_actions,
                                          lambda new: Write(live.id, expected, new, keep=keep), "undo", keep)
            new_version = live.version
            self.log_reset(live)
            if any(f.step >= keep for f in fallbacks.cached(live.id)):  # their notices are taken back too
                await to_thread.run_sync(fallbacks.forget_from, self.store.engine, live.id, keep)
        if ack:
            ack(new_version)
        if not self.bus.in_transaction():
            self.bus.publish(live.id, new_version, "undo", keep, bot_turn)
        self.changed(live)
        return new_version

    async def resign(self, live: LiveGame, seat: str, record: Callable[[], None],
                     forget: Callable[[], None], reason: str = "resigned") -> int:
        """``seat`` resigns (or, with ``reason`` ``"timeout"``, ran out of time): the game ends as its loss.
        ``record`` stores the ending (in a worker thread) before the game's version moves on; ``forget`` takes
        it back if that move is refused."""
        async with live.lock:
            await self._catch_up(live)
            game, expected = live.game, live.version
            if game.outcome is not None:
                raise ApiError(409, "over", "the game is over")
            await to_thread.run_sync(record)
            old_state, old_actions = game.state, game.actions
            game.resign(seat, reason)
            keep = len(game.actions)
            try:  # stored as an undo that keeps every action: the other processes rebuild the game, ended
                await self._commit(live, old_state, old_actions,
                                   lambda new: Write(live.id, expected, new, keep=keep), "undo", keep)
            except ApiError:
                game.ended = None
                await to_thread.run_sync(forget)
                raise
            new_version = live.version
        if not self.bus.in_transaction():
            self.bus.publish(live.id, new_version, "undo", keep, False)
        self.changed(live)
        return new_version

    async def _commit(self, live: LiveGame, old_state: Any, old_actions: list[Action] | None,
                      write: Callable[[Summary], Write], kind: str, detail: Any) -> bool:
        """Store the change just made to ``live.game``, and only then let anyone see it. Returns whether
        it is now a bot's turn.

        Until the write commits, the game shows its stored position (``old_state`` and ``old_actions``;
        None: the change appended one action, which is taken off the list meanwhile, so no copy of the
        list is made): a reader never sees, and a player never acts on, a change that could still be
        lost or refused.
        """
        game = live.game
        summary = live.summary()
        summary = Summary(live.version + 1, summary.steps, summary.active_seat, summary.status, summary.winner,
                          summary.result)
        new_state, new_actions = game.state, game.actions
        if old_actions is None:
            appended = new_actions.pop()
        else:
            game.actions = old_actions
        game.state = old_state
        change = write(summary)
        bot_turn = self._bot_turn(live, summary.active_seat)
        if self.bus.in_transaction():
            change = replace(change, note=self.bus.notification(live.id, summary.version, kind, detail, bot_turn))
        try:
            await self.writer.submit(change)
        except StaleWriteError as exc:
            live.stale = True  # our copy is behind the database: rebuilt in place before its next use
            raise ApiError(409, "stale", str(exc)) from exc
        except Exception as exc:
            log.exception("could not store a change of game %s", live.id)
            raise ApiError(503, "storage", "the change could not be stored; nothing was changed") from exc
        if old_actions is None:
            new_actions.append(appended)
        game.state, game.actions = new_state, new_actions
        live.version += 1
        live.note_shown()
        return bot_turn

    @staticmethod
    def _bot_turn(live: LiveGame, seat: str | None) -> bool:
        return seat is not None and live.seats[seat].kind == "bot"

    async def _catch_up(self, live: LiveGame, client_version: Any = None) -> None:
        """With the game's lock held: rebuild a copy known to be behind the database, in place (so
        every connection holding it sees the current game). A client that sent a newer version than
        ours saw it from another server process: ours is behind too."""
        if isinstance(client_version, int) and client_version > live.version and self.bus.size > 1:
            live.stale = True
        if not live.stale:
            return
        stored = await to_thread.run_sync(self.store.load, live.id)
        if stored is None:
            raise ApiError(404, "not_found", refusal("no game {game}", game=repr(live.id)))
        fresh = await to_thread.run_sync(self._rebuild, stored)
        live.game, live.version, live.stale = fresh.game, fresh.version, False
        if fresh.shown_at[0] != live.shown_at[0]:  # else the others still see what they saw, at its version
            live.shown_at = fresh.shown_at
        self.log_reset(live)

    async def fresh(self, live: LiveGame) -> LiveGame:
        """The game, rebuilt first if it is known to be behind the database."""
        if live.stale:
            async with live.lock:
                await self._catch_up(live)
        return live

    def changed(self, live: LiveGame) -> None:
        """After a change: push the new state to everyone watching, and wake the bot if it is its turn."""
        self.broadcast(live, moved=True)
        if self.clock is not None:
            self.clock.moved(live)
        self.schedule_bot(live)

    def broadcast(self, live: LiveGame, moved: bool = False) -> None:
        """Queue for each connection the state as its seat may see it (never waits for a client).

        One payload per seat and language, holding only the log lines the furthest-behind of its
        connections lacks (the rest of the log is neither rendered nor sent again). ``moved``: the game
        changed, and nothing else did: a connection already shown what its seat may see (a seat waiting
        while the other plays a turn it can still undo) gets nothing, so not even the timing of the
        held moves reaches it."""
        STATES.forget(live.id)  # whatever changed (a move, a name), the game's cached full states are out of date
        if not moved:
            live.held.clear()  # a name, a seat taken, a notice: the held position's messages show them too
        groups: dict[tuple[str | None, str], list[Connection]] = {}
        for conn in live.conns:
            if not conn.closed:
                groups.setdefault((conn.seat, conn.lang), []).append(conn)
        positions: dict[tuple[int, bool], dict[str, Any]] = {}  # what the payloads of one position share
        for (seat, lang), conns in groups.items():
            game, version = live.sight(seat)
            if moved:
                conns = [conn for conn in conns if conn.shown_version != version]
                if not conns:
                    continue
            start = min(conn.log_sent for conn in conns)
            payload = sight_state(live, seat, lang, start, positions.setdefault((version, game is live.game), {}))
            for conn in conns:
                conn.shown_version = version
                conn.push(with_log(payload, conn))

    @staticmethod
    def log_reset(live: LiveGame) -> None:
        """The game's log was cut or rebuilt (an undo, a rebuild): its next push resends it whole."""
        for conn in live.conns:
            conn.log_sent = 0

    async def names_changed(self, live: LiveGame) -> None:
        """A seat's player name changed: push it to this game's connections, here and in the other processes."""
        self.broadcast(live)
        if self.bus.size > 1:
            await to_thread.run_sync(self.bus.tell, live.id, "names")

    # --- other server processes ---------------------------------------------------------------
    async def remote_change(self, game_id: str, version: int, kind: str, detail: Any, bot_turn: bool) -> None:
        """Another server process committed a change of ``game_id`` (now at ``version``): bring our copy
        up to date (one action applied, or a rebuild), push it to our clients, wake our bots.
        ``kind`` "names": a player renamed their seat; our clients of the game get the new names."""
        live = self.games.get(game_id)
        if kind == "adopt":  # this node took over the game's lease (its former node died): wake its bots
            if not self.closing:
                with contextlib.suppress(ApiError):
                    live = await self.get(game_id)
                    live.stale = True  # whatever copy we held may be behind the dead node's last moves
                    self.schedule_bot(await self.fresh(live))
            return
        if kind == "seats":
            if live is not None:
                live.seats = await to_thread.run_sync(self.store.seats_of, game_id)
                self.broadcast(live)
            return
        if kind == "names":
            STATES.forget(game_id)  # even with nobody connected here: the next to connect must see the new name
            if live is not None and live.conns:
                await to_thread.run_sync(load_names, self.store.engine, game_id)
                self.broadcast(live)
            return
        if live is not None and not live.conns and not self.bus.owns(game_id) and not live.lock.locked():
            del self.games[game_id]  # nobody here needs it: forget it rather than keep it up to date
            return
        if live is None:
            if bot_turn and self.bus.owns(game_id) and not self.closing:
                with contextlib.suppress(ApiError):
                    self.schedule_bot(await self.get(game_id))  # loaded from the database: current
            return
        async with live.lock:
            if live.version >= version:
                return
            if kind == "act" and live.version == version - 1 and not live.stale:
                seat, action = detail
                try:
                    live.game.apply(Action.from_json(action), seat=seat)
                    live.version = version
                    live.note_shown()
                except GameError:
                    live.stale = True
            else:
                live.stale = True
            await self._catch_up(live)
        self.changed(live)

    # --- bots ------------------------------------------------------------------------------
    def schedule_bot(self, live: LiveGame) -> None:
        """Start the game's bot task if a bot is to act and none is running (in the process owning it)."""
        seat = live.game.active_seat
        if self.closing or seat is None or live.seats[seat].kind != "bot" or not self.bus.owns(live.id):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveGame) -> None:
        while not self.closing:
            async with live.lock:
                await self._catch_up(live)
                seat = live.game.active_seat
                if seat is None or live.seats[seat].kind != "bot":
                    return
                legal, version = live.game.legal_actions(), live.version
                view = live.game.view(seat) if len(legal) > 1 else {}
            # with a pace, the bot plays at that pace (waiting here holds no lock: nothing else waits on it)
            await asyncio.sleep(await self.clock.bot_wait(live) if self.clock else live.bot_delay_ms / 1000)
            choice = await self._choose(live, seat, view, legal)
            try:
                await self.act(live, seat, version, choice.action.to_json(), fallback=choice.fallback)
            except ApiError as exc:
                if exc.code != "stale":
                    log.error("bot move refused in game %s: %s", live.id, exc.message)
                    return
                continue

    async def _choose(self, live: LiveGame, seat: str, view: dict[str, Any], legal: list[Action]) -> Choice:
        """The bot's choice, made in a worker process within the pool's time limit (never in this process,
        except a forced move or the random bot, which need no thought). A bot playing a person is served
        before the bots of games between bots."""
        spec = live.seats[seat].bot_spec or "random"
        try:  # the stored spec is not trusted either: it may predate the limits
            check_spec(spec, live.game.rules.info.name, max_seconds=self.bots.time_limit * 0.8)
        except BotSpecError as exc:
            log.warning("game %s: the %s bot %r is refused (%s); a random bot plays instead", live.id, seat,
                        spec[:200], exc)
            spec = "random"
        if len(legal) == 1:
            return Choice(legal[0])
        if spec == "random":
            return Choice(random.Random(live.bot_seed(seat) + live.version).choice(legal))
        job = Job(f"{live.id}:{seat}", spec, live.bot_seed(seat), seat, view, [a.to_json() for a in legal],
                  game=live.game.rules.info.name)
        urgent = any(info.kind == "human" for info in live.seats.values())
        return await self.bots.choose_noted(job, where=f"game {live.id}, {seat} bot {spec!r}", urgent=urgent)

    async def resume_bots(self) -> None:
        """After a restart: wake the bots of unfinished games waiting on them."""
        waiting = [g for name in game_names()
                   for g in await to_thread.run_sync(self.store.bot_games_waiting, get_rules(name).info.version)]
        for game_id in waiting:
            if not self.bus.owns(game_id):
                continue
            try:
                self.schedule_bot(await self.get(game_id))
            except Exception:
                log.exception("could not resume game %s", game_id)

    async def close(self) -> None:
        """Stop the bot tasks (at shutdown)."""
        self.closing = True
        tasks = [g.bot_task for g in self.games.values() if g.bot_task and not g.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await to_thread.run_sync(self.writer.close)
        await to_thread.run_sync(self.bots.close)
        self.bus.close()


def bot_games_per_address_from_env() -> int:
    """``MUSTER_BOT_GAMES_PER_ADDRESS``: games between thinking bots one client address may run at once
    (default 2; 0 turns the limit off)."""
    value = int(os.environ.get("MUSTER_BOT_GAMES_PER_ADDRESS", "2"))
    if not 0 <= value <= 10_000:
        raise ValueError("MUSTER_BOT_GAMES_PER_ADDRESS must be from 0 to 10000")
    return value


def _thinking_bots_only(players: dict[str, str]) -> bool:
    """A game between bots only, one of which at least thinks (uses the bot workers): the random bot costs
    nothing and is not counted."""
    return all(p != "human" for p in players.values()) and any(p != "random" for p in players.values())


def coalesce(pending: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """One state message standing for two consecutive ones not yet sent to a connection."""
    merged = dict(newer)
    if newer["log_from"] == pending["log_from"] + len(pending["log"]):  # the usual case: lines follow on
        merged["log_from"], merged["log"] = pending["log_from"], pending["log"] + newer["log"]
    return merged  # otherwise the newer one resent the log from its start (after an undo)


def full_state(live: LiveGame, seat: str | None, lang: str) -> dict[str, Any]:
    """The state message with the whole log for ``seat`` (None: a spectator) in ``lang``, as a
    connection gets it on opening or on a sync (built once per version, seat and language: see
    :class:`muster.server.sockets.StateCache`): the game as the seat may see it (:meth:`LiveGame.sight`)."""
    return STATES.get(live.id, live.version, seat, lang, lambda: sight_state(live, seat, lang))


def sight_state(live: LiveGame, seat: str | None, lang: str, log_from: int = 0,
                shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state message for ``seat`` in ``lang`` of the game as the seat may see it (:meth:`LiveGame.sight`),
    with the log from ``log_from`` on. Of a held position it holds the whole log, and is made once (see
    :attr:`LiveGame.held`): callers send only the lines a connection lacks (:func:`with_log`)."""
    game, version = live.sight(seat)
    if game is live.game:
        return seat_payload(game, live.id, version, seat, live.seats, lang, log_from, shared)
    if live.held_at != live.shown_at:
        live.held.clear()
        live.held_at = live.shown_at
    payload = live.held.get((seat, lang))
    if payload is None:
        payload = live.held[(seat, lang)] = seat_payload(game, live.id, version, seat, live.seats, lang)
    return payload


def with_log(payload: dict[str, Any], conn: Connection) -> dict[str, Any]:
    """The payload with only the log lines this connection does not have yet (the payload holds the
    lines from its ``log_from`` on, which is at most the connection's count)."""
    base: int = payload["log_from"]
    lines: list[Any] = payload["log"]
    total = base + len(lines)
    start = conn.log_sent if base <= conn.log_sent <= total else base  # after an undo the log shrank: resend it
    conn.log_sent = total
    cut = start - base
    if not cut:  # the connection lacks every line the payload holds: the payload as it is (messages are only read)
        return payload
    return {**payload, "log_from": start, "log": lines[cut:]}
