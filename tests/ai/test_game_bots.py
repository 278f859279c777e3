"""Bots reach a game only through its module: its own bots, its search knowledge, its levels.

A third game is registered here for the length of a test (a module under a new name whose rules are Hellenes'
under that name): what it gets is exactly what its module says, without a line changed in muster.ai.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from muster.ai import BotSpecError, bot_names, make_bot
from muster.ai.levels import LEVELS, level, level_name, levels_for
from muster.ai.search import GameIsmctsBot
from muster.core.bots import RandomBot, make_own_bot
from muster.core.plugin import GameModule, LevelPlay
from muster.core.registry import game_module, game_modules
from muster.games.hellenes.game import HellenesRules

GAMES = Path(__file__).resolve().parents[2] / "src" / "muster" / "games"


class TinyRules(HellenesRules):
    """Hellenes' rules registered under another name: a stand-in for a new game."""

    info = dataclasses.replace(HellenesRules.info, name="tiny", title="Tiny")


def _register(monkeypatch: pytest.MonkeyPatch, **parts: object) -> GameModule:
    holder = types.ModuleType("muster_test_tiny_game")
    holder.RULES = TinyRules()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, holder.__name__, holder)
    module = GameModule(name="tiny", title="Tiny", package="muster.games.hellenes", rules=f"{holder.__name__}:RULES",
                        **parts)  # type: ignore[arg-type]
    monkeypatch.setitem(game_modules(), "tiny", module)
    return module


@pytest.fixture
def knowledge_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameModule]:
    """A game that wrote search knowledge and no bot, and is played at the beginner and strongest levels."""
    yield _register(monkeypatch, search="muster.games.hellenes.bots:HellenesKnowledge",
                    levels={"beginner": LevelPlay("random", "Any legal move."),
                            "strongest": LevelPlay("ismcts:iterations=4", "Searches.", former=("ismcts",))})


def test_a_game_that_writes_knowledge_only_gets_the_searching_bot(knowledge_only: GameModule) -> None:
    bot = make_bot("ismcts:iterations=4,width=2", seed=1, game="tiny")
    assert isinstance(bot, GameIsmctsBot) and bot.width == 2
    state = bot.rules.setup(3, {"years": "1", "quiet": "1"})
    seat = bot.rules.active_seat(state)
    assert seat is not None
    legal = bot.rules.legal_actions(state)
    assert bot.choose(bot.rules.view(state, seat), legal, seat) in legal
    assert isinstance(make_bot("random", game="tiny"), RandomBot)
    assert "ismcts" in bot_names("tiny") and "heuristic" not in bot_names("tiny")


def test_a_bot_another_game_wrote_is_refused_by_name(knowledge_only: GameModule) -> None:
    with pytest.raises(BotSpecError, match=r"the 'heuristic' bot plays freedom, hellenes only; for tiny: .*ismcts"):
        make_bot("heuristic", game="tiny")
    with pytest.raises(BotSpecError, match="unknown bot 'nobot'; known for tiny"):
        make_bot("nobot", game="tiny")


def test_without_knowledge_a_game_has_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    _register(monkeypatch)
    with pytest.raises(BotSpecError, match="the 'ismcts' bot plays freedom, hellenes only"):
        make_bot("ismcts", game="tiny")


def test_a_game_own_ismcts_comes_before_the_generic_search() -> None:
    assert type(make_bot("ismcts:iterations=4", game="freedom")).__name__ == "IsmctsBot"  # Freedom!'s own
    assert isinstance(make_bot("ismcts:iterations=4", game="hellenes"), GameIsmctsBot)  # knowledge only


def test_a_bot_is_made_for_a_named_game() -> None:
    with pytest.raises(TypeError, match="the rules or the game"):
        make_bot("random")


def test_levels_come_from_the_game_module(knowledge_only: GameModule) -> None:
    assert [lv.id for lv in levels_for("tiny")] == ["beginner", "strongest"]
    assert level("strongest").spec_for("tiny") == "ismcts:iterations=4"
    assert level("strongest").description_for("tiny") == "Searches."
    assert level_name("ismcts:iterations=4", "tiny") == "Strongest"
    assert level_name("ismcts", "tiny") == "Strongest"  # a former spec of this game's level
    assert level_name("heuristic", "tiny") is None  # Standard is not offered for this game
    with pytest.raises(KeyError, match="tiny offers no 'standard' level"):
        level("standard").spec_for("tiny")
    assert [lv.id for lv in LEVELS] == ["beginner", "standard", "strongest"]  # the shared levels, weakest first


def test_a_game_builds_its_own_bots_from_its_module_alone() -> None:
    freedom = game_module("freedom")
    strongest = make_own_bot(freedom, freedom.levels["strongest"].spec, seed=1)
    assert type(strongest).__name__ == "IsmctsBot"
    assert isinstance(make_own_bot(freedom, "random"), RandomBot)
    with pytest.raises(BotSpecError, match="unknown bot 'openspiel-mcts'; freedom's own bots: heuristic, ismcts"):
        make_own_bot(freedom, "openspiel-mcts")


@pytest.mark.parametrize("layer", ["muster.ai", "muster.analysis"])
def test_games_never_import_the_bot_or_analysis_layers(layer: str) -> None:
    found = []
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(GAMES)}: {n}" for n in names if n == layer or n.startswith(layer + ".")]
    assert found == []

