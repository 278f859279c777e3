"""The Imperial's foresight: Money and Supplies kept for the next round's upkeep (rules 4.5 and 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from muster.ai import BotSpecError, make_bot
from muster.core import get_rules
from muster.games.freedom.bots.evaluation import DEFAULT, evaluate, next_money_gap, next_supplies_gap
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.state import State
from muster.lab.play import play_game
from muster.server.bots import check_spec

RULES = get_rules("freedom")
AHEAD = replace(DEFAULT, money_ahead=0.6)


def _at_round(n: int, money: int, ruleset: str = "2nd") -> State:
    s: State = RULES.setup(1, {"quiet": "1", "ruleset": ruleset})
    s.round = n
    s.tracks[IMPERIAL]["money"] = money
    return s


def test_the_gap_is_next_rounds_upkeep_less_what_is_left() -> None:
    # Period A: 4 Money a round (rule 4.5 upkeep, DESIGN upkeep table). 10 Money in round 1 leave 6 after this
    # round's upkeep: enough for round 2. 5 leave 1, three short.
    assert next_money_gap(_at_round(1, 10), 10 - 4) == 0
    assert next_money_gap(_at_round(1, 5), 5 - 4) == 3
    # Already short this round: nothing is left for the next one.
    assert next_money_gap(_at_round(2, 1), 1 - 4) == 4


def test_the_change_of_period_pays_most_of_round_four() -> None:
    # Rule 5: the Imperial gains 8 Money (2nd edition; 6 in the 1st) when period B starts, before round 4's
    # upkeep of 6, so round 3 needs to keep nothing back.
    assert next_money_gap(_at_round(3, 4), 0) == 0
    assert next_money_gap(_at_round(3, 4, "1st"), 0) == 0
    # Period B: 6 a round with no income in sight.
    assert next_money_gap(_at_round(4, 8), 2) == 4


def test_the_last_round_has_no_next_upkeep() -> None:
    assert next_money_gap(_at_round(6, 0), -6) == 0


def test_spending_spare_money_costs_the_foresight_weight() -> None:
    rich, poorer = _at_round(1, 8), _at_round(1, 7)
    plain = evaluate(rich) - evaluate(poorer)
    assert evaluate(rich, AHEAD) - evaluate(poorer, AHEAD) == pytest.approx(plain + 0.6)
    assert DEFAULT.money_ahead == 0.0  # the default bots and their golden games do not read it


def test_the_option_is_the_imperials_alone_and_bounded() -> None:
    bot = make_bot("ismcts:money_ahead=0.6", rules=RULES)
    bot._take_seat(INSURGENT)  # type: ignore[attr-defined]
    assert bot.weights.money_ahead == 0.0  # type: ignore[attr-defined]
    bot._take_seat(IMPERIAL)  # type: ignore[attr-defined]
    assert bot.weights.money_ahead == 0.6  # type: ignore[attr-defined]
    assert bot._playout.weights.money_ahead == 0.6  # type: ignore[attr-defined]
    assert bot._planner.weights.money_ahead == 0.6  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError):
        make_bot("ismcts:money_ahead=much", rules=RULES)
    check_spec("ismcts:money_ahead=0.6", "freedom")
    with pytest.raises(BotSpecError):
        check_spec("ismcts:money_ahead=1e6", "freedom")


def test_the_insurgent_plays_as_without_the_options() -> None:
    # The measured Insurgent games of the strongest bot stay valid: same seed, same game, move for move.
    spec = "ismcts:iterations=2,width=2"
    plain = play_game(["heuristic", spec], seed=21)
    ahead = play_game(["heuristic", spec + ",money_ahead=0.6,supplies_ahead=0.5"], seed=21)
    assert (ahead.winner, ahead.decisions, ahead.events, ahead.trajectory) == (
        plain.winner, plain.decisions, plain.events, plain.trajectory)


def _supplies_at_round(n: int, supplies: int) -> State:
    s = _at_round(n, 10)
    s.tracks[IMPERIAL]["supplies"] = supplies
    return s


def test_the_supplies_gap_is_next_rounds_upkeep_less_what_is_left() -> None:
    # Period A: 8 Supplies a round (rule 4.5 upkeep, DESIGN upkeep table); 12 in round 1 leave 4, four short.
    assert next_supplies_gap(_supplies_at_round(1, 12), 12 - 8) == 4
    assert next_supplies_gap(_supplies_at_round(2, 20), 20 - 8) == 0
    # Rule 5: the change of period brings 6 Supplies before round 4's upkeep of 12.
    assert next_supplies_gap(_supplies_at_round(3, 8), 0) == 6
    # Period B: 12 a round; nothing after the last round.
    assert next_supplies_gap(_supplies_at_round(5, 15), 3) == 9
    assert next_supplies_gap(_supplies_at_round(6, 0), -12) == 0


def test_spending_spare_supplies_costs_the_foresight_weight() -> None:
    fed, hungrier = _supplies_at_round(1, 14), _supplies_at_round(1, 13)
    ahead = replace(DEFAULT, supplies_ahead=0.5)
    plain = evaluate(fed) - evaluate(hungrier)
    assert evaluate(fed, ahead) - evaluate(hungrier, ahead) == pytest.approx(plain + 0.5)
    assert DEFAULT.supplies_ahead == 0.0


def test_supplies_ahead_is_the_imperials_alone_and_bounded() -> None:
    bot = make_bot("ismcts:supplies_ahead=0.4", rules=RULES)
    bot._take_seat(INSURGENT)  # type: ignore[attr-defined]
    assert bot.weights.supplies_ahead == 0.0  # type: ignore[attr-defined]
    bot._take_seat(IMPERIAL)  # type: ignore[attr-defined]
    for weights in (bot.weights, bot._playout.weights, bot._planner.weights):  # type: ignore[attr-defined]
        assert weights.supplies_ahead == 0.4
    check_spec("ismcts:supplies_ahead=0.4", "freedom")
    with pytest.raises(BotSpecError):
        check_spec("ismcts:supplies_ahead=1e6", "freedom")
