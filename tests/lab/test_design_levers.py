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
