"""What every HTTP endpoint of the web app shares: reading and validating a JSON body, answering an
:class:`~muster.server.hub.ApiError` as JSON, and finding the app's hub. The app and its route modules
(accounts, analysis, hints) all import it, so none of them imports another to get these."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from muster.server.games import WebAdapter, adapter
from muster.server.guard import MAX_BODY, load_json
from muster.server.holders import set_device_cookie
from muster.server.hub import ApiError, Hub
from muster.server.lang import request_lang

M = TypeVar("M", bound=BaseModel)


def error_response(exc: ApiError, request: Request | None = None) -> JSONResponse:
    """An API error as JSON with its HTTP status (its message in the language of ``request``)."""
    lang = request_lang(request) if request is not None else "en"
    return JSONResponse(exc.to_json(lang), status_code=exc.status)


async def read_json(request: Request) -> Any:
    """The request body as JSON, or a clear 400 error (the :class:`~muster.server.guard.Guard` bounds its size
    while it arrives)."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(413, "too_large", "request body too large")
    return load_json(body or b"null")


def parse(model: type[M], data: Any) -> M:
    """Validate a body with pydantic; a 400 with the reasons if it does not fit."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        reasons = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors())
        raise ApiError(400, "malformed", reasons) from exc


def hub_of(request: Request | WebSocket) -> Hub:
    """The app's hub."""
    hub: Hub = request.app.state.hub
    return hub


def api(fn: Any) -> Any:
    """Turn ApiErrors raised by an endpoint into JSON error responses."""
    async def endpoint(request: Request) -> Response:
        """The wrapped endpoint."""
        try:
            result: Response = await fn(request)
            return result
        except ApiError as exc:
            return error_response(exc, request)
    endpoint.__doc__ = fn.__doc__
    return endpoint


def web_adapter(game: str) -> WebAdapter | None:
    """The game's web adapter, or None if the game has no web board."""
    try:
        return adapter(game)
    except KeyError:
        return None


def seat_answer(request: Request, device: str | None, body: dict[str, Any], status: int = 200) -> JSONResponse:
    """The answer that hands out a seat, giving the browser its new device session (``device``) if it had none."""
    response = JSONResponse(body, status_code=status)
    if device:
        set_device_cookie(response, request, device)
    return response
