"""Live games in memory: one lock per game, durable writes before acknowledging, broadcasts, bots.

Every change goes through :meth:`Hub.act` or :meth:`Hub.undo`, which hold the game's lock,
check the client's version (stale actions are refused), let :class:`muster.core.Game` validate
the action for that seat, store it durably, and only then acknowledge and broadcast.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from anyio import CapacityLimiter, to_thread

from muster.ai import Bot, make_bot
from muster.core import (
    Action,
    Game,
    GameError,
    MalformedActionError,
    UndoError,
    get_rules,
)
from muster.server.store import GroupWriter, SeatInfo, StaleWriteError, Store, StoredGame, Summary
from muster.server.views import seat_payload

log = logging.getLogger("muster.server")


class ApiError(Exception):
    """A refused request: an HTTP status, a short machine code and a message in words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def to_json(self) -> dict[str, Any]:
        """The error as sent to clients."""
        return {"type": "error", "code": self.code, "error": self.message}


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a database leak must not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One websocket of one seat (or a spectator): serialises its sends, remembers the log it has."""

    def __init__(self, seat: str | None, send: Any) -> None:
        self.seat = seat
        self._send = send
        self._lock = asyncio.Lock()
        self.log_sent = 0
        self.lang = "en"  # the reader's language: the log and messages are rendered in it

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message (never interleaved with another send on this socket)."""
        async with self._lock:
            await self._send(message)


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
    bots: dict[str, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None

    def summary(self) -> Summary:
        """The listing fields after the latest change."""
        outcome = self.game.outcome
        return Summary(self.version, len(self.game.actions), self.game.active_seat,
                       "finished" if outcome else "active", outcome.winner if outcome else None,
                       outcome.to_json() if outcome else None)

    def bot(self, seat: str) -> Bot:
        """The bot playing ``seat`` (built on first use)."""
        if seat not in self.bots:
            spec = self.seats[seat].bot_spec or "random"
            self.bots[seat] = make_bot(spec, seed=bot_seed(self.game.seed, seat))
        return self.bots[seat]


def bot_seed(game_seed: int, seat: str) -> int:
    """A bot's own seed, derived one way from the game's: its visible choices must not reveal the game's key
    (a Mersenne Twister seeded with the key itself could be worked back to it)."""
    digest = hashlib.blake2b(f"{game_seed}/{seat}".encode(), digest_size=8, person=b"muster-bot-seed").digest()
    return int.from_bytes(digest, "little") >> 2


def secret_seed() -> int:
    """A fresh secret key for a game's generator: 256 bits from :mod:`secrets`, above
    :data:`muster.core.rng.KEYED_SEED_MIN`, so the game uses the keyed (cryptographic) generator."""
    return (1 << 256) | secrets.randbits(256)


class Hub:
    """All live games of this server process."""

    def __init__(self, store: Store, default_bot_delay_ms: int = 400, keep_games: int = 2000) -> None:
        self.store = store
        self.writer = GroupWriter(store)
        self.default_bot_delay_ms = default_bot_delay_ms
        self.games: dict[str, LiveGame] = {}
        self.keep_games = keep_games
        self._loading: dict[str, asyncio.Lock] = {}
        self._bot_threads: CapacityLimiter | None = None
        self.closing = False

    # --- finding games --------------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The live game by id, rebuilt from the database by replay on first use."""
        if game_id in self.games:
            live = self.games.pop(game_id)  # move to the end: the dict's order is least recently used first
            self.games[game_id] = live
            return live
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
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        current = get_rules(stored.game).info.version
        if stored.rules_version != current:
            # Replaying under other rules could fail, or worse, succeed with a position the players never saw.
            raise ApiError(409, "outdated", f"game {game_id} was recorded under rules version {stored.rules_version}, "
                                            f"and this server plays {current}: it can only be continued by the "
                                            "muster release that recorded it (the stored game is kept unchanged)")
        try:
            return await to_thread.run_sync(self._rebuild, stored)
        except GameError as exc:  # e.g. recorded under rules that have changed since
            log.error("game %s does not replay: %s", game_id, exc)
            # the details stay in the server log: they may describe the other seat's decision
            raise ApiError(500, "corrupt", f"game {game_id} cannot be rebuilt from its stored actions with "
                                           "the current rules (was it recorded by an older version?)") from exc

    def _make_room(self) -> None:
        """Before holding one more game: evict idle ones; if every held game is busy, refuse (503), so
        memory stays bounded however many games are opened at once."""
        self._evict(room_for=1)
        if len(self.games) >= self.keep_games:
            raise ApiError(503, "busy", f"the server holds {len(self.games)} busy games, its limit: try again "
                                        "in a minute")

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
        for raw in stored.actions:
            game.apply(Action.from_json(raw))
        return LiveGame(stored.id, game, stored.version, stored.seats, stored.bot_delay_ms)

    async def by_token(self, token: str) -> tuple[LiveGame, str]:
        """The game and seat a secret token claims."""
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            raise ApiError(404, "not_found", "unknown seat token")
        found = await to_thread.run_sync(self.store.seat_for_token, hash_token(token))
        if found is None:
            raise ApiError(404, "not_found", "unknown seat token")
        return await self.get(found[0]), found[1]

    # --- creating -------------------------------------------------------------------------
    async def create(self, players: dict[str, str], ruleset: str, seed: int | None,
                     bot_delay_ms: int | None) -> tuple[str, dict[str, str]]:
        """Start a game; ``players`` maps each seat to "human" or a bot spec. Returns (id, tokens)."""
        rules = get_rules("freedom")
        if set(players) != set(rules.info.seats):
            raise ApiError(400, "malformed", f"give a player for each seat: {', '.join(rules.info.seats)}")
        if ruleset not in rules.info.options["ruleset"]:
            raise ApiError(400, "malformed", f"unknown ruleset {ruleset!r}")
        seats: list[tuple[SeatInfo, str | None]] = []
        tokens: dict[str, str] = {}
        for seat, who in players.items():
            if who == "human":
                tokens[seat] = secrets.token_urlsafe(24)
                seats.append((SeatInfo(seat, "human", None), hash_token(tokens[seat])))
            else:
                try:
                    make_bot(who, seed=0)
                except Exception as exc:  # an unknown bot or a bad option: tell the player why
                    raise ApiError(400, "malformed", f"bad bot {who!r}: {exc}") from exc
                seats.append((SeatInfo(seat, "bot", who), None))
        if seed is not None and all(info.kind == "human" for info, _ in seats):
            # Whoever picks the seed of a game between people could compute the other's hand from it.
            raise ApiError(400, "malformed", "a game between two people is dealt from a secret key: "
                                             "a chosen seed is only for games against a bot")
        seed = secret_seed() if seed is None else seed
        self._make_room()
        delay = self.default_bot_delay_ms if bot_delay_ms is None else bot_delay_ms
        game_id = secrets.token_hex(8)
        game = Game(rules, seed, {"ruleset": ruleset})
        live = LiveGame(game_id, game, 0, {info.seat: info for info, _ in seats}, delay)
        await to_thread.run_sync(self.store.create_game, game_id, "freedom", rules.info.version, seed, game.options,
                                 delay, seats, live.summary())
        self.games[game_id] = live
        self._evict()
        self.schedule_bot(live)
        return game_id, tokens

    # --- changing -------------------------------------------------------------------------
    @staticmethod
    def _check_version(live: LiveGame, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(400, "malformed", "send the version of the state you are acting on (an integer)")
        if version != live.version:
            raise ApiError(409, "stale", f"the game has moved on (version {live.version}, you sent {version}); "
                                         "reload the state and choose again")

    async def act(self, live: LiveGame, seat: str, version: Any, raw_action: Any) -> int:
        """Validate and apply one action for ``seat``; stored durably before returning the new version."""
        try:
            action = Action.from_json(raw_action)
        except MalformedActionError as exc:
            raise ApiError(400, "malformed", str(exc)) from exc
        async with live.lock:
            self._check_version(live, version)
            active = live.game.active_seat
            if active is not None and seat != active:
                raise ApiError(409, "wrong_seat", f"it is not {seat}'s turn (waiting for {active})")
            game, expected = live.game, live.version
            old_state, old_actions = game.state, list(game.actions)
            try:
                game.apply(action, seat=seat)
            except GameError as exc:
                raise ApiError(409, "illegal", str(exc)) from exc
            step = len(old_actions)
            await self._commit(live, old_state, old_actions, lambda db, new: self.store.append_in(
                db, live.id, expected, step, seat, action.to_json(), new))
        await self.changed(live)
        return live.version

    async def undo(self, live: LiveGame, seat: str, version: Any) -> int:
        """Take back ``seat``'s current turn (when the rules allow it)."""
        async with live.lock:
            self._check_version(live, version)
            game, expected = live.game, live.version
            old_state, old_actions = game.state, list(game.actions)
            try:
                game.undo(seat)
            except UndoError as exc:
                raise ApiError(409, "undo", str(exc)) from exc
            keep = len(game.actions)
            await self._commit(live, old_state, old_actions, lambda db, new: self.store.truncate_in(
                db, live.id, expected, keep, new))
        await self.changed(live)
        return live.version

    async def _commit(self, live: LiveGame, old_state: Any, old_actions: list[Action], write: Any) -> None:
        """Store the change just made to ``live.game``, and only then let anyone see it.

        Until the write commits, the game shows its stored position (``old_state``): a reader never
        sees, and a player never acts on, a change that could still be lost or refused.
        """
        game = live.game
        summary = live.summary()
        summary = Summary(live.version + 1, summary.steps, summary.active_seat, summary.status, summary.winner,
                          summary.result)
        new_state, new_actions = game.state, list(game.actions)
        game.state, game.actions = old_state, old_actions
        try:
            await asyncio.wrap_future(self.writer.submit(lambda db: write(db, summary)))
        except StaleWriteError as exc:
            if self.games.get(live.id) is live:  # our copy is behind the database: rebuild it next time
                del self.games[live.id]
            raise ApiError(409, "stale", str(exc)) from exc
        except Exception as exc:
            log.exception("could not store a change of game %s", live.id)
            raise ApiError(503, "storage", "the change could not be stored; nothing was changed") from exc
        game.state, game.actions = new_state, new_actions
        live.version += 1

    async def changed(self, live: LiveGame) -> None:
        """After a change: push the new state to everyone watching, and wake the bot if it is its turn."""
        await self.broadcast(live)
        self.schedule_bot(live)

    async def broadcast(self, live: LiveGame) -> None:
        """Send each connection the state as its seat may see it."""
        cache: dict[tuple[str | None, str], dict[str, Any]] = {}
        for conn in list(live.conns):
            key = (conn.seat, conn.lang)
            if key not in cache:
                cache[key] = seat_payload(live.game, live.id, live.version, conn.seat, live.seats, conn.lang)
            try:
                await conn.send(with_log(cache[key], conn))
            except Exception:  # a socket that died mid-send: forget it, the client reconnects
                live.conns.discard(conn)

    # --- bots ------------------------------------------------------------------------------
    def schedule_bot(self, live: LiveGame) -> None:
        """Start the game's bot task if a bot is to act and none is running."""
        seat = live.game.active_seat
        if self.closing or seat is None or live.seats[seat].kind != "bot":
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveGame) -> None:
        while not self.closing:
            async with live.lock:
                seat = live.game.active_seat
                if seat is None or live.seats[seat].kind != "bot":
                    return
                view, legal, version = live.game.view(seat), live.game.legal_actions(), live.version
            await asyncio.sleep(live.bot_delay_ms / 1000)
            if self._bot_threads is None:  # bots think in their own few threads: requests never wait on them
                self._bot_threads = CapacityLimiter(2)
            action = await to_thread.run_sync(self._choose, live, seat, view, legal, limiter=self._bot_threads)
            try:
                await self.act(live, seat, version, action.to_json())
            except ApiError as exc:
                if exc.code != "stale":
                    log.error("bot move refused in game %s: %s", live.id, exc.message)
                    return

    @staticmethod
    def _choose(live: LiveGame, seat: str, view: dict[str, Any], legal: list[Action]) -> Action:
        try:
            action = live.bot(seat).choose(view, legal, seat)
            if action in legal:
                return action
            log.error("bot for %s in game %s chose an illegal action %r", seat, live.id, action)
        except Exception:
            log.exception("bot for %s in game %s failed", seat, live.id)
        # a broken bot must not freeze the game: fall back to a uniformly random legal choice
        return random.Random(live.version).choice(legal)

    async def resume_bots(self) -> None:
        """After a restart: wake the bots of unfinished games waiting on them."""
        for game_id in await to_thread.run_sync(self.store.bot_games_waiting, get_rules("freedom").info.version):
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


def with_log(payload: dict[str, Any], conn: Connection) -> dict[str, Any]:
    """The payload with only the log lines this connection does not have yet."""
    full: list[str] = payload["log"]
    start = conn.log_sent if conn.log_sent <= len(full) else 0  # after an undo the log shrank: resend it
    conn.log_sent = len(full)
    extra = {"log_en": payload["log_en"][start:]} if "log_en" in payload else {}
    return {**payload, "log_from": start, "log": full[start:], **extra}
