"""Run many bot-vs-bot games on all cores, with a rich progress bar."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from muster.ai import make_bot
from muster.lab.play import GameRecord, play_game


class Job(NamedTuple):
    """One game to play: the two bot specs and the seed of the deal and dice."""

    imperial: str
    insurgent: str
    seed: int
    ruleset: str = "2nd"


def _run(job: Job) -> GameRecord:
    return play_game(job.imperial, job.insurgent, job.seed, job.ruleset)


def check_specs(specs: Sequence[str]) -> None:
    """Build each bot once so a bad spec fails before any worker starts (BotSpecError)."""
    for spec in specs:
        make_bot(spec)


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_jobs(jobs: Sequence[Job], workers: int = 0, show_progress: bool = True,
             label: str = "games", stream: Path | None = None) -> list[GameRecord]:
    """Play every job (in worker processes when ``workers`` > 1) and return the records in job order.

    With ``stream``, each record is also appended to that JSON-lines file as soon as its game ends,
    so a long run can be watched, and what finished survives an interruption.
    """
    workers = workers or default_workers()
    results: dict[int, GameRecord] = {}
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), disable=not show_progress)
    with progress:
        task = progress.add_task(label, total=len(jobs))
        for i, record in _results(jobs, workers):
            results[i] = record
            progress.advance(task)
            if stream is not None:
                with stream.open("a") as fh:
                    fh.write(json.dumps(record.to_json()) + "\n")
    return [results[i] for i in range(len(jobs))]


def _indexed(pair: tuple[int, Job]) -> tuple[int, GameRecord]:
    return pair[0], _run(pair[1])


def _results(jobs: Sequence[Job], workers: int) -> Iterator[tuple[int, GameRecord]]:
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            yield i, _run(job)
        return
    # spawn: safe on every platform and with threads in the parent (e.g. a web server).
    ctx = mp.get_context("spawn")
    with ctx.Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap_unordered(_indexed, list(enumerate(jobs)))
