"""Defences in front of the web app: every input bounded in size, depth, time and rate (docs/security.md).

* :class:`Guard` is an ASGI middleware. It refuses a request body over the limit *while reading it*
  (a declared ``Content-Length`` over the limit is refused before a byte is read), gives up on a body
  that stops arriving, limits how often one client may create games and step through replays, and
  adds the security headers to every HTTP answer.
* :func:`load_json` parses a body or websocket message, refusing nesting deeper than
  :data:`MAX_DEPTH` as a plain 400 ``malformed``.
* :class:`HeadTimeoutProtocol` is uvicorn's HTTP protocol with a deadline for a request's head, so a
  client that opens connections and trickles its headers (slowloris) cannot hold them open.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from starlette.requests import ClientDisconnect
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from muster.error_texts import refusal
from muster.server.hub import ApiError
from muster.server.sockets import foreign_origin
from muster.server.wire import RAW_SEND

MAX_BODY = 64 * 1024
"""The largest request body accepted (bytes); the biggest legitimate one, a list of remembered tokens, is
far smaller."""
MAX_DEPTH = 32
"""The deepest JSON nesting accepted; the deepest legitimate message nests 3 levels."""
HEAD_TIMEOUT_S = float(os.environ.get("MUSTER_HEAD_TIMEOUT_S", "10"))
"""Seconds a client has to send a request's head (request line and headers) once it has begun."""
BODY_TIMEOUT_S = float(os.environ.get("MUSTER_BODY_TIMEOUT_S", "10"))
"""Seconds a client may pause while sending a request's body."""
BODY_DEADLINE_S = float(os.environ.get("MUSTER_BODY_DEADLINE_S", "30"))
"""Seconds a client has to send a request's whole body, however steadily it trickles."""
CONNECTIONS_PER_ADDRESS = int(os.environ.get("MUSTER_CONNECTIONS_PER_ADDRESS", "100"))
"""Open HTTP connections per peer address (0: no cap), except from a trusted proxy (``FORWARDED_ALLOW_IPS``),
whose connections carry many clients' requests; websockets are counted apart (:mod:`muster.server.sockets`)."""
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods of requests that may change something: they must be JSON and, from a browser, from our own pages."""
MAX_HEAD = 32 * 1024
"""The largest request head (request line and headers, bytes)."""

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat tokens travel in page URLs
    (b"cross-origin-opener-policy", b"same-origin"),
]


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar: 0), without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            pending.extend((child, depth + 1) for child in item if isinstance(child, (list, dict)))
    return deepest


def load_json(raw: str | bytes, what: str = "body") -> Any:
    """Parse JSON from a client: a 400 ``malformed`` for anything that is not JSON or nests too deeply."""
    try:
        # orjson: several times faster than the standard parser on every websocket message, and it refuses
        # nesting past 1,024 levels by itself (no RecursionError), as well as NaN and Infinity
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "depth limit" in str(exc):
            raise ApiError(400, "malformed", refusal("{what} nests deeper than {n} levels", what=what,
                                                     n=MAX_DEPTH)) from exc
        raise ApiError(400, "malformed", refusal("{what} is not JSON: {error}", what=what, error=str(exc))) from exc
    except (ValueError, TypeError, RecursionError) as exc:
        raise ApiError(400, "malformed", refusal("{what} is not JSON: {error}", what=what, error=str(exc))) from exc
    # every level of nesting opens with a bracket, so a text with few brackets cannot nest too deeply: most
    # messages (an action is one object holding a list or two) are let through without walking the value
    brackets = raw.count(b"[") + raw.count(b"{") if isinstance(raw, bytes) else raw.count("[") + raw.count("{")
    if brackets > MAX_DEPTH and json_depth(value) > MAX_DEPTH:
        raise ApiError(400, "malformed", refusal("{what} nests deeper than {n} levels", what=what, n=MAX_DEPTH))
    return value


class TokenBuckets:
    """Per-client token buckets: ``rate`` tokens a second up to ``burst``; remembers at most ``clients``."""

    def __init__(self, rate: float, burst: float, clients: int = 10_000) -> None:
        self.rate, self.burst, self.clients = rate, burst, clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, now: float | None = None) -> float:
        """Take one token: 0.0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.clients:  # forget the longest-quiet clients (they refilled anyway)
            self._buckets.popitem(last=False)
        return wait


