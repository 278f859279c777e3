"""The battle-odds calculator: exact, checked against Monte Carlo over the same rules and against the engine."""

from __future__ import annotations

import random

import pytest

from muster.games.hellenes.odds import battle_odds, monte_carlo

BATTLES = [
    ([("C", 2, 3, False)], [("C", 2, 3, False)], False, False),
    ([("C", 3, 4, False), ("B", 1, 2, False)], [("C", 2, 4, False), ("A", 1, 2, False)], False, False),
    ([("C", 2, 4, False), ("C", 2, 3, False)], [("C", 2, 3, False), ("C", 1, 3, False)], True, True),
    ([("E", 2, 3, False), ("E", 2, 2, False)], [("F", 1, 3, False), ("F", 1, 2, False)], False, False),
]


@pytest.mark.parametrize(("att", "dfn", "assault", "double"), BATTLES)
def test_exact_odds_match_monte_carlo_within_one_point(att, dfn, assault, double) -> None:  # type: ignore[no-untyped-def]
    # rules 6.2-6.3.3: the exact calculator and 40,000 simulated battles agree within 1 percentage point
    exact = battle_odds(att, dfn, assault, double)
    mc = monte_carlo(att, dfn, assault, double, trials=40_000, seed=7)
    assert abs(exact.att_win + exact.def_win + exact.draw - 1) < 1e-9
    for a, b in ((exact.att_win, mc.att_win), (exact.def_win, mc.def_win), (exact.draw, mc.draw)):
        assert abs(a - b) < 0.01
    assert abs(exact.att_loss - mc.att_loss) < 0.05 and abs(exact.def_loss - mc.def_loss) < 0.05


def test_symmetric_battle_favours_the_defender_who_fires_first() -> None:
    # rule 6.2: the defender fires first on the same letter
    r = battle_odds([("C", 2, 3, False)], [("C", 2, 3, False)])
    assert r.def_win > r.att_win


def test_routed_blocks_count_as_gone_for_panic() -> None:
    # rule 6.3.3/6.3.4: a side whose only block is routed has lost
    r = battle_odds([("C", 2, 3, True)], [("C", 2, 1, False)])
    assert r.def_win == 1.0


def test_odds_match_the_engine() -> None:
    # the engine's battles (both sides always fighting on) win as often as the calculator says
    from muster.games.hellenes.rules.common import roll  # noqa: F401 - the engine's dice

    from .kit import act, combat_only, empty, put

    wins = 0
    n = 600
    for seed in range(n):
        s = empty(seed)
        s.rng = random.Random(seed).getrandbits(64)
        put(s, "ath_hop4", "phocis", 3)
        put(s, "boe_hop4", "phocis", 3)
        combat_only(s, "athens")
        while s.stack and s.stack[-1]["kind"] == "battle_retreat":
            act(s, "fight")
        wins += s.prestige < 0
    exact = battle_odds([("C", 2, 3, False)], [("C", 2, 3, False)])
    assert abs(wins / n - exact.att_win) < 0.06  # 600 games: about 3 standard errors


def test_odds_are_offered_before_engaging_and_at_each_retreat_question() -> None:
    # digest 3.4: the terminal shows the odds of an engagement (from public information) and of fighting on
    from muster.games.hellenes import RULES
    from muster.games.hellenes.terminal import engage_hints

    from .kit import act, combat_only, empty, put, turn

    s = empty()
    put(s, "ath_hop4", "attica", 4)
    put(s, "boe_hop4", "boeotia", 3)
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop4"))
    view = RULES.view(s, "athens")
    labelled = [(a, RULES.label(s, a)) for a in RULES.legal_actions(s)]
    hints = engage_hints(view, "athens", labelled)
    assert len(hints) == 1 and hints[0].startswith("Boeotia: win ") and "estimated from what you can see" in hints[0]
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 3)
    combat_only(s, "athens")
    assert "fighting on: win" in RULES.prompt(s)


def _engine_losses(att: list[tuple[str, int]], dfn: list[tuple[str, int]], n: int) -> tuple[float, float]:
    """Mean CV lost by each side in ``n`` engine battles in Phocis (both sides fight on), Pursuit and Retreat
    Attrition included; blocks are (id, CV)."""
    from .kit import act, combat_only, empty, put

    lost = [0, 0]
    for seed in range(n):
        s = empty(seed)
        s.rng = random.Random(seed).getrandbits(64)
        for bid, cv in att + dfn:
            put(s, bid, "phocis", cv)
        # the attackers came from Boeotia (a friendly, empty area): they have somewhere to retreat to
        for bid, _ in att:
            s.via[str(s.units[bid].token)] = "boeotia"
        combat_only(s, "athens")
        while s.stack and s.stack[-1]["kind"] == "battle_retreat":
            act(s, "fight")
        for k, side in enumerate((att, dfn)):
            lost[k] += sum(cv - (s.units[b].cv if s.units[b].area else 0) for b, cv in side)
    return lost[0] / n, lost[1] / n


def test_expected_losses_count_pursuit_and_retreat_attrition() -> None:
    # rules 6.3.4 and 6.4.1: a side that Panics is pursued and its routed blocks retreat with Attrition; the
    # expected losses shown before a battle include both, as the engine's battles do
    att, dfn = [("ath_hop4", 2)], [("boe_hop4", 4), ("cor_hop3", 3)]
    exact = battle_odds([("C", 2, 2, False)], [("C", 2, 4, False), ("C", 2, 3, False)])
    engine_att, engine_dfn = _engine_losses(att, dfn, 500)
    assert exact.def_win > 0.9
    assert abs(exact.att_loss - engine_att) < 0.15, (exact.att_loss, engine_att)
    assert abs(exact.def_loss - engine_dfn) < 0.15, (exact.def_loss, engine_dfn)
    # the Combat Rounds alone would leave most of the beaten attacker's loss out
    assert exact.att_loss > 1.5


def test_lone_block_against_an_army_shows_its_real_loss() -> None:
    # the odds line once read "1.1 CV to 0.0" for a fleet landing against four Spartan blocks: the Pursuit and
    # the Retreat Attrition were left out (the City's Militia fights only an Assault, rule 7.2: not part of it)
    r = battle_odds([("C", 1, 3, False)], [("C", 3, 4, False), ("C", 3, 3, False), ("C", 2, 3, False),
                                          ("A", 1, 2, False)])
    assert r.att_win < 0.01
    assert r.att_loss > 2.0


def test_odds_are_offered_before_a_sortie() -> None:
    # rule 8.3 with digest 3.4: a Sortie engages the besiegers, so the terminal and the web show its odds first
    from muster.core import Action
    from muster.games.hellenes import RULES
    from muster.games.hellenes.terminal import engage_hints
    from muster.server.games import adapter

    from .kit import combat_only, empty, put

    s = empty()
    put(s, "spa_sp4", "boeotia", 4, inside=True)
    put(s, "ath_hop2a", "boeotia", 1)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    combat_only(s, "sparta")
    view = RULES.view(s, "sparta")
    labelled = [(a, RULES.label(s, a)) for a in RULES.legal_actions(s)]
    hints = engage_hints(view, "sparta", labelled)
    assert len(hints) == 1 and hints[0].startswith("Boeotia: win ")
    win = int(hints[0].split("win ")[1].split("%")[0])
    assert 50 < win < 100  # four Spartiate steps against one block Sparta has not seen (drawn from what is public)
    hint = adapter("hellenes").hint(view, Action("sortie", "boeotia"), "sparta")
    assert hint.startswith("Engage: win ")
