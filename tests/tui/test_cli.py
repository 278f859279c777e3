"""``muster play`` options: bad ones are refused with a message, good ones start the session."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from muster.cli.main import app

runner = CliRunner()


def test_unknown_bot_is_refused() -> None:
    result = runner.invoke(app, ["play", "--insurgent", "nosuchbot"])
    assert result.exit_code == 2
    assert "unknown bot 'nosuchbot'" in result.output


def test_unknown_ruleset_is_refused() -> None:
    result = runner.invoke(app, ["play", "--ruleset", "3rd"])
    assert result.exit_code == 2
    assert "Unknown ruleset '3rd'" in result.output


def test_missing_or_damaged_save_files_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--load", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "Cannot load" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "muster-game", "game": "freedom", "seed": 1, "actions": [["nonsense", 3]]}')
    result = runner.invoke(app, ["play", "--load", str(bad)])
    assert result.exit_code == 2 and "does not replay" in result.output


def test_play_quit_and_load(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--insurgent", "random", "--seed", "4"], input=f"1\n1\nquit\n{save}\n")
    assert result.exit_code == 0, result.output
    assert "Saved to" in result.output
    result = runner.invoke(app, ["play", "--load", str(save), "--insurgent", "random"], input="")
    assert result.exit_code == 1  # end of input at once: nothing played, nothing changed
    assert "(4 left)" in result.output and "End of input" in result.output


def test_compact_option_starts_the_short_screen() -> None:
    result = runner.invoke(app, ["play", "--insurgent", "random", "--compact"], input="")
    assert result.exit_code == 1
    assert "Hand: " in result.output and "units E Expeditionary" in result.output
