"""``muster card N --lang pl`` and the language taken from the environment (issue 17)."""

from __future__ import annotations

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
