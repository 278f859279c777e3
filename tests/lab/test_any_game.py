"""The lab, the research adapters and the command line reach games only through their modules: any installed game
plays in the lab with the same commands, and nothing in those packages names a game."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.cli.main import app
from muster.core import Game, get_rules
from muster.core.registry import game_names
from muster.lab.hooks import DEFAULT_HOOKS, lab_hooks
from muster.lab.play import load_records
from muster.lab.simulate import _markdown, plot_endings, report_plots, run_simulation, summary

SRC = Path(__file__).resolve().parents[2] / "src" / "muster"
runner = CliRunner()


@pytest.mark.parametrize("package", ["lab", "rl", "cli"])
def test_no_game_is_named_or_imported(package: str) -> None:
    names = set(game_names())
    for path in sorted((SRC / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("muster.games"), f"{path}: imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("muster.games") for a in node.names), f"{path} imports a game"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert node.value not in names, f"{path}:{node.lineno}: names the game {node.value!r}"


def test_hellenes_gets_the_whole_lab(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    args = ["simulate", "--game", "hellenes", "--athens", "random", "--sparta", "random", "--workers", "1", "-q",
            "--out", str(out)]
    result = runner.invoke(app, [*args, "-n", "2"])
    assert result.exit_code == 0, result.output
    assert "Athens win rate" in result.output
    for name in ("report.md", "summary.json", "games.jsonl", "endings.png", "length.png", "prestige.png"):
        assert (out / name).exists(), name
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "# Balance report: random (Athens) vs random (Sparta)" in report and "Mean final Prestige" in report
    data = json.loads((out / "summary.json").read_text())
    assert data["games"] == 2 and "athens_win_rate_ci95" in data and "mean_final_prestige" in data
    assert all(key.split(":")[0] in ("athens", "sparta") for key in data["endings"])
    # resuming keeps the two games and plays only the third
    result = runner.invoke(app, [*args, "-n", "3", "--resume"])
    assert result.exit_code == 0, result.output
    assert "Resuming: 2 games already in" in result.output
    records = load_records(out / "games.jsonl", "hellenes")
    assert [r.seed for r in records] == [0, 1, 2] and all(len(r.trajectory) > 5 for r in records)
    arena = runner.invoke(app, ["arena", "--game", "hellenes", "random", "heuristic", "-n", "1", "--workers", "1",
                                "-q", "--out", str(tmp_path / "ar")])
    assert arena.exit_code == 0, arena.output
    data = json.loads((tmp_path / "ar" / "arena.json").read_text())
    assert data["game"] == "hellenes" and data["games"] == 2 and data["ratings"][0]["bot"] == "heuristic"
    assert data["bots"]["heuristic"]["athens"] == data["bots"]["heuristic"]["by_side"]["athens"]
    assert (tmp_path / "ar" / "games.csv").read_text().startswith("seed,athens,sparta,winner,reason,prestige,")


def test_seats_and_options_of_another_game_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--game", "hellenes", "--imperial", "random", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "hellenes has no seat imperial" in result.output
    result = runner.invoke(app, ["simulate", "--game", "hellenes", "--athens", "random", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--sparta" in result.output
    result = runner.invoke(app, ["arena", "random", "heuristic", "--game", "hellenes", "--ruleset", "1st",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2 and "has no option --ruleset" in result.output
    result = runner.invoke(app, ["simulate", "--game", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Unknown game 'chess'" in result.output
    assert not list(tmp_path.iterdir())


def test_bot_option_names_any_seat_and_game_options_reach_the_games(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--bot", "imperial=random", "--bot", "insurgent=random", "--ruleset",
                                 "1st", "-n", "1", "--workers", "1", "-q", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "games.jsonl").read_text())
    first_edition = run_simulation(["random", "random"], 1, options={"ruleset": "1st"}, workers=1,
                                   show_progress=False)[0]
    assert (record["winner"], record["decisions"]) == (first_edition.winner, first_edition.decisions)
    second_edition = run_simulation(["random", "random"], 1, workers=1, show_progress=False)[0]
    assert first_edition.events != second_edition.events


def test_a_game_without_lab_hooks_gets_the_generic_report(tmp_path: Path) -> None:
    records = run_simulation(["random", "random"], 2, game="hellenes", workers=1, show_progress=False)
    for record in records:  # what a game without hooks records: nothing of its own
        record.extra = {}
    data = summary(records, "hellenes")
    plots = report_plots(DEFAULT_HOOKS, rounds=False)
    assert [p.filename for p in plots] == ["endings.png", "length.png"]
    lines = _markdown(data, "en", DEFAULT_HOOKS, plots)
    assert lines[0] == "# Balance report: random (Athens) vs random (Sparta)"
    plot_endings(records, tmp_path / "endings.png", "en", DEFAULT_HOOKS)
    assert (tmp_path / "endings.png").read_bytes()[:4] == b"\x89PNG"
    assert lab_hooks("hellenes").seat_name("athens", "pl") == "Ateny"


def test_play_finds_the_game_in_its_save_file_and_analyze_says_when_a_game_has_none(tmp_path: Path) -> None:
    game = Game(get_rules("hellenes"), 4)
    game.apply(game.legal_actions()[0])
    save = tmp_path / "hellenes.json"
    save.write_text(game.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["play", "--load", str(save), "--sparta", "random"], input="")
    assert result.exit_code == 1 and "End of input" in result.output  # loaded as Hellenes, nothing played
    duel = Game(get_rules("duel"), 4)  # the test suite's plugin game, which has no analysis part
    duel.apply(duel.legal_actions()[0])
    save = tmp_path / "duel.json"
    save.write_text(duel.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(save), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "has no analysis" in result.output
    assert not (tmp_path / "out").exists()


def test_lab_commands_refuse_a_game_count_out_of_bounds_before_playing(tmp_path: Path) -> None:
    for command in (["arena", "random", "random"], ["simulate"], ["leaderboard", "--game", "hellenes"],
                    ["dataset", "--game", "hellenes"]):
        result = runner.invoke(app, [*command, "--games", "0", "--out", str(tmp_path / "out")])
        assert result.exit_code == 2 and "--games must be between 1 and" in result.output, (command, result.output)
    assert not (tmp_path / "out").exists()