@dataclass(frozen=True)
class Limits:
    """Rates per client (by peer address). A rate of 0 turns that limit off (for benchmarks)."""

    create_per_minute: float = 30.0
    create_burst: float = 30.0
    replay_per_second: float = 20.0
    replay_burst: float = 60.0

    @classmethod
    def from_env(cls) -> Limits:
        """Defaults, overridden by ``MUSTER_CREATE_PER_MINUTE``, ``MUSTER_CREATE_BURST``,
        ``MUSTER_REPLAY_PER_SECOND`` and ``MUSTER_REPLAY_BURST``."""
        base = cls()
        return cls(*(float(os.environ.get(f"MUSTER_{name.upper()}", getattr(base, name)))
                     for name in ("create_per_minute", "create_burst", "replay_per_second", "replay_burst")))


class _BodyTooLargeError(Exception):
    """The body grew past the limit while arriving."""


class _BodyTimeoutError(Exception):
    """The body stopped arriving, or (argument True) did not arrive whole in time."""


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: Any, limits: Limits | None = None, max_body: int = MAX_BODY,
                 body_timeout_s: float = BODY_TIMEOUT_S, body_deadline_s: float = BODY_DEADLINE_S) -> None:
        self.app = app
        self.limits = limits or Limits.from_env()
        self.max_body = max_body
        self.body_timeout_s = body_timeout_s
        self.body_deadline_s = body_deadline_s
        lim = self.limits
        self.creating = TokenBuckets(lim.create_per_minute / 60, lim.create_burst) if lim.create_per_minute else None
        self.replaying = TokenBuckets(lim.replay_per_second, lim.replay_burst) if lim.replay_per_second else None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Handle one connection's request."""
        if scope["type"] != "http":
            if scope["type"] == "websocket":  # the unwrapped send, for writing several messages at once (wire.py)
                scope[RAW_SEND] = send
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        refused = self._refusal(scope)
        if refused is not None:
            status, code, message, wait = refused
            await self._answer(send_with_headers, status, code, _in_reader_language(message, scope), wait,
                               close=status == 413)
            return
        try:
            await self.app(scope, self._bounded(receive), send_with_headers)
        except ClientDisconnect:
            pass  # the client hung up before its body was whole: nobody is left to answer, nothing to log
        except _BodyTooLargeError:
            if not started:
                await self._answer(send_with_headers, 413, "too_large",
                                   _in_reader_language(refusal("request body over {n} bytes", n=self.max_body), scope),
                                   close=True)
        except _BodyTimeoutError as exc:
            if not started:
                why = (refusal("the request body did not arrive within {n} s", n=f"{self.body_deadline_s:g}")
                       if exc.args and exc.args[0] else "the request body stopped arriving")
                await self._answer(send_with_headers, 408, "timeout", _in_reader_language(why, scope), close=True)

    def _refusal(self, scope: Any) -> tuple[int, str, str, float] | None:
        """(status, code, message, retry-after) if the request is refused before it is read."""
        content_type = b""
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                return 413, "too_large", refusal("request body over {n} bytes", n=self.max_body), 0.0
            if name == b"content-type":
                content_type = value
        client = (scope.get("client") or ("?", 0))[0]
        path, method = scope.get("path", ""), scope.get("method", "")
        if method in STATE_CHANGING:
            # A page of another site can make a browser send a "simple" cross-site POST (a form's or
            # fetch's text/plain body, with the browser's cookies) without asking first; it cannot send
            # one with a JSON content type, and the browser names its page in Origin.
            origin = foreign_origin(scope)
            if origin is not None:
                return 403, "cross_site", "requests from a page of another site are refused", 0.0
            # (a mail program's one-click unsubscribe, RFC 8058, posts a form: the signed link is its authority)
            if (content_type.split(b";", 1)[0].strip().lower() != b"application/json"
                    and not path.startswith("/notify/unsubscribe/")):
                return 415, "unsupported_media_type", "send the body as JSON (Content-Type: application/json)", 0.0
        bucket = None
        if method == "POST" and path == "/api/games":
            bucket, what = self.creating, "too many games created from your address: try again in {n} s"
        elif path.startswith("/api/games/") and path.endswith("/replay"):
            bucket, what = self.replaying, "too many replay steps from your address: try again in {n} s"
        if bucket is not None:
            wait = bucket.take(client)
            if wait > 0:
                return 429, "rate_limited", refusal(what, n=round(wait)), wait
        return None

    def _bounded(self, receive: Any) -> Any:
        """``receive`` counting the body as it arrives, and timing out a body that stalls."""
        seen = 0
        done = False
        deadline = time.monotonic() + self.body_deadline_s

        async def bounded_receive() -> Any:
            nonlocal seen, done
            if done:
                return await receive()
            # each wait is bounded by the pause allowed and by what is left of the whole body's time
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                message = await asyncio.wait_for(receive(), min(self.body_timeout_s, left))
            except TimeoutError as exc:
                raise _BodyTimeoutError(left <= self.body_timeout_s) from exc
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _BodyTooLargeError
                done = not message.get("more_body", False)
            else:
                done = True
            return message

        return bounded_receive

    @staticmethod
    async def _answer(send: Any, status: int, code: str, message: str, retry_after: float = 0.0,
                      close: bool = False) -> None:
        body = json.dumps({"type": "error", "code": code, "error": message}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if retry_after:
            headers.append((b"retry-after", str(max(1, round(retry_after))).encode()))
        if close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class HeadTooLargeError(Exception):
    """A request head over :data:`MAX_HEAD` (uvicorn answers 400 and closes the connection)."""


class HeadTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request head does not arrive within
    :data:`HEAD_TIMEOUT_S` (from the connection's opening, or from the first byte of a later request),
    refusing a head over :data:`MAX_HEAD` bytes, and closing at once a connection from an address that
    holds :data:`CONNECTIONS_PER_ADDRESS` open already (unless it is a trusted proxy)."""

    head_timeout_s = HEAD_TIMEOUT_S
    per_address = CONNECTIONS_PER_ADDRESS
    _open: ClassVar[dict[str, int]] = {}
    """Open HTTP connections by peer address, in this process (only addresses with one open)."""
    _trust: ClassVar[tuple[Any, Any] | None] = None

    def connection_made(self, transport: Any) -> None:
        """Count the connection against its address (or close it), and start the clock for the first
        request's head."""
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        address = self.client[0] if self.client else None
        if address and self.per_address and not self._trusted(address):
            held = self._open.get(address, 0)
            if held >= self.per_address:
                transport.close()  # before a byte is read: the descriptor is free again at once
                return
            self._open[address] = held + 1
            self._counted = address
        self._arm()

    def _trusted(self, address: str) -> bool:
        """Whether ``address`` is a proxy uvicorn takes forwarded addresses from (``FORWARDED_ALLOW_IPS``):
        its connections carry many clients, each limited by its own forwarded address instead."""
        trust = HeadTimeoutProtocol._trust
        if trust is None or trust[0] is not self.config:
            hosts = None
            if self.config.proxy_headers:
                from uvicorn.middleware.proxy_headers import _TrustedHosts

                hosts = _TrustedHosts(self.config.forwarded_allow_ips)
            trust = HeadTimeoutProtocol._trust = (self.config, hosts)
        return trust[1] is not None and address in trust[1]

    def _uncount(self) -> None:
        address, self._counted = getattr(self, "_counted", None), None
        if address is not None:
            left = self._open.get(address, 1) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a websocket: from now on it is counted among the websockets
        (:class:`muster.server.sockets.SocketGate`), not here."""
        self._uncount()
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        """A request begins: its head must be complete in time."""
        super().on_message_begin()
        self._head_bytes = 0
        self._arm()

    def _count(self, size: int) -> None:
        self._head_bytes = getattr(self, "_head_bytes", 0) + size
        if self._head_bytes > MAX_HEAD:
            raise HeadTooLargeError  # raised inside the parser's callback: uvicorn answers 400 and closes

    def on_url(self, url: bytes) -> None:
        """Part of the request line: counted against the head's limit."""
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """One header: counted against the head's limit."""
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head arrived: stop the clock."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock; the address holds one connection less."""
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


def _in_reader_language(message: str, scope: Any) -> str:
    """A refusal in the language of the request (``?lang=``, the cookie, ``Accept-Language``)."""
    from starlette.requests import HTTPConnection

    from muster.error_texts import translate
    from muster.server.lang import request_lang

    return translate(message, request_lang(HTTPConnection(scope)))
