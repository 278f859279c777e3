"""Bot levels defined by a CPU budget: the cap's play where it fits, a smaller search where it does not."""

from __future__ import annotations

from typing import Any

import pytest

from muster.ai import make_bot
from muster.core import get_rules
from muster.core.bots import BotSpecError
from muster.core.budget import OVERRUN, PlayoutCost, budget_plan, halving_playouts, playout_cost, round_sizes
from muster.games.freedom.constants import IMPERIAL

CAPPED = "ismcts:playout_plan=all,reach_threat=10,iterations=12,money_ahead=0.6"


def card_turns(count: int) -> list[object]:
    """Freedom! positions at a choice of card, reached by the Heuristic from fixed seeds."""
    rules = get_rules("freedom")
    bot = make_bot("heuristic:plan=off,samples=1", seed=3, game="freedom")
    out: list[object] = []
    seed = 0
    while len(out) < count:
        state = rules.setup(seed, {"quiet": "1"})
        seed += 1
        for _ in range(60 + 40 * seed):
            if rules.outcome(state) is not None:
                break
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            rules.apply(state, legal[0] if len(legal) == 1 else bot.choose(rules.view(state, seat), legal, seat))
        while rules.outcome(state) is None and not (state.stack and state.stack[-1]["kind"] == "card_turn"
                                                    and len(rules.legal_actions(state)) > 1):
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            rules.apply(state, legal[0] if len(legal) == 1 else bot.choose(rules.view(state, seat), legal, seat))
        if rules.outcome(state) is None:
            out.append(state)
    return out


def choices(spec: str, states: list[object]) -> list[tuple[str, int]]:
    """What one bot of ``spec`` chooses at each position in turn, and how many playouts it played there."""
    rules = get_rules("freedom")
    bot = make_bot(spec, seed=5, game="freedom")
    out = []
    for state in states:
        seat = rules.active_seat(state)
        assert seat is not None
        action = bot.choose(rules.view(state, seat), rules.legal_actions(state), seat)
        out.append((str(action), bot.last_iterations))  # type: ignore[attr-defined]
    return out


def test_the_plan_is_the_caps_own_while_the_cap_fits_then_shrinks_step_by_step() -> None:
    cap = halving_playouts(3, 12)
    assert round_sizes(3, 12) == [(3, 2), (2, 3)] and cap == 12  # today's split of twelve playouts
    assert budget_plan(3, 12, None) == (3, None)
    assert budget_plan(3, 12, cap) == (3, None)
    assert budget_plan(3, 12, 11.9) == (3, 2)  # fewer determinizations a round: 3·2 + 2·2 = 10
    assert budget_plan(3, 12, 5) == (3, 1)  # one a round: 3 + 2
    assert budget_plan(3, 12, 4.5) == (2, 1)  # then fewer candidates: the two best, once each
    assert budget_plan(3, 12, 1.5) == (1, 0)  # not even a comparison: the quick policy's choice


def test_a_playout_cost_is_the_median_of_the_last_ones_measured() -> None:
    cost = PlayoutCost(keep=3)
    assert cost.estimate() is None
    for seconds in (0.1, 9.0, 0.3, 0.2):
        cost.record(seconds * 2, 2)
    assert cost.estimate() == pytest.approx(0.3)  # 9.0 is the median of nothing once it is one of three


def test_a_budget_that_fits_plays_exactly_as_the_iteration_cap_alone() -> None:
    states = card_turns(3)
    assert choices(f"{CAPPED},cpu=10", states) == choices(CAPPED, states)


def test_a_budget_too_small_for_the_cap_searches_less_and_never_more_than_the_cap() -> None:
    states = card_turns(3)
    playout_cost(("freedom-ismcts", tuple(sorted({"playout_plan": "all", "reach_threat": "10",
                                                  "money_ahead": "0.6"}.items())))).record(1.0, 1)
    capped = choices(CAPPED, states)
    tight = choices(f"{CAPPED},cpu=0.000001", states)
    assert all(n <= 12 for _a, n in capped)
    # what a playout costs here is known (measured), and not even one fits: the planner's best card, no search
    assert [n for _a, n in tight] == [0, 0, 0]


def test_the_hellenes_search_takes_a_budget_too() -> None:
    rules = get_rules("hellenes")
    bot = make_bot("ismcts:cpu=5", seed=1, game="hellenes")
    state = rules.setup(1, {})
    seat = rules.active_seat(state)
    assert seat is not None
    assert bot.choose(rules.view(state, seat), rules.legal_actions(state), seat) in rules.legal_actions(state)


@pytest.mark.parametrize("spec", ["ismcts:cpu=-1", "ismcts:cpu=nan", "ismcts:tree=actions,cpu=1"])
def test_a_bad_budget_is_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, seed=1, game="freedom")


