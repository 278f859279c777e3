"""What researchers use: the leaderboard of every bot, the self-play dataset, and a run that survives a failing
game or refuses a worker with other rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.ai.levels import levels_for
from muster.cli.main import app
from muster.core import get_rules
from muster.core.spaces import learning_rules
from muster.lab import runner
from muster.lab.dataset import load_dataset, record_game
from muster.lab.leaderboard import entries, run_leaderboard
from muster.lab.play import GameRecord, load_records, play_game
from muster.lab.runner import Job, run_jobs

FLAKY_MARK = "MUSTER_TEST_FLAKY_MARK"


def _flaky(job: Job) -> GameRecord:
    """Seed 1 fails the first time it is played (the mark file records that it has failed once)."""
    mark = Path(os.environ[FLAKY_MARK])
    if job.seed == 1 and not mark.exists():
        mark.write_text("failed once")
        raise RuntimeError("a node went away")
    return play_game(job.bots, job.seed, job.game)


def _broken(job: Job) -> GameRecord:
    if job.seed == 1:
        raise RuntimeError("this game always fails")
    return play_game(job.bots, job.seed, job.game)


def test_a_failing_game_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FLAKY_MARK, str(tmp_path / "mark"))
    jobs = [Job("freedom", ("random", "random"), seed) for seed in range(3)]
    failures: list[tuple[Job, str]] = []
    records = run_jobs(jobs, workers=1, show_progress=False, task=_flaky,
                       on_failure=lambda job, error: failures.append((job, error)))
    assert (tmp_path / "mark").exists() and failures == []
    assert [r.seed for r in records] == [0, 1, 2]


def test_a_game_that_keeps_failing_is_left_out_and_the_run_goes_on(tmp_path: Path) -> None:
    jobs = [Job("hellenes", ("random", "random"), seed) for seed in range(3)]
    failures: list[tuple[Job, str]] = []
    stream = tmp_path / "games.jsonl"
    records = run_jobs(jobs, workers=1, show_progress=False, task=_broken, stream=stream,
                       on_failure=lambda job, error: failures.append((job, error)))
    assert [r.seed for r in records] == [0, 2]
    assert [(job.seed, error) for job, error in failures] == [(1, "RuntimeError: this game always fails")]
    assert [r.seed for r in load_records(stream, "hellenes")] == [0, 2]


@pytest.mark.parametrize("game", ["freedom", "hellenes"])
def test_the_leaderboard_lists_every_bot_of_the_game_module(game: str) -> None:
    board = {e.spec: e.levels for e in entries(game)}
    assert {"random", "heuristic", "ismcts"} <= set(board)
    assert any(spec.startswith("openspiel-ismcts") for spec in board)
    assert any(spec.startswith("openspiel-mcts") for spec in board)
    for level in levels_for(game):  # every level's bot is on it, named by the level
        assert level.name in board[level.spec_for(game)]
    assert board["random"] == ("Beginner",)


def test_leaderboard_writes_a_resumable_table(tmp_path: Path) -> None:
    out = tmp_path / "hellenes"
    report, board = run_leaderboard("hellenes", 1, out, seed=5, workers=1, show_progress=False,
                                    only=["random", "heuristic"])
    assert len(report.records) == 2 and {e.spec for e in board} == {"random", "heuristic"}
    table = (out / "leaderboard.md").read_text()
    assert "`random` (Beginner)" in table and "`heuristic` (Standard)" in table and "seeds 5–5" in table
    data = json.loads((out / "leaderboard.json").read_text())
    assert data["seeds"] == [5, 5] and data["games"] == 2
    assert data["rules_version"] == get_rules("hellenes").info.version
    before = (out / "games.jsonl").read_text()
    # Resumed with one more seed: only the new seed's two games are played; the first two are kept as they were.
    report, _ = run_leaderboard("hellenes", 2, out, seed=5, workers=1, show_progress=False,
                                only=["random", "heuristic"])
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(report.records) == 4 and len(lines) == 4
    assert sorted(before.splitlines()) == sorted(line for line in lines if json.loads(line)["seed"] == 5)
    rated, _ = run_leaderboard("hellenes", 2, out, seed=5, show_progress=False, only=["random", "heuristic"],
                               play=False)
    assert [r.elo for r in rated.ratings] == [r.elo for r in report.ratings]
    result = CliRunner().invoke(app, ["leaderboard", "--game", "hellenes", "--only", "nosuchbot", "--out",
                                      str(tmp_path), "-q"])
    assert result.exit_code == 2 and "not on the hellenes leaderboard: nosuchbot" in result.output


def test_dataset_lines_replay_their_games_and_hold_the_search(tmp_path: Path) -> None:
    out = tmp_path / "data.jsonl"
    result = CliRunner().invoke(app, ["dataset", "--game", "hellenes", "--athens", "ismcts:iterations=2",
                                      "--sparta", "heuristic", "-n", "1", "--seed", "4", "--workers", "1", "-q",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    [line] = load_dataset(out)
    rules = learning_rules(get_rules("hellenes"))
    assert line["bots"] == {"athens": "ismcts:iterations=2", "sparta": "heuristic"} and line["seed"] == 4
    assert line["action_space"] == rules.action_space.version and line["options"]["years"]
    state = rules.setup(line["seed"], {**line["options"], "quiet": "1"})
    decisions = {d["step"]: d for d in line["decisions"]}
    for step, index in enumerate(line["actions"]):
        legal = rules.legal_actions(state)
        action = rules.action_from_index(index)
        assert action in legal
        if len(legal) > 1:
            assert decisions[step]["legal"] == len(legal) and decisions[step]["action"] == index
            assert decisions[step]["seat"] == rules.active_seat(state)
        rules.apply(state, action)
    outcome = rules.outcome(state)
    assert outcome is not None and line["outcome"]["winner"] == outcome.winner
    assert line["outcome"]["reason"] == outcome.reason
    searched = [d for d in line["decisions"] if d["visits"]]
    assert searched and all(d["seat"] == "athens" for d in searched)
    for d in searched:
        assert str(d["action"]) in d["visits"] and d["value"] == d["visits"][str(d["action"])][1]
        assert all(n >= 1 for n, _mean in d["visits"].values())
    assert all(d["value"] is None and d["visits"] is None for d in line["decisions"] if d["seat"] == "sparta")
    assert record_game(runner.Job("hellenes", ("ismcts:iterations=2", "heuristic"), 4)).to_json() == line


def test_ray_dataset_version_check_and_failures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = tmp_path / "ray.jsonl"
    cmd = [sys.executable, "-m", "muster.cli.main", "dataset", "--game", "hellenes", "--bot", "athens=random",
           "--bot", "sparta=random", "-n", "2", "--workers", "1", "-q"]
    done = subprocess.run([*cmd, "--backend", "ray", "--out", str(out)], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    local = [record_game(Job("hellenes", ("random", "random"), seed)).to_json() for seed in (0, 1)]
    assert load_dataset(out) == local

    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])  # Ray's workers import this muster
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        jobs = [Job("freedom", ("random", "random"), 0), Job("freedom", ("random", "no-such-bot"), 1)]
        failures: list[str] = []
        records = run_jobs(jobs, backend="ray", show_progress=False,
                           on_failure=lambda job, error: failures.append(error))
        assert [r.seed for r in records] == [0] and "unknown bot 'no-such-bot'" in failures[0]
        # A driver whose rules differ from the workers' (as after an upgrade of one machine only) is refused.
        real = runner.versions
        monkeypatch.setattr(runner, "versions", lambda game: {**real(game), "rules": "r0-elsewhere"})
        with pytest.raises(ValueError, match=r"a worker on .* runs other freedom rules: rules .* here, r0-elsewhere"):
            run_jobs(jobs[:1], backend="ray", show_progress=False)
    finally:
        ray.shutdown()


def test_ray_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    result = CliRunner().invoke(app, ["arena", "random", "heuristic", "-n", "1", "--backend", "ray",
                                      "--address", "ray://127.0.0.1:9", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    text = " ".join(result.output.split())  # the console wraps its one line at the terminal's width
    assert text.startswith("error: could not start or join the Ray cluster at ray://127.0.0.1:9: "), text
    assert text.count("error:") == 1
