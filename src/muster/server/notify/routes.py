"""The notification endpoints: settings per account and per guest seat, one-click unsubscribe, address
verification, and password reset by e-mail (docs/web.md, "Notifications"; docs/security.md).

Every state change of an account wants its sign-in's CSRF header (as the account pages send); a guest
seat's settings are reached only with the seat's secret token, from the device holding it. Links in
e-mails carry signed tokens (:mod:`muster.server.notify.keys`): they work without a sign-in, expire, and serve
one purpose.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from typing import Any

from anyio import to_thread
from pydantic import BaseModel, Field
from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from muster.i18n import translator
from muster.server.accounts import (
    MAX_PASSWORD,
    _check_password_form,
    _hash_password,
    _needs_account,
    accounts_of,
)
from muster.server.db import AccountRow, NotifySettingsRow, utcnow
from muster.server.endpoints import api, hub_of, parse, read_json
from muster.server.errors import ApiError
from muster.server.holders import holder_of
from muster.server.lang import request_lang
from muster.server.notify import (
    CHANNELS,
    DEFAULT_EVENTS,
    KINDS,
    WEBHOOK_FORMATS,
    account_id,
    add_push,
    base_url,
    enqueue,
    events_of,
    owner_of_seat,
    push_subscriptions,
    remove_push,
    run_soon,
    targets_of,
)
from muster.server.notify.keys import server_key, sign, verify
from muster.server.notify.senders import check_webhook_host
from muster.server.settings import settings

EMAIL_FORM = re.compile(r"[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,63}")
VERIFY_TTL_S = 2 * 86400
RESET_TTL_S = 3600
VERIFY_PER_WINDOW = 5
"""Verification e-mails one owner may ask for in 15 minutes."""
FORGOT_PER_ADDRESS = 5
"""Password-reset requests one client address may make in 15 minutes."""
FORGOT_PER_ACCOUNT = 3
"""Reset e-mails one account receives in 15 minutes, whoever asks."""


class SettingsBody(BaseModel):
    """A change of notification settings (fields left out stay as they are)."""

    events: dict[str, list[str]] | None = Field(default=None, max_length=len(CHANNELS))
    digest: bool | None = None
    lang: str | None = Field(default=None, max_length=8)
    webhook_url: str | None = Field(default=None, max_length=500)
    webhook_format: str | None = Field(default=None, max_length=16)
    email: str | None = Field(default=None, max_length=254)
    """A guest seat's address (an account sets its own through ``/api/account/email``)."""


class PushBody(BaseModel):
    """A browser's push subscription (as ``PushSubscription.toJSON()`` gives it) to add; or null to forget
    the one with ``endpoint`` (this browser's), or every browser's when no endpoint is given."""

    subscription: dict[str, Any] | None = Field(default=None, max_length=4)
    endpoint: str | None = Field(default=None, max_length=1000)


class EmailBody(BaseModel):
    """An e-mail address."""

    email: str = Field(max_length=254)


class ResetBody(BaseModel):
    """A reset link's token and the new password."""

    token: str = Field(max_length=1200)
    password: str = Field(max_length=MAX_PASSWORD * 4)


def _view(s: Session, owner: str) -> dict[str, Any]:
    row = s.get(NotifySettingsRow, owner)
    account = account_id(owner)
    if account is not None:
        found = s.get(AccountRow, account)
        email, verified = (found.email, found.email_verified) if found is not None else (None, False)
    else:
        email, verified = (row.email, row.email_verified) if row is not None else (None, False)
    return {
        "events": events_of(row), "digest": bool(row and row.digest), "lang": row.lang if row else "en",
        "email": email, "email_verified": bool(verified), "mail_configured": bool(settings().smtp_host),
        "webhook_url": row.webhook_url if row else None, "webhook_format": row.webhook_format if row else "discord",
        "webhook_error": row.webhook_error if row else None, "push": len(push_subscriptions(row)),
        "push_endpoints": [json.loads(t)["endpoint"] for t in push_subscriptions(row)],
        "kinds": list(KINDS), "channels": list(CHANNELS), "webhook_formats": list(WEBHOOK_FORMATS),
    }


