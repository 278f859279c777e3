"""Per-game glue for the web: the interface a game's web adapter satisfies, and where the server finds it.

The play shell (``static/play.js``) and :mod:`muster.server.views` know nothing of any one game. A game
brings a web adapter (its module's ``web`` part, conventionally ``ADAPTER`` in ``<game>/web.py``) that
supplies its public static data (board geometry, card faces, track ranges), the one-line rule hints for its
choices, the phase of a view, and the board facts whose changes mark the last move; and a ``static/``
folder with its ``board.js`` module for the browser (see ``docs/web-games.md``). The adapter satisfies
:class:`WebAdapter` structurally: a game never imports this module.
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any, Protocol

from muster.core import Action
from muster.core.registry import game_module


class WebAdapter(Protocol):
    """What a game supplies to the web shell.

    Optional extras the server uses when an adapter has them: ``static_data_for(lang)`` (the static data
    in a language), a ``lang`` keyword on :meth:`phase`, :meth:`hint`, :meth:`decision_help` and
    :meth:`warning` (their words in the reader's language), ``label_for(view, action, seat, english, lang)``
    and ``prompt_for(view, seat, english, lang)`` (choices and prompts rendered in the reader's language from
    the messages the rules keep with their English words: :func:`muster.i18n.words_in` with the game's names),
    ``outcome_detail_in(log, lang)`` (why the game ended, in a language), ``effects_now`` (what an event
    would do at once), ``chance(view, action, seat)`` (the chance, 0 to 1, of winning the fight a choice starts,
    sent as the choice's ``chance`` for the board to draw), ``facts_by_kind`` (see
    :func:`muster.server.views.facts_by_kind`), ``confirm_commits`` and ``public_facts`` (see
    :mod:`muster.server.views`), ``lobby_options`` (the names of the game's options the lobby offers, e.g.
    ``("ruleset",)``; none when absent).
    """

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
    """The web adapter of a game by its registered name (KeyError for an unknown game or one without a web part)."""
    found = game_module(game).part("web")
    if found is None:
        raise KeyError(f"the game {game!r} has no web adapter")
    result: WebAdapter = found
    return result


def analysis_of(game: str) -> Any:
    """The game's analysis part (post-game review, hints and their words), or None for a game without one."""
    return game_module(game).part("analysis")


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
