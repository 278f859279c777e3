"""The clocks' reminders and timeouts reach the player by e-mail (a real SMTP server process): the seat whose
time runs low is reminded once, and told when it ran out."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import Server, create, database_url
from .notify_support import NOTIFY_ENV, SmtpServer
from .test_notify_email import verified_account

PACES = {"fast": {"bank": 4, "increment": 1, "cap": 5, "remind": 2, "bot_delay": 0}}
"""A clock that runs low two seconds after the game starts and out two seconds later."""


@pytest.fixture
def smtp(tmp_path: Path) -> Iterator[SmtpServer]:
    """A real SMTP server process for one test."""
    found = SmtpServer(tmp_path)
    yield found
    found.stop()


def test_a_clock_running_low_and_running_out_is_mailed_to_its_player_once(tmp_path: Path, smtp: SmtpServer) -> None:
    env = {**NOTIFY_ENV, **smtp.env(), "MUSTER_PACES": json.dumps(PACES), "MUSTER_CLOCK_TICK_S": "0.2",
           "MUSTER_VACATION_DAYS": "0"}
    srv = Server(database_url("sqlite", tmp_path), tmp_path, env=env)
    srv.env["MUSTER_PUBLIC_URL"] = srv.url
    srv.start()
    try:
        with srv.client() as c:
            address = verified_account(c, smtp)
            made = create(c, imperial="human", insurgent="human", pace="fast")  # both seats this person's
            game_id = made["game_id"]
            low = smtp.wait_for(1, lambda m: m["To"] == address and "running low" in str(m["Subject"]))
            assert game_id in str(low[0]["Subject"])
            out = smtp.wait_for(1, lambda m: m["To"] == address and "Time ran out" in str(m["Subject"]))
            assert game_id in str(out[0]["Subject"])
            # one reminder and one timeout notice: the opponent's seat is the same person, who is not told twice
            mails = [m for m in smtp.messages() if m["To"] == address]
            assert sum("running low" in str(m["Subject"]) for m in mails) == 1
            assert sum("Time ran out" in str(m["Subject"]) for m in mails) == 1
    finally:
        srv.stop()
