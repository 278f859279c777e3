"""determinize() across the Period change (engine fix made for the search bots)."""

from __future__ import annotations

import random

from muster.core import get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT


def _play_to_round_4(seed: int):  # type: ignore[no-untyped-def]
    rules = get_rules("freedom")
    state = rules.setup(seed, {"quiet": "1"})
    rnd = random.Random(seed)
    while state.round < 4 and rules.outcome(state) is None:
        rules.apply(state, rnd.choice(rules.legal_actions(state)))
    return rules, state


def test_determinize_at_period_change_keeps_period_a_cards_in_hand() -> None:
    # rule 4.1 / digest §8: at the start of round 4 both hands still hold their last Period-A card
    # while the round is already in Period B; the opponent's hidden card must come from deck A.
    rules, state = _play_to_round_4(0)
    assert state.round == 4 and rules.outcome(state) is None
    for seat in (IMPERIAL, INSURGENT):
        view = rules.view(state, seat)
        det = rules.determinize(view, seat, 11)
        opp = INSURGENT if seat == IMPERIAL else IMPERIAL
        assert len(det.hands[opp]) == len(state.hands[opp])
        assert {len(det.decks["A"]), len(det.decks["B"])} == {len(state.decks["A"]), len(state.decks["B"])}
        assert rules.view(det, seat)["hands"] == view["hands"]
        assert rules.legal_actions(det) == rules.legal_actions(state)
