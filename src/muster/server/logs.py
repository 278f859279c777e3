"""Structured logs: one JSON object a line, one event per request, action, refusal or error
(docs/hosting.md, "Logs").

Every line carries ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``event`` (what happened, a short
machine word) and, within a request or websocket, its ``request_id`` (the client's ``X-Request-ID`` when it
sent a sane one, else a fresh id, echoed in the answer's header). Secrets never reach a line: seat tokens,
invitation codes and ``token=`` parameters are cut to their first four characters wherever a path is
logged, headers and cookies are never logged, and nothing logs a request body.

``MUSTER_LOG_FORMAT=text`` gives plain lines instead (for a terminal); ``MUSTER_LOG_LEVEL`` sets the level
(default ``info``; ``warning`` drops the per-request and per-action events).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("muster_request_id", default=None)
"""The id of the request or websocket being handled (None outside one)."""

_SECRET_PATH = re.compile(r"(/(?:play|ws|join|api/seat|api/invitations|notify/unsubscribe|notify/verify)/)"
                          r"(?!watch/)([^/?#]{4})[^/?#]*")
_SECRET_QUERY = re.compile(r"((?:^|[?&])token=)([^&#]{0,4})[^&#]*")
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_STANDARD = set(vars(logging.makeLogRecord({})))


def redact(target: str) -> str:
    """A path (with its query) safe to log: every seat token, invitation code and ``token=`` value cut to its
    first four characters, then ``…``."""
    return _SECRET_QUERY.sub(r"\1\2…", _SECRET_PATH.sub(r"\1\2…", target))


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON (with the record's ``extra`` fields and the request id)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON."""
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "event": getattr(record, "event", "message"), "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def configure(level: str | None = None, fmt: str | None = None) -> None:
    """Send every logger (ours, uvicorn's, SQLAlchemy's) to stderr, one event a line, at ``level``
    (default ``MUSTER_LOG_LEVEL`` or ``info``) in ``fmt`` ("json", the default, or "text")."""
    from muster.server.settings import reload

    config = reload()  # raises pydantic's ValidationError, naming the setting, for a wrong level or format
    level = (level or config.log_level).upper()
    fmt = (fmt or config.log_format).lower()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else
                         logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # requests are logged by RequestLog, redacted


_access = logging.getLogger("muster.access")


class RequestLog:
    """ASGI middleware: a request id for every request and websocket, echoed as ``X-Request-ID``, and one
    ``request`` event per HTTP request (method, redacted path, status, milliseconds)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Handle one connection."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        sent = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-request-id"), "")
        request_id = sent if _SANE_ID.fullmatch(sent) else secrets.token_hex(8)
        token = REQUEST_ID.set(request_id)
        status = 0
        started = time.perf_counter()

        async def send_with_id(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            if scope["type"] == "http" and _access.isEnabledFor(logging.INFO):
                query = scope.get("query_string", b"").decode("latin-1")
                path = redact(scope.get("path", "") + (f"?{query}" if query else ""))
                _access.info("%s %s %s", scope.get("method"), path, status, extra={
                    "event": "request", "method": scope.get("method"), "path": path, "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 2)})
            REQUEST_ID.reset(token)
