"""Writing websocket messages: several queued messages of one socket in one system call.

Under load each state push used to cost one pass through Starlette's ``WebSocket.send_text``, its
exception-handling wrapper, uvicorn's ASGI ``send`` and a ``transport.write`` of its own (a
``send()`` system call on the socket). Profiled at saturation, that path was a fifth of the web
process's event-loop time, half of it the system calls. An acting socket gets two messages per
action (its acknowledgement, then the new state), and a lagging one may have several queued: writing
them together halves the calls on that socket. And while a socket takes writes (nearly always), no
task is started for it: :class:`muster.server.hub.Connection` writes its queue from one event-loop
callback (a task, its timeout timer and its coroutine cost more than the write itself).

:class:`BatchWriter` does this for uvicorn's sans-I/O websocket protocol (its default with the
``websockets`` library installed): it frames each message with that protocol's own
``websockets`` connection object (so the frames and the connection state are exactly what uvicorn
would have produced) and writes the frames with one ``transport.write``, after waiting for the
transport to accept writes (uvicorn's flow control). The raw ASGI ``send`` is reached through the
scope (:data:`RAW_SEND`, set by :class:`muster.server.guard.Guard`, the outermost middleware that
sees it unwrapped). Any other protocol, or a future uvicorn whose protocol lacks the attributes used
here, falls back to one ASGI send per message (:func:`batch_writer` returns None).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any, Protocol

from websockets.protocol import Side, State

RAW_SEND = "muster.raw_send"
"""The scope key under which :class:`muster.server.guard.Guard` keeps a websocket's unwrapped ASGI ``send``."""

_NEEDED = ("conn", "transport", "writable", "disconnected", "close_sent", "handshake_complete", "initial_response")


def _text_header(length: int) -> bytes:
    """The header of an unmasked final text frame of ``length`` bytes (RFC 6455, 5.2)."""
    if length < 126:
        return bytes((0x81, length))
    if length < 65536:
        return _HEADER_16.pack(0x81, 126, length)
    return _HEADER_64.pack(0x81, 127, length)


_HEADER_16 = struct.Struct("!BBH")
_HEADER_64 = struct.Struct("!BBQ")


class SocketGoneError(Exception):
    """The websocket closed (or started closing) before the messages could be written."""


class Writer(Protocol):
    """What :class:`muster.server.hub.Connection` needs to write several messages at once."""

    def ready(self) -> bool:
        """Whether the socket takes writes now (its transport is not over its high-water mark)."""
        ...

    def write_now(self, texts: list[bytes]) -> None:
        """Write the messages, in order, at once (only when :meth:`ready`); raises if the socket is gone."""
        ...

    async def __call__(self, texts: list[bytes]) -> None:
        """Wait until the socket takes writes, then write the messages."""
        ...


class BatchWriter:
    """Writes messages (UTF-8 JSON text) to one accepted websocket of uvicorn's sans-I/O protocol."""

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def ready(self) -> bool:
        """Whether the transport takes writes now (uvicorn clears ``writable`` above the high-water mark)."""
        return bool(self.protocol.writable.is_set())

    def write_now(self, texts: list[bytes]) -> None:
        """Frame every message as a text frame, in order, and write them all with one ``transport.write``."""
        proto = self.protocol
        if proto.disconnected or proto.close_sent or not proto.handshake_complete or proto.transport.is_closing():
            raise SocketGoneError()
        conn = proto.conn
        if conn.extensions or conn.debug or conn.side is not Side.SERVER:
            for text in texts:
                conn.send_text(text)
            proto.transport.write(b"".join(conn.data_to_send()))
            return
        # The frames ``conn.send_text`` would make, made here: a server's unmasked final text frame with no
        # extension is its header and the text (the library builds each through a frame object and a
        # buffer, about 2 µs a message). The same checks first; anything the connection has queued goes first.
        if conn.expect_continuation_frame or conn.state is not State.OPEN:
            raise SocketGoneError()
        parts = conn.data_to_send()
        for text in texts:
            parts.append(_text_header(len(text)))
            parts.append(text)
        proto.transport.write(b"".join(parts))

    async def __call__(self, texts: list[bytes]) -> None:
        """Wait for the transport to take writes (as uvicorn's own ``send`` does), then write the messages."""
        await self.protocol.writable.wait()
        self.write_now(texts)


def batch_writer(scope: Mapping[str, Any]) -> Writer | None:
    """A :class:`BatchWriter` for the websocket of ``scope`` (after it was accepted), or None when the
    server's websocket protocol is not one it knows (then messages go one by one through ASGI). For a protocol
    it knows it also lets go of the finished handshake (:func:`_forget_handshake`)."""
    send = scope.get(RAW_SEND)
    proto = getattr(send, "__self__", None)
    if (proto is None or "WebSocketsSansIOProtocol" not in {cls.__name__ for cls in type(proto).__mro__}
            or getattr(send, "__name__", "") != "send"):
        return None
    if not all(hasattr(proto, name) for name in _NEEDED) or not hasattr(proto.conn, "send_text"):
        return None
    _forget_handshake(proto)
    return BatchWriter(proto)


def _forget_handshake(proto: Any) -> None:
    """Let go of the opening handshake's request and response (their header tables, about 3 KB a socket),
    which uvicorn's protocol keeps for the life of the connection but reads only until the handshake ends:
    a server holding thousands of sockets holds thousands of them."""
    if proto.handshake_complete and getattr(proto, "request", None) is not None:
        proto.request = None
        proto.response = None


__all__ = ["RAW_SEND", "BatchWriter", "SocketGoneError", "Writer", "batch_writer"]
