"""How long each bot level thinks on this install, measured rather than promised.

The lobby says how long a level's bot thinks from what this install measured: a level's speed depends on
whether the rules are compiled and on the machine, so a fixed sentence would be wrong somewhere. :func:`measure`
times a level's bot on fixed positions (the same seeds everywhere: the openings of two games against the game's
Standard level) and reports the CPU seconds of its searched decisions, those in which it played playouts; a
level that never searches (it answers at once) reports nothing. :func:`measure_all` does every level of every game, and
``python -m muster.ai.timing`` prints that as JSON, which is how the web server measures: in a child process
at start-up, off the request path and outside the server's own process (:class:`LevelTimings`).

A measure costs some seconds of CPU (more in pure Python), so its result is kept in a cache file
(``$MUSTER_CACHE_DIR``, else ``~/.cache/muster``) under a fingerprint of what it depends on: muster's version,
whether the rules are compiled, the levels' specs, Python and the processor. A server started again on the same
install reads it at once; a changed install (a rebuild, a new level) measures again.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import muster
from muster import _native
from muster.ai import make_bot
from muster.ai.levels import levels_for
from muster.core import game_names, get_rules
from muster.core.budget import cpu_now

log = logging.getLogger("muster.ai.timing")

SEEDS = (1, 2)
"""The games the measure plays (fixed, so every install times the same positions)."""
SEARCHED = 6
"""Searched decisions timed per level: enough for a typical figure, few enough to take seconds
(``MUSTER_TIMING_DECISIONS`` sets another number, e.g. fewer for a quick test)."""
MAX_ACTIONS = 600
"""A measuring game stops after this many actions (the bot's decisions come well before)."""


def measure(game: str, spec: str, searched: int = SEARCHED) -> float | None:
    """The median CPU seconds ``spec`` spends on a searched decision of ``game`` (None if it never searched)."""
    rules = get_rules(game)
    standard = [found for found in levels_for(game) if found.id == "standard"]
    opponent = standard[0].spec_for(game) if standard else "random"
    times: list[float] = []
    for g, seed in enumerate(SEEDS):
        state = rules.setup(seed, {})
        mine = rules.info.seats[g % len(rules.info.seats)]
        bot = make_bot(spec, seed=seed, game=game)
        other = make_bot(opponent, seed=seed, game=game)
        for _ in range(MAX_ACTIONS):
            if rules.outcome(state) is not None or len(times) >= searched:
                break
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            if len(legal) == 1:
                rules.apply(state, legal[0])
                continue
            chooser = bot if seat == mine else other
            start = cpu_now()
            action = chooser.choose(rules.view(state, seat), legal, seat)
            spent = cpu_now() - start
            if chooser is bot and getattr(bot, "last_iterations", 0) > 0:
                times.append(spent)
            rules.apply(state, action)
    return statistics.median(times) if times else None


def measure_all() -> dict[str, dict[str, float]]:
    """Every searching level of every game: ``{game: {level id: median CPU seconds a searched decision}}``."""
    try:
        searched = max(1, min(50, int(os.environ.get("MUSTER_TIMING_DECISIONS", str(SEARCHED)))))
    except ValueError:
        searched = SEARCHED
    out: dict[str, dict[str, float]] = {}
    for game in game_names():
        for found in levels_for(game):
            try:
                seconds = measure(game, found.spec_for(game), searched)
            except Exception:  # a game's bot that cannot be timed here: the lobby says nothing of its time
                log.exception("could not time the %s level of %s", found.id, game)
                continue
            if seconds is not None:
                out.setdefault(game, {})[found.id] = round(seconds, 3)
    return out


def fingerprint() -> str:
    """What a measure depends on, hashed: muster's version, compiled or pure rules, every level's spec, Python's
    version and the processor (a cached measure is used only where all of these are the same)."""
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    specs = sorted((g, lv.id, lv.spec_for(g)) for g in game_names() for lv in levels_for(g))
    parts = [muster.__version__, "compiled" if _native.ACTIVE else "pure", repr(specs), sys.version, cpu]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def cache_path() -> Path:
    """The cache file of level timings (``$MUSTER_CACHE_DIR/level-timings.json``, else under ``~/.cache``)."""
    root = os.environ.get("MUSTER_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "muster")
    return Path(root) / "level-timings.json"


def cached() -> dict[str, dict[str, float]] | None:
    """The measure kept for this install's fingerprint, or None."""
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(cache_path().read_text())
        if isinstance(data, dict) and isinstance(data.get(fingerprint()), dict):
            found: dict[str, dict[str, float]] = data[fingerprint()]
            return found
    return None


def remember(measured: dict[str, dict[str, float]]) -> None:
    """Keep ``measured`` for this install's fingerprint (written whole, then renamed: never half a file)."""
    path = cache_path()
    data: dict[str, object] = {}
    with contextlib.suppress(OSError, ValueError):
        old = json.loads(path.read_text())
        if isinstance(old, dict):
            data = old
    data[fingerprint()] = measured
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)


def measure_cached() -> dict[str, dict[str, float]]:
    """This install's cached measure, measured (and kept) if there is none. Several server processes starting
    together measure once: the first takes a lock beside the cache and the others wait for its result."""
    found = cached()
    if found is not None:
        return found
    lock = cache_path().with_suffix(".lock")
    with contextlib.suppress(OSError):
        lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        handle = open(lock, "a")  # noqa: SIM115 - held for the whole measure
    except OSError:  # no writable cache: measure alone
        found = measure_all()
        remember(found)
        return found
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the handle closes, also if this process dies
        found = cached()  # measured by another process while this one waited
        if found is None:
            found = measure_all()
            remember(found)
    return found


class LevelTimings:
    """What this install measured for the bot levels, for the lobby: empty until the measure (a child
    process started by :meth:`start`) reports; a measure that fails leaves it empty (the lobby then says
    nothing about time) and is logged."""

    def __init__(self) -> None:
        self.seconds: dict[str, dict[str, float]] = {}
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def of(self, game: str, level_id: str) -> float | None:
        """The median CPU seconds a searched decision of ``level_id`` takes in ``game`` (None: not measured)."""
        return self.seconds.get(game, {}).get(level_id)

    def start(self) -> None:
        """Start measuring in a child process (at a lower priority, so players' requests come first)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop a measure still running."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        found = await asyncio.to_thread(cached)  # a measure made before on this install: no child process
        if found is not None:
            self.seconds = found
            self.ready.set()
            return
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "muster.ai.timing", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ}, preexec_fn=_lower_priority)
        try:
            out, _ = await proc.communicate()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise
        try:
            data = json.loads(out.decode().strip().splitlines()[-1]) if proc.returncode == 0 else None
        except (ValueError, IndexError):
            data = None
        if isinstance(data, dict):
            self.seconds = {str(g): {str(k): float(v) for k, v in levels.items()} for g, levels in data.items()}
            log.info("bot levels timed in %.1f s: %s", time.perf_counter() - started, self.seconds)
        else:
            log.warning("the bot levels could not be timed (exit code %s)", proc.returncode)
        self.ready.set()


def _lower_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(10)


def main() -> None:
    """Print what every searching level measures here (from the cache if this install has measured before),
    as one JSON object."""
    print(json.dumps(measure_cached()))


if __name__ == "__main__":
    main()
