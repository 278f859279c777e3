"""Counting how often bots take each event (the data behind the balance table's usage column)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from muster.cli.main import app
from muster.games.freedom.cards.usage import measure

runner = CliRunner()


def test_usage_counts_offers_and_choices() -> None:
    usage = measure("random", games=2, seed=3)
    assert usage.games == 2
    assert sum(usage.winners.values()) == 2
    assert usage.chosen, "random players take some events in two games"
    for number, taken in usage.chosen.items():
        # an event can only be taken on a turn where it was open
        assert 0 < taken <= usage.offered[number]
        assert 0 < usage.rate(number) <= 1


def test_cards_usage_writes_json_and_chart(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "cards-usage",
            "--bot",
            "random",
            "--games",
            "1",
            "--json",
            str(tmp_path / "u.json"),
            "--plot",
            str(tmp_path / "u.png"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "u.json").read_text(encoding="utf-8"))
    assert data["games"] == 1 and data["bot"] == "random"
    assert (tmp_path / "u.png").read_bytes()[:4] == b"\x89PNG"


def test_an_unknown_bot_is_a_clear_error() -> None:
    result = runner.invoke(app, ["cards-usage", "--bot", "nobody", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown bot" in result.output
