"""The server's own secrets, made at first start and kept in the database (``server_keys``), and the signed
tokens of the links muster mails: unsubscribe, address verification and password reset.

A token is ``<payload>.<signature>``: the payload is URL-safe base64 of compact JSON with an expiry
(``e``, seconds since the epoch) and a purpose (``p``); the signature is HMAC-SHA256 under the server's
key, so a token cannot be forged or turned into another purpose, and nothing needs to be stored to check
one. Every server process sharing the database reads the same key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from muster.server.db import ServerKeyRow

_CACHE: dict[tuple[int, str], str] = {}
MAX_TOKEN = 1200
"""Longest token accepted (a link's path segment): longer ones are refused before any work."""


def server_key(engine: Engine, name: str = "signing", make: Any = None) -> str:
    """The stored secret ``name``, made (by ``make()``, default 32 random bytes) and stored on first use;
    when two processes make it at once, the first stored wins and both use it."""
    cache_key = (id(engine), name)
    if cache_key in _CACHE:
        return _CACHE[cache_key]
    with Session(engine) as s:
        row = s.get(ServerKeyRow, name)
        value = row.value if row is not None else None
    if value is None:
        try:
            with Session(engine) as s, s.begin():
                s.add(ServerKeyRow(name=name, value=make() if make else secrets.token_urlsafe(32)))
        except IntegrityError:
            pass
        with Session(engine) as s:
            row = s.get(ServerKeyRow, name)
            assert row is not None
            value = row.value
    _CACHE[cache_key] = value
    return value


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key: str, purpose: str, ttl_s: float, **fields: Any) -> str:
    """A token for ``purpose`` carrying ``fields``, valid for ``ttl_s`` seconds."""
    body = _b64(json.dumps({"p": purpose, "e": int(time.time() + ttl_s), **fields}, separators=(",", ":"))
                .encode())
    mac = hmac.new(key.encode(), body.encode(), hashlib.sha256).digest()
    return body + "." + _b64(mac)


def verify(key: str, purpose: str, token: str) -> dict[str, Any] | None:
    """The fields of a token signed for ``purpose`` and not yet expired, or None."""
    if len(token) > MAX_TOKEN or token.count(".") != 1:
        return None
    body, mac = token.split(".")
    try:
        expected = hmac.new(key.encode(), body.encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(mac)):
            return None
        fields = json.loads(_unb64(body))
    except (ValueError, TypeError):
        return None
    if not isinstance(fields, dict) or fields.get("p") != purpose or not isinstance(fields.get("e"), int):
        return None
    if fields["e"] < time.time():
        return None
    return fields
