"""Hellenes' analysis: the estimate and hints read only what a seat may know; ``muster analyze`` writes the
review of a Hellenes game; a turning point never advises a worse choice."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.analysis import GameAnalysis
from muster.cli.main import app
from muster.core import Game, get_rules
from muster.core.registry import game_module
from muster.games.hellenes import analysis
from muster.games.hellenes.module import STRONGEST

RULES = get_rules("hellenes")


def _midgame(seed: int, steps: int) -> Game:
    """A game played at random for ``steps`` decisions (or fewer if a turn of the opponent's comes later)."""
    game = Game(RULES, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        game.apply(chooser.choice(game.legal_actions()))
    assert game.active_seat is not None
    return game


def _scrambled(game: Game, seat: str, seed: int) -> object:
    """Another true state the seat cannot tell apart: the enemy's hidden blocks and cards drawn anew."""
    other = RULES.determinize(game.view(seat), seat, seed)
    assert RULES.view(other, seat) == game.view(seat)
    return other


def test_hellenes_analysis_is_its_module_part_and_follows_the_protocol() -> None:
    part = game_module("hellenes").part("analysis")
    assert isinstance(part, GameAnalysis)
    assert part.side_in("athens", "en") == "Athens" and part.side_in("sparta", "pl") != "sparta"
    assert part.reason_in(analysis.NO_CHANGE, "pl") != analysis.NO_CHANGE  # translated


@pytest.mark.parametrize("seat", ["athens", "sparta"])
def test_estimate_ignores_hidden_information(seat: str) -> None:
    game = _midgame(11, 120)
    view = game.view(seat)
    scrambled = _scrambled(game, seat, 1234)
    assert analysis.athens_chance(RULES.view(scrambled, seat), seat, RULES) == analysis.athens_chance(view, seat, RULES)
    assert 0.0 < analysis.athens_chance(view, seat, RULES) < 1.0


def test_hints_ignore_hidden_information() -> None:
    game = _midgame(4, 90)
    seat = game.active_seat
    assert seat is not None
    first = [a.to_json() for a in analysis.hints(game.view(seat), game.legal_actions(), seat, rules=RULES)]
    scrambled = _scrambled(game, seat, 99)
    again = [a.to_json() for a in analysis.hints(RULES.view(scrambled, seat), RULES.legal_actions(scrambled), seat,
                                                 rules=RULES)]
    assert first == again
    assert 1 <= len(first) <= 3 and first[0]["strongest"] is True
    assert all(0.0 <= a["chance"] <= 1.0 and a["reason"] for a in first)
    # each hint keeps its label's message beside the English words, so a worker's JSON can be read in Polish
    assert all(a["message"] and analysis.label_in(a, "pl") != a["label"] for a in first)


def _finished(seed: int) -> Game:
    game = Game(RULES, seed)
    chooser = random.Random(seed)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    return game


def test_analyze_writes_both_files_and_turning_points_never_advise_worse(tmp_path: Path) -> None:
    game = _finished(5)
    save = tmp_path / "game.json"
    save.write_text(game.dumps(), encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(save), "--out", str(tmp_path / "out"), "--lang", "pl"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert (tmp_path / "out" / "win-probability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["subject"] == "athens" and len(data["win_probability"]) == len(data["cards"]) > 5
    assert all(0.0 <= p <= 1.0 for p in data["win_probability"])
    assert data["win_probability"][-1] == (1.0 if game.outcome and game.outcome.winner == "athens" else 0.0)
    assert 1 <= len(data["turning_points"]) <= 3
    for tp in data["turning_points"]:
        assert tp["played"] and tp["strongest"]["label"] and 0.0 <= tp["strongest"]["estimate"] <= 1.0
        # the advice is better for the advised seat by the estimate, or it is the move played
        mine = (lambda p: p) if tp["seat"] == "athens" else (lambda p: 1 - p)
        if tp["better"]:
            assert mine(tp["strongest"]["estimate"]) >= mine(tp["played_estimate"]) + analysis.BETTER_BY - 1e-4
        else:
            assert tp["strongest"]["action"] == data["cards"][tp["card"] - 1]["action"]
    # the terminal names the turns played and the strongest choices in Polish, from the stored messages
    output = " ".join(result.output.split())
    for tp in data["turning_points"]:
        played = data["cards"][tp["card"] - 1]
        assert played["message"] and tp["strongest"]["message"]
        assert analysis.label_in(played, "pl") in output and played["label"] not in output


def test_the_analysis_asks_the_strongest_level_without_its_cpu_budget() -> None:
    assert "cpu=" in game_module("hellenes").levels["strongest"].spec
    assert analysis.strongest_spec() == STRONGEST.replace(",cpu=0.9", "")  # the level's other options kept
