"""Seed 5.2.2 Hazardous borders, 5.2.3 Ship damage, 5.3 Forced march."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes.rules.movement import destinations
from muster.games.hellenes.rules.storms import forced_threshold, storm_max

from .kit import act, dice, empty, kinds, legal, put, said, turn


def test_storm_chance_by_season() -> None:
    # rule 5.2.2: Spring and Winter 1-3, (Early) Summer and Fall 1-2, Late Summer 1
    s = empty()
    chances = []
    for season in range(5):
        s.season = season
        chances.append(storm_max(s))
    assert chances == [3, 2, 1, 2, 3]


def sail(season: int, *rolls: int, passenger: bool = False):  # type: ignore[no-untyped-def]
    s = empty()
    put(s, "ath_fl3a", "ionian", 3)
    if passenger:
        put(s, "ath_hop2a", "ionian", 2)
        s.units["ath_hop2a"].carrier = "ath_fl3a"
    turn(s, "athens", actions=2, season=season)
    act(s, ("move", "ionian"), ("block", "ath_fl3a"), ("to", "myrtoan"), "done")
    dice(s, *rolls)
    act(s, "end")
    return s


def test_heavy_seas_cost_one_cv() -> None:
    # rules 5.2.2/5.2.3: a storm on a crossed hazardous border (3 in Spring), then 4-6: Heavy seas, -1 CV
    s = sail(0, 3, 5)
    assert s.units["ath_fl3a"].area == "myrtoan" and s.units["ath_fl3a"].cv == 2


def test_no_storm_above_the_seasons_chance() -> None:
    # rule 5.2.2: Late Summer storms only on a 1
    s = sail(2, 2)
    assert s.units["ath_fl3a"].cv == 3


def test_tempest_sinks_the_fleet_and_its_passenger() -> None:
    # rule 5.2.3: 1-3 Tempest: the fleet and everything it carries go to the Pool
    s = sail(0, 1, 3, passenger=True)
    assert s.units["ath_fl3a"].area is None and s.units["ath_hop2a"].area is None


def test_forced_march_normal_blocks_need_five() -> None:
    # rule 5.3: normal blocks succeed on 5-6; a failed block stays where its allowance ended
    for roll, where in ((4, "corinthia"), (5, "arcadia")):
        s = empty()
        put(s, "ath_hop4", "attica", 4)
        turn(s, "athens", actions=2)
        assert destinations(s, "ath_hop4")["arcadia"][1] is True
        act(s, ("move", "attica"), ("block", "ath_hop4"), ("forced", "arcadia"), "done")
        assert s.units["ath_hop4"].area == "corinthia"
        dice(s, roll)
        act(s, "end")
        if roll >= 5:
            assert kinds(s) == "forced_take"  # a success may be taken or declined
            act(s, ("to", "arcadia"))
        assert s.units["ath_hop4"].area == where


def test_forced_march_elite_blocks_need_three() -> None:
    # rule 5.3: Elite blocks succeed on 3-6
    assert forced_threshold("spa_sp4") == 3 and forced_threshold("spa_per3") == 5
    s = empty()
    put(s, "spa_sp4", "laconia", 4)
    turn(s, "sparta", actions=2)
    act(s, ("move", "laconia"), ("block", "spa_sp4"), ("forced", "megaris"), "done")
    dice(s, 3)
    act(s, "end", ("to", "megaris"))
    assert s.units["spa_sp4"].area == "megaris"


def test_a_successful_forced_march_may_be_declined() -> None:
    # rule 5.3: "Success: the block may move one more area, but need not" (to keep the Group together)
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    turn(s, "athens", actions=2)
    act(s, ("move", "attica"), ("block", "ath_hop4"), ("forced", "arcadia"), "done")
    dice(s, 6)
    act(s, "end")
    assert kinds(s) == "forced_take" and s.stack[-1]["seat"] == "athens"
    assert legal(s) == [Action("to", "arcadia"), Action("stay")]
    act(s, "stay")
    assert s.units["ath_hop4"].area == "corinthia"
    assert any("forced march to Arcadia succeeds" in line for line in said(s))


def test_a_failed_forced_march_asks_nothing() -> None:
    # rule 5.3: "Failure: the block cannot make the extra move": no decision
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    turn(s, "athens", actions=2)
    act(s, ("move", "attica"), ("block", "ath_hop4"), ("forced", "arcadia"), "done")
    dice(s, 4)
    act(s, "end")
    assert kinds(s) != "forced_take" and s.units["ath_hop4"].area == "corinthia"


def test_mustering_blocks_cannot_force_march() -> None:
    # rule 5.3: blocks that Muster cannot try a forced march
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    assert not any(r[1] for r in destinations(s, "ath_hop4", muster=True).values())
