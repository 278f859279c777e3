"""The engine's commands: ``muster demo`` and ``muster board --svg``, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from muster.core import new_game


def muster(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "muster.cli.main", *args], capture_output=True, text=True,
                          timeout=120)


def test_demo_prints_a_whole_game_and_saves_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = muster("demo", "--seed", "3", "--save", str(save))
    assert result.returncode == 0, result.stderr
    assert "Round 1 begins" in result.stdout and " wins (" in result.stdout
    assert save.read_text(encoding="utf-8").startswith('{"format":"muster-game"')


def test_board_svg_draws_every_space_and_the_pieces_of_a_saved_game(tmp_path: Path) -> None:
    game = new_game("freedom", seed=2)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    save = tmp_path / "save.json"
    save.write_text(game.dumps(), encoding="utf-8")
    svg = tmp_path / "board.svg"
    result = muster("board", "--svg", str(svg), "--state", str(save))
    assert result.returncode == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and text.count('class="space"') == 78
    assert 'data-space="w6"' in text and "civilians" in text


def test_board_refuses_a_corrupt_save_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "muster-game", "game": "freedom"}', encoding="utf-8")
    result = muster("board", "--svg", str(tmp_path / "x.svg"), "--state", str(bad))
    assert result.returncode == 2
    assert "Cannot load" in result.stdout
    assert not (tmp_path / "x.svg").exists()
