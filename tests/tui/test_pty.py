"""``muster play`` in a real pseudo-terminal (pexpect): a whole game against a bot, with bad
input, undo, save, quit, load, Ctrl-C and end of input, exactly as a person would type them."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"(?:Imperial|Insurgent)(?:\x1b\[[0-9;]*m)* › "
SAVE_PROMPT = r"save as › "
QUICK = re.compile(r"(\d+)\. (?:done|end the turn|keep the card)\b")
COUNT = re.compile(r"Type a number 1–(\d+)")
MAX_SCREENS = 600
"""A bound on the number of screens in one game (the quick policy needs about 130)."""


def _live_ctrl_c() -> None:
    """In the spawned player's process, before it starts: Ctrl-C interrupts, as in a person's terminal. A test run
    started in the background by a non-interactive shell (``cmd &``) ignores SIGINT, every process it starts
    inherits that, and Python then never turns Ctrl-C into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """``muster play …`` running in a 50×120 pseudo-terminal."""

    child: Any

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="50")
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "muster.cli.main", "play", *args],
            cwd=str(cwd),
            env=env,
            dimensions=(50, 120),
            encoding="utf-8",
            timeout=300,  # generous: a failure bound only (the waits end at the prompt); a loaded machine is slow
            maxread=65536,
            preexec_fn=_live_ctrl_c,
        )
        self.child.delaybeforesend = None  # input is line-buffered; no need to wait before each line
        self.text = ""

    def wait(self, pattern: str = PROMPT) -> str:
        """Wait for ``pattern``; return the plain text printed since the last wait."""
        self.child.expect(pattern)
        self.text = ANSI.sub("", self.child.before + self.child.after)
        return self.text

    def interrupt(self) -> str:
        """Press Ctrl-C at a prompt and wait for the offer to save; return the text printed since the last wait.

        If the first Ctrl-C changes nothing for a while, it is pressed again, as a person would."""
        self.child.sendintr()
        try:
            self.child.expect(SAVE_PROMPT, timeout=30)
        except pexpect.TIMEOUT:
            self.child.sendintr()
            self.child.expect(SAVE_PROMPT)
        self.text = ANSI.sub("", self.child.before + self.child.after)
        return self.text

    def send(self, line: str, then: str = PROMPT) -> str:
        """Type a line and wait for the next prompt."""
        self.child.sendline(line)
        return self.wait(then)

    def quick_choice(self) -> str:
        """The quick policy: end a turn or step whenever allowed, otherwise choice 1."""
        found = QUICK.search(self.text)
        return found.group(1) if found else "1"

    def play_until(self, stop: str) -> int:
        """Play the quick policy until ``stop`` (a regex) appears on a screen; returns screens seen."""
        for screens in range(MAX_SCREENS):
            if re.search(stop, self.text):
                return screens
            self.child.sendline(self.quick_choice())
            self.child.expect([PROMPT, SAVE_PROMPT])
            self.text = ANSI.sub("", self.child.before + self.child.after)
        raise AssertionError(f"{stop!r} never appeared")

    def finished(self) -> int:
        """Wait for the process to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus)


def test_full_game_against_a_bot_with_bad_input_undo_save_and_load(tmp_path: Path) -> None:
    term = Terminal("--imperial", "human", "--insurgent", "random", "--seed", "3", cwd=tmp_path)
    screen = term.wait()
    assert "Round 1 of 6 · Period A · Opening" in screen and "Imperial hand" in screen
    assert "Messolonghi" in screen and "(Row 3)" in screen and "Kütahi's Camp" in screen
    assert "Opening: advance a unit one space forward (5 left)" in screen
    count = int(COUNT.search(screen).group(1))  # type: ignore[union-attr]

    # Bad input: a clear message each time, and the decision stays the same.
    for line, message in (
        ("abc", "Not understood: 'abc'"),
        (str(count + 1), f"There is no choice {count + 1}: choose from 1 to {count}."),
        ("0", "There is no choice 0"),
        ("", f"Type the number of a choice (1–{count})"),
        ("undo", "Nothing to undo"),
    ):
        screen = term.send(line)
        assert message in screen
        assert "(5 left)" in screen

    screen = term.send("help")
    assert "Opening. The Imperial player may step up to 5 units" in screen

    # Two steps of one advance, then undo back to the start of the turn.
    term.send("1")
    screen = term.send("1")
    assert "(4 left)" in screen and "undo ·" in screen
    screen = term.send("undo")
    assert "Back to the start of your turn." in screen and "(5 left)" in screen

    # Play into round 2, save, quit without saving again.
    term.play_until(r"Round 2 of 6")
    save = tmp_path / "round2.json"
    screen = term.send(f"save {save.name}")
    assert "Saved" in screen and save.exists()
    term.send("quit", then=SAVE_PROMPT)
    term.child.sendline("")
    assert term.finished() == 130

    # Load it, now against the heuristic bot: the game goes on from round 2; Ctrl-C offers to save,
    # 'c' continues.
    term = Terminal("--load", save.name, "--insurgent", "heuristic", cwd=tmp_path)
    screen = term.wait()
    assert "Round 2 of 6" in screen
    screen = term.interrupt()
    assert "Interrupted." in screen
    screen = term.send("c")
    assert "Back to the game." in screen

    # And on to the end of the game.
    term.play_until(r"GAME OVER")
    assert re.search(r"GAME OVER: (Imperial|Insurgent) wins\.", term.text)
    term.child.sendline("final.json")
    assert term.finished() == 0
    assert (tmp_path / "final.json").exists()


def test_end_of_input_stops_without_a_move(tmp_path: Path) -> None:
    term = Terminal("--insurgent", "random", "--seed", "1", cwd=tmp_path)
    term.wait()
    term.child.sendeof()
    term.child.expect("End of input: no move was made")
    assert term.finished() == 1


def test_hot_seat_passes_the_screen(tmp_path: Path) -> None:
    term = Terminal("--seed", "2", cwd=tmp_path)
    assert "Pass the screen to the Imperial player" in term.wait(r"Press Enter when ready\.")
    screen = term.send("")
    assert "Imperial hand" in screen and "Insurgent hand" not in screen
    count = int(COUNT.search(screen).group(1))  # type: ignore[union-attr]
    screen = term.send(str(count), then=r"Press Enter when ready\.")  # 'done': no Opening advances
    assert "Pass the screen to the Insurgent player" in screen and "Imperial hand" not in screen
    screen = term.send("")
    assert "Insurgent hand" in screen and "Imperial hand" not in screen
    term.interrupt()
    term.child.sendline("")
    assert term.finished() == 130
