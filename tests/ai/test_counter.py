"""The evaluation's counter term: the Insurgent's chance, with the AP left on its card, of clearing an Imperial unit
from a fort or a Beach space before the Action phase ends (rule 3.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from muster.ai import BotSpecError, make_bot
from muster.core import get_rules
from muster.games.freedom.board import board
from muster.games.freedom.bots.evaluation import DEFAULT, counter_pending, settled_value, value
from muster.games.freedom.constants import INSURGENT
from muster.games.freedom.rules.action_phase import ap_frame
from muster.games.freedom.state import State
from muster.lab.play import play_game
from muster.server.bots import check_spec

RULES = get_rules("freedom")
COUNTER = replace(DEFAULT, counter=1.0)


def _space(name: str) -> int:
    return board().ids.index(name)


def _landing(ap: int, defenders: dict[str, int]) -> State:
    """An Imperial unit on Beach 2, the given Insurgent units, nothing else on the board, and the Insurgent
    spending a card's ``ap`` AP."""
    s: State = RULES.setup(1, {"quiet": "1"})
    for units in (s.exp, s.ally, s.ins):
        units[:] = [0] * len(units)
    s.ally[_space("b2")] = 1
    for name, n in defenders.items():
        s.ins[_space(name)] = n
    s.stack.append(ap_frame(INSURGENT, 87, ap))
    return s


def test_off_in_the_plain_weights() -> None:
    # The Heuristic (the yardstick every bot is measured against) does not read it.
    assert DEFAULT.counter == 0.0
    assert counter_pending(_landing(3, {"b1": 1}), DEFAULT) == 0.0


def test_a_defender_next_to_the_landing_attacks_with_every_ap() -> None:
    # Rule 4: the Insurgent attacks an adjacent space for 1 AP and hits a unit in Row 2 on 5+ of a d8 (a half):
    # with 3 AP the unit survives all three attacks one time in eight.
    s = _landing(3, {"b1": 1})
    assert counter_pending(s, COUNTER) == pytest.approx(DEFAULT.imp_capture * (1 - 0.5 ** 3))


def test_a_defender_further_away_regroups_first() -> None:
    # Rule 4: Regroup (1 AP) brings a unit from the Wall to Beach 1 or 3, next to the landing; two AP are left.
    s = _landing(3, {"w5": 1})
    assert counter_pending(s, COUNTER) == pytest.approx(DEFAULT.imp_capture * (1 - 0.5 ** 2))


def test_two_units_need_two_hits() -> None:
    s = _landing(2, {"b3": 1})
    s.exp[_space("b2")] = 1
    assert counter_pending(s, COUNTER) == pytest.approx(DEFAULT.imp_capture * 0.25)


def test_only_while_the_insurgent_spends_ap() -> None:
    s = _landing(3, {"b1": 1})
    s.stack[-1]["seat"] = "imperial"
    assert counter_pending(s, COUNTER) == 0.0
    s.stack.pop()
    assert counter_pending(s, COUNTER) == 0.0


def test_ending_the_card_gives_the_chances_up() -> None:
    s = _landing(3, {"b1": 1})
    pending = counter_pending(s, COUNTER)
    assert value(s, INSURGENT, COUNTER) == pytest.approx(value(s, INSURGENT, DEFAULT) + pending)
    assert settled_value(s, INSURGENT, COUNTER) == pytest.approx(value(s, INSURGENT, DEFAULT))
    assert settled_value(s, "imperial", COUNTER) == pytest.approx(value(s, "imperial", DEFAULT))


def test_the_planner_regroups_next_to_a_landing_and_attacks_it() -> None:
    # The position that showed the blind spot: the Insurgent's last card of the phase, 2 AP, an Imperial unit on
    # Beach 2 and no defender next to it. Rule 3.1 gives the Imperial the game at the end of the phase unless the
    # unit is cleared; without the term the plan supported an area instead.
    s = _landing(2, {"w2": 2, "w3": 2, "w5": 2})
    s.played = {"imperial": 7, "insurgent": 7}
    s.step += 1
    bot = make_bot("heuristic:counter=1", seed=3, rules=RULES)
    choice = bot.choose(RULES.view(s, INSURGENT), RULES.legal_actions(s), INSURGENT)
    assert choice.verb == "regroup"
    RULES.apply(s, choice)
    while RULES.legal_actions(s) and s.stack[-1]["kind"] == "select":
        RULES.apply(s, bot.choose(RULES.view(s, INSURGENT), RULES.legal_actions(s), INSURGENT))
    assert s.ins[_space("b1")] + s.ins[_space("b3")] == 1
    assert bot.choose(RULES.view(s, INSURGENT), RULES.legal_actions(s), INSURGENT).verb == "attack"


@pytest.mark.parametrize("option", ["counter", "reach_threat", "reach_spread"])
def test_the_threat_options_reach_the_search_and_its_heuristics_and_the_server_bounds_them(option: str) -> None:
    bot = make_bot(f"ismcts:{option}=3", rules=RULES)
    for weights in (bot.weights, bot._playout.weights, bot._planner.weights):  # type: ignore[attr-defined]
        assert getattr(weights, option) == 3.0
    assert getattr(make_bot(f"heuristic:{option}=4", rules=RULES).weights, option) == 4.0  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError):
        make_bot(f"heuristic:{option}=much", rules=RULES)
    check_spec(f"ismcts:{option}=3", "freedom")
    with pytest.raises(BotSpecError):
        check_spec(f"ismcts:{option}=1e6", "freedom")


@pytest.mark.parametrize(("counter_seat", "imperial", "insurgent"),
                         [("both", 1.0, 1.0), ("insurgent", 0.0, 1.0), ("imperial", 1.0, 0.0)])
def test_counter_seat_keeps_the_term_to_one_seats_search(counter_seat: str, imperial: float, insurgent: float) -> None:
    bot = make_bot(f"ismcts:counter=1,counter_seat={counter_seat},money_ahead=0.5", rules=RULES)
    for seat, expected in (("imperial", imperial), ("insurgent", insurgent)):
        bot._take_seat(seat)  # type: ignore[attr-defined]
        for weights in (bot.weights, bot._playout.weights, bot._planner.weights):  # type: ignore[attr-defined]
            assert weights.counter == expected
            assert weights.money_ahead == (0.5 if seat == "imperial" else 0.0)  # the other seat's option stays
    with pytest.raises(BotSpecError):
        make_bot("ismcts:counter=1,counter_seat=ottoman", rules=RULES)


def test_counter_seat_insurgent_plays_the_imperial_as_without_the_term() -> None:
    # Holding the Imperial seat, the bot with the term kept to the Insurgent's search is the bot without it: same
    # seed, same game, move for move (so its Imperial games measure the bot without the term).
    spec = "ismcts:iterations=2,width=2"
    plain = play_game([spec, "heuristic"], seed=21)
    kept = play_game([spec + ",counter=1,counter_seat=insurgent", "heuristic"], seed=21)
    assert (kept.winner, kept.decisions, kept.events, kept.trajectory) == (
        plain.winner, plain.decisions, plain.events, plain.trajectory)
