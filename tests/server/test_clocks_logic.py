"""The clock's bookkeeping on a real database (SQLite and PostgreSQL), at chosen instants (no waiting): whose
time runs, the increment and its cap, a clock waiting for its players, reminders and timeouts taken once,
vacation days, and events reaching the listeners."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from muster.server import clocks
from muster.server.accounts import AccountStore
from muster.server.db import GameRow, SeatRow, make_engine, migrate
from muster.server.settings import reload

from .helpers import backends, database_url

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
BANK, INCREMENT, CAP, REMIND = 100.0, 10.0, 115.0, 30.0


@pytest.fixture(params=backends())
def engine(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    monkeypatch.setenv("MUSTER_PACES", f'{{"fast": {{"bank": {BANK}, "increment": {INCREMENT}, "cap": {CAP}, '
                                       f'"remind": {REMIND}, "bot_delay": 5}}}}')
    monkeypatch.setenv("MUSTER_VACATION_DAYS", "1")
    monkeypatch.setenv("MUSTER_VACATION_DAY_S", "1000")
    reload()
    eng = make_engine(database_url(request.param, tmp_path))
    migrate(eng)
    yield eng
    eng.dispose()
    monkeypatch.undo()
    reload()


def _game(engine: object, game_id: str = "g1", holders: tuple[str | None, str | None] = (None, None)) -> None:
    with Session(engine) as s, s.begin():  # type: ignore[call-overload]
        s.add(GameRow(id=game_id, game="freedom", seed=1, options="{}", rules_version="x", version=0, steps=0,
                      status="active", bot_delay_ms=0, created_at=T0, updated_at=T0))
        s.flush()
        for seat, holder in zip(("a", "b"), holders, strict=True):
            s.add(SeatRow(game_id=game_id, seat=seat, kind="human", holder=holder))
    clocks.start(engine, game_id, "freedom", "fast", ("a", "b"))  # type: ignore[arg-type]


def _at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def _pos(version: int, active: str | None, ready: bool = True, over: bool = False) -> clocks.Position:
    return clocks.Position(version, active, over, ("a", "b"), ready)


def test_the_deciding_seat_is_charged_and_gains_the_increment_up_to_the_cap(engine: object) -> None:
    _game(engine)
    clocks.advance(engine, "g1", "freedom", _pos(0, "a", ready=False), _at(0))  # type: ignore[arg-type]
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.state == "waiting" and clock.deadline is None  # nobody's time runs before both are in
    clocks.advance(engine, "g1", "freedom", _pos(0, "a"), _at(50))  # type: ignore[arg-type]
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.state == "running" and clock.running == "a"
    assert clock.deadline == _at(50 + BANK) and clock.remind_at == _at(50 + BANK - REMIND)
    # a's turn goes on over several actions: still a's, deadline unchanged
    clocks.advance(engine, "g1", "freedom", _pos(1, "a"), _at(60))  # type: ignore[arg-type]
    assert clocks.read(engine, "g1").deadline == _at(50 + BANK)  # type: ignore[arg-type, union-attr]
    # the decision passes to b after 20 s: a is charged 20 s and gains the increment
    clocks.advance(engine, "g1", "freedom", _pos(2, "b"), _at(70))  # type: ignore[arg-type]
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.banks == {"a": BANK - 20 + INCREMENT, "b": BANK} and clock.running == "b"
    assert clocks.view(clock, _at(75))["left"] == {"a": BANK - 20 + INCREMENT, "b": BANK - 5}
    # b answers at once, twice: its bank grows to the cap, never beyond
    clocks.advance(engine, "g1", "freedom", _pos(3, "a"), _at(70))  # type: ignore[arg-type]
    clocks.advance(engine, "g1", "freedom", _pos(4, "b"), _at(70))  # type: ignore[arg-type]
    clocks.advance(engine, "g1", "freedom", _pos(5, "a"), _at(70))  # type: ignore[arg-type]
    assert clocks.read(engine, "g1").banks["b"] == CAP  # type: ignore[arg-type, union-attr]
    # an older position arriving late changes nothing
    clocks.advance(engine, "g1", "freedom", _pos(2, "b"), _at(80))  # type: ignore[arg-type]
    assert clocks.read(engine, "g1").running == "a"  # type: ignore[arg-type, union-attr]
    # the end stops it
    clocks.advance(engine, "g1", "freedom", _pos(6, None, over=True), _at(90))  # type: ignore[arg-type]
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.state == "over" and clock.deadline is None


def test_reminder_then_timeout_are_taken_once_and_reach_the_listeners(engine: object) -> None:
    _game(engine)
    clocks.advance(engine, "g1", "freedom", _pos(0, "a"), _at(0))  # type: ignore[arg-type]
    assert clocks.take_due(engine, _at(BANK - REMIND - 1)) == []  # type: ignore[arg-type]
    due = clocks.take_due(engine, _at(BANK - REMIND))  # type: ignore[arg-type]
    assert [(d.kind, d.seat) for d in due] == [("clock_low", "a")]
    assert clocks.take_due(engine, _at(BANK - 1)) == []  # type: ignore[arg-type]  # one reminder a turn
    due = clocks.take_due(engine, _at(BANK))  # type: ignore[arg-type]
    assert [(d.kind, d.seat) for d in due] == [("timeout", "a")]
    assert clocks.take_due(engine, _at(BANK + 1)) == []  # type: ignore[arg-type]  # taken once
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.state == "flagged" and clock.flagged == "a" and clock.banks["a"] == 0
    # a process that took it and died: another takes it over, once, after a while
    assert clocks.take_due(engine, _at(BANK + clocks.RETRY_FLAGGED_S - 1)) == []  # type: ignore[arg-type]
    again = clocks.take_due(engine, _at(BANK + clocks.RETRY_FLAGGED_S))  # type: ignore[arg-type]
    assert [(d.kind, d.seat) for d in again] == [("timeout", "a")]
    # the player out of time moves again (an unrated game nobody claimed): the clock runs on
    clocks.advance(engine, "g1", "freedom", _pos(1, "b"), _at(BANK + 100))  # type: ignore[arg-type]
    clock = clocks.read(engine, "g1")  # type: ignore[arg-type]
    assert clock and clock.state == "running" and clock.banks["a"] == INCREMENT and clock.flagged is None
    heard: list[clocks.ClockEvent] = []
    clocks.listeners.append(heard.append)
    clocks.listeners.append(lambda event: 1 / 0)  # type: ignore[func-returns-value]  # a failing listener
    try:
        clocks.emit(clocks.ClockEvent("timeout", "g1", "a", None))
    finally:
        del clocks.listeners[-2:]
    assert [e.kind for e in heard] == ["timeout"]


def test_a_vacation_day_is_used_before_a_timeout(engine: object) -> None:
    account = AccountStore(engine).create("vera", "x", None)  # type: ignore[arg-type]
    assert account is not None
    _game(engine, holders=(f"account:{account}", None))
    clocks.advance(engine, "g1", "freedom", _pos(0, "a"), _at(0))  # type: ignore[arg-type]
    clocks.take_due(engine, _at(BANK - REMIND))  # type: ignore[arg-type]
    due = clocks.take_due(engine, _at(BANK))  # type: ignore[arg-type]
    assert [(d.kind, d.deadline) for d in due] == [("vacation", _at(BANK + 1000))]
    assert clocks.vacation(engine, account, _at(0)) == {  # type: ignore[arg-type]
        "year": 2026, "days": 1, "used": 1, "left": 0}
    # the vacation day is not charged: moving during it leaves the bank at 0 plus the increment
    clocks.advance(engine, "g1", "freedom", _pos(1, "b"), _at(BANK + 500))  # type: ignore[arg-type]
    assert clocks.read(engine, "g1").banks["a"] == INCREMENT  # type: ignore[arg-type, union-attr]
    # no day left: the next deadline is a timeout
    clocks.advance(engine, "g1", "freedom", _pos(2, "a"), _at(BANK + 500))  # type: ignore[arg-type]
    due = clocks.take_due(engine, _at(BANK + 500 + INCREMENT))  # type: ignore[arg-type]
    assert [d.kind for d in due if d.kind != "clock_low"] == ["timeout"]


def test_unknown_paces_are_refused_and_none_has_no_clock() -> None:
    assert clocks.pace("freedom", "none") is None
    with pytest.raises(clocks.ApiError):
        clocks.pace("freedom", "blitz")
    live = clocks.pace("hellenes", "live")
    assert live is not None and live.bank > 0 and live.increment > 0
