"""``muster card N --lang pl`` and the language taken from the environment."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.cli.main import app

runner = CliRunner()


def test_card_in_polish() -> None:
    result = runner.invoke(app, ["card", "30", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    assert "30A Ucieczka greckiej floty" in result.output
    assert "Wsparcie Imperium na morzu" in result.output and "4 PA" in result.output


def test_card_historical_note_in_polish() -> None:
    pl = runner.invoke(app, ["card", "100", "--lang", "pl"]).output
    en = runner.invoke(app, ["card", "100", "--lang", "en"]).output
    assert "W nocy 10 kwietnia 1826 roku" in pl and "On the night of 10 April 1826" not in pl
    assert "On the night of 10 April 1826" in en


def test_card_language_from_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUSTER_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert "89B Granaty" in runner.invoke(app, ["card", "89"]).output
    assert "89B Grenades" in runner.invoke(app, ["card", "89", "--lang", "en"]).output


def test_an_unknown_language_is_a_clear_error() -> None:
    result = runner.invoke(app, ["card", "30", "--lang", "xx"])
    assert result.exit_code == 2 and "unsupported language 'xx'" in result.output


def test_demo_prints_its_log_and_result_in_polish() -> None:
    result = runner.invoke(app, ["demo", "--seed", "2", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    assert "Zaczyna się runda 2." in result.output
    assert re.search(r"Zwycięzca: (Imperium|Grecy) \([^)]+\) po \d+ decyzjach\.", result.output), result.output[-300:]
    assert " wins" not in result.output and "decisions" not in result.output


def test_card_balance_table_in_polish() -> None:
    result = runner.invoke(app, ["cards-balance", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    assert "Balans kart Freedom!" in result.output and "średnie PA" in result.output and "czerwona" in result.output
    assert "," in result.output.split("czerwona")[1].splitlines()[0]  # a decimal comma: 2,75, not 2.75


def test_help_texts_follow_the_language_of_the_command_line() -> None:
    """Help texts are made when the commands are defined: a fresh process reads ``--lang`` from its arguments."""
    env = {k: v for k, v in os.environ.items() if k not in ("MUSTER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    polish = subprocess.run([sys.executable, "-m", "muster.cli.main", "simulate", "--help", "--lang", "pl"],
                            capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    assert "Raport balansu" in polish and "Liczba partii" in polish
    assert "Specyfikacja bota dla strony Imperium" in polish
    env["LANG"] = "pl_PL.UTF-8"
    from_env = subprocess.run([sys.executable, "-m", "muster.cli.main", "card", "--help"],
                              capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    assert "Numer karty, 1–100." in from_env
    env["LANG"] = "C"
    english = subprocess.run([sys.executable, "-m", "muster.cli.main", "card", "--help"],
                             capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    assert "Card number, 1–100." in english


def test_an_unknown_card_is_refused_in_polish() -> None:
    result = runner.invoke(app, ["card", "101", "--lang", "pl"])
    assert result.exit_code == 2 and "nie ma karty 101" in result.output


def test_simulate_reports_in_polish(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--imperial", "random", "--insurgent", "random", "-n", "3", "--workers",
                                 "1", "--quiet", "--out", str(tmp_path), "--lang", "pl"])
    assert result.exit_code == 0, result.output
    assert re.search(r"Imperium wygrywa \d+,\d% \(95% PU \d+,\d%–\d+,\d%\) w 3 partiach", result.output), result.output
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "# Raport balansu: random (Imperium) przeciw random (Grecy)" in report
    assert "Jak kończą się partie" in report and "How games end" not in report


def test_board_drawings_in_polish(tmp_path: Path) -> None:
    # `muster board --svg` draws both games' boards with their words in the reader's language
    freedom, hellenes = tmp_path / "freedom.svg", tmp_path / "hellenes.svg"
    assert runner.invoke(app, ["board", "--svg", str(freedom), "--lang", "pl"]).exit_code == 0
    assert runner.invoke(app, ["board", "--game", "hellenes", "--svg", str(hellenes), "--lang", "pl"]).exit_code == 0
    drawn = freedom.read_text(encoding="utf-8")
    assert "znaczniki wsparcia" in drawn and " support<" not in drawn
    drawn = hellenes.read_text(encoding="utf-8")
    assert "Grecja i Morze Egejskie" in drawn and "p.n.e. · Prestiż" in drawn and "sea border" not in drawn
    english = tmp_path / "en.svg"
    assert runner.invoke(app, ["board", "--game", "hellenes", "--svg", str(english), "--lang", "en"]).exit_code == 0
    assert "BC · Prestige level" in english.read_text(encoding="utf-8")
