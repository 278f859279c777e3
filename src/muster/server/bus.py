"""Live fan-out between the server processes of one deployment.

Each process holds its own in-memory copies of the games its clients use; the database is the
only truth (every write checks the game's version). After a commit, the process that made the
change publishes ``(game id, new version, kind, detail)``; the others bring their copy up to date
(apply the one action, or rebuild from the database when they missed something) and push the new
state to their own clients. Bots of a game run only in the process that *owns* the game id.

:class:`Bus` is the single-process case: nothing to tell, and this process owns every game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Handler = Callable[[str, int, str, Any], Awaitable[None]]


class Bus:
    """One server process alone: publishing is a no-op and every game is ours."""

    index = 0
    size = 1

    def owns(self, game_id: str) -> bool:
        """Whether this process runs the bots of ``game_id`` (games are shared out by id)."""
        if self.size == 1:
            return True
        try:
            return int(game_id[:8], 16) % self.size == self.index
        except ValueError:
            return self.index == 0

    def publish(self, game_id: str, version: int, kind: str, detail: Any) -> None:
        """Tell the other processes that ``game_id`` is now at ``version`` (after the commit)."""

    async def start(self, handler: Handler) -> None:
        """Begin delivering other processes' changes to ``handler``."""

    def close(self) -> None:
        """Stop listening."""