def read_settings(engine: Engine, owner: str) -> dict[str, Any]:
    """An owner's settings as the settings page shows them."""
    with Session(engine) as s:
        return _view(s, owner)


def _verify_mail(s: Session, owner: str, email: str, lang: str) -> None:
    token = sign(server_key(s.get_bind()), "verify", VERIFY_TTL_S, o=owner, m=email)  # type: ignore[arg-type]
    enqueue(s, "verify_email", None, None, owner=owner, target=("email", email), lang=lang,
            link=f"{base_url()}/notify/verify/{token}")


def _save(engine: Engine, owner: str, body: SettingsBody, lang: str) -> dict[str, Any]:
    with Session(engine) as s, s.begin():
        row = s.get(NotifySettingsRow, owner, with_for_update=True)
        if row is None:
            row = NotifySettingsRow(owner=owner, events=json.dumps(DEFAULT_EVENTS), digest=False, lang=lang,
                                    email_verified=False, webhook_format="discord", webhook_failures=0,
                                    updated_at=utcnow())
            s.add(row)
        if body.events is not None:
            row.events = json.dumps({c: sorted(set(body.events.get(c, [])), key=KINDS.index) for c in CHANNELS})
        if body.digest is not None:
            row.digest = body.digest
        if body.lang is not None:
            row.lang = body.lang
        if body.webhook_url is not None:
            row.webhook_url = body.webhook_url or None
            row.webhook_error, row.webhook_failures = None, 0  # saved again: tried again
        if body.webhook_format is not None:
            row.webhook_format = body.webhook_format
        if body.email is not None and account_id(owner) is None:
            email = body.email or None
            if email != row.email:
                row.email, row.email_verified = email, False
                if email:
                    _verify_mail(s, owner, email, row.lang)
        row.updated_at = utcnow()
        s.flush()
        return _view(s, owner)


async def _checked(request: Request) -> SettingsBody:
    body = parse(SettingsBody, await read_json(request))
    if body.events is not None:
        for channel, kinds in body.events.items():
            if channel not in CHANNELS or len(kinds) > len(KINDS) or any(k not in KINDS for k in kinds):
                raise ApiError(400, "malformed", f"channels are {', '.join(CHANNELS)}; kinds are {', '.join(KINDS)}")
    if body.lang is not None and body.lang not in ("en", "pl"):
        raise ApiError(400, "malformed", "lang is en or pl")
    if body.webhook_format is not None and body.webhook_format not in WEBHOOK_FORMATS:
        raise ApiError(400, "malformed", f"a webhook format is one of {', '.join(WEBHOOK_FORMATS)}")
    if body.webhook_url:
        reason = await check_webhook_host(body.webhook_url.strip())
        if reason is not None:
            raise ApiError(400, "bad_webhook", reason)
        body.webhook_url = body.webhook_url.strip()
    if body.email:
        body.email = body.email.strip()
        if not EMAIL_FORM.fullmatch(body.email):
            raise ApiError(400, "bad_email", "that is not an e-mail address")
    return body


async def _throttle(request: Request, keys: list[tuple[str, int]]) -> bool:
    """Count one request against each key; False if any is over its limit (nothing counted then)."""
    store = accounts_of(request)
    if await to_thread.run_sync(store.throttled, keys):
        return False
    await to_thread.run_sync(store.count, [k for k, _ in keys])
    return True


# --- settings ---------------------------------------------------------------------------------------
async def account_settings(request: Request) -> Response:
    """The signed-in account's notification settings (GET), or a change of them (POST)."""
    found = _needs_account(request)
    engine = hub_of(request).store.engine
    owner = f"account:{found.account_id}"
    if request.method == "GET":
        return JSONResponse(await to_thread.run_sync(read_settings, engine, owner))
    body = await _checked(request)
    body.email = None
    return JSONResponse(await to_thread.run_sync(_save, engine, owner, body, request_lang(request)))


