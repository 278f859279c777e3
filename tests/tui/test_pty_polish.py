"""``muster play --lang pl`` in a real pseudo-terminal: a whole game against a bot, read in Polish (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_pty import ANSI, MAX_SCREENS, Terminal  # tests/tui is on sys.path (rootdir import mode)

pexpect = pytest.importorskip("pexpect")

PROMPT_PL = r"(?:Imperium|Grecy)(?:\x1b\[[0-9;]*m)* › "
QUICK_PL = re.compile(r"(\d+)\. (?:gotowe|zakończ turę|zatrzymaj kartę)")


def test_a_whole_game_in_polish(tmp_path: Path) -> None:
    term = Terminal("--lang", "pl", "--imperial", "human", "--insurgent", "random", "--seed", "5", cwd=tmp_path)
    screen = term.wait(PROMPT_PL)
    assert "Przygotowanie gry (zasady 2. wydania)" in screen or "Otwarcie rundy 1." in screen
    seen = screen
    for _ in range(MAX_SCREENS):
        found = QUICK_PL.search(term.text)
        term.child.sendline(found.group(1) if found else "1")
        k = term.child.expect([PROMPT_PL, r"KONIEC GRY"])
        term.text = ANSI.sub("", term.child.before + term.child.after)
        seen += term.text
        if k == 1:
            break
    else:
        raise AssertionError("the game did not end")
    term.child.expect(r"Wpisz nazwę pliku")
    rest = ANSI.sub("", term.child.before)
    assert re.search(r"wygrywa (Imperium|Grecy)\.", rest)
    for polish in ("PA", "Gracz Imperium zagrywa kartę", "Zaczyna się runda 2.", "zagraj kartę", "z pola"):
        assert polish in seen, polish
    assert "unit(s)" not in seen and "Imperial plays" not in seen
    term.child.sendline("")
    assert term.finished() == 0
