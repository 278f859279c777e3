"""Bounds on websockets: how many one address may hold open, and how fast one may send (docs/security.md).

* :class:`SocketLimits` holds the settings (read from the environment).
* :class:`SocketGate` counts the open websockets per client address and in all, and refuses a new one
  over either cap, or one opened from a page of another site (its ``Origin`` is not this host), before
  the handshake completes (the client sees HTTP 403). The address is the one uvicorn puts in the scope:
  the peer's, or, from a trusted proxy only (``FORWARDED_ALLOW_IPS``), the client's it forwards.
* :class:`MessageBudget` is one socket's token bucket: a socket sending faster than its budget
  allows is closed with 1008 (policy violation).
* :class:`SlicedWebSocketProtocol` is uvicorn's websocket protocol parsing a few kilobytes per turn of
  the event loop, so a socket whose client sent thousands of messages at once is read a little at a time.
* :func:`receive_messages` is the receive loop of both websocket endpoints: it takes one message at
  a time from the budget, stops as soon as the client has gone (the messages it left queued are not
  handled), and lets the event loop run other work between two messages, so no socket holds the
  loop however much it sends.
* :class:`StateCache` keeps the full state messages last built, so a client asking for one again and
  again (a sync, a reconnection) costs a lookup.
* :func:`raise_file_limit` and :func:`connection_limit`: the process's open-file limit, raised at
  start-up, and the connections it serves at once within it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from muster.server.wire import RAW_SEND

log = logging.getLogger("muster.server")

POLICY_VIOLATION = 1008
"""The websocket close code for a client past its message budget (RFC 6455, 7.4.1)."""


def _env_number(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


@dataclass(frozen=True)
class SocketLimits:
    """The websocket bounds; a value of 0 turns that bound off (for benchmarks).

    ``messages_per_second`` and ``message_burst``: each socket's message budget (a token bucket);
    ``per_address``: open websockets per client address; ``total``: open websockets in this process."""

    messages_per_second: float = 50.0
    message_burst: float = 100.0
    per_address: int = 100
    total: int = 0

    @classmethod
    def from_env(cls, total: int = 0) -> SocketLimits:
        """Defaults, overridden by ``MUSTER_WS_MESSAGES_PER_SECOND``, ``MUSTER_WS_MESSAGE_BURST`` and
        ``MUSTER_WS_PER_ADDRESS``; ``total`` (0: no cap) is the process's connection cap."""
        base = cls()
        return cls(_env_number("MUSTER_WS_MESSAGES_PER_SECOND", base.messages_per_second),
                   _env_number("MUSTER_WS_MESSAGE_BURST", base.message_burst),
                   int(_env_number("MUSTER_WS_PER_ADDRESS", base.per_address)),
                   total)


class MessageBudget:
    """One socket's token bucket: ``rate`` messages a second, up to ``burst`` at once (rate 0: unlimited)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, max(1.0, burst)
        self._tokens = self.burst
        self._last = time.monotonic()

    def take(self) -> bool:
        """Spend one message: False if the budget is exhausted."""
        if not self.rate:
            return True
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address as uvicorn gives it (behind a trusted proxy: the forwarded one)."""
    client = scope.get("client") or ("?", 0)
    return str(client[0])


