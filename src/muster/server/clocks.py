"""Paces and clocks: a time bank per seat, an increment per turn, reminders, timeouts, pauses and vacation
(docs/web.md, "Paces and clocks").

A game gets a pace when it is created: ``none`` (no clock, as every game stored before paces existed),
``live``, ``fast`` or ``slow``. Each of the last three is a time bank per seat, an increment added when the
seat's decision is done, a cap on the bank, a reminder before the time runs out and a delay before a bot
moves, read from the game's ``data/paces.json`` where it has one, else the server's (the ``paces`` setting
replaces numbers, for tests and trials).

**Whose time runs**: the seat the rules say must decide (:attr:`muster.core.Game.active_seat`): a seat's whole
held turn, the opponent's reaction in the middle of a turn. When the decision passes to another seat, the
seat that decided gains the increment (up to the cap). Bots hold no clock: a bot's turn waits the pace's bot
delay, counted from the start of its turn as stored, so a restart neither shortens nor repeats it, and the
waiting blocks nothing. The clock starts when every seat played by a person is taken.

**Stored, not timed in memory**: the ``game_clocks`` row holds each bank, the running seat, when its
decision began and its deadline; the rules core never reads the time. Every ``muster serve`` process looks
every ``clock_tick_s`` for deadlines and reminders due, and acts on one only after taking it by a conditional
update of the row's revision (so exactly one process acts, with SQLite or PostgreSQL, and nothing else is
needed). A process killed after taking a timeout leaves it "flagged"; another takes it over a minute later.

**Timeout**: in a rated game the player out of time loses (stored as a game ending, like a resignation, and
rated); in an unrated game the opponent may claim the win until the player out of time moves again. Before
that, a signed-in player with vacation days left this year gets a day more (the ``vacation_days`` setting).
**Pause**: a player asks, the opponent accepts; both clocks stop until either player resumes.

Events ("clock_low" before the time runs out, "timeout", "vacation") go to every function in
:data:`listeners`, in the process that took them, once each.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from anyio import to_thread
from pydantic import BaseModel, Field
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from muster.core.registry import game_module
from muster.server import ratings
from muster.server.accounts import _aware, _needs_account
from muster.server.db import GameClockRow, GameEndingRow, SeatRow, VacationRow, utcnow
from muster.server.endpoints import api, hub_of, parse, read_json
from muster.server.holders import holder_of
from muster.server.hub import ApiError, Hub, LiveGame
from muster.server.settings import settings

log = logging.getLogger(__name__)

PACE_NAMES = ("none", "live", "fast", "slow")
"""The paces a game may have, ``none`` first (the default: no clock)."""
PACES_FILE = Path(__file__).with_name("data") / "paces.json"
RETRY_FLAGGED_S = 60
"""A timeout taken by a process that did not finish it within this many seconds is taken over by another."""
BATCH = 100
"""Deadlines and reminders looked at in one tick at most (the rest wait for the next)."""
ACTIONS_PER_MINUTE = 20
"""Clock actions (pause, accept, decline, resume, claim) one seat may send in a minute (per process)."""


@dataclass(frozen=True)
class Pace:
    """One pace's numbers, in seconds: the starting ``bank``, the ``increment`` after each decision, the
    ``cap`` on a bank, the reminder ``remind`` seconds before the time runs out (at most half the bank),
    and the ``bot_delay`` before a bot's turn."""

    name: str
    bank: float
    increment: float
    cap: float
    remind: float
    bot_delay: float


@functools.cache
def _numbers(game: str) -> dict[str, Any]:
    """The paces' numbers for ``game``: its own ``data/paces.json`` where the game ships one (a longer game
    needs a larger bank), else the server's."""
    own = game_module(game).data_dir / "paces.json"
    data: dict[str, Any] = json.loads((own if own.is_file() else PACES_FILE).read_text())
    return data


