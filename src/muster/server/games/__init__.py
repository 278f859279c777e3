"""Per-game glue for the web: everything the play shell needs that only a game knows.

The shell (``static/shell.js``) and :mod:`muster.server.views` know nothing of any one game; each game
registers an adapter here that supplies its public static data (board geometry, card faces, track
ranges), the one-line rule hints for its choices, the phase of a view, and the board facts whose
changes mark the last move. Each game adds one module and one branch in :func:`adapter`.
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any, Protocol

from muster.core import Action


class WebAdapter(Protocol):
    """What a game supplies to the web shell."""

    def static_data(self) -> dict[str, Any]:
        """Public facts that never change during a game (sent once, cached by the browser)."""
        ...

    def phase(self, view: dict[str, Any]) -> str:
        """The phase of the round the current decision belongs to, in words."""
        ...

    def hint(self, view: dict[str, Any], action: Action, seat: str | None) -> str:
        """One line on what choosing ``action`` does (empty if nothing to add)."""
        ...

    def decision_help(self, view: dict[str, Any]) -> str:
        """One line on the decision being asked (empty if nothing specific)."""
        ...

    def warning(self, view: dict[str, Any], action: Action, seat: str | None, legal: list[Action]) -> str:
        """A sentence asking for a second confirmation before a costly choice (empty: none needed);
        ``legal`` is every choice open now (no warning where there is no alternative)."""
        ...

    def board_facts(self, view: dict[str, Any]) -> dict[str, dict[str, int]]:
        """Per space, the public counts whose changes are marked as the last move ({space: {kind: n}})."""
        ...

    def card_played(self, action: Action) -> int | None:
        """The card an action plays (its number), if it plays one."""
        ...

    def public_action(self, action: Action) -> list[Any]:
        """The action as ``[verb, arg]`` the way the other seats may see it (hidden parts as None)."""
        ...


def adapter(game: str) -> WebAdapter:
    """The web adapter of a game by its registered name."""
    if game == "freedom":
        from muster.server.games import freedom

        return freedom.ADAPTER
    if game == "hellenes":
        from muster.server.games import hellenes

        return hellenes.ADAPTER
    raise KeyError(f"no web adapter for game {game!r}")


def static_data(game: str, lang: str = "en") -> dict[str, Any]:
    """A game's static data in ``lang`` when its adapter has ``static_data_for(lang)``, else as it is."""
    ad = adapter(game)
    localised = getattr(ad, "static_data_for", None)
    result: dict[str, Any] = localised(lang) if localised is not None else ad.static_data()
    return result


def in_language(fn: Any, lang: str, *args: Any) -> Any:
    """Call an adapter method in ``lang`` when it takes a ``lang`` argument (a game not yet translated: as it is)."""
    if lang != "en" and _takes_lang(getattr(fn, "__func__", fn)):
        return fn(*args, lang=lang)
    return fn(*args)


@lru_cache(maxsize=256)
def _takes_lang(fn: Any) -> bool:
    """Whether ``fn`` has a ``lang`` parameter (asked for every choice of every push: looked up once)."""
    return "lang" in inspect.signature(fn).parameters
