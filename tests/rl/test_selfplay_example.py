"""examples/selfplay.py runs end to end on a tiny budget (skipped where PyTorch is not installed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("pettingzoo")

from muster.ai import register_bot
from muster.games.freedom import RULES
from muster.lab.play import play_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay.py"


def test_selfplay_trains_and_its_policy_plays_a_game() -> None:
    spec = importlib.util.spec_from_file_location("selfplay_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules["selfplay_example"] = example
    spec.loader.exec_module(example)
    net = example.PolicyValueNet(RULES.observation_shape()[0], RULES.action_space.size, hidden=32)
    before = [p.detach().clone() for p in net.parameters()]
    result = example.train(net, games=2, batch=2, seed=0)
    assert result["games"] == 2 and result["decisions_trained"] > 0
    assert any((a != b).any() for a, b in zip(before, net.parameters(), strict=True))  # it learned something
    register_bot("test-policy", lambda r, s, o: example.PolicyBot(r, net, s))
    record = play_game(["test-policy", "random"], seed=1)
    assert record.decisions > 50