def _header(scope: Mapping[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def foreign_origin(scope: Mapping[str, Any]) -> str | None:
    """The request's ``Origin`` if it names another site than the request's own host, else None.

    A browser sends ``Origin`` with every cross-site request that may change something (and with a
    websocket's handshake); its host must be the ``Host`` the request was sent to (or the
    ``X-Forwarded-Host`` a proxy sets), or one listed in ``MUSTER_ALLOWED_ORIGINS`` (comma-separated
    origins, e.g. ``https://play.example.org``). A request without ``Origin`` (not from a browser's
    page) passes."""
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    allowed = {o.strip().rstrip("/").lower() for o in os.environ.get("MUSTER_ALLOWED_ORIGINS", "").split(",")
               if o.strip()}
    if origin.rstrip("/").lower() in allowed:
        return None
    _scheme, sep, host = origin.partition("://")
    hosts = {h.strip().lower() for h in (_header(scope, b"host"), _header(scope, b"x-forwarded-host")) if h}
    if sep and host and host.lower() in hosts:
        return None
    return origin


class SocketGate:
    """Open websockets per address and in all, with the caps of :class:`SocketLimits`."""

    def __init__(self, limits: SocketLimits) -> None:
        self.limits = limits
        self.by_address: dict[str, int] = {}
        self.open = 0

    def refusal(self, scope: Mapping[str, Any]) -> str | None:
        """Why a new websocket must be refused (None: it may open)."""
        origin = foreign_origin(scope)
        if origin is not None:
            return f"a page of another site ({origin[:100]}) may not open this socket"
        if self.limits.total and self.open >= self.limits.total:
            return f"the server holds {self.open} sockets, its limit"
        per = self.limits.per_address
        if per and self.by_address.get(client_address(scope), 0) >= per:
            return f"over {per} sockets open from one address"
        return None

    @contextlib.contextmanager
    def holding(self, scope: Mapping[str, Any]) -> Iterator[None]:
        """Count one open socket of the scope's address while the block runs."""
        address = client_address(scope)
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.open += 1
        try:
            yield
        finally:
            self.open -= 1
            left = self.by_address[address] - 1
            if left:
                self.by_address[address] = left
            else:
                del self.by_address[address]  # the table holds only addresses with a socket open


class StateCache:
    """The last few full state messages built (whole log), by game, version, seat and language.

    A full state costs milliseconds to build (the whole log is rendered), and a client may ask for
    one again and again (a sync message, a reconnection): from here it costs a lookup. Bounded to
    ``size`` messages in all (the least recently used go first), so it never holds much memory however
    many games are live. An entry stands for its game's version only; :meth:`forget` drops a game's
    entries when something else that its messages show changes (a player's name), which the server
    announces by broadcasting the game."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int, str | None, str], dict[str, Any]] = OrderedDict()

    def get(self, game_id: str, version: int, seat: str | None, lang: str,
            build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The full state of ``game_id`` at ``version`` for ``seat`` in ``lang``: cached, or ``build()``."""
        key = (game_id, version, seat, lang)
        state = self._states.pop(key, None)
        if state is None:
            state = build()
        self._states[key] = state
        while len(self._states) > self.size:
            self._states.popitem(last=False)
        return state

    def forget(self, game_id: str) -> None:
        """Drop every state of ``game_id`` (at most ``size`` entries to look through)."""
        for key in [k for k in self._states if k[0] == game_id]:
            del self._states[key]


STATES = StateCache()
"""The process's cache of full state messages."""


FILES_RESERVED = 256
"""File descriptors kept back from connections: the database, the bot workers' pipes, logs, static files."""


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (at start-up: a default soft
    limit of 1,024 is reached by a thousand idle sockets); returns the soft limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1_048_576)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_limit() -> int:
    """How many connections this process serves at once (uvicorn's ``limit_concurrency``; beyond it a
    request is answered 503 and a websocket refused): ``MUSTER_MAX_CONNECTIONS``, by default the
    open-file limit less :data:`FILES_RESERVED`, so connections can never use up the descriptors the
    server needs for itself."""
    import resource

    configured = int(os.environ.get("MUSTER_MAX_CONNECTIONS") or 0)
    if configured > 0:  # 0 or unset: from the open-file limit
        return configured
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        soft = 1_048_576
    return max(64, soft - FILES_RESERVED)


READ_SLICE = 4096
"""The most bytes of one websocket parsed in one turn of the event loop (about 200 tiny messages)."""


class SlicedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (the ``websockets`` sans-I/O one), parsing what arrives at most
    :data:`READ_SLICE` bytes per turn of the event loop.

    One read from a socket may hold 256 KB: from a flooding client, twelve thousand tiny frames, which
    uvicorn would parse in one go (a hundred milliseconds and more on a loaded machine, with every
    other client waiting). Here the rest waits for the next turn, in order; uvicorn's own flow control
    (it stops reading while messages wait for the app) is unchanged."""

    _pending: bytearray | None = None

    def data_received(self, data: bytes) -> None:
        """Parse ``data`` now if it is small and nothing waits; else queue it behind what waits."""
        if self._pending is None and len(data) <= READ_SLICE:
            super().data_received(data)
            return
        if self._pending is None:
            self._pending = bytearray()
            self.loop.call_soon(self._next_slice)
        self._pending += data

    def _next_slice(self) -> None:
        pending = self._pending
        if pending is None or self.disconnected:
            self._pending = None
            return
        chunk = bytes(pending[:READ_SLICE])
        del pending[:READ_SLICE]
        if pending:
            self.loop.call_soon(self._next_slice)
        else:
            self._pending = None
        super().data_received(chunk)

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop what was not parsed yet: nobody is left to answer it."""
        self._pending = None
        super().connection_lost(exc)


def _protocol(scope: Mapping[str, Any]) -> Any:
    """uvicorn's protocol object of a websocket (None if the server is not uvicorn)."""
    return getattr(scope.get(RAW_SEND), "__self__", None)


def peer_gone(scope: Mapping[str, Any]) -> bool:
    """Whether the websocket's client has hung up (or the socket is closing), as far as uvicorn's
    protocol knows it already; False when the protocol cannot tell."""
    proto = _protocol(scope)
    return bool(getattr(proto, "disconnected", False) or getattr(proto, "close_sent", False))


CLOSE_WAIT_S = 1.0
"""Seconds a socket closed for flooding has to take in its close frame before the connection is cut."""


async def close_and_stop_reading(ws: WebSocket, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and read nothing more from it; the connection is cut
    :data:`CLOSE_WAIT_S` later (time for the client to read why).

    After a close uvicorn would read on, parsing and dropping every frame until the client's closing
    reply (for up to 10 s): a client that floods on would keep the server busy parsing."""
    with contextlib.suppress(Exception):
        await ws.close(code, reason)
    transport = getattr(_protocol(ws.scope), "transport", None)
    if transport is not None and not transport.is_closing():
        with contextlib.suppress(Exception):
            transport.pause_reading()
        asyncio.get_running_loop().call_later(CLOSE_WAIT_S, transport.close)


async def receive_messages(ws: WebSocket, budget: MessageBudget, alive: Callable[[], bool],
                           handle: Callable[[str], Awaitable[None]]) -> None:
    """Hand each text message of ``ws`` to ``handle``, one at a time, while ``alive()``.

    A message past the budget closes the socket with 1008 (the messages still queued are dropped).
    Messages queued by a client that has since hung up are dropped too: they would be answered to
    nobody. After each message the loop yields, so a socket whose messages arrived together (one read
    may hold thousands) never keeps the event loop from everyone else."""
    while alive():
        text = await ws.receive_text()
        if peer_gone(ws.scope):
            return
        if not budget.take():
            log.warning("closed a websocket from %s: over %g messages a second (bursts of %g)",
                        client_address(ws.scope), budget.rate, budget.burst)
            await close_and_stop_reading(ws, POLICY_VIOLATION, "too many messages")
            return
        await handle(text)
        await asyncio.sleep(0)


__all__ = [
    "POLICY_VIOLATION",
    "STATES",
    "MessageBudget",
    "SlicedWebSocketProtocol",
    "SocketGate",
    "SocketLimits",
    "StateCache",
    "client_address",
    "close_and_stop_reading",
    "connection_limit",
    "foreign_origin",
    "peer_gone",
    "raise_file_limit",
    "receive_messages",
]
