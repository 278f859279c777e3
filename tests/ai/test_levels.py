"""The bot levels the web offers: which spec plays each game, and how stored games name their bots."""

from __future__ import annotations

from muster.ai import make_bot
from muster.ai.levels import LEVELS, level, level_name
from muster.games.freedom.module import STRONGEST
from muster.games.hellenes.module import STRONGEST as HELLENES_STRONGEST
from muster.server.bots import check_spec


def test_the_strongest_level_plays_the_strongest_spec_for_freedom_and_ismcts_for_hellenes() -> None:
    strongest = level("strongest")
    assert strongest.spec_for("freedom") == STRONGEST
    assert strongest.spec_for("hellenes") == HELLENES_STRONGEST  # Hellenes' search has its own options


def test_every_level_spec_is_one_the_server_runs_for_the_games_it_plays() -> None:
    for found in LEVELS:
        for game in ("freedom", "hellenes"):
            spec = found.spec_for(game)
            check_spec(spec, game=game)
            assert make_bot(spec, seed=1, game=game) is not None


def test_a_game_created_with_a_former_spec_still_shows_its_level_name() -> None:
    assert level_name(STRONGEST, "freedom") == "Strongest"
    assert level_name("ismcts", "freedom") == "Strongest"  # the strongest level's first spec
    assert level_name("ismcts", "hellenes") == "Strongest"
    assert level_name("ismcts:cpu=0.9", "hellenes") == "Strongest"  # before Group Moves were searched
    # the specs before the levels had a CPU budget
    assert level_name("ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6", "freedom") == "Strongest"
    # and the one before the counter term
    assert level_name("ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6,cpu=0.9",
                      "freedom") == "Strongest"
    # and the one before the reach term's routes through the islands
    assert level_name("ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6,cpu=0.9,counter=1",
                      "freedom") == "Strongest"
    assert level_name("heuristic", "freedom") == "Standard" and level_name("random", "freedom") == "Beginner"
    assert level_name("ismcts:iterations=3", "freedom") is None