def pace(game: str, name: str) -> Pace | None:
    """The pace ``name`` of ``game`` (None for "none"); ApiError for an unknown pace."""
    if name not in PACE_NAMES:
        raise ApiError(400, "malformed", f"unknown pace {name[:20]!r}: choose one of {', '.join(PACE_NAMES)}")
    if name == "none":
        return None
    numbers = dict(_numbers(game)[name])
    override = settings().paces
    if override:
        numbers.update(json.loads(override).get(name, {}))
    return Pace(name, *(float(numbers[k]) for k in ("bank", "increment", "cap", "remind", "bot_delay")))


def table(game: str) -> dict[str, dict[str, float]]:
    """The paces of ``game`` with their numbers (for the creation forms and /api/meta)."""
    out = {}
    for name in PACE_NAMES[1:]:
        found = pace(game, name)
        assert found is not None
        out[name] = {"bank": found.bank, "increment": found.increment, "cap": found.cap}
    return out


# --- events ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClockEvent:
    """Something a clock did: ``kind`` "clock_low" (a reminder: ``deadline`` is when the time runs out),
    "timeout" (``seat`` ran out of time; ``ended``: the game ended as its loss, else the opponent may claim
    it) or "vacation" (``seat`` was given a vacation day; ``deadline`` moved)."""

    kind: Literal["clock_low", "timeout", "vacation"]
    game_id: str
    seat: str
    holder: str | None
    deadline: datetime | None = None
    ended: bool = False


listeners: list[Callable[[ClockEvent], None]] = []
"""Called with every clock event, once, in the process that took it (in its event loop: a listener must not
block; it may hand the event to a task of its own)."""


def emit(event: ClockEvent) -> None:
    """Tell every listener (one failing does not keep the event from the others)."""
    for listener in list(listeners):
        try:
            listener(event)
        except Exception:
            log.exception("a clock listener failed on %s", event.kind)


# --- the clock as stored --------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """What a clock needs to know of a game at one version: whose decision it is, whether it is over, which
    seats people play and whether they are all taken."""

    version: int
    active: str | None
    over: bool
    humans: tuple[str, ...]
    ready: bool


def position(live: LiveGame) -> Position:
    """The position of a live game now (read in the event loop, used in a worker thread)."""
    humans = tuple(s for s, info in live.seats.items() if info.kind == "human")
    return Position(live.version, live.game.active_seat, live.game.outcome is not None, humans,
                    all(live.seats[s].taken for s in humans))


@dataclass
class Clock:
    """A copy of a ``game_clocks`` row to compute on."""

    game_id: str
    pace: str
    banks: dict[str, float]
    running: str | None
    since: datetime | None
    grace: float
    deadline: datetime | None
    remind_at: datetime | None
    state: str
    flagged: str | None
    pause_asked: str | None
    claimed_at: datetime | None
    version: int
    rev: int

    @classmethod
    def of(cls, row: GameClockRow) -> Clock:
        """The row's values (times made timezone-aware)."""
        def aware(moment: datetime | None) -> datetime | None:
            return None if moment is None else _aware(moment)
        return cls(row.game_id, row.pace, json.loads(row.banks), row.running, aware(row.since), row.grace,
                   aware(row.deadline), aware(row.remind_at), row.state, row.flagged, row.pause_asked,
                   aware(row.claimed_at), row.version, row.rev)

    def values(self) -> dict[str, Any]:
        """The columns to write."""
        return {"banks": json.dumps(self.banks), "running": self.running, "since": self.since, "grace": self.grace,
                "deadline": self.deadline, "remind_at": self.remind_at, "state": self.state,
                "flagged": self.flagged, "pause_asked": self.pause_asked, "claimed_at": self.claimed_at,
                "version": self.version, "rev": self.rev + 1}

    def used(self, now: datetime) -> float:
        """Seconds charged so far to the running seat in the current decision."""
        if self.state not in ("running", "flagged") or self.since is None:
            return 0.0
        elapsed = max(0.0, (now - self.since).total_seconds())
        # vacation covers only the time past the bank: the bank itself is used up first
        past_bank = max(0.0, elapsed - self.banks.get(self.running or "", 0.0))
        return elapsed - min(self.grace, past_bank)

    def left(self, seat: str, now: datetime) -> float:
        """Seconds ``seat`` has left now."""
        bank = self.banks.get(seat, 0.0)
        return max(0.0, bank - self.used(now)) if seat == self.running and seat in self.banks else bank

    def charge(self, now: datetime) -> None:
        """Take the time used so far off the running seat's bank (its decision goes on from ``now``)."""
        if self.running in self.banks and self.state in ("running", "flagged"):
            self.banks[self.running] = self.left(self.running, now)
        if self.since is not None:
            self.since, self.grace = now, 0.0

    def arm(self, found: Pace, now: datetime) -> None:
        """Set the deadline and reminder of a decision beginning ``now`` (none for a bot or a pause)."""
        self.since, self.grace = now, 0.0
        bank = self.banks.get(self.running or "")
        if self.state != "running" or bank is None:
            self.deadline = self.remind_at = None
            return
        self.deadline = now + timedelta(seconds=bank)
        self.remind_at = self.deadline - timedelta(seconds=min(found.remind, bank / 2))


