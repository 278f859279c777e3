"""Hostile save files: ``muster board --state`` and ``muster play --load`` answer one clear line, never a
traceback (bad bytes, deep nesting, markup-like text)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from muster.cli.main import app
from muster.core import CorruptStateError, Game, get_rules, new_game


def _save_file() -> bytes:
    game, chooser = new_game("freedom", seed=4), random.Random(4)
    for _ in range(30):
        game.apply(chooser.choice(game.legal_actions()))
    return game.dumps().encode("utf-8")


def _mutate(data: bytes, chooser: random.Random) -> bytes:
    """One to four random edits: flip a byte, insert junk, delete a span, or cut the file short."""
    out = bytearray(data)
    for _ in range(chooser.randint(1, 4)):
        kind, at = chooser.randrange(4), chooser.randrange(max(1, len(out)))
        if kind == 0 and out:
            out[at] = chooser.randrange(256)
        elif kind == 1:
            out[at:at] = bytes(chooser.randrange(256) for _ in range(chooser.randint(1, 8)))
        elif kind == 2:
            del out[at:at + chooser.randint(1, 40)]
        else:
            del out[at:]
    return bytes(out)


def _check_one_line_or_success(tmp_path: Path, data: bytes, *command: str) -> int:
    path = tmp_path / "save.json"
    path.write_bytes(data)
    args = [a.replace("{file}", str(path)).replace("{svg}", str(tmp_path / "b.svg")) for a in command]
    result = CliRunner().invoke(app, args, input="quit\n", env={"COLUMNS": "80"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 2:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Cannot load "), result.output
    else:
        assert result.exit_code == 0, result.output
    return int(result.exit_code)


def test_300_mutated_save_files_give_a_drawing_or_one_clear_line(tmp_path: Path) -> None:
    original, chooser = _save_file(), random.Random(13)
    codes = [_check_one_line_or_success(tmp_path, _mutate(original, chooser), "board", "--svg", "{svg}",
                                        "--state", "{file}") for _ in range(300)]
    assert codes.count(2) > 250  # nearly every mutation breaks the file; each said so in one line


def test_bad_bytes_deep_nesting_and_markup_get_one_line_from_both_commands(tmp_path: Path) -> None:
    hostile = {
        "not UTF-8": b'{"format": "muster-game", "game": "\xff\xfe"}',
        "nests deeper": b"[" * 30000 + b"]" * 30000,
        "nests deeper ": b'{"a": ' + b"[" * 100 + b"]" * 100 + b"}",
        "is for game": b'{"format": "muster-game", "game": "[/] [bold]x[/bold] [link=file:///etc]y[/link]"}',
        "not JSON": b"[/]",
    }
    for reason, data in hostile.items():
        for command in (("board", "--svg", "{svg}", "--state", "{file}"), ("play", "--load", "{file}")):
            assert _check_one_line_or_success(tmp_path, data, *command) == 2
            path = tmp_path / "save.json"
            result = CliRunner().invoke(app, [a.replace("{file}", str(path)).replace("{svg}", str(tmp_path / "b.svg"))
                                              for a in command])
            assert reason.strip() in result.output, result.output
            if reason == "is for game":  # the markup-like text is shown as text, not taken as markup
                assert "[/] [bold]x[/bold] [link=file:///etc]y[/link]" in result.output


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * 30000 + b"]" * 30000)
    result = subprocess.run([sys.executable, "-m", "muster.cli.main", "board", "--svg", str(tmp_path / "b.svg"),
                             "--state", str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.strip().count("\n") == 0 and "nests deeper" in result.stdout


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_loading_any_bytes_raises_only_corrupt_state_error(data: bytes) -> None:
    try:
        Game.loads(get_rules("freedom"), data)
    except CorruptStateError as exc:
        assert "\n" not in str(exc)