async def seat_settings(request: Request) -> Response:
    """A seat's notification settings (a guest's own; a seat an account holds shows the account's)."""
    hub = hub_of(request)
    live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
    engine = hub.store.engine

    def owner_now() -> str | None:
        with Session(engine) as s:
            return owner_of_seat(s, live.id, seat)
    owner = await to_thread.run_sync(owner_now)
    if owner is None:
        raise ApiError(404, "not_found", "unknown seat")
    if request.method == "GET":
        return JSONResponse(await to_thread.run_sync(read_settings, engine, owner))
    body = await _checked(request)
    if account_id(owner) is not None:
        raise ApiError(409, "account_seat", "this seat is your account's: change the account's notifications")
    if body.email and not await _throttle(request, [(f"verify:{owner}"[:120], VERIFY_PER_WINDOW)]):
        raise ApiError(429, "rate_limited", "too many verification e-mails: try again later")
    return JSONResponse(await to_thread.run_sync(_save, engine, owner, body, request_lang(request)))


async def send_test(request: Request) -> Response:
    """Send a test notice on every channel the account set up (to check the webhook or the address)."""
    found = _needs_account(request)
    owner = f"account:{found.account_id}"
    if not await _throttle(request, [(f"test:{owner}", VERIFY_PER_WINDOW)]):
        raise ApiError(429, "rate_limited", "too many test notices: try again later")
    engine = hub_of(request).store.engine

    def work() -> int:
        with Session(engine) as s, s.begin():
            row = s.get(NotifySettingsRow, owner)
            return sum(enqueue(s, "test", None, None, owner=owner, target=(channel, address))
                       for channel in CHANNELS for address in targets_of(s, owner, row, channel))
    return JSONResponse({"queued": await to_thread.run_sync(work)})


# --- Web Push -------------------------------------------------------------------------------------------
async def push_key(request: Request) -> Response:
    """The server's VAPID public key, which a page subscribes with."""
    from muster.server.notify.push import public_key

    return JSONResponse({"key": await to_thread.run_sync(public_key, hub_of(request).store.engine)})


async def push_subscribe(request: Request) -> Response:
    """Add this browser's push subscription to the signed-in account's (or, with null, forget this
    browser's, named by its ``endpoint``, or every browser's)."""
    from muster.server.notify.push import check_subscription

    found = _needs_account(request)
    body = parse(PushBody, await read_json(request))
    if body.subscription is not None:
        reason = await check_subscription(body.subscription)
        if reason is not None:
            raise ApiError(400, "bad_subscription", reason)
    if body.subscription is not None and len(json.dumps(body.subscription)) > 2000:
        raise ApiError(400, "bad_subscription", "a subscription is at most 2000 characters")
    engine = hub_of(request).store.engine

    def store() -> dict[str, Any]:
        owner = f"account:{found.account_id}"
        _save(engine, owner, SettingsBody(), request_lang(request))  # the row, if it is the first setting
        with Session(engine) as s, s.begin():
            row = s.get(NotifySettingsRow, owner)
            assert row is not None  # made just above
            if body.subscription is not None:
                add_push(row, body.subscription)
            else:
                remove_push(row, body.endpoint)
            row.updated_at = utcnow()
            s.flush()
            return _view(s, owner)
    return JSONResponse(await to_thread.run_sync(store))


# --- the account's address and password reset ---------------------------------------------------------
async def account_email(request: Request) -> Response:
    """Set (or remove, with an empty address) the account's e-mail address; a link to confirm it is sent."""
    found = _needs_account(request)
    body = parse(EmailBody, await read_json(request))
    email = body.email.strip() or None
    if email is not None and not EMAIL_FORM.fullmatch(email):
        raise ApiError(400, "bad_email", "that is not an e-mail address")
    if email and not await _throttle(request, [(f"verify:account:{found.account_id}", VERIFY_PER_WINDOW)]):
        raise ApiError(429, "rate_limited", "too many verification e-mails: try again later")
    engine = hub_of(request).store.engine
    lang = request_lang(request)

    def work() -> None:
        with Session(engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == found.account_id)
                      .values(email=email, email_verified=False))
            if email:
                _verify_mail(s, f"account:{found.account_id}", email, lang)
    await to_thread.run_sync(work)
    return JSONResponse({"email": email, "email_verified": False, "sent": bool(email)})


