"""The lab on a cluster: ``--backend ray`` gives the same records as the local run; ``--resume`` skips played games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.cli.main import app
from muster.lab.play import load_records
from muster.lab.runner import Job, run_jobs
from muster.lab.simulate import run_simulation


def _games(path: Path) -> list[dict[str, object]]:
    """The records of a games.jsonl without the CPU seconds (the one thing that differs between runs)."""
    out = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        record.pop("seconds")
        out.append(record)
    return sorted(out, key=lambda r: (str(r["imperial"]), str(r["insurgent"]), int(str(r["seed"]))))


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    stream = tmp_path / "games.jsonl"
    first = run_simulation(["random", "random"], 2, seed=10, workers=1, show_progress=False, stream=stream)
    assert len(load_records(stream)) == 2
    more = run_simulation(["random", "random"], 4, seed=10, workers=1, show_progress=False, stream=stream,
                          done=load_records(stream))
    assert len(load_records(stream)) == 4  # only seeds 12 and 13 were played and appended
    assert more[:2] == first
    fresh = run_simulation(["random", "random"], 4, seed=10, workers=1, show_progress=False)
    assert [(r.seed, r.winner, r.decisions) for r in more] == [(r.seed, r.winner, r.decisions) for r in fresh]


def test_cli_resume_keeps_the_file(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "--imperial", "random", "--insurgent", "random", "--seed", "3", "--workers", "1", "-q",
            "--out", str(tmp_path)]
    assert runner.invoke(app, [*args, "-n", "2"]).exit_code == 0
    result = runner.invoke(app, [*args, "-n", "3", "--resume"])
    assert result.exit_code == 0, result.output
    assert "Resuming: 2 games already in" in result.output
    assert [r.seed for r in load_records(tmp_path / "games.jsonl")] == [3, 4, 5]


def test_unknown_backend_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["arena", "random", "heuristic", "--backend", "spark", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "backend" in result.output
    result = CliRunner().invoke(app, ["arena", "random", "heuristic", "--address", "auto", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--address is for --backend ray" in result.output
    with pytest.raises(ValueError):
        run_jobs([Job("freedom", ("random", "random"), 0)], backend="spark")


def test_ray_arena_gives_the_local_records(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    cmd = [sys.executable, "-m", "muster.cli.main", "arena", "random", "heuristic", "-n", "2", "--workers", "2"]
    local = subprocess.run([*cmd, "--out", str(tmp_path / "local")], env=env, capture_output=True, text=True,
                           timeout=300)
    assert local.returncode == 0, local.stderr
    ray = subprocess.run([*cmd, "--backend", "ray", "--out", str(tmp_path / "ray")], env=env, capture_output=True,
                         text=True, timeout=300)
    assert ray.returncode == 0, ray.stderr + ray.stdout
    assert len(_games(tmp_path / "ray" / "games.jsonl")) == 4
    assert _games(tmp_path / "ray" / "games.jsonl") == _games(tmp_path / "local" / "games.jsonl")