def _load(s: Session, game_id: str) -> Clock | None:
    row = s.get(GameClockRow, game_id)
    return None if row is None else Clock.of(row)


def _save(s: Session, clock: Clock) -> bool:
    """Write ``clock`` if nobody wrote the row since it was read; whether it was written."""
    done = s.execute(update(GameClockRow).where(GameClockRow.game_id == clock.game_id, GameClockRow.rev == clock.rev)
                     .values(**clock.values()))
    return bool(done.rowcount)  # type: ignore[attr-defined]


def _change(engine: Engine, game_id: str, change: Callable[[Clock], bool]) -> Clock | None:
    """Read the clock, let ``change`` alter it (False: nothing to write) and write it conditionally, again
    from a fresh read if another writer came first. The clock as it is afterwards (None: the game has none)."""
    for _ in range(20):
        with Session(engine) as s, s.begin():
            clock = _load(s, game_id)
            if clock is None or not change(clock):
                return clock
            if _save(s, clock):
                clock.rev += 1
                return clock
    raise ApiError(503, "busy", "the clock is being changed by others: try again")


def start(engine: Engine, game_id: str, game: str, pace_name: str, seats: tuple[str, ...]) -> None:
    """Give a new game its clock (nothing for pace "none"), every seat the pace's bank, waiting for
    :func:`advance` to start it."""
    found = pace(game, pace_name)
    if found is None:
        return
    with Session(engine) as s, s.begin():
        s.add(GameClockRow(game_id=game_id, pace=pace_name, banks=json.dumps(dict.fromkeys(seats, found.bank)),
                           grace=0.0, state="waiting", version=-1, rev=0))


def advance(engine: Engine, game_id: str, game: str, pos: Position, now: datetime) -> str:
    """Bring the clock to the game's position ``pos`` (after a move, a taken seat, the end): the time used
    goes off the deciding seat's bank, the increment on once its decision passed to another seat, and the
    next decision's deadline is set. Returns the game's pace ("none" without a clock)."""
    def change(clock: Clock) -> bool:
        if clock.state == "over" or pos.version < clock.version:
            return False
        was_waiting = clock.state == "waiting"
        if pos.version == clock.version and not (was_waiting and pos.ready) and not pos.over:
            return False
        found = pace(game, clock.pace)
        assert found is not None
        clock.version = pos.version
        if pos.over or not pos.ready:
            clock.charge(now)
            clock.state = "over" if pos.over else "waiting"
            clock.running, clock.since, clock.deadline, clock.remind_at = None, None, None, None
            return True
        if clock.running == pos.active and not was_waiting:
            return True  # the same seat decides on: its deadline and reminder stay
        clock.charge(now)
        if clock.running in clock.banks and clock.state != "waiting":
            clock.banks[clock.running] = min(found.cap, clock.banks[clock.running] + found.increment)
        if clock.state in ("waiting", "flagged"):
            clock.state, clock.flagged = "running", None
        clock.running = pos.active
        clock.arm(found, now)
        return True

    clock = _change(engine, game_id, change)
    return "none" if clock is None else clock.pace


