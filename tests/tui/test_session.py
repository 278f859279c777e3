"""The terminal session's input handling, driven with scripted lines (the real Game and bots)."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rich.console import Console

from muster.ai import make_bot
from muster.core import Game, get_rules
from muster.tui.session import EXIT_EOF, EXIT_INTERRUPTED, EXIT_OK, Session


class Script:
    """Reads scripted lines like :func:`input`: EOFError when they run out; a ``^C`` line raises
    KeyboardInterrupt; a callable entry is asked for the line then (to react to the screen)."""

    def __init__(self, lines: list[object]) -> None:
        self.lines: Iterator[object] = iter(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        line = next(self.lines, None)
        if line is None:
            raise EOFError
        if callable(line):
            line = line()
        if line == "^C":
            raise KeyboardInterrupt
        return str(line)


def make_session(lines: list[object], insurgent: str | None = "random", seed: int = 3) -> tuple[Session, Console]:
    game = Game(get_rules("freedom"), seed, {"ruleset": "2nd"})
    console = Console(file=io.StringIO(), width=120, color_system=None)
    players = {"imperial": None, "insurgent": make_bot(insurgent, seed=1, game="freedom") if insurgent else None}
    return Session(game, players, console, read=Script(lines)), console


def output(console: Console) -> str:
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    session, console = make_session(["0", "99", "abc", "", "log x", "save", "undo", "²", "9" * 5000])
    before = session.game.dumps()
    assert session.run() == EXIT_EOF
    out = output(console)
    assert "There is no choice 0: choose from 1 to 15." in out
    assert "There is no choice 99" in out
    assert "Not understood: 'abc'" in out
    assert "Type the number of a choice (1–15)" in out
    assert "Use 'log' or 'log N'" in out
    assert "Give a file name: save FILE" in out
    assert "Nothing to undo" in out
    assert "Not understood: '²'" in out and out.count("Not understood") == 3
    assert "End of input: no move was made" in out
    assert session.game.dumps() == before


def test_a_choice_applies_the_listed_action_and_undo_takes_it_back() -> None:
    session, console = make_session(["1", "1", "undo"])
    first = session.game.legal_actions()[0]
    assert session.run() == EXIT_EOF
    assert session.game.actions == []
    assert "Back to the start of your turn." in output(console)
    session, _ = make_session(["1"])
    session.run()
    assert session.game.actions == [first]


def test_help_explains_the_current_phase() -> None:
    session, console = make_session(["help"])
    session.run()
    assert "Opening. The Imperial player may step up to 5 units" in output(console)
    assert "Commands:" in output(console)


def test_save_and_load_give_the_same_game(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    session, console = make_session(["1", "1", f"save {target}"])
    session.run()
    assert "Saved 2 moves to" in output(console)
    loaded = Game.loads(get_rules("freedom"), target.read_text(encoding="utf-8"))
    assert loaded.actions == session.game.actions
    assert loaded.dumps() == session.game.dumps()


def test_saving_to_an_unwritable_place_is_reported(tmp_path: Path) -> None:
    session, console = make_session([f"save {tmp_path}/missing/dir/x.json"])
    session.run()
    assert "Could not save to" in output(console)


def test_ctrl_c_offers_to_save_then_continue_or_save(tmp_path: Path) -> None:
    session, console = make_session(["^C", "c", "1", "^C", str(tmp_path / "s.json")])
    assert session.run() == EXIT_OK
    out = output(console)
    assert out.count("Interrupted.") == 2 and "Back to the game." in out
    assert (tmp_path / "s.json").exists()
    again = Game.loads(get_rules("freedom"), (tmp_path / "s.json").read_text(encoding="utf-8"))
    assert len(again.actions) == 1


def test_quit_without_saving() -> None:
    session, console = make_session(["quit", ""])
    assert session.run() == EXIT_INTERRUPTED
    assert "Quit without saving." in output(console)


def test_hot_seat_pauses_and_shows_only_the_hand_of_the_seat_to_move() -> None:
    session, console = make_session([], insurgent=None)
    game = session.game
    lines: list[object] = [""]  # hand-over pause for the Imperial player
    # decline the Opening advances: the last choice is 'done'
    lines.append(lambda: str(len(game.legal_actions())))
    lines.append("")  # hand-over pause for the Insurgent player
    session.read = Script(lines)  # type: ignore[assignment]
    session.run()
    out = output(console)
    assert out.count("Pass the screen to the") == 2
    imperial_part, insurgent_part = out.split("Pass the screen to the Insurgent player")
    assert "Imperial hand" in imperial_part and "Insurgent hand" not in imperial_part
    assert "Insurgent hand" in insurgent_part and "Imperial hand" not in insurgent_part


@pytest.mark.parametrize("human", ["insurgent"])  # the pty test plays the Imperial side
def test_a_whole_game_against_a_bot_reaches_the_end(human: str) -> None:
    game = Game(get_rules("freedom"), 5, {"ruleset": "2nd"})
    console = Console(file=io.StringIO(), width=120, color_system=None)
    bot_seat = "insurgent" if human == "imperial" else "imperial"
    players = {human: None, bot_seat: make_bot("random", seed=2, game="freedom")}

    def quick() -> str:
        # end turns and steps as soon as allowed, otherwise the first choice; Enter once it is over
        if game.outcome is not None:
            return ""
        legal = game.legal_actions()
        for n, action in enumerate(legal, start=1):
            if action.verb in ("end", "done", "pass"):
                return str(n)
        return "1"

    session = Session(game, players, console, read=Script([quick] * 2000))
    assert session.run() == EXIT_OK
    assert game.outcome is not None
    assert "GAME OVER" in output(console)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.text(max_size=40))
def test_no_typed_line_crashes_or_changes_the_game_unless_it_is_a_choice(line: str) -> None:
    session, _ = make_session([])
    before = session.game.dumps()
    count = len(session.game.legal_actions())
    word = line.strip().split(" ")[0].lower()
    assume(word not in ("save", "quit", "q", "exit"))  # these write files or ask a question
    session.handle("imperial", line)
    text = line.strip()
    is_choice = text.isdecimal() and len(text) <= 9 and 1 <= int(text) <= count
    assert (session.game.dumps() == before) != is_choice
    assert session.message is not None or is_choice


def test_save_file_is_an_ordinary_file_and_replaces_an_old_one(tmp_path: Path) -> None:
    from muster.tui.session import save_game

    session, _ = make_session([])
    target = tmp_path / "g.json"
    target.write_text("old")
    save_game(session.game, str(target))
    assert target.read_text(encoding="utf-8") == session.game.dumps()
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask  # like any file the user writes
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left behind


def test_compact_full_and_hand_commands_switch_the_screen_and_change_nothing() -> None:
    session, console = make_session(["compact", "hand", "full"])
    before = session.game.dumps()
    assert session.run() == EXIT_EOF
    out = output(console)
    assert "Screen layout: compact." in out and "Screen layout: full." in out
    assert "Imperial hand" in out  # 'hand' prints the whole hand, card texts included
    assert "· hand · full · quit" in out and "· compact · quit" in out
    assert session.game.dumps() == before and not session.compact


def test_the_session_speaks_polish(tmp_path: Path) -> None:
    """Every line the session itself prints follows ``--lang pl``, counts in Polish plural forms."""
    game = Game(get_rules("freedom"), 3, {"ruleset": "2nd"})
    console = Console(file=io.StringIO(), width=120, color_system=None)
    players = {"imperial": None, "insurgent": None}
    save = tmp_path / "g.json"
    lines = ["", "", "0", "abc", "undo", "hint", "compact", "full", "log x", "1", "1", f"save {save}", "hand"]
    session = Session(game, players, console, read=Script(lines), lang="pl")
    assert session.run() == EXIT_EOF
    out = output(console)
    for polish in ("Przekaż ekran graczowi strony: Imperium.", "Wpisz numer wyboru (1–15) albo 'help'.",
                   "Nie ma wyboru 0: wybierz od 1 do 15.", "Nie rozumiem: 'abc'.", "Nie ma czego cofać",
                   "W tej grze podpowiedzi są wyłączone.", "Układ ekranu: compact.", "Użyj 'log' albo 'log N'",
                   "Zapisano 2 ruchy do", "Imperium: ręka", "Koniec wejścia: nie wykonano ruchu", "Tory i obszary"):
        assert polish in out, polish
    for english in ("Pass the screen", "There is no choice", "Not understood", "Saved ", "End of input", "Hot-seat"):
        assert english not in out, english
