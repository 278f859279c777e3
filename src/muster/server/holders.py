"""Who holds a seat: the device session a browser keeps in a cookie (docs/security.md, "Seats and credentials").

A person's seat is opened by two things together: the seat token in the page's address, and the holder it
was bound to when the seat was taken (by creating the game, or by claiming an invitation). For a guest the
holder is the browser's *device session*: a random secret in an HttpOnly cookie that scripts cannot read,
which the server knows only by its hash. A seat link forwarded to another browser therefore opens nothing,
and whoever created a game never holds the seats it invited others to.

A browser signed in to an account (:mod:`muster.server.accounts`) speaks for the account instead: its holder
is ``account:<id>``, so the seats it takes are the account's, on every device where that person signs in.
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


ACCOUNT_SCOPE_KEY = "muster.account"
"""Where :class:`muster.server.accounts.AccountSessions` puts the signed-in account of a request's scope."""


def account_holder(conn: HTTPConnection) -> str | None:
    """``account:<id>`` when the request or websocket comes from a browser signed in to an account."""
    account = conn.scope.get(ACCOUNT_SCOPE_KEY)
    return f"account:{account.account_id}" if account is not None else None


def holder_of(conn: HTTPConnection) -> str | None:
    """The holder a request or websocket speaks for: the signed-in account, else the device session (None if
    it presents neither)."""
    signed_in = account_holder(conn)
    if signed_in is not None:
        return signed_in
    device = device_of(conn)
    return holder_for_device(device) if device else None


def ensure_device(conn: HTTPConnection) -> tuple[str, str | None]:
    """(holder, new secret) for a request that takes a seat: its own device session, or a new one whose
    secret must be set on the answer with :func:`set_device_cookie` (None when it already had one). A signed-in
    browser takes seats for its account."""
    signed_in = account_holder(conn)
    if signed_in is not None:
        return signed_in, None
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
