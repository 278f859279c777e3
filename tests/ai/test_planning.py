"""The heuristic plans a side's last card of the Action phase as a whole (muster.games.freedom.bots.heuristic)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))  # the rule tests' position builder

import pytest
from rulekit import RULES, board_with, card_turn, play_ap

from muster.ai import BotSpecError, make_bot
from muster.core import Action
from muster.games.freedom.board import board
from muster.games.freedom.bots.evaluation import value
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.rules.common import imperial_units
from muster.games.freedom.state import State

CARD = 23  # 23A Mine Under the Bastion: 4 AP, red (playing it for AP hands the Insurgent nothing)


def _last_card_position() -> State:
    """The Imperial's 7th card: an Imperial unit holds the island of Vasiladi; the Insurgent mans
    the Wall but nobody guards the Beach. Stepping off the island onto the Coast looks worse than
    staying (an island is worth more than open water), so only a plan of the whole card sees that
    the next step, onto the Beach, wins when the phase ends."""
    s = board_with(("vasiladi", {"exp": 1}), ("w2", {"ins": 2}), ("w4", {"ins": 2}), ("w6", {"ins": 2}),
                   ("w8", {"ins": 2}), ("r6c5", {"exp": 3}))
    s.played = {"imperial": 6, "insurgent": 6}
    play_ap(s, IMPERIAL, CARD)
    return s


def _play_out_card(spec: str) -> State:
    s = _last_card_position()
    bot = make_bot(spec, seed=3, game="freedom")
    for _ in range(40):
        top = s.stack[-1]
        if top["kind"] != "ap" and RULES.active_seat(s) != IMPERIAL:
            break
        if top["kind"] == "ap" and top.get("card") != CARD:
            break
        legal = RULES.legal_actions(s)
        action = legal[0] if len(legal) == 1 else bot.choose(RULES.view(s, IMPERIAL), legal, IMPERIAL)
        RULES.apply(s, action)
        if action.verb == "end":
            break
    return s


def _on_beach(s: State) -> bool:
    return any(imperial_units(s, i) for i in board().beaches)


def test_last_card_plan_lands_on_the_beach_through_the_lagoon() -> None:
    # rule 3.1 (Imperial units in Row 2 at the end of the Action phase win), rule 4.3.2 (slow
    # movement island → Coast → Beach): two actions of one card that only pay off together.
    assert _on_beach(_play_out_card("heuristic"))
    assert _on_beach(_play_out_card("heuristic:beach_threat=0"))  # the plan alone finds it
    # one action at a time does not see it, unless the evaluation's Lagoon term points the way
    assert not _on_beach(_play_out_card("heuristic:plan=off,beach_threat=0"))
    assert _on_beach(_play_out_card("heuristic:plan=off"))


@pytest.mark.parametrize("spec", ["heuristic:plan=sometimes", "heuristic:beam=x"])
def test_planning_options_are_checked(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, game="freedom")


def test_heuristic_scores_an_event_after_the_opponents_answer() -> None:
    # 46A Deserters (grey): "your opponent removes 1 of its own units"; the Imperial picks which. Scored before
    # that choice the event changed nothing and was never played; scored after the Imperial's best answer it
    # costs the Imperial a unit, which is worth something to the Insurgent.
    s = board_with(("w4", {"ins": 2}), ("w6", {"ins": 2}), ("r4c5", {"exp": 2}), ("r6c5", {"exp": 3}))
    card_turn(s, INSURGENT, 46)
    bot = make_bot("heuristic", seed=1, game="freedom")
    legal = RULES.legal_actions(s)
    event = Action("event", 46)
    assert event in legal
    score = bot.scores(s, legal, INSURGENT)[legal.index(event)]  # type: ignore[attr-defined]
    assert score > value(s, INSURGENT, bot.weights) + 1.0  # type: ignore[attr-defined]


def _deserters_decides_the_fort() -> State:
    """The Insurgent's card turn with 46A Deserters in hand while a lone Imperial unit holds the fort w2: it
    wins when the Action phase ends (rule 3.1), and it is the Imperial's only unit outside the Camp, so its
    answer to Deserters ("your opponent removes 1 of its own units", the Imperial picks which) can only be
    that unit. The other cards in hand do nothing comparable."""
    s = board_with(("w4", {"ins": 2}), ("w6", {"ins": 2}), ("w2", {"exp": 1}))
    keep = [10, 27]
    s.discards["A"] += [c for c in s.hands[INSURGENT] if c not in keep]  # the rest out of play, counted
    s.hands[INSURGENT] = keep
    card_turn(s, INSURGENT, 46)
    return s


def test_heuristic_plays_deserters_when_it_is_clearly_good() -> None:
    s = _deserters_decides_the_fort()
    legal = RULES.legal_actions(s)
    assert Action("event", 46) in legal
    for seed in (1, 2, 3):
        bot = make_bot("heuristic", seed=seed, game="freedom")
        assert bot.choose(RULES.view(s, INSURGENT), legal, INSURGENT) == Action("event", 46)
    # Without the answer (the bot before it learned answers) the event changes nothing in its eyes and it is not played.
    old = make_bot("heuristic:answers=off", seed=1, game="freedom")
    assert old.choose(RULES.view(s, INSURGENT), legal, INSURGENT) != Action("event", 46)


def test_ismcts_with_the_planners_answers_searches_and_plays_deserters() -> None:
    # The planner ranks the candidate cards: with its answers on, Deserters is among them and the playouts
    # (where the Imperial answers with its own heuristic) confirm it.
    s = _deserters_decides_the_fort()
    legal = RULES.legal_actions(s)
    bot = make_bot("ismcts:iterations=8,plan_answers=on", seed=1, game="freedom")
    assert bot.choose(RULES.view(s, INSURGENT), legal, INSURGENT) == Action("event", 46)
