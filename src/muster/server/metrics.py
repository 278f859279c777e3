"""Server-side acknowledgement times, recorded only for benchmarks (``MUSTER_ACK_TIMES=<path prefix>``).

Each websocket action's time from the moment its message is read by the server to the moment its
acknowledgement is handed to the socket: the server's own share of a player's wait, without the
network, the kernel's socket buffers or the client's scheduling. At shutdown each server process
writes its times (seconds, JSON) to ``<prefix>.<pid>.json``; ``benchmarks/server.py`` reads them.

The group writer's commits are recorded too (how many changes each held, how long its transaction took
from the first statement to the end of the commit, the time since the previous commit ended, i.e.
how long the writer waited for work, when it ended (``time.monotonic``), and how long the event loop then
took to run the callback that completes the batch's futures): ``<prefix>-commits.<pid>.json``, one
``[size, seconds, idle, ended, settle_delay]`` per commit.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

MAX_SAMPLES = 2_000_000
"""At most this many times are kept (a few MB)."""

_PREFIX = os.environ.get("MUSTER_ACK_TIMES", "")
_times: list[float] = []
_commits: list[list[float]] = []


def enabled() -> bool:
    """Whether this process records acknowledgement times."""
    return bool(_PREFIX)


def record(started: float) -> None:
    """Note one acknowledgement handed to its socket now, for a message read at ``started`` (perf_counter)."""
    if len(_times) < MAX_SAMPLES:
        _times.append(time.perf_counter() - started)


def record_commit(size: int, seconds: float, idle: float) -> list[float] | None:
    """Note one group commit of ``size`` changes that took ``seconds``, after the writer had waited
    ``idle`` seconds for work (called from the writer's thread; a list append is atomic). Returns the
    record, whose settle delay :func:`record_settle` fills in later."""
    if len(_commits) >= MAX_SAMPLES:
        return None
    entry = [float(size), seconds, idle, time.monotonic(), float("nan")]
    _commits.append(entry)
    return entry


def record_settle(entry: list[float] | None, committed: float) -> None:
    """In the event loop: a batch committed at ``committed`` (perf_counter) is being completed now."""
    if entry is not None:
        entry[4] = time.perf_counter() - committed


def save() -> None:
    """Write this process's times (at shutdown), if recording."""
    if _PREFIX and _times:
        Path(f"{_PREFIX}.{os.getpid()}.json").write_text(json.dumps(_times))
    if _PREFIX and _commits:
        Path(f"{_PREFIX}-commits.{os.getpid()}.json").write_text(json.dumps(_commits))
