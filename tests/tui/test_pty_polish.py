"""``muster play --lang pl`` in a real pseudo-terminal: a whole game against a bot, read in Polish."""

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
    # commands answer in Polish too: a bad word, the hand, the log
    screen = term.send("xyz", PROMPT_PL)
    assert "Nie rozumiem: 'xyz'" in screen
    screen = term.send("hand", PROMPT_PL)
    assert "ręka" in screen and "Wydarzenie" in screen
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
    assert re.search(r"Zwycięzca: (Imperium|Grecy)\.", rest)
    # the reason of the end is Polish too, and the final board and tracks
    assert re.search(r"Zwycięzca: \w+\. (Missolongi wytrzymuje|Morale \w+ spadło do zera|Jednostki Imperium zajmują)",
                     rest)
    assert "Tory i obszary" in term.text and "GAME OVER" not in term.text + rest and "holds out" not in rest
    for polish in ("PA", "Gracz Imperium zagrywa kartę", "Zaczyna się runda 2.", "zagraj kartę", "z pola"):
        assert polish in seen, polish
    assert "unit(s)" not in seen and "Imperial plays" not in seen
    # the panels and the session's own lines (no English left on the Polish screen)
    for polish in ("Ostatnie wydarzenia", "Tory i obszary", "Obóz Kütahiego", "Runda 1 z 6", "Rząd 8", "kol. 1",
                   "Karty zagrane w tej rundzie", "Wpisz liczbę 1–", "Śródmieście:", "Wyspa Marmarou", "morale",
                   "Obszary (Imp/Gr", "Ruch: Imperium" if "Ruch: Imperium" in seen else "Imperium"):
        assert polish in seen, polish
    for english in ("Recent events", "Tracks and areas", "Kütahi's Camp", "Round 1 of 6", "Cards played", "Row 8",
                    "col 1", "Type a number", "civilians", " island ", "waters:", "Areas (", " to play",
                    "Imperial hand", "spaces you may choose", "Expeditionary", "Choose ", "Normal Movement",
                    "edition rules", "is playing"):
        assert english not in seen, english
    term.child.sendline("")
    assert term.finished() == 0