def view(clock: Clock, now: datetime, rated: bool = False) -> dict[str, Any]:
    """What a page shows of a clock: each seat's seconds left now, whose time runs, the state."""
    return {"pace": clock.pace, "state": clock.state, "running": clock.running if clock.state == "running" else None,
            "left": {s: round(clock.left(s, now), 1) for s in clock.banks},
            "deadline": clock.deadline.isoformat() if clock.deadline else None,
            "flagged": clock.flagged, "pause_asked": clock.pause_asked, "rated": rated}


def read(engine: Engine, game_id: str) -> Clock | None:
    """The game's clock (None: pace "none")."""
    with Session(engine) as s:
        return _load(s, game_id)


def views(engine: Engine, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The clocks of these games (those that have one), as :func:`view` shows them."""
    now = utcnow()
    with Session(engine) as s:
        rows = s.scalars(select(GameClockRow).where(GameClockRow.game_id.in_(game_ids[:1000]))).all()
        return {r.game_id: view(Clock.of(r), now) for r in rows}


def paces_of(engine: Engine, game_ids: list[str]) -> dict[str, str]:
    """The pace of each of these games that has a clock."""
    with Session(engine) as s:
        return dict(s.execute(select(GameClockRow.game_id, GameClockRow.pace)
                              .where(GameClockRow.game_id.in_(game_ids[:1000]))).tuples().all())


# --- vacation -------------------------------------------------------------------------------------
def vacation(engine: Engine, account_id: int, now: datetime | None = None) -> dict[str, int]:
    """An account's vacation this year: days a year, used, left."""
    year = (now or utcnow()).year
    with Session(engine) as s:
        row = s.get(VacationRow, (account_id, year))
        used = row.used_days if row else 0
    allowed = settings().vacation_days
    return {"year": year, "days": allowed, "used": used, "left": max(0, allowed - used)}


def _take_vacation_day(s: Session, account_id: int, year: int) -> bool:
    """Use one of the account's vacation days of ``year`` (within the transaction); False if none is left."""
    allowed = settings().vacation_days
    row = s.get(VacationRow, (account_id, year))
    if row is None:
        if allowed < 1:
            return False
        try:
            with s.begin_nested():
                s.add(VacationRow(account_id=account_id, year=year, used_days=0))
        except IntegrityError:
            pass
    done = s.execute(update(VacationRow).where(VacationRow.account_id == account_id, VacationRow.year == year,
                                               VacationRow.used_days < allowed)
                     .values(used_days=VacationRow.used_days + 1))
    return bool(done.rowcount)  # type: ignore[attr-defined]


# --- the scheduler's database side ---------------------------------------------------------------
@dataclass(frozen=True)
class Due:
    """A clock event this process took: the game, the seat, its holder, the kind, the new deadline."""

    kind: Literal["clock_low", "timeout", "vacation"]
    game_id: str
    seat: str
    holder: str | None
    deadline: datetime | None = None


def _holder(s: Session, game_id: str, seat: str) -> str | None:
    return s.scalar(select(SeatRow.holder).where(SeatRow.game_id == game_id, SeatRow.seat == seat))


def take_due(engine: Engine, now: datetime) -> list[Due]:
    """Take (each by a conditional update) the deadlines passed, the reminders due and the timeouts another
    process took and did not finish: what this process is now to act on, once."""
    taken: list[Due] = []
    with Session(engine) as s:
        late = list(s.scalars(select(GameClockRow.game_id).where(GameClockRow.state == "running",
                                                                 GameClockRow.deadline <= now).limit(BATCH)))
        remind = list(s.scalars(select(GameClockRow.game_id).where(GameClockRow.state == "running",
                                                                   GameClockRow.remind_at <= now).limit(BATCH)))
        stuck = list(s.scalars(select(GameClockRow.game_id).where(
            GameClockRow.state == "flagged", GameClockRow.claimed_at <= now - timedelta(seconds=RETRY_FLAGGED_S))
            .limit(BATCH)))
    for game_id in late:
        with Session(engine) as s, s.begin():
            clock = _load(s, game_id)
            if clock is None or clock.state != "running" or clock.deadline is None or clock.deadline > now:
                continue
            seat = clock.running or ""
            holder = _holder(s, game_id, seat)
            account = ratings.account_of(holder)
            day = settings().vacation_day_s
            if account is not None and _take_vacation_day(s, account, now.year):
                clock.grace += day
                clock.deadline += timedelta(seconds=day)
                if _save(s, clock):
                    taken.append(Due("vacation", game_id, seat, holder, clock.deadline))
                else:
                    s.rollback()  # another process moved the clock first: the day stays unused
                continue
            clock.state, clock.flagged, clock.claimed_at = "flagged", seat, now
            clock.banks[seat] = 0.0
            clock.since, clock.grace, clock.deadline, clock.remind_at = now, 0.0, None, None
            if _save(s, clock):
                taken.append(Due("timeout", game_id, seat, holder))
    for game_id in stuck:
        with Session(engine) as s, s.begin():
            clock = _load(s, game_id)
            if clock is None or clock.state != "flagged" or clock.flagged is None:
                continue
            clock.claimed_at = now
            if _save(s, clock):
                taken.append(Due("timeout", game_id, clock.flagged, _holder(s, game_id, clock.flagged)))
    for game_id in remind:
        with Session(engine) as s, s.begin():
            clock = _load(s, game_id)
            if clock is None or clock.state != "running" or clock.remind_at is None or clock.remind_at > now:
                continue
            clock.remind_at = None
            if _save(s, clock) and clock.running:
                taken.append(Due("clock_low", game_id, clock.running, _holder(s, game_id, clock.running),
                                 clock.deadline))
    return taken


def _record_timeout(engine: Engine, game_id: str, seat: str) -> None:
    with Session(engine) as s, s.begin():
        if s.get(GameEndingRow, game_id) is None:
            s.add(GameEndingRow(game_id=game_id, seat=seat, reason="timeout", created_at=utcnow()))


def _forget_timeout(engine: Engine, game_id: str) -> None:
    with Session(engine) as s, s.begin():
        row = s.get(GameEndingRow, game_id)
        if row is not None and row.reason == "timeout":
            s.delete(row)


def _finish(engine: Engine, game_id: str) -> None:
    def change(clock: Clock) -> bool:
        if clock.state == "over":
            return False
        clock.state, clock.running, clock.deadline, clock.remind_at, clock.claimed_at = "over", None, None, None, None
        return True
    _change(engine, game_id, change)


# --- in each server process -----------------------------------------------------------------------
class Clocks:
    """The clocks of one server process: brings them along with its games, delays its bots to the pace, and
    runs the scheduler that acts on deadlines and reminders."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.engine = hub.store.engine
        self._paces: dict[str, str] = {}
        """The pace of each game seen (it never changes): games without a clock cost nothing more."""
        self._seen: dict[str, tuple[str | None, bool, bool]] = {}
        """What each game's clock was last brought to here (deciding seat, over, ready): an action that leaves
        them as they were (the same seat deciding on) needs no write, so it costs a move nothing."""
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()

    def _note_pace(self, game_id: str, name: str) -> None:
        if len(self._paces) > 100_000:
            self._paces.clear()
        self._paces[game_id] = name

    async def start_game(self, game_id: str, pace_name: str) -> None:
        """Give a game just created its clock, and start it if its players are all there."""
        live = await self.hub.get(game_id)
        if pace_name != "none":
            people = tuple(s for s, info in live.seats.items() if info.kind == "human")  # bots hold no clock
            await to_thread.run_sync(start, self.engine, game_id, live.game.rules.info.name, pace_name, people)
        self._note_pace(game_id, pace_name)
        await self.advance(live)

    def moved(self, live: LiveGame) -> None:
        """The game changed (a move, a seat taken, the end): bring its clock along, in the background (a
        move's answer never waits for it), charging the time up to now."""
        if self._paces.get(live.id) == "none" or self._seen.get(live.id) == _key(position(live)):
            return
        task = asyncio.get_running_loop().create_task(self.advance(live))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def advance(self, live: LiveGame) -> None:
        """Bring the game's clock to its position now."""
        pos, now = position(live), utcnow()
        try:
            name = await to_thread.run_sync(advance, self.engine, live.id, live.game.rules.info.name, pos, now)
        except Exception:
            log.exception("could not bring the clock of game %s along", live.id)
            return
        self._note_pace(live.id, name)
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen[live.id] = _key(pos)

    async def bot_wait(self, live: LiveGame) -> float:
        """Seconds the bot of ``live`` waits before it plays: the pace's bot delay from the start of its turn
        (as stored: a restart neither shortens nor repeats it), at least the game's own bot delay."""
        least = live.bot_delay_ms / 1000
        if self._paces.get(live.id) == "none":
            return least
        clock = await to_thread.run_sync(read, self.engine, live.id)
        if clock is None:
            self._note_pace(live.id, "none")
            return least
        found = pace(live.game.rules.info.name, clock.pace)
        if found is None:
            return least
        if clock.running != live.game.active_seat or clock.since is None or clock.state == "waiting":
            return max(least, found.bot_delay)  # the clock is not yet at this turn: it began about now
        return max(least, found.bot_delay - (utcnow() - clock.since).total_seconds())

    # --- the scheduler ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the scheduler (at start-up)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop it (at shutdown)."""
        for task in [self._task, *self._pending]:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in [self._task, *self._pending] if t is not None), return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the clock scheduler failed; it tries again")
            await asyncio.sleep(settings().clock_tick_s)

    async def tick(self) -> None:
        """Take what is due and act on it."""
        for due in await to_thread.run_sync(take_due, self.engine, utcnow()):
            if due.kind == "timeout":
                await self.timeout(due.game_id, due.seat, due.holder)
            else:
                emit(ClockEvent(due.kind, due.game_id, due.seat, due.holder, due.deadline))
                with contextlib.suppress(ApiError):
                    await self._tell(await self.hub.get(due.game_id))

    async def timeout(self, game_id: str, seat: str, holder: str | None) -> None:
        """``seat`` ran out of time: a rated game ends as its loss; in an unrated game the opponent is told
        it may claim the win."""
        rated = await to_thread.run_sync(ratings.is_rated, self.engine, game_id)
        ended = False
        if rated:
            ended = await self.end(game_id, seat)
        emit(ClockEvent("timeout", game_id, seat, holder, None, ended))
        if not rated:
            with contextlib.suppress(ApiError):
                await self._tell(await self.hub.get(game_id))

    async def end(self, game_id: str, seat: str) -> bool:
        """End the game as ``seat``'s loss on time (through the resignation's path, then rated)."""
        live = await self.hub.get(game_id)
        try:
            await self.hub.resign(live, seat, functools.partial(_record_timeout, self.engine, game_id, seat),
                                  functools.partial(_forget_timeout, self.engine, game_id), reason="timeout")
        except ApiError as exc:
            if exc.code != "over":
                raise
        await to_thread.run_sync(_finish, self.engine, game_id)
        await to_thread.run_sync(ratings.settle, self.engine, game_id)
        return True

    async def _tell(self, live: LiveGame) -> None:
        """The clock changed without a move: the game's pages (here and in other processes) ask it again."""
        self.hub.broadcast(live)
        if self.hub.bus.size > 1:
            await to_thread.run_sync(self.hub.bus.tell, live.id, "seats")


def _key(pos: Position) -> tuple[str | None, bool, bool]:
    return pos.active, pos.over, pos.ready


def clocks_of(request: Request) -> Clocks:
    """The process's :class:`Clocks`."""
    found: Clocks = request.app.state.clocks
    return found


# --- the routes -----------------------------------------------------------------------------------
class ClockBody(BaseModel):
    """What a player does with the clock: ask for a pause, accept or decline it, resume, or claim the win
    when the opponent ran out of time."""

    do: Literal["pause", "accept", "decline", "resume", "claim"] = Field()


async def _seat(request: Request) -> tuple[Hub, LiveGame, str]:
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    return hub, live, seat


async def clock_state(request: Request) -> Response:
    """The game's clock as this seat's page shows it (``{"clock": null}`` for a game without one)."""
    hub, live, _seat_id = await _seat(request)
    clock = await to_thread.run_sync(read, hub.store.engine, live.id)
    if clock is None:
        return JSONResponse({"clock": None})
    now = utcnow()
    if live.game.outcome is not None and clock.state != "over":  # the clock's own write follows the end soon
        clock.charge(now)
        clock.state, clock.running = "over", None
    rated = await to_thread.run_sync(ratings.is_rated, hub.store.engine, live.id)
    return JSONResponse({"clock": view(clock, now, rated)})


_ACTIONS: dict[tuple[str, str], deque[float]] = {}


def _seat_allows(game_id: str, seat: str) -> bool:
    """Count one clock action of the seat; False once it sent :data:`ACTIONS_PER_MINUTE` in the last minute."""
    now = time.monotonic()
    sent = _ACTIONS.setdefault((game_id, seat), deque())
    while sent and sent[0] < now - 60:
        sent.popleft()
    if len(sent) >= ACTIONS_PER_MINUTE:
        return False
    sent.append(now)
    if len(_ACTIONS) > 10_000:  # bounded memory: forget the seats quiet for a minute, then the oldest
        for key in [k for k, v in _ACTIONS.items() if not v or v[-1] < now - 60]:
            del _ACTIONS[key]
        while len(_ACTIONS) > 10_000:
            _ACTIONS.pop(next(iter(_ACTIONS)))
    return True


async def clock_action(request: Request) -> Response:
    """Pause (ask, accept, decline), resume, or claim the win on time."""
    body = parse(ClockBody, await read_json(request))
    hub, live, seat = await _seat(request)
    engine = hub.store.engine
    if live.seats[seat].kind != "human":
        raise ApiError(403, "forbidden", "only a player acts on the clock")
    if not _seat_allows(live.id, seat):
        raise ApiError(429, "rate_limited", "too many clock actions: wait a minute")
    clocks = clocks_of(request)
    game = live.game.rules.info.name
    if body.do == "claim":
        clock = await to_thread.run_sync(read, engine, live.id)
        if clock is None or clock.state != "flagged" or clock.flagged in (None, seat):
            raise ApiError(409, "not_flagged", "your opponent has not run out of time")
        await clocks.end(live.id, clock.flagged)
        outcome = live.game.outcome
        return JSONResponse({"winner": outcome.winner if outcome else None})
    now = utcnow()

    def change(clock: Clock) -> bool:
        other_asked = clock.pause_asked not in (None, seat)
        if body.do == "pause":
            if clock.state != "running":
                raise ApiError(409, "clock", "the clock is not running")
            clock.pause_asked = seat
        elif body.do == "decline":
            clock.pause_asked = None
        elif body.do == "accept":
            if not other_asked or clock.state != "running":
                raise ApiError(409, "clock", "no pause to accept")
            clock.charge(now)
            clock.state, clock.pause_asked = "paused", None
            clock.since, clock.deadline, clock.remind_at = None, None, None
        else:  # resume
            if clock.state != "paused":
                raise ApiError(409, "clock", "the clock is not paused")
            found = pace(game, clock.pace)
            assert found is not None
            clock.state = "running"
            clock.arm(found, now)
        return True

    clock = await to_thread.run_sync(_change, engine, live.id, change)
    if clock is None:
        raise ApiError(409, "clock", "this game has no clock")
    await clocks._tell(live)
    rated = await to_thread.run_sync(ratings.is_rated, engine, live.id)
    return JSONResponse({"clock": view(clock, now, rated)})


async def vacation_state(request: Request) -> Response:
    """The signed-in account's vacation days this year."""
    found = _needs_account(request, csrf=False)
    return JSONResponse(await to_thread.run_sync(vacation, hub_of(request).store.engine, found.account_id))


def routes() -> list[Route]:
    """The routes of this module, for :func:`muster.server.app.create_app`."""
    return [
        Route("/api/seat/{token}/clock", api(clock_state)),
        Route("/api/seat/{token}/clock", api(clock_action), methods=["POST"]),
        Route("/api/account/vacation", api(vacation_state)),
    ]