def verify_new_account_email(engine: Engine, account: int, email: str | None, lang: str) -> None:
    """After a sign-up that gave an address: send the link that confirms it (off the request's path)."""
    if email:
        run_soon(engine, lambda s: _verify_mail(s, f"account:{account}", email, lang))


def _password_mark(password_hash: str) -> str:
    """A short fingerprint of the current password hash: a reset link dies once the password changes."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:20]


async def forgot(request: Request) -> Response:
    """Send a password-reset link to the accounts with this verified address. The answer is the same
    whether or not any exists; requests are throttled per client address and per account."""
    body = parse(EmailBody, await read_json(request))
    email = body.email.strip()
    address = (request.client.host if request.client else "?")[:60]
    if not await _throttle(request, [(f"forgot-addr:{address}", FORGOT_PER_ADDRESS)]):
        raise ApiError(429, "rate_limited", "too many requests: try again later")
    store = accounts_of(request)
    engine = hub_of(request).store.engine
    lang = request_lang(request)
    if EMAIL_FORM.fullmatch(email):
        def accounts() -> list[tuple[int, str]]:
            with Session(engine) as s:
                rows = s.scalars(select(AccountRow).where(func.lower(AccountRow.email) == email.lower(),
                                                          AccountRow.email_verified.is_(True),
                                                          AccountRow.suspended.is_(False)).limit(5)).all()
                return [(r.id, r.password_hash) for r in rows]
        key = server_key(engine)
        for account, password_hash in await to_thread.run_sync(accounts):
            limit = [(f"forgot-acct:{account}", FORGOT_PER_ACCOUNT)]
            if await to_thread.run_sync(store.throttled, limit):
                continue
            await to_thread.run_sync(store.count, [limit[0][0]])
            token = sign(key, "reset", RESET_TTL_S, a=account, h=_password_mark(password_hash))
            link = f"{base_url()}/account/reset#{token}"
            run_soon(engine, lambda s, a=account, t=link: enqueue(
                s, "password_reset", None, None, owner=f"account:{a}", target=("email", email), lang=lang, link=t))
    return JSONResponse({"sent": True})


async def reset(request: Request) -> Response:
    """Choose a new password with a reset link's token: once, within the hour; every sign-in ends."""
    body = parse(ResetBody, await read_json(request))
    engine = hub_of(request).store.engine
    fields = verify(await to_thread.run_sync(server_key, engine), "reset", body.token)
    store = accounts_of(request)
    account = await to_thread.run_sync(store.by_id, int(fields["a"])) if fields and isinstance(
        fields.get("a"), int) else None
    if fields is None or account is None or fields.get("h") != _password_mark(account.password_hash):
        raise ApiError(403, "bad_token", "this link is not valid (any more): ask for a new one")
    _check_password_form(body.password)
    new_hash = await _hash_password(body.password)

    def swap() -> bool:  # only if the password is still the one the link was made for: it works once
        with Session(engine) as s, s.begin():
            done = s.execute(update(AccountRow).where(AccountRow.id == account.id,
                                                      AccountRow.password_hash == account.password_hash)
                             .values(password_hash=new_hash))
            return bool(done.rowcount)  # type: ignore[attr-defined]
    if not await to_thread.run_sync(swap):
        raise ApiError(403, "bad_token", "this link is not valid (any more): ask for a new one")
    await to_thread.run_sync(store.end_sessions, account.id)
    return JSONResponse({"reset": True})


# --- links in e-mails ------------------------------------------------------------------------------------
def _page(request: Request, title: str, text: str, form: bool = False) -> HTMLResponse:
    lang = request_lang(request)
    tr = translator(lang)
    button = (f'<form method="post"><button type="submit" class="primary">{html.escape(tr.gettext("Unsubscribe"))}'
              '</button></form>') if form else ""
    page = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer"><title>{html.escape(title)}</title>'
            '<link rel="stylesheet" href="/static/app.css"></head><body class="lobby">'
            '<header class="site-header"><a href="/" class="home">muster</a></header>'
            f'<main class="lobby-main"><section class="panel"><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>'
            f'{button}<p><a href="/notifications">{html.escape(tr.gettext("Notification settings"))}</a></p>'
            '</section></main></body></html>')
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


