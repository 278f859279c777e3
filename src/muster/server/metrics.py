"""Server-side acknowledgement times, recorded only for benchmarks (``MUSTER_ACK_TIMES=<path prefix>``).

Each websocket action's time from the moment its message is read by the server to the moment its
acknowledgement is handed to the socket: the server's own share of a player's wait, without the
network, the kernel's socket buffers or the client's scheduling. At shutdown each server process
writes its times (seconds, JSON) to ``<prefix>.<pid>.json``; ``benchmarks/server.py`` reads them.
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


def enabled() -> bool:
    """Whether this process records acknowledgement times."""
    return bool(_PREFIX)


def record(started: float) -> None:
    """Note one acknowledgement handed to its socket now, for a message read at ``started`` (perf_counter)."""
    if len(_times) < MAX_SAMPLES:
        _times.append(time.perf_counter() - started)


def save() -> None:
    """Write this process's times (at shutdown), if recording."""
    if _PREFIX and _times:
        Path(f"{_PREFIX}.{os.getpid()}.json").write_text(json.dumps(_times))
