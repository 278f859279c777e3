"""``muster play --game hellenes`` in a real pseudo-terminal (pexpect): a whole one-Year game against the
Hellenes heuristic, with bad input, save and load, exactly as a person would type them."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"Athens(?:\x1b\[[0-9;]*m)* › "
SAVE_PROMPT = r"save as › "
QUICK = re.compile(r"(\d+)\s+(?:done|end the Action phase|stay|fight on|sacrifice it)\b")
MAX_SCREENS = 400


class Terminal:
    """``muster play --game hellenes …`` in a 50×120 pseudo-terminal."""

    child: Any

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="50")
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(sys.executable, ["-m", "muster.cli.main", "play", "--game", "hellenes", *args],
                                   cwd=str(cwd), env=env, dimensions=(50, 120), encoding="utf-8", timeout=300,
                                   maxread=65536)
        self.child.delaybeforesend = None
        self.text = ""

    def wait(self, pattern: str = PROMPT) -> str:
        self.child.expect(pattern)
        self.text = ANSI.sub("", self.child.before + self.child.after)
        return self.text

    def send(self, line: str, then: str = PROMPT) -> str:
        self.child.sendline(line)
        return self.wait(then)


def test_a_whole_game_against_the_heuristic(tmp_path: Path) -> None:
    term = Terminal("--sparta", "heuristic", "--years", "1", "--seed", "4", cwd=tmp_path)
    text = term.wait()
    assert "Greece and the Aegean" in text and "New Year 431" in text
    assert "▮" in text  # Spartan blocks stand upright: Athens sees only that they are there
    assert "Spartiates" not in text
    assert "Not understood" in term.send("march on Sparta")
    assert "There is no choice 99" in term.send("99")
    assert "Saved" in term.send("save game.json")
    screens = 0
    while screens < MAX_SCREENS:
        screens += 1
        found = QUICK.search(term.text)
        term.child.sendline(found.group(1) if found else "1")
        index = term.child.expect([PROMPT, SAVE_PROMPT])
        term.text = ANSI.sub("", term.child.before + term.child.after)
        if index == 1:
            break
    assert "GAME OVER" in term.text and 5 < screens < MAX_SCREENS
    term.child.sendline("")
    term.child.expect(pexpect.EOF)
    term.child.close()
    assert term.child.exitstatus == 0
    # the save made on the first screen loads again
    again = Terminal("--load", "game.json", "--sparta", "heuristic", cwd=tmp_path)
    assert "New Year 431" in again.wait()
    again.child.sendline("quit")
    again.child.expect(SAVE_PROMPT)
    again.child.sendline("")
    again.child.expect(pexpect.EOF)


def test_a_game_in_polish(tmp_path: Path) -> None:
    """``muster play --game hellenes --lang pl``: the map, the prompts, the choices and the log in Polish."""
    prompt = r"Ateny(?:\x1b\[[0-9;]*m)* › "
    term = Terminal("--sparta", "heuristic", "--years", "1", "--seed", "4", "--lang", "pl", cwd=tmp_path)
    text = term.wait(prompt)
    assert "Grecja i Morze Egejskie" in text and "Nowy Rok 431 p.n.e." in text and "grasz: Ateny" in text
    assert "Ateny: Nowy Rok 431: wybierz kartę noworoczną (zakrytą)" in text
    assert "Attyka" in text and "Prestiż remis" in text and "Twój wybór" in text
    assert "Greece and the Aegean" not in text and "choose the New-Year card" not in text
    text = term.send("1", prompt)
    assert "zagraj ją jako Wydarzenie" in text or "poświęć ją (odrzuć)" in text
    seen_spring = False
    for _ in range(40):
        found = re.search(r"(\d+)\s+(?:gotowe|zakończ fazę akcji|zostań|walcz dalej|poświęć ją)", term.text)
        text = term.send(found.group(1) if found else "1", prompt)
        seen_spring = seen_spring or "Wiosna 431" in text
        if seen_spring and ("zostało" in text or "została" in text or "zostały" in text):
            break
    assert seen_spring and "Karta noworoczna" in text
    assert re.search(r"Ateny: Wiosna 431: zosta(?:ła|ły|ło) \d+ akcj", text), text
    term.child.sendline("quit")
    term.child.expect(r"zapisz jako › ")  # the session's own lines are Polish too
    term.child.sendline("")
    term.child.expect(pexpect.EOF)