def _unsubscribe(engine: Engine, owner: str, channel: str) -> None:
    with Session(engine) as s, s.begin():
        row = s.get(NotifySettingsRow, owner, with_for_update=True)
        if row is None:
            row = NotifySettingsRow(owner=owner, events=json.dumps(DEFAULT_EVENTS), digest=False, lang="en",
                                    email_verified=False, webhook_format="discord", webhook_failures=0,
                                    updated_at=utcnow())
            s.add(row)
        events = events_of(row)
        events[channel] = []
        row.events = json.dumps(events)
        row.updated_at = utcnow()


async def unsubscribe(request: Request) -> Response:
    """A link in every notice e-mail: GET asks to confirm (mail scanners follow links), POST (the button,
    or a mail program's one-click ``List-Unsubscribe-Post``) turns that channel off."""
    tr = translator(request_lang(request))
    engine = hub_of(request).store.engine
    fields = verify(await to_thread.run_sync(server_key, engine), "unsub", request.path_params["token"])
    if fields is None or fields.get("c") not in CHANNELS or not isinstance(fields.get("o"), str):
        return _page(request, tr.gettext("This link is not valid"), tr.gettext(
            "Change your notifications on the settings page instead."))
    if request.method == "GET":
        return _page(request, tr.gettext("Stop these e-mails?"), tr.gettext(
            "You will get no more notices by e-mail about your games."), form=True)
    await request.body()
    await to_thread.run_sync(_unsubscribe, engine, fields["o"], fields["c"])
    return _page(request, tr.gettext("Unsubscribed"), tr.gettext(
        "You will get no more notices by e-mail about your games."))


async def verify_email(request: Request) -> Response:
    """The link that confirms an address: from now on notices may be sent there."""
    tr = translator(request_lang(request))
    engine = hub_of(request).store.engine
    fields = verify(await to_thread.run_sync(server_key, engine), "verify", request.path_params["token"])

    def confirm() -> bool:
        if fields is None or not isinstance(fields.get("o"), str) or not isinstance(fields.get("m"), str):
            return False
        owner, email = fields["o"], fields["m"]
        with Session(engine) as s, s.begin():
            account = account_id(owner)
            if account is not None:
                done = s.execute(update(AccountRow).where(AccountRow.id == account, AccountRow.email == email)
                                 .values(email_verified=True))
            else:
                done = s.execute(update(NotifySettingsRow).where(NotifySettingsRow.owner == owner,
                                                                 NotifySettingsRow.email == email)
                                 .values(email_verified=True))
            return bool(done.rowcount)  # type: ignore[attr-defined]
    if not await to_thread.run_sync(confirm):
        return _page(request, tr.gettext("This link is not valid"), tr.gettext(
            "The address may have changed since: ask for a new link."))
    return _page(request, tr.gettext("Address confirmed"), tr.gettext(
        "Notices you chose will be sent to this address."))


def routes(page: Any) -> list[Route]:
    """The notification routes, for :func:`muster.server.app.create_app` (``page`` serves a static page)."""
    return [
        Route("/notifications", page("notifications.html")),
        Route("/account/reset", page("reset.html")),
        Route("/api/notify/settings", api(account_settings), methods=["GET", "POST"]),
        Route("/api/notify/test", api(send_test), methods=["POST"]),
        Route("/api/notify/push/key", api(push_key)),
        Route("/api/notify/push", api(push_subscribe), methods=["POST"]),
        Route("/api/seat/{token}/notify", api(seat_settings), methods=["GET", "POST"]),
        Route("/api/account/email", api(account_email), methods=["POST"]),
        Route("/api/account/forgot", api(forgot), methods=["POST"]),
        Route("/api/account/reset", api(reset), methods=["POST"]),
        Route("/notify/unsubscribe/{token}", unsubscribe, methods=["GET", "POST"]),
        Route("/notify/verify/{token}", verify_email),
    ]
