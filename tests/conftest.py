"""Shared fixtures and options of the test suite.

``tests/plugins`` holds games that are not part of muster, each registered by its own ``*.dist-info`` folder
(Duel, the third game, proves that a game needs no line outside its package). It goes on ``sys.path`` here,
before anything lists the games, and on ``PYTHONPATH`` for every process a test starts (servers, terminals,
the lab), so :func:`importlib.metadata.entry_points` finds those games everywhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().with_name("plugins")

if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))
_paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
if str(PLUGINS) not in _paths:
    os.environ["PYTHONPATH"] = os.pathsep.join([*_paths, str(PLUGINS)])


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--fuzz-games N``: how many random games the fuzzer plays (CI: 200)."""
    parser.addoption("--fuzz-games", type=int, default=200, help="random games per ruleset in the fuzzer")


SLOW: dict[str, str] = {
    # whole games played by searching bots, or many positions searched
    "tests/ai/test_bots.py::test_bots_only_return_legal_actions_through_a_whole_game": "whole games by every bot",
    "tests/ai/test_bots.py::test_search_bots_never_read_hidden_information": "searches in many positions",
    "tests/ai/test_bots.py::test_ismcts_same_seed_same_action": "ISMCTS searches, twice each",
    "tests/ai/test_bots.py::test_ismcts_over_cards_searches_the_heuristics_best_few_cards_only": "ISMCTS searches",
    "tests/ai/test_money_ahead.py::test_the_insurgent_plays_as_without_the_options": "whole bot games, twice",
    "tests/ai/test_counter.py::test_counter_seat_insurgent_plays_the_imperial_as_without_the_term": "whole bot games, "
                                                                                                   "twice",
    "tests/ai/test_parallel_search.py": "worker processes and ISMCTS searches",
    "tests/ai/test_hellenes_ismcts.py::test_ismcts_plays_a_hellenes_game_to_the_end": "a whole ISMCTS game",
    "tests/hellenes/test_surfaces.py::test_the_heuristic_beats_random_in_a_short_game": "whole bot games",
    "tests/hellenes/test_odds.py::test_exact_odds_match_monte_carlo_within_one_point": "Monte Carlo battles",
    "tests/hellenes/test_rule_revision_3.py::test_a_pursuit_hit_on_a_single_strongest_routed_block_asks_nothing":
        "searches random games for a position",
    "tests/hellenes/test_rule_design.py::test_panic_pursuit_and_retreat_attrition": "searches random games",
    "tests/engine/test_interface.py::test_garbage_actions_are_rejected_and_change_nothing": "every garbage action "
                                                                                            "in many positions",
    "tests/engine/test_fast_paths.py::test_fast_ap_menus_match_the_verbs_one_by_one": "80 random games",
    "tests/engine/test_load_hostile.py::test_300_mutated_save_files_give_a_drawing_or_one_clear_line": "300 loads",
    # the post-game analysis: the strongest bot over whole games
    "tests/analysis/test_analysis.py::test_analyze_writes_both_files": "analyses whole games",
    "tests/analysis/test_analysis.py::test_hints_ignore_hidden_information": "searches in many positions",
    "tests/analysis/test_analysis.py::test_terminal_hint_command": "searches in a terminal session",
    # the lab: worker processes, Ray
    "tests/lab/test_cluster.py": "a Ray cluster and lab runs in processes",
    "tests/lab/test_lab.py::test_small_arena_in_worker_processes": "worker processes",
    # message catalogs: every source file and every message
    "tests/i18n/test_catalogs.py::test_no_catalog_message_is_unused": "reads the whole source",
    "tests/i18n/test_catalogs.py::test_every_message_the_code_uses_is_translated": "reads the whole source",
    "tests/i18n/test_catalogs.py::test_every_message_lives_in_one_domain": "reads the whole source",
    "tests/i18n/test_hellenes_polish.py::test_every_message_the_rules_log_is_in_the_catalog": "random games",
    "tests/i18n/test_cli_lang.py::test_help_texts_follow_the_language_of_the_command_line": "many commands' help",
    # browsers, several server processes, whole games in a terminal, containers and packages
    "tests/server/test_e2e.py": "a browser", "tests/server/test_e2e_playpage.py": "a browser",
    "tests/server/test_e2e_polish.py": "a browser", "tests/server/test_a11y.py": "a browser",
    "tests/server/test_account_page.py": "a browser", "tests/server/test_analysis_page.py": "a browser",
    "tests/server/test_failover.py": "two nodes behind nginx", "tests/server/test_flood.py": "a flood of clients",
    "tests/server/test_volume.py": "many games", "tests/server/test_volume_workers.py": "many games in workers",
    "tests/server/test_restart.py": "servers killed and started again",
    "tests/server/test_bot_fairness.py": "bots' whole games and a browser",
    "tests/tui/test_pty.py": "whole games in a terminal", "tests/tui/test_pty_hellenes.py": "a whole game",
    "tests/tui/test_pty_polish.py": "a whole game in a terminal",
    "tests/test_container.py": "builds images", "tests/test_packaging.py": "builds and installs the packages",
    # research adapters: the libraries' own long checks
    "tests/rl/test_openspiel.py": "OpenSpiel's bots play whole games",
    "tests/rl/test_selfplay_example.py": "trains a small network",
    "tests/rl/test_docs_examples.py": "runs the documented examples",
    "tests/rl/test_pettingzoo_gymnasium.py::test_pettingzoo_api_test": "PettingZoo's 1000-cycle check",
    "tests/rl/test_pettingzoo_gymnasium.py::test_pettingzoo_seed_test": "PettingZoo's seed check",
}
"""Tests (a file, or one test by its node id) in the slow tier, and why: measured with ``--durations`` under
``pytest -n 2``, they take tens of seconds to minutes each. Kept here, not in each file, so the tiers are decided in
one place; a new long test may also say ``@pytest.mark.slow`` itself."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW` ``slow``: ``pytest -m "not slow"`` is the fast tier."""
    for item in items:
        if item.nodeid.split("::")[0] in SLOW or item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
