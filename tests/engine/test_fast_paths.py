"""The engine's fast paths agree with the plain definitions they stand in for.

The golden games pin whole games; these tests compare each fast path with its reference at every
point of many random games, so that a difference shows where it starts.
"""

from __future__ import annotations

import random

import pytest

from muster.games.freedom import RULES
from muster.games.freedom.rules.action_phase import MENUS, reference_menu


@pytest.mark.parametrize("ruleset", ["2nd", "1st"])
def test_fast_ap_menus_match_the_verbs_one_by_one(ruleset: str) -> None:
    # rule 4.3.2: the AP menu offers exactly the verbs whose action can be carried out now
    checked = 0
    for seed in range(40):
        state = RULES.setup(seed, {"ruleset": ruleset, "quiet": "1"})
        chooser = random.Random(seed)
        while RULES.active_seat(state) is not None:
            top = state.stack[-1]
            if top["kind"] == "ap":
                assert MENUS[top["seat"]](state, top) == reference_menu(state, top), (seed, state.step)
                checked += 1
            RULES.apply(state, chooser.choice(RULES.legal_actions(state)))
    assert checked > 1000


@pytest.mark.parametrize("game", ["freedom", "hellenes"])
def test_playout_fast_path_plays_the_same_games_as_legal_lists(game: str) -> None:
    # legal_count + apply_nth is a shortcut for bots' simulations: index i is legal_actions()[i], so a
    # seeded random player choosing an index plays move for move the game it plays choosing from the list
    from muster.core.registry import get_rules

    rules = get_rules(game)
    for seed in range(12):
        listed, fast = rules.setup(seed, {"quiet": "1"}), rules.setup(seed, {"quiet": "1"})
        by_list, by_index = random.Random(seed), random.Random(seed)
        count = rules.legal_count(fast)
        while rules.active_seat(listed) is not None:
            acts = rules.legal_actions(listed)
            assert count == len(acts), (game, seed, listed.step)
            rules.apply(listed, by_list.choice(acts))
            count = rules.apply_nth(fast, by_index.choice(range(count)))
        assert count == 0
        assert rules.to_json(fast) == rules.to_json(listed), (game, seed)


def test_apply_nth_refuses_an_index_out_of_range() -> None:
    from muster.core.interface import IllegalActionError

    state = RULES.setup(5, {"quiet": "1"})
    before = RULES.to_json(state)
    count = RULES.legal_count(state)
    for index in (count, -1):
        with pytest.raises(IllegalActionError):
            RULES.apply_nth(state, index)
    assert RULES.to_json(state) == before
    RULES.apply_nth(state, count - 1)
    assert state.step == 1


def _reference_raid_targets(state: object, src: int, reach: int) -> list[tuple[int, int]]:
    """Rule 4.3.2 Raid (2nd edition) read plainly: breadth-first from the section through mainland spaces
    free of Imperial units; a mainland space with Imperial units ends a path and is a target from Row 5 on;
    (target, path length) pairs up to ``reach``, in board order."""
    from muster.games.freedom.board import board

    b = board()
    exp, ally = state.exp, state.ally  # type: ignore[attr-defined]
    seen, frontier, out, distance = {src}, [src], [], 0
    while frontier and distance < reach:
        distance += 1
        step = []
        for i in frontier:
            for j in b.adj[i]:
                if b.kind[j] != "mainland" or j in seen:
                    continue
                seen.add(j)
                if exp[j] or ally[j]:
                    if b.row[j] >= 5:
                        out.append((j, distance))
                else:
                    step.append(j)
        frontier = step
    return sorted(out)


def test_raid_search_matches_the_rule_read_plainly() -> None:
    # the Raid search works on the mainland as bits of one integer; its targets, the AP menu's "is a Raid
    # possible" and the raiding units offered must be those of the rule's plain reading at every Insurgent
    # AP choice (the golden games would show a difference only where a random game happened to reach it)
    from muster.games.freedom.board import board
    from muster.games.freedom.rules.action_phase import affordable
    from muster.games.freedom.rules.insurgent_actions import RaidOp, _path_raid_targets, raid_targets

    b = board()
    raid = RaidOp()
    checked = 0
    for seed in range(24):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        while RULES.active_seat(state) is not None:
            top = state.stack[-1]
            if top["kind"] == "ap" and top["seat"] == "insurgent" and top["mode"] == "card":
                for wall in b.walls:
                    for reach in (1, 2, 3, 5, 99):
                        expected = _reference_raid_targets(state, wall, reach)
                        assert _path_raid_targets(state, wall, reach) == expected, (seed, state.step, wall, reach)
                raiders = [i for i in b.insurgent_spaces if state.ins[i]
                           and any(affordable(state, top, cost) for _j, cost in raid_targets(state, i))]
                assert raid.available_with(state, top) == bool(raiders), (seed, state.step)
                if raiders:
                    assert raid.sources(state, top) == [b.ids[i] for i in raiders], (seed, state.step)
                checked += 1
            RULES.apply(state, chooser.choice(RULES.legal_actions(state)))
    assert checked > 500


def test_cannon_checks_match_the_target_lists() -> None:
    # a cannon is ready when it has a target, and the roll it needs comes from its target list: the
    # Cannons phase's early-exit test and lookup must agree with cannon_targets() everywhere
    from muster.games.freedom.rules.cannons import cannon_targets, has_target, roll_needed

    checked = 0
    for seed in range(12):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        while RULES.active_seat(state) is not None:
            for i, code in enumerate(state.cannon):
                if code:
                    targets = cannon_targets(state, i)
                    assert has_target(state, i) == bool(targets), (seed, state.step, i)
                    for j, need in targets:
                        assert roll_needed(state, i, j) == need
                    checked += 1
            RULES.apply(state, chooser.choice(RULES.legal_actions(state)))
    assert checked > 1000
