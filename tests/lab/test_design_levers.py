"""The DESIGN-lever benchmark runs: each lever in its own process, the last line a JSON summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "design_levers.py"


def test_a_lever_and_a_combination_play_the_same_seeds_and_print_a_summary() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    levers = ["--lever", "baseline", "--lever", "sea_vasiladi+sea_markers_3"]
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "2", "--workers", "1", "--bot", "random", *levers],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(summary) == {"baseline", "sea_vasiladi+sea_markers_3"}
    assert all(value.endswith("/2") for value in summary.values())


def test_a_screen_written_to_a_file_resumes_with_only_the_games_it_lacks(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = tmp_path / "levers.jsonl"

    def screen(games: int) -> dict[str, str]:
        done = subprocess.run([sys.executable, str(SCRIPT), "--games", str(games), "--workers", "1", "--bot", "random",
                               "--lever", "sea_markers_3", "--out", str(out)],
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    screen(2)
    first = out.read_text().splitlines()
    summary = screen(3)
    lines = out.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 3
    assert sorted(json.loads(line)["seed"] for line in lines) == [1000, 1001, 1002]
    assert summary["sea_markers_3"].endswith("/3")
