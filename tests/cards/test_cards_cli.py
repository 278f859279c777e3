"""The card commands: one card, the generated docs/cards.md, and the balance table."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from muster.cli.main import app
from muster.games.freedom.commands import balance_rows, cards_markdown

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def test_card_prints_one_card() -> None:
    result = runner.invoke(app, ["card", "42"])
    assert result.exit_code == 0
    assert "42A Stone Cannon Balls" in result.output
    assert "stone_cannon_balls" in result.output


def test_an_unknown_card_is_a_clear_error() -> None:
    result = runner.invoke(app, ["card", "101"])
    assert result.exit_code == 2
    assert "no card 101" in result.output


def test_cards_doc_writes_a_row_per_card(tmp_path: Path) -> None:
    out = tmp_path / "cards.md"
    result = runner.invoke(app, ["cards-doc", "--out", str(out)])
    assert result.exit_code == 0
    numbers = re.findall(r"^\| (\d+)[AB] \|", out.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert sorted(int(n) for n in numbers) == list(range(1, 101))


def test_committed_docs_match_the_data() -> None:
    assert (ROOT / "docs" / "cards.md").read_text(encoding="utf-8") == cards_markdown()


def test_cards_balance_prints_both_decks() -> None:
    result = runner.invoke(app, ["cards-balance"])
    assert result.exit_code == 0
    rows = [line for line in result.output.splitlines() if "red" in line or "blue" in line]
    assert len(rows) == 4
    assert all("22" in row and "3.00" in row for row in rows)


def test_design_doc_balance_table_matches_the_data() -> None:
    text = (ROOT / "docs" / "cards-design.md").read_text(encoding="utf-8")
    section = text[text.index("## Balance") :]
    rows = re.findall(r"^\| ([AB]) \| (red|blue|grey) \| (\d+) \| ([\d.]+) \|$", section, flags=re.MULTILINE)
    expected = [(deck, side, str(count), f"{mean:.2f}") for deck, side, count, mean in balance_rows()]
    assert rows == expected