class CountingRules:
    """Freedom!'s rules, counting the actions a bot applies: the fake clock of the tests below (every action a
    bot applies costs it a millisecond of CPU), so a budget's effect is exact and the same on every machine."""

    def __init__(self) -> None:
        self.rules = get_rules("freedom")
        self.applied = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def apply(self, state: Any, action: Any) -> None:
        """The rules' own, counted."""
        self.applied += 1
        self.rules.apply(state, action)


def card_costs(monkeypatch: pytest.MonkeyPatch, spec: str, playout: float, seed: int, cards: int) -> list[float]:
    """The fake CPU seconds of each of the first ``cards`` cards ``spec`` plays as the Imperial against the
    Heuristic (its choice and its own decisions until its next card), its playouts first thought to cost
    ``playout`` fake seconds each."""
    counting = CountingRules()
    monkeypatch.setattr("muster.games.freedom.bots.ismcts.cpu_now", lambda: counting.applied / 1000)
    monkeypatch.setattr("muster.core.budget._COSTS", {})
    bot = make_bot(spec, seed=1, rules=counting)  # type: ignore[arg-type]
    playout_cost(("freedom-ismcts", tuple(sorted({"playout_plan": "all", "reach_threat": "10",
                                                  "money_ahead": "0.6"}.items())))).record(playout, 1)
    rules = counting.rules
    heuristic = make_bot("heuristic:plan=off,samples=1", seed=2, game="freedom")
    state = rules.setup(seed, {"quiet": "1"})
    costs: list[float] = []
    while rules.outcome(state) is None and len(costs) <= cards:
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        if len(legal) > 1 and seat == IMPERIAL:
            if state.stack[-1]["kind"] == "card_turn":
                costs.append(0.0)
            before = counting.applied
            action = bot.choose(rules.view(state, seat), legal, seat)
            if costs:
                costs[-1] += (counting.applied - before) / 1000
        else:
            action = legal[0] if len(legal) == 1 else heuristic.choose(rules.view(state, seat), legal, seat)
        rules.apply(state, action)
    return costs[:cards]



def test_the_planners_moves_inside_a_card_stop_planning_once_the_cards_budget_is_spent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # playouts known to cost more than the whole budget: no card is searched, each is the planner's alone, and
    # its whole-card plans (up to four fake seconds a card without the budget) stop when the card's two are spent
    costs = card_costs(monkeypatch, f"{CAPPED},cpu=2", playout=3.0, seed=4, cards=10)
    assert max(costs) <= 2 * OVERRUN, costs


def test_a_search_whose_playouts_cost_more_than_typical_stops_within_the_cards_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # playouts thought to cost a fake second (the plan fits several) cost two to five here: the search drops a
    # determinization that would end past the budget instead of playing on to the hard stop
    costs = card_costs(monkeypatch, f"{CAPPED},cpu=8", playout=1.0, seed=4, cards=10)
    assert max(costs) <= 8 * OVERRUN, costs


def ap_decision() -> tuple[Any, list[Any], str]:
    """A Freedom! position at the top of a side's AP spending on a card, with a real choice."""
    rules = get_rules("freedom")
    bot = make_bot("heuristic:plan=off,samples=1", seed=3, game="freedom")
    state = rules.setup(12, {"quiet": "1"})
    while True:
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        top = state.stack[-1]
        if len(legal) > 2 and top["kind"] == "ap" and top.get("seat") == seat and int(top["ap"]) >= 2:
            return state, legal, seat
        rules.apply(state, legal[0] if len(legal) == 1 else bot.choose(rules.view(state, seat), legal, seat))


def test_a_planner_out_of_time_judges_single_actions_and_one_with_time_plans_as_ever() -> None:
    from muster.games.freedom.bots.heuristic import HeuristicBot

    rules = get_rules("freedom")
    state, legal, seat = ap_decision()

    def planner(out_of_time: Any) -> HeuristicBot:
        bot = HeuristicBot(rules, 5, {"plan": "all"})
        bot.out_of_time = out_of_time
        return bot

    never = planner(lambda: False)
    assert never.plans(state, seat)
    # here the plan (a Reward Attacks bought for the attacks it makes worth more) and a single action differ
    assert planner(None).choose_in(state, legal, seat) != HeuristicBot(rules, 5, {"plan": "off"}).choose_in(
        state, legal, seat)
    assert never.choose_in(state, legal, seat) == planner(None).choose_in(state, legal, seat)
    asked: list[int] = []
    spent = planner(lambda: asked.append(1) or True)
    assert spent.choose_in(state, legal, seat) == HeuristicBot(rules, 5, {"plan": "off"}).choose_in(state, legal, seat)
    assert len(asked) == 1  # asked once, before the plan carried out its first action
