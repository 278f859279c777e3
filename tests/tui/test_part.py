"""The terminal reaches a game only through its terminal part; a game without one is still played, plainly."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from rich.console import Console

from muster.ai import make_bot
from muster.core import Game, get_rules
from muster.core.registry import game_modules
from muster.i18n import domains
from muster.tui.part import PlainTerminal, terminal_part
from muster.tui.session import EXIT_EOF, Session


def test_each_game_brings_its_own_terminal_part() -> None:
    for name, module in game_modules().items():
        part = terminal_part(get_rules(name))
        assert part is module.part("terminal") and tuple(part.SEATS) == get_rules(name).info.seats
        assert not isinstance(part, PlainTerminal)  # drawn by the game itself


def test_the_message_domains_are_the_registered_games_own() -> None:
    assert domains()[0] == "muster"
    assert set(domains()) == {"muster", *(m.domain for m in game_modules().values())}


def typed(lines: list[str]) -> Callable[[str], str]:
    """A player who types ``lines`` at the prompts, then closes the input."""
    left = iter(lines)

    def read(_prompt: str) -> str:
        line = next(left, None)
        if line is None:
            raise EOFError
        return line
    return read


def test_a_game_without_a_terminal_part_is_played_with_the_plain_one() -> None:
    rules = get_rules("hellenes")
    game = Game(rules, 5)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    seats = rules.info.seats
    players = {seats[0]: None, seats[1]: make_bot("random", seed=1, rules=rules)}
    session = Session(game, players, console, read=typed(["help", "hand", "hint", "1"]), terminal=PlainTerminal(rules))
    assert session.run() == EXIT_EOF
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "This game has no drawing of its own in the terminal" in out  # its help
    assert "This game has no hints." not in out  # Hellenes gives hints (after the player's consent)
    assert "Board" in out and re.search(r"│ year +431 ", out)  # the view's public entries, one a line
    assert seats[0].title() in out or "Athens" in out
    assert len(game.actions) >= 1  # the choice was applied


def test_the_plain_part_keeps_the_hand_to_the_hand_panel() -> None:
    rules = get_rules("hellenes")
    seat = rules.info.seats[0]
    view = Game(rules, 7).view(seat)
    part = PlainTerminal(rules)

    def shown(renderable: object) -> str:
        console = Console(file=io.StringIO(), width=400, color_system=None)
        console.print(renderable)
        return console.file.getvalue()  # type: ignore[attr-defined]

    board, hand = shown(part.board_panel(view)), shown(part.hand_panel(view, seat))
    assert not [line for line in board.splitlines() if line.strip("│ ").startswith(("hands ", "stack ", "log "))]
    assert all(str(card) in hand for card in view["hands"][seat])


def test_a_game_without_an_analysis_says_it_has_no_hints() -> None:
    rules = get_rules("duel")  # the test suite's plugin game: no analysis part
    console = Console(file=io.StringIO(), width=120, color_system=None)
    seats = rules.info.seats
    players = {seats[0]: None, seats[1]: make_bot("random", seed=1, rules=rules)}
    session = Session(Game(rules, 5), players, console, read=typed(["hint"]), terminal=PlainTerminal(rules))
    assert session.run() == EXIT_EOF
    assert "This game has no hints." in console.file.getvalue()  # type: ignore[attr-defined]
