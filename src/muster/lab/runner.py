"""Run many bot-vs-bot games of any game on all cores or on a Ray cluster, with a rich progress bar.

Backends: ``local`` (worker processes on this machine) and ``ray`` (one Ray task per game, on a
local Ray instance or a cluster by address; needs ``pip install 'muster[ray]'``). A game's record
depends only on its job (game, bots, seed, options), so both give the same records, apart from the
CPU seconds measured.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from collections import deque
from collections.abc import Iterator, Sequence
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


def run_jobs(jobs: Sequence[Job], workers: int = 0, show_progress: bool = True,
             label: str = "games", stream: Path | None = None, backend: str = "local",
             address: str | None = None, done: Sequence[GameRecord] = ()) -> list[GameRecord]:
    """Play every job and return the records in job order.

    ``workers`` > 1 plays in that many worker processes (``local``) or caps the Ray tasks in flight
    (``ray``; 0: what the cluster offers). With ``stream``, each record is also appended to that
    JSON-lines file as soon as its game ends, so a long run can be watched, and what finished
    survives an interruption. Records in ``done`` (e.g. read back from that file) whose job is
    in ``jobs`` and that the current rules made are reused instead of played again.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}")
    results = reusable(jobs, done)
    todo = [(i, job) for i, job in enumerate(jobs) if i not in results]
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), disable=not show_progress)
    with progress:
        task = progress.add_task(label, total=len(jobs), completed=len(results))
        if backend == "ray":
            source = _ray_results(todo, workers, address)
        else:
            source = _results(todo, workers or default_workers())
        for i, record in source:
            results[i] = record
            progress.advance(task)
            if stream is not None:
                with stream.open("a") as fh:
                    fh.write(json.dumps(record.to_json()) + "\n")
    return [results[i] for i in range(len(jobs))]


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


def _indexed(pair: tuple[int, Job]) -> tuple[int, GameRecord]:
    return pair[0], _run(pair[1])


def _results(todo: Sequence[tuple[int, Job]], workers: int) -> Iterator[tuple[int, GameRecord]]:
    if workers <= 1 or len(todo) <= 1:
        for i, job in todo:
            yield i, _run(job)
        return
    # spawn: safe on every platform and with threads in the parent (e.g. a web server).
    ctx = mp.get_context("spawn")
    with ctx.Pool(min(workers, len(todo))) as pool:
        yield from pool.imap_unordered(_indexed, list(todo))


def _ray_results(todo: Sequence[tuple[int, Job]], workers: int,
                 address: str | None) -> Iterator[tuple[int, GameRecord]]:
    """One Ray task per game; at most a few tasks per CPU in flight, so 100,000 games need little memory."""
    try:
        import ray
    except ModuleNotFoundError as exc:
        raise ValueError("the ray backend needs Ray: pip install 'muster[ray]'") from exc
    if not todo:
        return
    started_here = not ray.is_initialized()
    if started_here:
        init: dict[str, Any] = {"address": address, "include_dashboard": False, "log_to_driver": False,
                                "configure_logging": False}
        if address is None and workers:
            init["num_cpus"] = workers
        ray.init(**init)
    try:
        play = ray.remote(num_cpus=1)(_indexed)
        window = max(1, workers or int(ray.cluster_resources().get("CPU", 1))) * 4
        queue = deque(todo)
        pending: list[Any] = []
        while queue or pending:
            while queue and len(pending) < window:
                pending.append(play.remote(queue.popleft()))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
