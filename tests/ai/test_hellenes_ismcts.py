"""ISMCTS playing Hellenes through the game-agnostic interface."""

from __future__ import annotations

from muster.ai import make_bot
from muster.ai.search import GameIsmctsBot
from muster.core import get_rules

RULES = get_rules("hellenes")


def _play(athens: str, sparta: str, seed: int, years: str = "1") -> tuple[object, int]:
    state = RULES.setup(seed, {"quiet": "1", "years": years})
    bots = {"athens": make_bot(athens, seed=seed, rules=RULES), "sparta": make_bot(sparta, seed=seed + 1, rules=RULES)}
    steps = 0
    while (seat := RULES.active_seat(state)) is not None:
        legal = RULES.legal_actions(state)
        action = bots[seat].choose(RULES.view(state, seat), legal, seat)
        assert action in legal
        RULES.apply(state, action)
        steps += 1
        assert steps < 5000
    return RULES.outcome(state), steps


def test_ismcts_plays_a_hellenes_game_to_the_end() -> None:
    outcome, steps = _play("ismcts:iterations=4", "heuristic", seed=3)
    assert outcome is not None and steps > 50
    outcome, _ = _play("random", "ismcts:iterations=4,width=2,horizon=0", seed=4)
    assert outcome is not None


def test_ismcts_searches_from_the_view_only() -> None:
    # the bot is given a view: two true states that differ only in what Athens may not see (Sparta's hand and
    # the deck order, the dice) give the same view and so the same choice
    state = RULES.setup(11, {"quiet": "1"})
    bot = make_bot("ismcts:iterations=6", seed=5, rules=RULES)
    assert isinstance(bot, GameIsmctsBot)
    for _ in range(400):  # walk to an Athenian decision the search looks at
        seat = RULES.active_seat(state)
        legal = RULES.legal_actions(state)
        if seat == "athens" and len(legal) > 1 and bot.knowledge.searched(state):
            break
        RULES.apply(state, make_bot("heuristic", seed=1, rules=RULES).choose(RULES.view(state, seat), legal, seat))
    assert RULES.active_seat(state) == "athens" and bot.knowledge.searched(state)
    other = RULES.clone(state)
    pool = other.hands["sparta"] + other.deck
    other.hands["sparta"], other.deck = pool[-len(other.hands["sparta"]):], pool[:-len(other.hands["sparta"])]
    other.rng ^= 0x5DEECE66D
    assert RULES.view(other, "athens") == RULES.view(state, "athens")
    assert other.hands["sparta"] != state.hands["sparta"] or other.deck != state.deck
    legal = RULES.legal_actions(state)
    first = make_bot("ismcts:iterations=6", seed=5, rules=RULES).choose(RULES.view(state, "athens"), legal, "athens")
    second = make_bot("ismcts:iterations=6", seed=5, rules=RULES).choose(RULES.view(other, "athens"), legal, "athens")
    assert first == second


def test_ismcts_options_are_checked_for_hellenes() -> None:
    import pytest

    from muster.ai.base import BotSpecError

    for spec in ("ismcts:iterations=x", "ismcts:search=dance", "ismcts:scale=0", "ismcts:iterations=0",
                 "ismcts:tree=cards"):
        with pytest.raises(BotSpecError):
            make_bot(spec, rules=RULES)
    bot = make_bot("ismcts:search=actions+commit,horizon=2,width=4", rules=RULES)
    assert isinstance(bot, GameIsmctsBot) and bot.width == 4 and bot.horizon == 2
