"""Every card's event, played from a set position through ``RULES.apply``, changes exactly what it says.

Each case starts from the standard position of :mod:`cardkit` (the setup plus a fight at Wall
section 3; deck B cards in round 4 with Allied units), optionally varied by a named tweak, forces
the dice, plays the card as its event (rule 4.3.1), answers each sub-decision, and compares the
complete list of changed numbers with the expected one. Grey cards are played by both seats.
Cases marked with a tweak exercise an event's "otherwise" branch (docs/cards-design.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from cardkit import TWEAKS, Step, changes, event_done, force_dice, play_event, position, snapshot

from muster.games.freedom.datafiles import cards_file
from muster.games.freedom.invariants import violations

IMP, INS = "imperial", "insurgent"


@dataclass(frozen=True)
class Case:
    """One event played: the card, the seat playing it, its answers and the exact change."""

    number: int
    seat: str
    answers: list[Step]
    change: dict[str, Any]
    dice: tuple[tuple[int, int], ...] = ()
    tweak: str | None = None


CASES = [
    # 1A Sacred City
    Case(1, INS, [], {"insurgent.pressure": 1}),
    # 2A Notis Botsaris
    Case(
        2,
        INS,
        [("from", "w3"), ("target", "r4c3"), ("from", "w3"), ("target", "r4c3")],
        {"pool.expeditionary": 1, "exp.r4c3": -1},
        dice=((8, 6), (8, 3)),
    ),
    # 2A Notis Botsaris, quiet front
    Case(2, INS, [], {"insurgent.morale": 1}, tweak="quiet_front"),
    # 3A Unequal Share of Money
    Case(3, INS, [("remove", "r4c3")], {"imperial.money": -1, "pool.expeditionary": 1, "exp.r4c3": -1}),
    # 4A Marsh Diseases
    Case(4, INS, [("unit", "r5c5"), ("unit", "r6c1")], {"exp.r5c5": -1, "exp.r6c1": -1, "exp.camp": 2}),
    # 5A Georgios Karaiskakis
    Case(
        5,
        INS,
        [("area", "zygos"), ("area", "kryoneri")],
        {"imperial.morale": -2, "pool.support_markers": 2, "area.zygos": "imperial:0", "area.kryoneri": "imperial:1"},
    ),
    # 6A Kitsos Tzavelas
    Case(
        6,
        INS,
        [
            ("from", "w1"),
            ("to", "b1"),
            ("done",),
            ("from", "w3"),
            ("target", "r4c3"),
            ("from", "w3"),
            ("target", "r4c3"),
        ],
        {"pool.expeditionary": 1, "exp.r4c3": -1, "ins.w1": -1, "ins.b1": 1},
        dice=((8, 5), (8, 2)),
    ),
    # 7A Albanian Levies
    Case(7, IMP, [], {"imperial.morale": 1, "pool.expeditionary": -1, "exp.camp": 1}),
    # 8A Dimitrios Makris
    Case(
        8,
        INS,
        [("from", "w5"), ("target", "r5c5"), ("morale", "enemy")],
        {"imperial.morale": -1, "pool.expeditionary": 1, "exp.r5c5": -1},
        dice=((8, 4),),
    ),
    # 8A Dimitrios Makris, no raids
    Case(8, INS, [], {"imperial.morale": -1}, tweak="no_raids"),
    # 9A Counter-Mines
    Case(9, INS, [("pick", "r5c5")], {"pool.expeditionary": 1, "exp.r5c5": -1}),
    # 9A Counter-Mines, quiet front
    Case(9, INS, [], {"imperial.morale": -1}, tweak="quiet_front"),
    # 10A Sortie Against the Guns
    Case(10, INS, [("pick", "r6c6")], {"imperial.morale": -1, "pool.cannons": 1, "cannon.r6c6": -1}),
    # 11A The Kapudan Pasha's Fleet
    Case(11, IMP, [], {"imperial.supplies": 2, "pool.support_markers": 2, "area.sea": "insurgent:0"}),
    # 12A Miaoulis' Relief Run
    Case(12, INS, [], {"insurgent.supplies": 2, "pool.support_markers": -1, "area.sea": "insurgent:3"}),
    # 13A Byron's Legacy
    Case(13, INS, [], {"insurgent.morale": 1, "insurgent.pressure": 1}),
    # 14A The Greek Chronicle
    Case(
        14,
        INS,
        [("area", "zygos")],
        {"insurgent.preparation": 1, "pool.support_markers": 1, "area.zygos": "imperial:0"},
    ),
    # 15A Siege Trenches
    Case(
        15,
        IMP,
        [("from", "camp"), ("to", "r8c8"), ("from", "r5c5"), ("to", "r4c5"), ("done",)],
        {"exp.r4c5": 1, "exp.r5c5": -1, "exp.r8c8": 1, "exp.camp": -1},
    ),
    # 16A Women Rebuild the Walls
    Case(16, INS, [("pick", "w3")], {"pool.damage_markers": 1, "damage.w3": -1}),
    # 16A Women Rebuild the Walls, intact wall
    Case(16, INS, [], {"insurgent.morale": 1}, tweak="intact_wall"),
    # 17A Christos Kapsalis
    Case(17, INS, [], {"insurgent.morale": 1, "insurgent.supplies": 3}),
    # 18A Bishop Joseph of Rogoi
    Case(
        18,
        INS,
        [("pick", "b2")],
        {"civilians": -1, "insurgent.morale": 1, "pool.insurgent": -1, "pool.civilians": 1, "ins.b2": 1},
    ),
    # 19A Kütahi's Mound
    Case(19, IMP, [("pick", "w3")], {"imperial.preparation": 1, "damage.w3": 1}),
    # 20A Chieftains Slip In
    Case(20, INS, [("to", "b1"), ("to", "b2")], {"pool.insurgent": -2, "ins.b1": 1, "ins.b2": 1}),
    # 21A Autumn Floods
    Case(
        21,
        INS,
        [("pick", "r4c3"), ("pick", "r6c2")],
        {"imperial.supplies": -1, "exp.r4c3": -1, "exp.r6c2": -1, "exp.camp": 2},
    ),
    # 22A Fireships
    Case(22, INS, [], {"imperial.supplies": -2, "pool.support_markers": -1, "area.sea": "insurgent:3"}),
    # 23A Mine Under the Bastion
    Case(23, IMP, [("pick", "w5"), ("pick", "w5")], {"pool.damage_markers": -1, "damage.w5": 2}),
    # 24A Families to Kalamos
    Case(24, INS, [], {"civilians": -2, "insurgent.morale": 1, "insurgent.supplies": 2, "pool.civilians": 2}),
    # 25A Klephts in the Rear
    Case(25, INS, [], {"imperial.money": -1, "imperial.supplies": -2}),
    # 26A Blockade of the Lagoon
    Case(26, IMP, [], {"insurgent.supplies": -2, "pool.support_markers": 1, "area.sea": "insurgent:1"}),
    # 27A Tomb of Markos Botsaris
    Case(27, INS, [], {"insurgent.morale": 2}),
    # 27A Tomb of Markos Botsaris, insurgent ahead
    Case(27, INS, [], {"insurgent.morale": 1}, tweak="insurgent_ahead"),
    # 28A The Sultan's Firman
    Case(28, IMP, [], {"imperial.morale": 1, "imperial.money": 2}),
    # 29A Powder from Hydra
    Case(29, INS, [("to", "b2")], {"insurgent.supplies": 1, "pool.cannons": -1, "cannon.b2": 2}),
    # 30A Fleet's Departure
    Case(
        30,
        IMP,
        [],
        {
            "pool.support_markers": 1,
            "area.sea": "insurgent:1",
            "area.petalas": "insurgent:2",
            "area.kryoneri": "imperial:3",
        },
    ),
    # 31A Chieftains Defect
    Case(
        31,
        IMP,
        [("area", "sea"), ("area", "gouria")],
        {"insurgent.morale": -1, "pool.support_markers": 2, "area.sea": "insurgent:1", "area.gouria": "insurgent:0"},
    ),
    # 32A Yusuf Pasha
    Case(
        32,
        IMP,
        [],
        {
            "camp_cannons": 1,
            "imperial.supplies": 1,
            "pool.cannons": -1,
            "pool.support_markers": 1,
            "area.sea": "insurgent:1",
        },
    ),
    # 33A Abandoned Cause
    Case(33, IMP, [("remove", "klisova")], {"pool.insurgent": 1, "ins.klisova": -1}),
    # 34A Night Works
    Case(
        34,
        IMP,
        [("cannon", "r6c4"), ("with", "E")],
        {"exp.r5c4": 1, "exp.r6c4": -1, "cannon.r5c4": 1, "cannon.r6c4": -1},
    ),
    # 35A Capture of Petrohori
    Case(
        35,
        IMP,
        [],
        {"pool.expeditionary": -1, "pool.support_markers": -1, "exp.camp": 1, "area.petrochori": "imperial:2"},
    ),
    # 36A Captain Mahmud
    Case(
        36,
        IMP,
        [("attack",), ("from", "kli1"), ("to", "klisova"), ("morale", "own"), ("end",)],
        {"imperial.morale": 1, "pool.insurgent": 1, "ins.klisova": -1},
        dice=((8, 8), (8, 1)),
    ),
    # 37A Guns from Patras
    Case(
        37,
        IMP,
        [("cannon", "r6c4"), ("target", "w3"), ("morale", "own")],
        {"camp_cannons": 1, "imperial.morale": 1, "pool.cannons": -1, "damage.w3": 1},
        dice=((6, 6), (6, 2)),
    ),
    # 38A Aqueduct Destroyed
    Case(38, IMP, [], {"insurgent.supplies": -2}),
    # 39A Kütahi Reşid Mehmed Pasha
    Case(
        39,
        IMP,
        [("to", "r7c9"), ("to", "r8c8"), ("to", "r8c7"), ("to", "r8c6")],
        {
            "pool.support_markers": -4,
            "exp.r7c9": 1,
            "exp.r8c6": 1,
            "exp.r8c7": 1,
            "exp.r8c8": 1,
            "exp.camp": -4,
            "area.zygos": "imperial:2",
            "area.kryoneri": "imperial:3",
            "area.petrochori": "imperial:2",
            "area.patra": "imperial:4",
        },
    ),
    # 40A Bombardment
    Case(
        40,
        IMP,
        [
            ("cannon", "r6c4"),
            ("target", "w3"),
            ("morale", "own"),
            ("morale", "enemy"),
            ("cannon", "r6c6"),
            ("target", "w5"),
        ],
        {"imperial.morale": 1, "insurgent.morale": -1, "pool.insurgent": 1, "ins.w3": -1, "damage.w3": 1},
        dice=((6, 6), (6, 6), (6, 1), (6, 1)),
    ),
    # 41A Boats on the Lagoon
    Case(41, IMP, [("pick", "kli2"), ("done",)], {"imperial.supplies": 1, "exp.camp": -1, "exp.kli2": 1}),
    # 42A Stone Cannon Balls
    Case(
        42,
        IMP,
        [("cannon", "r6c4"), ("target", "w3"), ("morale", "own")],
        {"imperial.morale": 1, "pool.insurgent": 1, "exp.r4c3": 1, "exp.camp": -1, "ins.w3": -1},
        dice=((6, 6), (6, 1)),
    ),
    # 43A Reinforcements, played by the insurgent
    Case(43, INS, [("area", "zygos"), ("area", "sea")], {"area.sea": "insurgent:3", "area.zygos": "imperial:0"}),
    # 43A Reinforcements, played by the imperial
    Case(43, IMP, [("area", "gouria"), ("area", "patra")], {"area.gouria": "insurgent:0", "area.patra": "imperial:4"}),
    # 44A Assault on the Walls
    Case(
        44,
        IMP,
        [("from", "r4c3"), ("target", "w3"), ("morale", "enemy"), ("from", "kli1"), ("target", "klisova"), ("done",)],
        {"insurgent.morale": -1, "pool.insurgent": 1, "ins.w3": -1},
        dice=((8, 6), (8, 1), (8, 2), (8, 3)),
    ),
    # 44A Assault on the Walls, quiet front
    Case(44, IMP, [("from", "r6c1"), ("to", "r5c1"), ("done",)], {"exp.r5c1": 1, "exp.r6c1": -1}, tweak="quiet_front"),
    # 45A Plans Betrayed, insurgent prepared
    Case(45, IMP, [], {"imperial.preparation": 1, "insurgent.preparation": -2}, tweak="insurgent_prepared"),
    # 46A Deserters, played by the insurgent
    Case(46, INS, [("pick", "r6c9")], {"pool.expeditionary": 1, "exp.r6c9": -1}),
    # 46A Deserters, played by the imperial
    Case(46, IMP, [("pick", "marmarou")], {"pool.insurgent": 1, "ins.marmarou": -1}),
    # 47A Powder Convoy, played by the insurgent
    Case(47, INS, [], {"insurgent.supplies": 3, "insurgent.preparation": 1}),
    # 47A Powder Convoy, played by the imperial
    Case(47, IMP, [], {"imperial.supplies": 3, "imperial.preparation": 1}),
    # 48A Raise Morale, played by the insurgent
    Case(48, INS, [], {"insurgent.morale": 2}),
    # 48A Raise Morale, played by the imperial
    Case(48, IMP, [], {"imperial.morale": 2}),
    # 49A Messengers, played by the insurgent
    Case(49, INS, [], {"insurgent.preparation": 2}),
    # 49A Messengers, played by the imperial
    Case(49, IMP, [], {"imperial.preparation": 2}),
    # 50A Summer Heat, played by the insurgent
    Case(50, INS, [], {"imperial.morale": -1, "imperial.supplies": -2}),
    # 50A Summer Heat, played by the imperial
    Case(50, IMP, [], {"insurgent.morale": -1, "insurgent.supplies": -2}),
    # 51B Miaoulis Breaks Through
    Case(51, INS, [], {"insurgent.supplies": 3, "pool.support_markers": -1, "area.sea": "insurgent:3"}),
    # 52B Defence of Klisova
    Case(52, INS, [("pick", "kli1")], {"imperial.morale": -2, "pool.expeditionary": 1, "exp.kli1": -1}),
    # 52B Defence of Klisova, klisova lost
    Case(52, INS, [], {"imperial.morale": -1}, tweak="klisova_lost"),
    # 53B The Mound Blown Up
    Case(53, INS, [("pick", "r4c3"), ("pick", "r5c5")], {"pool.expeditionary": 2, "exp.r4c3": -1, "exp.r5c5": -1}),
    # 54B Committee of Geneva
    Case(54, INS, [], {"insurgent.supplies": 3}),
    # 55B Terms Refused
    Case(55, INS, [], {"imperial.morale": -1, "insurgent.morale": 1}),
    # 56B Nikolaos Kasomoulis
    Case(
        56,
        INS,
        [("from", "w7"), ("target", "r4c7"), ("from", "w7"), ("target", "r4c7")],
        {"pool.allied": 1, "ally.r4c7": -1},
        dice=((8, 4), (8, 5)),
    ),
    # 56B Nikolaos Kasomoulis, quiet front
    Case(56, INS, [("from", "w1"), ("to", "b1"), ("done",)], {"ins.w1": -1, "ins.b1": 1}, tweak="quiet_front"),
    # 57B Winter Rain
    Case(57, INS, [("pick", "r6c5")], {"imperial.supplies": -1, "exp.r6c5": -1, "exp.camp": 1}),
    # 58B Rebuilding the Ramparts
    Case(58, INS, [("pick", "w3")], {"pool.damage_markers": 1, "damage.w3": -1}),
    # 59B Appeal to Nafplio
    Case(59, INS, [], {"insurgent.pressure": 2}),
    # 59B Appeal to Nafplio, government answered
    Case(59, INS, [], {"insurgent.supplies": 2}, tweak="government_answered"),
    # 59B Appeal to Nafplio, pressure at top
    Case(59, INS, [], {"insurgent.supplies": 2}, tweak="pressure_at_top"),
    # 68B Jean-Jacques Meyer, government answered
    Case(
        68,
        INS,
        [("area", "sea")],
        {"insurgent.morale": 1, "pool.support_markers": -1, "area.sea": "insurgent:3"},
        tweak="government_answered",
    ),
    # 60B Eating the Horses
    Case(60, INS, [], {"civilians": -1, "insurgent.supplies": 3, "pool.civilians": 1}),
    # 61B Greek Gunners
    Case(
        61,
        INS,
        [("cannon", "w2"), ("target", "r4c3")],
        {"pool.expeditionary": 1, "exp.r4c3": -1},
        dice=((6, 3), (6, 1)),
    ),
    # 62B Makris Raids the Lines
    Case(
        62,
        INS,
        [("from", "w5"), ("target", "r5c5"), ("morale", "enemy"), ("from", "w1"), ("target", "r6c1")],
        {"imperial.morale": -1, "pool.expeditionary": 1, "exp.r5c5": -1},
        dice=((8, 5), (8, 4)),
    ),
    # 63B Egyptian Deserters
    Case(63, INS, [("pick", "camp:A")], {"pool.allied": 1, "ally.camp": -1}),
    # 63B Egyptian Deserters, no allied
    Case(63, INS, [], {"imperial.morale": -1}, tweak="no_allied"),
    # 64B Karaiskakis Strikes the Rear
    Case(
        64, INS, [("area", "patra")], {"imperial.supplies": -1, "pool.support_markers": 1, "area.patra": "imperial:2"}
    ),
    # 65B Island Garrisons
    Case(65, INS, [("to", "b3"), ("to", "b3")], {"insurgent.morale": 1, "pool.insurgent": -2, "ins.b3": 2}),
    # 66B Fishing the Lagoon
    Case(66, INS, [("from", "w9"), ("to", "b4")], {"insurgent.supplies": 2, "ins.w9": -1, "ins.b4": 1}),
    # 67B Guns Spiked
    Case(67, INS, [("pick", "r6c4")], {"pool.cannons": 1, "cannon.r6c4": -1}),
    # 67B Guns Spiked, no imperial cannons
    Case(67, INS, [], {"imperial.morale": -1}, tweak="no_imperial_cannons"),
    # 68B Jean-Jacques Meyer
    Case(
        68,
        INS,
        [("area", "gouria")],
        {"insurgent.pressure": 1, "pool.support_markers": -1, "area.gouria": "insurgent:2"},
    ),
    # 69B Townsmen Take Up Arms
    Case(
        69,
        INS,
        [("pick", "b3")],
        {"civilians": -1, "insurgent.preparation": 1, "pool.insurgent": -1, "pool.civilians": 1, "ins.b3": 1},
    ),
    # 70B Fire on the Egyptian Fleet
    Case(70, INS, [], {"imperial.supplies": -2, "pool.support_markers": -1, "area.sea": "insurgent:3"}),
    # 71B Council of Captains
    Case(71, INS, [], {"insurgent.preparation": 2}),
    # 72B Bastion Guns
    Case(
        72,
        INS,
        [("cannon", "w2"), ("target", "r4c3"), ("cannon", "marmarou"), ("target", "r6c1")],
        {"insurgent.preparation": 1, "pool.expeditionary": 1, "exp.r4c3": -1},
        dice=((6, 6), (6, 1), (6, 2), (6, 2)),
    ),
    # 73B Ibrahim Pasha
    Case(
        73,
        IMP,
        [],
        {"imperial.morale": 1, "pool.allied": -3, "pool.support_markers": 1, "ally.camp": 3, "area.sea": "insurgent:1"},
    ),
    # 74B Egyptian Regulars
    Case(
        74,
        IMP,
        [("from", "r4c7"), ("target", "w7"), ("morale", "enemy")],
        {"insurgent.morale": -1, "pool.insurgent": 1, "ins.w7": -1},
        dice=((8, 7), (8, 2)),
    ),
    # 75B Süleyman Bey
    Case(75, IMP, [("pick", "r7c1"), ("pick", "r8c1")], {"pool.allied": -2, "ally.r7c1": 1, "ally.r8c1": 1}),
    # 76B The Egyptian Mound
    Case(
        76,
        IMP,
        [("pick", "w4"), ("to", "r7c9:A"), ("to", "r8c8:E")],
        {"pool.damage_markers": -1, "exp.r8c8": 1, "exp.camp": -1, "ally.r7c9": 1, "ally.camp": -1, "damage.w4": 1},
    ),
    # 77B Flat-Bottomed Boats
    Case(
        77,
        IMP,
        [("pick", "kli2"), ("pick", "kli3")],
        {"imperial.supplies": 1, "ally.camp": -2, "ally.kli2": 1, "ally.kli3": 1},
    ),
    # 78B Fall of Vasiladi
    Case(
        78,
        IMP,
        [],
        {
            "imperial.supplies": 1,
            "insurgent.morale": -1,
            "pool.allied": -1,
            "pool.insurgent": 1,
            "ally.vasiladi": 1,
            "ins.vasiladi": -1,
        },
    ),
    # 79B Surrender of Anatolikon
    Case(79, IMP, [], {"insurgent.morale": -1, "pool.support_markers": 2, "area.anatolikon": "insurgent:0"}),
    # 80B Great Bombardment
    Case(
        80,
        IMP,
        [("cannon", "r6c4"), ("target", "w3"), ("morale", "own"), ("cannon", "r6c6"), ("target", "w6")],
        {"imperial.morale": 1, "damage.w3": 1},
        dice=((6, 4), (6, 5), (6, 1), (6, 3)),
    ),
    # 81B Hüseyin Bey
    Case(
        81,
        IMP,
        [("from", "r4c3"), ("target", "w3"), ("morale", "own")],
        {"imperial.morale": 1, "pool.insurgent": 1, "ins.w3": -1},
        dice=((8, 6), (8, 1)),
    ),
    # 81B Hüseyin Bey, quiet front
    Case(81, IMP, [], {"pool.allied": -1, "ally.camp": 1}, tweak="quiet_front"),
    # 82B Starvation
    Case(82, IMP, [], {"insurgent.morale": -1, "insurgent.supplies": -1}),
    # 83B The Egyptian Fleet
    Case(83, IMP, [], {"insurgent.supplies": -1, "pool.support_markers": 2, "area.sea": "insurgent:0"}),
    # 84B Assault Ladders
    Case(84, IMP, [("from", "camp:A"), ("to", "r7c9"), ("done",)], {"ally.r7c9": 1, "ally.camp": -1}),
    # 85B Muharrem Bey's Squadron
    Case(85, IMP, [], {"imperial.supplies": 3}),
    # 86B Gold of Mehmed Ali
    Case(86, IMP, [], {"imperial.morale": 1, "imperial.money": 4}),
    # 87B Mortar Shells
    Case(87, IMP, [("pick", "w6")], {"pool.damage_markers": -1, "damage.w6": 1}),
    # 88B Egyptian Sappers
    Case(88, IMP, [("pick", "w3")], {"imperial.preparation": 1, "damage.w3": 1}),
    # 89B Grenades, allied row5
    Case(
        89,
        IMP,
        [("to", "r5c3"), ("morale", "own")],
        {"imperial.morale": 1, "pool.insurgent": 1, "ins.w3": -1},
        dice=((8, 8), (8, 1)),
        tweak="allied_row5",
    ),
    # 90B Plea to the Porte
    Case(90, IMP, [], {"imperial.money": 3, "imperial.supplies": 1, "imperial.plea": 2}, dice=((6, 3), (6, 4))),
    # 91B Blockade Tightens
    Case(91, IMP, [], {"insurgent.supplies": -3}),
    # 92B Fall of Dolmas
    Case(92, IMP, [("pick", "vasiladi")], {"insurgent.morale": -1, "pool.insurgent": 1, "ins.vasiladi": -1}),
    # 92B Fall of Dolmas, islands lost
    Case(92, IMP, [("pick", "w9")], {"insurgent.morale": -1, "pool.insurgent": 1, "ins.w9": -1}, tweak="islands_lost"),
    # 93B Egyptian Engineers
    Case(93, IMP, [("pick", "r6c2")], {"camp_cannons": -1, "imperial.preparation": 1, "cannon.r6c2": 1}),
    # 94B Ibrahim's Ultimatum
    Case(94, IMP, [], {"insurgent.morale": -1}),
    # 95B Winter Storms, played by the insurgent
    Case(95, INS, [], {"imperial.supplies": -1, "insurgent.preparation": 1}),
    # 95B Winter Storms, played by the imperial
    Case(95, IMP, [], {"imperial.preparation": 1, "insurgent.supplies": -1}),
    # 96B Fever, played by the insurgent
    Case(96, INS, [], {"imperial.morale": -1}),
    # 96B Fever, played by the imperial
    Case(96, IMP, [], {"insurgent.morale": -1}),
    # 97B News from the Lines, played by the insurgent
    Case(
        97,
        INS,
        [("area", "kryoneri")],
        {"insurgent.morale": 1, "insurgent.preparation": 1, "pool.support_markers": 1, "area.kryoneri": "imperial:1"},
    ),
    # 97B News from the Lines, played by the imperial
    Case(
        97,
        IMP,
        [("area", "anatolikon")],
        {"imperial.morale": 1, "imperial.preparation": 1, "pool.support_markers": 1, "area.anatolikon": "insurgent:1"},
    ),
    # 98B Powder Magazine, played by the insurgent
    Case(98, INS, [("pick", "r4c7")], {"pool.allied": 1, "ally.r4c7": -1}),
    # 98B Powder Magazine, played by the imperial
    Case(98, IMP, [("pick", "w3")], {"pool.insurgent": 1, "ins.w3": -1}),
    # 99B Palm Sunday, played by the insurgent
    Case(99, INS, [], {"insurgent.morale": 1, "insurgent.supplies": 1}),
    # 99B Palm Sunday, played by the imperial
    Case(99, IMP, [], {"imperial.morale": 1, "imperial.supplies": 1}),
    # 100B The Exodus, played by the insurgent
    Case(100, INS, [], {"imperial.morale": -1, "insurgent.morale": 1}),
    # 100B The Exodus, played by the imperial
    Case(100, IMP, [], {"imperial.morale": 1, "insurgent.morale": -1}),
]


def _id(case: Case) -> str:
    return f"{case.number}-{case.seat}" + (f"-{case.tweak}" if case.tweak else "")


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_event_changes_exactly_what_it_says(case: Case) -> None:
    # rule 4.3.1: the event of a card of one's colour (grey: either side) is applied in full
    deck = "A" if case.number <= 50 else "B"
    s = position(deck)
    if case.tweak:
        TWEAKS[case.tweak](s)
    force_dice(s, case.dice)
    before = snapshot(s)
    play_event(s, case.seat, case.number, case.answers)
    assert event_done(s, case.seat), f"the event still waits for {s.stack[-1]['kind']}"
    assert changes(before, snapshot(s)) == case.change
    assert violations(s) == []


def test_every_card_has_a_tested_event() -> None:
    numbers = {c.number for c in cards_file().cards}
    assert numbers == set(range(1, 101))
    assert {case.number for case in CASES} == numbers


def test_grey_cards_are_tested_for_both_seats() -> None:
    grey = {c.number for c in cards_file().cards if c.side == "grey"}
    for number in grey:
        assert {case.seat for case in CASES if case.number == number} == {IMP, INS}
