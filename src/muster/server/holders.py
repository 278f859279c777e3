"""Who holds a seat: the device session a browser keeps in a cookie (docs/security.md, "Seats and credentials").

A person's seat is opened by two things together: the seat token in the page's address, and the holder it
was bound to when the seat was taken (by creating the game, or by claiming an invitation). For a guest the
holder is the browser's *device session*: a random secret in an HttpOnly cookie that scripts cannot read,
which the server knows only by its hash. A seat link forwarded to another browser therefore opens nothing,
and whoever created a game never holds the seats it invited others to.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

DEVICE_COOKIE = "muster_device"
"""The cookie holding a browser's device session."""
DEVICE_MAX_AGE_S = 400 * 24 * 3600
"""How long a browser keeps its device session: 400 days, the longest browsers honour (renewed by each game
created or invitation claimed)."""
_DEVICE_FORM = re.compile(r"[A-Za-z0-9_-]{32,64}")


def new_device() -> str:
    """A fresh device session secret (256 bits)."""
    return secrets.token_urlsafe(32)


def device_of(conn: HTTPConnection) -> str | None:
    """The device session a request or websocket presents, or None (no cookie, or not of our form)."""
    value = conn.cookies.get(DEVICE_COOKIE)
    return value if value and _DEVICE_FORM.fullmatch(value) else None


def holder_for_device(device: str) -> str:
    """The holder recorded for a device session: its hash, so a database leak hands out no seats."""
    return "device:" + hashlib.sha256(device.encode("ascii")).hexdigest()


def holder_of(conn: HTTPConnection) -> str | None:
    """The holder a request or websocket speaks for, or None if it presents no device session."""
    device = device_of(conn)
    return holder_for_device(device) if device else None


def ensure_device(conn: HTTPConnection) -> tuple[str, str | None]:
    """(holder, new secret) for a request that takes a seat: its own device session, or a new one whose
    secret must be set on the answer with :func:`set_device_cookie` (None when it already had one)."""
    device = device_of(conn)
    if device is not None:
        return holder_for_device(device), None
    fresh = new_device()
    return holder_for_device(fresh), fresh


def set_device_cookie(response: Response, conn: HTTPConnection, device: str) -> None:
    """Give the browser its device session: HttpOnly (scripts cannot read it), SameSite=Lax (sent when a
    link is followed from elsewhere, never with another site's POST), Secure over HTTPS."""
    response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_MAX_AGE_S, path="/", httponly=True, samesite="lax",
                        secure=conn.url.scheme in ("https", "wss"))
