"""Run many bot-vs-bot games of any game on all cores or on a Ray cluster, with a rich progress bar.

Backends: ``local`` (worker processes on this machine) and ``ray`` (one Ray task per game, on a
local Ray instance or a cluster by address; needs ``pip install 'muster[ray]'``). A game's record
depends only on its job (game, bots, seed, options), so both give the same records, apart from the
CPU seconds measured.
"""

from __future__ import annotations

import functools
import json
import multiprocessing as mp
import os
import platform
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from muster.ai import make_bot
from muster.core import get_rules
from muster.lab.play import GameRecord, play_game

BACKENDS = ("local", "ray")


class Job(NamedTuple):
    """One game to play: the game, the bot specs by seat (in the game's seat order), the seed of the deal
    and dice, and the game's options as sorted (name, value) pairs."""

    game: str
    bots: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, str], ...] = ()


def _run(job: Job) -> GameRecord:
    return play_game(job.bots, job.seed, job.game, dict(job.options))


def check_specs(specs: Sequence[str], game: str) -> None:
    """Build each bot once for ``game`` so a bad spec fails before any worker starts (BotSpecError)."""
    rules = get_rules(game)
    for spec in specs:
        make_bot(spec, rules=rules)


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


RETRIES = 1
"""How many times a game whose task failed is played again before the run goes on without it."""


class Failure(NamedTuple):
    """A job whose game raised (or whose worker died): the error, in one line."""

    error: str


class Mismatch(NamedTuple):
    """A worker whose rules or action space differ from the driver's: the explanation."""

    message: str


def versions(game: str) -> dict[str, str]:
    """What must match between the driver and a worker for their records to mean the same: the rules'
    version and, for a game with one, the action space's."""
    rules = get_rules(game)
    out = {"rules": rules.info.version}
    space = getattr(rules, "action_space", None)
    if space is not None:
        out["action_space"] = space.version
    return out


def _attempt(task: Callable[[Job], Any], expected: dict[str, str] | None,
             pair: tuple[int, Job]) -> tuple[int, Any]:
    """Run one job in a worker: refuse if its versions differ from the driver's (``expected``), and turn
    an exception into a :class:`Failure` so that one bad game does not end the run."""
    i, job = pair
    if expected is not None:
        here = versions(job.game)
        if here != expected:
            differ = ", ".join(f"{k} {here.get(k)} here, {v} on the driver" for k, v in expected.items()
                               if here.get(k) != v)
            return i, Mismatch(f"a worker on {platform.node()} runs other {job.game} rules: {differ}; "
                               "install the driver's muster version on every node")
    try:
        return i, task(job)
    except Exception as exc:  # any error of one game is reported, and the run goes on
        text = " ".join(str(exc).split())
        return i, Failure(f"{type(exc).__name__}: {text}"[:500])


