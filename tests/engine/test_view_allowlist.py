"""A seat's view is built from the fields it may see, so a field added to the state stays hidden until listed."""

from __future__ import annotations

import importlib.util
import random
from importlib import import_module
from typing import Any

import pytest

from muster.core.registry import game_module, game_names, get_rules


class _WithNewField:
    """A game's state whose saved form gains a field no view lists (as a new secret would, before anyone
    thinks of the views); everything else is the real state's."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self._state.to_json()
        data["new_secret"] = {"next_cards": [1, 2, 3]}
        return data


def _positions(game: str, count: int = 4) -> list[Any]:
    """A few positions of a random game (the start and some later ones)."""
    rules = get_rules(game)
    state = rules.setup(7)
    chooser, out = random.Random(7), [rules.clone(state)]
    for step in range(1, 200):
        if rules.active_seat(state) is None:
            break
        rules.apply(state, chooser.choice(rules.legal_actions(state)))
        if step % (200 // count) == 0:
            out.append(rules.clone(state))
    return out


ALLOWLISTED = [g for g in game_names() if importlib.util.find_spec(f"{game_module(g).package}.view") is not None]
"""The games whose views are built by the frame machine's allowlist (a game of its own making, like Duel, builds
its views by hand and proves them in the contract suite)."""


@pytest.mark.parametrize("game", ALLOWLISTED)
def test_a_new_state_field_appears_in_no_view(game: str) -> None:
    rules = get_rules(game)
    for state in _positions(game):
        shown = _WithNewField(state)
        for seat in [None, *rules.info.seats]:
            view = rules.view(shown, seat)
            assert "new_secret" not in view
            assert "next_cards" not in repr(view)
            assert view == rules.view(state, seat)  # and nothing else changed
        many = getattr(rules, "views", None)
        if many is not None:
            assert all("new_secret" not in v for v in many(shown, [None, *rules.info.seats]).values())


@pytest.mark.parametrize("game", ALLOWLISTED)
def test_every_state_field_is_classified_for_the_views(game: str) -> None:
    # Hidden by default is the safe failure; this makes adding a field a decision about who sees it.
    rules = get_rules(game)
    views = import_module(f"{type(rules).__module__.rpartition('.')[0]}.view")
    public, per_seat, hidden = views.PUBLIC, views.PER_SEAT, views.HIDDEN
    assert not (public & per_seat or public & hidden or per_seat & hidden)
    for state in _positions(game, 2):
        assert set(rules.to_json(state)) == public | per_seat | hidden
        for seat in [None, *rules.info.seats]:
            assert not set(rules.view(state, seat)) & hidden
