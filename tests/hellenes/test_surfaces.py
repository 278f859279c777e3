"""Hellenes on the shared surfaces: ``muster board --game hellenes --svg`` and the bots by game."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from muster.ai import make_bot
from muster.ai.base import BotSpecError
from muster.cli.main import app
from muster.games.hellenes import RULES


def test_board_svg_hides_what_blocks_standing_upright_hide(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(app, ["board", "--game", "hellenes", "--seat", "athens", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Greece and the Aegean" in svg and "Athens 4" in svg
    assert "Athenian hoplites" in svg and "Spartiates" not in svg and "an upright block" in svg


def test_board_refuses_unknown_games_and_seats(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["board", "--game", "chess", "--svg", str(tmp_path / "x.svg")]).exit_code == 2
    bad_seat = ["board", "--game", "hellenes", "--seat", "persia", "--svg", str(tmp_path / "x.svg")]
    assert runner.invoke(app, bad_seat).exit_code == 2


def test_bot_specs_resolve_per_game() -> None:
    assert type(make_bot("heuristic", rules=RULES)).__name__ == "HellenesHeuristicBot"
    assert make_bot("random", rules=RULES).name == "random"
    assert type(make_bot("ismcts:iterations=4", rules=RULES)).__name__ == "GameIsmctsBot"
    with pytest.raises(BotSpecError, match="unknown ismcts option"):
        make_bot("ismcts:tree=cards", rules=RULES)  # Freedom!'s options are not Hellenes'
    with pytest.raises(BotSpecError, match="unknown bot 'nobot'; known for hellenes: heuristic, ismcts"):
        make_bot("nobot", rules=RULES)


def test_the_heuristic_beats_random_in_a_short_game() -> None:
    # a one-Year game each way (the 200-game measurement is in docs/hellenes-balance.md)
    for side in ("athens", "sparta"):
        s = RULES.setup(11, {"years": "1", "quiet": "1"})
        bots = {side: make_bot("heuristic", seed=1, rules=RULES),
                ("sparta" if side == "athens" else "athens"): make_bot("random", seed=2, rules=RULES)}
        while (seat := RULES.active_seat(s)) is not None:
            legal = RULES.legal_actions(s)
            RULES.apply(s, bots[seat].choose(RULES.view(s, seat), legal, seat))
        outcome = RULES.outcome(s)
        assert outcome is not None and outcome.winner == side


def test_simulate_and_arena_for_hellenes(tmp_path: Path) -> None:
    runner = CliRunner()
    sim = runner.invoke(app, ["simulate", "--game", "hellenes", "--athens", "random", "--sparta", "random",
                              "--games", "3", "--out", str(tmp_path / "sim"), "-q"])
    assert sim.exit_code == 0, sim.output
    assert "Athens win rate" in sim.output and (tmp_path / "sim" / "prestige.png").exists()
    bad = runner.invoke(app, ["simulate", "--game", "hellenes", "--athens", "nobot", "--sparta", "random",
                              "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2
    ar = runner.invoke(app, ["arena", "--game", "hellenes", "random", "random:", "--games", "1",
                             "--out", str(tmp_path / "ar"), "-q"])
    assert ar.exit_code == 0, ar.output


def test_demo_plays_a_random_hellenes_game() -> None:
    result = CliRunner().invoke(app, ["demo", "--game", "hellenes", "--seed", "2"])
    assert result.exit_code == 0 and "wins (" in result.output and "New Year 431 BC" in result.output


def test_a_game_saved_under_rules_r4_is_refused_by_name() -> None:
    # rules revision 5 changes the legal lists (the Sortie question's "hold" on Fortifying and at the question):
    # an r4 save is refused, naming both versions
    from muster.core import CorruptStateError, Game

    game = Game(RULES, seed=3)
    game.apply(game.legal_actions()[0])
    record = game.to_record()
    assert str(record["rules_version"]).startswith("r5-") and str(record["rules_version"]).endswith("-design2")
    record["rules_version"] = "r4-" + str(record["rules_version"])[3:]
    with pytest.raises(CorruptStateError, match=r"rules version 'r4-map2.*this muster plays 'r5-map2"):
        Game.from_record(RULES, record)
    assert Game.from_record(RULES, game.to_record()).actions == game.actions


def test_a_notebook_shows_a_hellenes_game_as_its_map_with_every_block() -> None:
    # a Game's _repr_svg_ is what Jupyter draws: the whole state, both sides' blocks named with their CVs
    from muster.core import new_game

    game = new_game("hellenes", seed=3)
    svg = game._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    on_map = [u for u in game.state.units.values() if u.area is not None]
    assert svg.count("<g><title>") == len(on_map)
    assert "Athenian hoplites" in svg and "Spartiates" in svg and "an upright block" not in svg