def run_jobs(jobs: Sequence[Job], workers: int = 0, show_progress: bool = True,
             label: str = "games", stream: Path | None = None, backend: str = "local",
             address: str | None = None, done: Sequence[GameRecord] = (),
             task: Callable[[Job], Any] = _run,
             on_failure: Callable[[Job, str], None] | None = None) -> list[Any]:
    """Play every job and return the records in job order.

    ``workers`` > 1 plays in that many worker processes (``local``) or caps the Ray tasks in flight
    (``ray``; 0: what the cluster offers). With ``stream``, each record is also appended to that
    JSON-lines file as soon as its game ends, so a long run can be watched, and what finished
    survives an interruption. Records in ``done`` (e.g. read back from that file) whose job is
    in ``jobs`` and that the current rules made are reused instead of played again.

    ``task`` plays one job (a module-level function, so that worker processes and Ray can import it; by
    default the game's :class:`~muster.lab.play.GameRecord`); what it returns needs ``to_json()`` for
    ``stream``. A job that raises, or whose worker dies, is played again :data:`RETRIES` time(s); if it
    still fails it is left out of the result and reported to ``on_failure`` (by default on stderr), and
    the run goes on. On Ray each worker checks that its rules and action space are the driver's
    (:func:`versions`); a worker that differs stops the run with ValueError, as does a Ray that cannot
    be started or joined.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}")
    results: dict[int, Any] = dict(reusable(jobs, done))
    todo = [(i, job) for i, job in enumerate(jobs) if i not in results]
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), disable=not show_progress)
    report = on_failure or _print_failure
    with progress, _backend(backend, workers, address, todo, task) as source:
        bar = progress.add_task(label, total=len(jobs), completed=len(results))
        for attempt in range(RETRIES + 1):
            failed: dict[int, str] = {}
            for i, out in source(todo):
                if isinstance(out, Mismatch):
                    raise ValueError(out.message)
                if isinstance(out, Failure):
                    failed[i] = out.error
                    continue
                results[i] = out
                progress.advance(bar)
                if stream is not None:
                    with stream.open("a") as fh:
                        fh.write(json.dumps(out.to_json()) + "\n")
            todo = [(i, jobs[i]) for i in sorted(failed)]
            if attempt == RETRIES:
                for i, error in sorted(failed.items()):
                    report(jobs[i], error)
    return [results[i] for i in range(len(jobs)) if i in results]


def _print_failure(job: Job, error: str) -> None:
    print(f"skipped {job.game} game {job.seed} ({' vs '.join(job.bots)}) after {RETRIES + 1} failures: {error}",
          file=sys.stderr)


Source = Callable[[Sequence[tuple[int, Job]]], Iterator[tuple[int, Any]]]


@contextmanager
def _backend(backend: str, workers: int, address: str | None, todo: Sequence[tuple[int, Job]],
             task: Callable[[Job], Any]) -> Iterator[Source]:
    """A function playing a list of jobs on the backend (started once for all the run's attempts)."""
    if backend == "ray" and todo:
        with _ray_session(workers, address, task) as ray_source:
            yield ray_source
    else:
        play = functools.partial(_attempt, task, None)
        yield lambda batch: _results(batch, workers or default_workers(), play)


def job_key(bots: Sequence[str], seed: int) -> tuple[tuple[str, ...], int]:
    """What identifies a game of a run: the bot specs by seat and the seed."""
    return tuple(bots), seed


def reusable(jobs: Sequence[Job], done: Sequence[GameRecord]) -> dict[int, GameRecord]:
    """Which jobs already have a record in ``done`` (made by the current rules of the jobs' game): job
    index → record."""
    if not done or not jobs:
        return {}
    version = get_rules(jobs[0].game).info.version
    by_key = {job_key(tuple(r.bots.values()), r.seed): r for r in done if r.rules_version == version}
    out = {}
    for i, job in enumerate(jobs):
        record = by_key.get(job_key(job.bots, job.seed))
        if record is not None:
            out[i] = record
    return out


def _results(todo: Sequence[tuple[int, Job]], workers: int,
             play: Callable[[tuple[int, Job]], tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    if workers <= 1 or len(todo) <= 1:
        for pair in todo:
            yield play(pair)
        return
    # spawn: safe on every platform and with threads in the parent (e.g. a web server).
    ctx = mp.get_context("spawn")
    with ctx.Pool(min(workers, len(todo))) as pool:
        yield from pool.imap_unordered(play, list(todo))


@contextmanager
def _ray_session(workers: int, address: str | None, task: Callable[[Job], Any]) -> Iterator[Source]:
    """Start or join Ray once; yield a function that plays a batch of jobs as one Ray task per game, at most
    a few tasks per CPU in flight (so 100,000 games need little memory)."""
    try:
        import ray
    except ModuleNotFoundError as exc:
        raise ValueError("the ray backend needs Ray: pip install 'muster[ray]'") from exc
    started_here = not ray.is_initialized()
    if started_here:
        init: dict[str, Any] = {"address": address, "include_dashboard": False, "log_to_driver": False,
                                "configure_logging": False}
        if address is None and workers:
            init["num_cpus"] = workers
        try:
            ray.init(**init)
        except Exception as exc:  # Ray raises many kinds; the user needs one line
            first = next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise ValueError(f"could not start or join {where}: {first}") from exc
    try:
        play = ray.remote(num_cpus=1, max_retries=0)(_attempt)

        def source(batch: Sequence[tuple[int, Job]]) -> Iterator[tuple[int, Any]]:
            expected = versions(batch[0][1].game) if batch else None
            window = max(1, workers or int(ray.cluster_resources().get("CPU", 1))) * 4
            queue = deque(batch)
            pending: dict[Any, int] = {}
            while queue or pending:
                while queue and len(pending) < window:
                    pair = queue.popleft()
                    pending[play.remote(task, expected, pair)] = pair[0]
                ready, _rest = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    i = pending.pop(ref)
                    try:
                        out = ray.get(ref)
                    except Exception as exc:  # a worker died or Ray lost the task: played again
                        out = i, Failure(f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:500])
                    yield out

        yield source
    finally:
        if started_here:
            ray.shutdown()
