"""Accounts: optional sign-up with a name and a password, so a person's games follow them to every device
(docs/web.md, "Accounts"; docs/security.md, "Accounts").

Playing as a guest by link keeps working: an account only changes who *holds* a seat. A browser signed in
speaks for ``account:<id>`` (:func:`muster.server.holders.holder_of`), so the seats it takes are the
account's; signing up or logging in moves the seats this browser's device session held to the account.

* Passwords are hashed with Argon2id (argon2-cffi, its RFC 9106 defaults), in a worker thread, at most two at
  a time; the clear password is never stored or logged.
* A sign-in is a server-side session: a random secret in an HttpOnly, SameSite=Lax cookie (Secure over HTTPS)
  that the database knows only by its hash; it expires after :data:`SESSION_TTL_S` and is deleted on logout,
  on a password change (the other sessions) and with the account.
* Cross-site requests: every state-changing request whose ``Origin`` names another site is refused
  (:class:`AccountSessions`), and the account's own endpoints also want the session's CSRF token in the
  ``X-Muster-CSRF`` header (which another site's page cannot send without our consent).
* Failed logins are counted per account name and per address in the database, so every server process sees
  them; past :data:`FAILURES_PER_NAME` or :data:`FAILURES_PER_ADDRESS` in :data:`THROTTLE_WINDOW_S` further
  attempts are refused until the window ends.
* My games: an account lists the games it holds a seat in, and opens one on any device by minting a token for
  that seat; such a token opens the seat only for the account, and only while it holds the seat.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from anyio import CapacityLimiter, to_thread
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import HTTPConnection, Request, cookie_parser
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from muster.ai.levels import level_name
from muster.core import game_names, get_rules
from muster.error_texts import refusal
from muster.server.db import (
    AccountRow,
    AccountSeatTokenRow,
    AccountSessionRow,
    GameRow,
    LoginThrottleRow,
    PlayerNameRow,
    SeatRow,
    utcnow,
)
from muster.server.endpoints import api, parse, read_json
from muster.server.holders import ACCOUNT_SCOPE_KEY, holder_of
from muster.server.hub import ApiError, hash_token
from muster.server.lang import request_lang
from muster.server.settings import settings

SESSION_COOKIE = "muster_session"
"""The cookie holding a signed-in browser's session secret."""
CSRF_HEADER = "x-muster-csrf"
"""The header in which the account pages send the session's CSRF token."""
SESSION_TTL_S = 30 * 24 * 3600
"""How long a sign-in lasts (30 days); then the person logs in again."""
THROTTLE_WINDOW_S = 15 * 60
"""The window in which failed logins are counted."""
FAILURES_PER_NAME = 5
"""Failed logins for one account name within the window before its logins are refused until it ends."""
FAILURES_PER_ADDRESS = 20
"""Failed logins from one address within the window before its logins are refused until it ends."""
MINTED_PER_SEAT = 10
"""Tokens an account keeps for one seat (one per device it opened the seat on, the oldest forgotten first)."""
MIN_PASSWORD, MAX_PASSWORD = 8, 200
NAME_FORM = re.compile(r"[^\W_](?:[\w.-]{1,22})[^\W_]")
"""Account names: 3 to 24 letters, digits, ``_``, ``.`` or ``-``, beginning and ending with a letter or digit."""
_SESSION_FORM = re.compile(r"[A-Za-z0-9_-]{32,64}")
_HASHER = PasswordHasher()
_HASHING = CapacityLimiter(2)  # each hash takes 64 MiB for a moment: at most two at once
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))  # verified against for unknown names, to take as long


@dataclass(frozen=True)
class SignedIn:
    """The account a request comes from (set in its scope by :class:`AccountSessions`)."""

    account_id: int
    name: str
    csrf: str
    session_hash: str


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes for what was stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


class AccountStore:
    """The account tables; every method runs one short transaction (call them in worker threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new ORM session."""
        return self._session()

    def create(self, name: str, password_hash: str, email: str | None) -> int | None:
        """A new account's id, or None if the name (compared by :func:`name_key`) is taken."""
        try:
            with self.session() as s, s.begin():
                row = AccountRow(name=name, name_key=name_key(name), password_hash=password_hash, email=email,
                                 suspended=False, created_at=utcnow())
                s.add(row)
                s.flush()
                return int(row.id)
        except IntegrityError:
            return None

    def by_name(self, name: str) -> AccountRow | None:
        """The account with this name (in any case), or None."""
        with self.session() as s:
            return s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()

    def by_id(self, account_id: int) -> AccountRow | None:
        """The account with this id, or None."""
        with self.session() as s:
            return s.get(AccountRow, account_id)

    def set_password(self, account_id: int, password_hash: str) -> None:
        """Store a new password hash."""
        with self.session() as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    def start_session(self, account_id: int) -> tuple[str, str]:
        """(session secret, CSRF token) of a new sign-in; only the secret's hash is stored."""
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = utcnow()
        with self.session() as s, s.begin():
            s.add(AccountSessionRow(id_hash=_hash(secret), account_id=account_id, csrf=csrf, created_at=now,
                                    expires_at=now + timedelta(seconds=SESSION_TTL_S)))
            # sweep this account's expired sign-ins, so the table holds only live ones
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id,
                                                      AccountSessionRow.expires_at < now))
        return secret, csrf

    def signed_in(self, secret: str) -> SignedIn | None:
        """Who a session secret signs in, or None (unknown, expired, or the account is suspended)."""
        session_hash = _hash(secret)
        with self.session() as s:
            found = s.execute(select(AccountSessionRow, AccountRow)
                              .join(AccountRow, AccountRow.id == AccountSessionRow.account_id)
                              .where(AccountSessionRow.id_hash == session_hash)).first()
        if found is None:
            return None
        row, account = found
        if _aware(row.expires_at) <= utcnow() or account.suspended:
            return None
        return SignedIn(account.id, account.name, row.csrf, session_hash)

    def end_session(self, session_hash: str) -> None:
        """Forget one sign-in (logout)."""
        with self.session() as s, s.begin():
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.id_hash == session_hash))

    def end_sessions(self, account_id: int, keep: str | None = None) -> int:
        """Forget every sign-in of an account but ``keep``; how many were forgotten."""
        with self.session() as s, s.begin():
            query = delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id)
            if keep is not None:
                query = query.where(AccountSessionRow.id_hash != keep)
            return int(s.execute(query).rowcount)  # type: ignore[attr-defined]

    def attach(self, from_holder: str, account_id: int) -> int:
        """Move every seat ``from_holder`` (a device session) holds to the account; how many moved."""
        with self.session() as s, s.begin():
            done = s.execute(update(SeatRow).where(SeatRow.holder == from_holder)
                             .values(holder=f"account:{account_id}"))
            return int(done.rowcount)  # type: ignore[attr-defined]

    def delete(self, account_id: int) -> None:
        """Delete an account, its sign-ins and minted tokens. Its games stay (they are its opponents' too);
        the seats it held are held by nobody who can sign in again."""
        with self.session() as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.holder == f"account:{account_id}").values(holder="deleted"))
            s.execute(delete(AccountSeatTokenRow).where(AccountSeatTokenRow.account_id == account_id))
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == account_id))

    # --- throttling -------------------------------------------------------------------------
    def throttled(self, keys: list[tuple[str, int]]) -> float:
        """Seconds until a login may be tried again, or 0.0: ``keys`` are (throttle key, its limit)."""
        now = utcnow()
        with self.session() as s:
            rows = {r.key: r for r in s.scalars(select(LoginThrottleRow)
                                                .where(LoginThrottleRow.key.in_([k for k, _ in keys])))}
        wait = 0.0
        for key, limit in keys:
            row = rows.get(key)
            if row is None:
                continue
            left = THROTTLE_WINDOW_S - (now - _aware(row.window_start)).total_seconds()
            if left > 0 and row.failures >= limit:
                wait = max(wait, left)
        return wait

    def count(self, keys: list[str]) -> None:
        """Count one failure (or one sign-up) against each key, starting a new window where the last ended."""
        now = utcnow()
        with self.session() as s, s.begin():
            for key in keys:
                row = s.get(LoginThrottleRow, key, with_for_update=True)
                if row is None:
                    try:
                        with s.begin_nested():
                            s.add(LoginThrottleRow(key=key, failures=1, window_start=now))
                    except IntegrityError:  # another process counted the first failure at the same moment
                        s.execute(update(LoginThrottleRow).where(LoginThrottleRow.key == key)
                                  .values(failures=LoginThrottleRow.failures + 1))
                elif (now - _aware(row.window_start)).total_seconds() >= THROTTLE_WINDOW_S:
                    row.failures, row.window_start = 1, now
                else:
                    row.failures += 1
            # forget windows long over, so the table stays small
            s.execute(delete(LoginThrottleRow).where(
                LoginThrottleRow.window_start < now - timedelta(seconds=2 * THROTTLE_WINDOW_S))
                .execution_options(synchronize_session=False))

    def clear(self, key: str) -> None:
        """Forget the failures counted against a key (after a successful login)."""
        with self.session() as s, s.begin():
            s.execute(delete(LoginThrottleRow).where(LoginThrottleRow.key == key))

    # --- games ------------------------------------------------------------------------------
    def games(self, account_id: int) -> list[dict[str, Any]]:
        """The games the account holds a seat in, newest first, with the opponent in words."""
        holder = f"account:{account_id}"
        with self.session() as s:
            rows = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                             .where(SeatRow.holder == holder).order_by(GameRow.updated_at.desc())
                             .limit(500)).all()
            ids = {g.id for _, g in rows}
            others: dict[str, list[SeatRow]] = {}
            names: dict[tuple[str, str], str] = {}
            if ids:
                for seat_row in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))):
                    others.setdefault(seat_row.game_id, []).append(seat_row)
                for name_row in s.scalars(select(PlayerNameRow).where(PlayerNameRow.game_id.in_(ids))):
                    names[(name_row.game_id, name_row.seat)] = name_row.name
        current = {n: get_rules(n).info.version for n in game_names()}
        out = []
        for seat, game in rows:
            opponents: list[dict[str, Any]] = []
            for other in others.get(game.id, []):
                if other.seat == seat.seat:
                    continue
                if other.kind == "bot":
                    opponents.append({"seat": other.seat, "kind": "bot",
                                      "level": level_name(other.bot_spec, game.game) or "Custom"})
                else:
                    opponents.append({"seat": other.seat, "kind": "human", "name": names.get((game.id, other.seat)),
                                      "waiting": other.token_hash is None})
            out.append({
                "game_id": game.id, "game": game.game, "seat": seat.seat, "status": game.status,
                "active_seat": game.active_seat, "your_turn": game.status == "active" and game.active_seat == seat.seat,
                "winner": game.winner, "steps": game.steps, "options": game.options and _json(game.options),
                "opponents": opponents, "outdated": game.rules_version != current.get(game.game),
                "updated_at": _aware(game.updated_at).isoformat() if game.updated_at else None,
            })
        return out

    def mint(self, account_id: int, game_id: str, seat: str, token_hash: str) -> bool:
        """Record a new token for a seat the account holds; False if it holds no such seat."""
        now = utcnow()
        with self.session() as s, s.begin():
            held = s.scalars(select(SeatRow.id).where(SeatRow.game_id == game_id, SeatRow.seat == seat,
                                                      SeatRow.holder == f"account:{account_id}")).first()
            if held is None:
                return False
            s.add(AccountSeatTokenRow(token_hash=token_hash, account_id=account_id, game_id=game_id, seat=seat,
                                      created_at=now))
            s.flush()
            kept = s.scalars(select(AccountSeatTokenRow.token_hash)
                             .where(AccountSeatTokenRow.account_id == account_id,
                                    AccountSeatTokenRow.game_id == game_id, AccountSeatTokenRow.seat == seat)
                             .order_by(AccountSeatTokenRow.created_at.desc()).limit(MINTED_PER_SEAT)).all()
            s.execute(delete(AccountSeatTokenRow).where(
                AccountSeatTokenRow.account_id == account_id, AccountSeatTokenRow.game_id == game_id,
                AccountSeatTokenRow.seat == seat, AccountSeatTokenRow.token_hash.not_in(kept)))
            return True

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored about an account, for the person to keep (no password hash, no secrets)."""
        account = self.by_id(account_id)
        if account is None:
            return {}
        with self.session() as s:
            sessions = s.scalar(select(func.count()).select_from(AccountSessionRow)
                                .where(AccountSessionRow.account_id == account_id))
        return {
            "account": {"name": account.name, "email": account.email,
                        "created_at": _aware(account.created_at).isoformat()},
            "signed_in_sessions": int(sessions or 0),
            "games": self.games(account_id),
        }


def _json(text: str) -> Any:
    return json.loads(text)


def accounts_of(conn: HTTPConnection) -> AccountStore:
    """The app's account store."""
    found: AccountStore = conn.app.state.accounts
    return found


def signed_in(conn: HTTPConnection) -> SignedIn | None:
    """The account a request comes from, or None for a guest."""
    found: SignedIn | None = conn.scope.get(ACCOUNT_SCOPE_KEY)
    return found


class AccountSessions:
    """ASGI middleware: finds the account a request's session cookie signs in (into the scope, for
    :func:`muster.server.holders.holder_of`), and refuses a state-changing request from another site."""

    SKIP = ("/static/", "/healthz", "/readyz", "/health", "/metrics", "/favicon.ico")

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Resolve the session, check the origin, and pass the request on."""
        if scope["type"] not in ("http", "websocket") or scope.get("path", "").startswith(self.SKIP):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        unsafe = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        origin = headers.get(b"origin")
        foreign = unsafe and origin is not None and not _same_site(origin, headers)
        if foreign and scope.get("path", "").startswith("/api/account/"):
            # another site must not log a browser in to an account of its choosing (whose seats it could then
            # watch), nor sign one up
            await _refuse(scope, send, ApiError(403, "cross_site", "a request from another site was refused"))
            return
        cookie = headers.get(b"cookie")
        if cookie:
            secret = cookie_parser(cookie.decode("latin-1")).get(SESSION_COOKIE)
            if secret and _SESSION_FORM.fullmatch(secret):
                found = await to_thread.run_sync(scope["app"].state.accounts.signed_in, secret)
                if found is not None:
                    # what another site could make a signed-in browser do is the risk: refuse its state changes
                    # (a guest's requests act only with a seat's secret token, which another site cannot know)
                    if foreign:
                        await _refuse(scope, send, ApiError(403, "cross_site",
                                                            "a request from another site was refused"))
                        return
                    scope[ACCOUNT_SCOPE_KEY] = found
        await self.app(scope, receive, send)


def _same_site(origin: bytes, headers: dict[bytes, bytes]) -> bool:
    """Whether an Origin header names this server: the host the browser addressed (``Host``, or the
    ``X-Forwarded-Host`` a proxy passes on). Ports are not compared, since a proxy's ``$host`` drops them."""
    text = origin.decode("latin-1")
    if "://" not in text:
        return False  # "null" (a sandboxed frame, a file) is never us
    origin_host = _hostname(text.split("://", 1)[1].rstrip("/"))
    return any(origin_host == _hostname(headers[h].decode("latin-1")) for h in (b"host", b"x-forwarded-host")
               if headers.get(h))


def _hostname(netloc: str) -> str:
    netloc = netloc.strip().lower()
    if netloc.startswith("["):  # an IPv6 literal
        return netloc.split("]", 1)[0] + "]"
    return netloc.rsplit(":", 1)[0] if ":" in netloc else netloc


async def _refuse(scope: Any, send: Any, exc: ApiError) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4000 + exc.status})
        return
    response = JSONResponse(exc.to_json(request_lang(Request(scope))), status_code=exc.status)
    await response({**scope}, _no_body, send)


async def _no_body() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


# --- bodies -----------------------------------------------------------------------------------
class Credentials(BaseModel):
    """A name and password (sign-up may add an e-mail address)."""

    name: str = Field(max_length=100)
    password: str = Field(max_length=MAX_PASSWORD * 4)
    email: str | None = Field(default=None, max_length=254)


class PasswordChange(BaseModel):
    """The current password and the new one."""

    current: str = Field(max_length=MAX_PASSWORD * 4)
    new: str = Field(max_length=MAX_PASSWORD * 4)


class PasswordOnly(BaseModel):
    """The current password, to confirm deleting the account."""

    password: str = Field(max_length=MAX_PASSWORD * 4)


# --- helpers for the endpoints ------------------------------------------------------------------
def _address(request: Request) -> str:
    return (request.client.host if request.client else "?")[:60]


def _check_password_form(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(400, "bad_password", refusal("a password has {min} to {max} characters",
                                                            min=MIN_PASSWORD, max=MAX_PASSWORD))


async def _hash_password(password: str) -> str:
    return await to_thread.run_sync(_HASHER.hash, password, limiter=_HASHING)


def _verify(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


async def _verify_password(stored: str | None, password: str) -> bool:
    """Check a password; an unknown name is checked against a dummy hash so it takes as long."""
    ok = await to_thread.run_sync(_verify, stored or _DUMMY_HASH, password, limiter=_HASHING)
    return ok and stored is not None


def _needs_account(request: Request, csrf: bool = True) -> SignedIn:
    """The signed-in account of a request, checking its CSRF header on a state-changing request."""
    found = signed_in(request)
    if found is None:
        raise ApiError(401, "not_signed_in", "log in first")
    if csrf and request.method not in ("GET", "HEAD") and not secrets.compare_digest(
            request.headers.get(CSRF_HEADER, ""), found.csrf):
        raise ApiError(403, "csrf", "the request lacks this sign-in's CSRF token: reload the page")
    return found


def _set_session_cookie(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_TTL_S, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme in ("https", "wss"))


def _clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme in ("https", "wss"))


async def _signed_in_answer(request: Request, account_id: int, name: str, status: int = 200) -> Response:
    """Start a session, move this browser's guest seats to the account, and answer with the cookie set."""
    store = accounts_of(request)
    secret, csrf = await to_thread.run_sync(store.start_session, account_id)
    attached = 0
    device_holder = holder_of(request)  # not yet signed in on this request: the device session's holder
    if device_holder is not None and device_holder.startswith("device:"):
        attached = await to_thread.run_sync(store.attach, device_holder, account_id)
    response = JSONResponse({"name": name, "csrf": csrf, "attached": attached}, status_code=status)
    _set_session_cookie(response, request, secret)
    return response


# --- endpoints ------------------------------------------------------------------------------------
async def signup(request: Request) -> Response:
    """Create an account and sign in; this browser's guest games become the account's."""
    body = parse(Credentials, await read_json(request))
    name = unicodedata.normalize("NFKC", body.name.strip())
    if not NAME_FORM.fullmatch(name):
        raise ApiError(400, "bad_name", "a name has 3 to 24 letters, digits, '_', '.' or '-', and begins and ends "
                                        "with a letter or digit")
    _check_password_form(body.password)
    email = (body.email or "").strip() or None
    if email is not None and not re.fullmatch(r"[^@\s]{1,64}@[^@\s]{1,189}\.[^@\s]{1,63}", email):
        raise ApiError(400, "bad_email", "that is not an e-mail address")
    store = accounts_of(request)
    key, limit = "signup:" + _address(request), settings().signups_per_window  # each costs an Argon2 hash
    if limit:
        wait = await to_thread.run_sync(store.throttled, [(key, limit)])
        if wait:
            raise ApiError(429, "rate_limited", refusal(
                "too many sign-ups from your address: try again in {wait} s", wait=round(wait)))
        await to_thread.run_sync(store.count, [key])
    account_id = await to_thread.run_sync(store.create, name, await _hash_password(body.password), email)
    if account_id is None:
        raise ApiError(409, "name_taken", "that name is taken: choose another")
    if email and getattr(request.app.state, "on_signup", None):  # the notifications confirm the address
        request.app.state.on_signup(account_id, email, request_lang(request))
    return await _signed_in_answer(request, account_id, name, status=201)


async def login(request: Request) -> Response:
    """Sign in with a name and password (throttled per name and per address)."""
    body = parse(Credentials, await read_json(request))
    store = accounts_of(request)
    name_throttle, address_throttle = "name:" + name_key(body.name.strip())[:100], "addr:" + _address(request)
    wait = await to_thread.run_sync(store.throttled, [(name_throttle, FAILURES_PER_NAME),
                                                      (address_throttle, FAILURES_PER_ADDRESS)])
    if wait:
        raise ApiError(429, "rate_limited", refusal("too many failed logins: try again in {wait} s",
                                                            wait=round(wait)))
    account = await to_thread.run_sync(store.by_name, body.name.strip()[:100])
    ok = await _verify_password(account.password_hash if account else None, body.password)
    if not ok or account is None:
        await to_thread.run_sync(store.count, [name_throttle, address_throttle])
        raise ApiError(401, "bad_login", "wrong name or password")
    if account.suspended:
        raise ApiError(403, "suspended", "this account is suspended")
    await to_thread.run_sync(store.clear, name_throttle)
    if _HASHER.check_needs_rehash(account.password_hash):
        await to_thread.run_sync(store.set_password, account.id, await _hash_password(body.password))
    return await _signed_in_answer(request, account.id, account.name)


async def logout(request: Request) -> Response:
    """End this sign-in (the session is deleted on the server, not only forgotten by the browser)."""
    found = _needs_account(request)
    await to_thread.run_sync(accounts_of(request).end_session, found.session_hash)
    response = JSONResponse({"signed_in": False})
    _clear_session_cookie(response, request)
    return response


async def me(request: Request) -> Response:
    """Who this browser is signed in as (with the CSRF token the account pages send back), or nobody."""
    found = signed_in(request)
    if found is None:
        return JSONResponse({"signed_in": False})
    return JSONResponse({"signed_in": True, "name": found.name, "csrf": found.csrf})


async def change_password(request: Request) -> Response:
    """Change the password (the current one confirms it); every other sign-in of the account ends."""
    found = _needs_account(request)
    body = parse(PasswordChange, await read_json(request))
    _check_password_form(body.new)
    store = accounts_of(request)
    account = await to_thread.run_sync(store.by_id, found.account_id)
    if account is None or not await _verify_password(account.password_hash, body.current):
        raise ApiError(403, "bad_password", "the current password is wrong")
    await to_thread.run_sync(store.set_password, found.account_id, await _hash_password(body.new))
    ended = await to_thread.run_sync(store.end_sessions, found.account_id, found.session_hash)
    return JSONResponse({"changed": True, "other_sessions_ended": ended})


async def delete_account(request: Request) -> Response:
    """Delete the account (the password confirms it); its games stay for its opponents."""
    found = _needs_account(request)
    body = parse(PasswordOnly, await read_json(request))
    store = accounts_of(request)
    account = await to_thread.run_sync(store.by_id, found.account_id)
    if account is None or not await _verify_password(account.password_hash, body.password):
        raise ApiError(403, "bad_password", "the current password is wrong")
    await to_thread.run_sync(store.delete, found.account_id)
    response = JSONResponse({"deleted": True})
    _clear_session_cookie(response, request)
    return response


async def export_data(request: Request) -> Response:
    """Everything stored about the account, as a JSON file to keep."""
    found = _needs_account(request)
    data = await to_thread.run_sync(accounts_of(request).export, found.account_id)
    return JSONResponse(data, headers={"content-disposition": 'attachment; filename="muster-account.json"'})


async def my_games(request: Request) -> Response:
    """The account's games on every device: whose turn, the opponents in words, finished ones last."""
    found = _needs_account(request)
    games = await to_thread.run_sync(accounts_of(request).games, found.account_id)
    games.sort(key=lambda g: (not g["your_turn"], g["status"] != "active"))
    return JSONResponse({"games": games})


async def open_seat(request: Request) -> Response:
    """A token to open one of the account's seats on this device (the seat's page is /play/<token>)."""
    found = _needs_account(request)
    game_id, seat = request.path_params["game_id"], request.path_params["seat"]
    if len(game_id) > 32 or len(seat) > 16:
        raise ApiError(404, "not_found", "unknown game")
    token = secrets.token_urlsafe(24)
    if not await to_thread.run_sync(accounts_of(request).mint, found.account_id, game_id, seat, hash_token(token)):
        raise ApiError(404, "not_found", "unknown game")
    return JSONResponse({"token": token, "url": f"/play/{token}"})


def routes(page: Any) -> list[Route]:
    """The account routes, for :func:`muster.server.app.create_app` (``page`` serves a static page)."""
    return [
        Route("/account", page("account.html")),
        Route("/api/account", api(me)),
        Route("/api/account/signup", api(signup), methods=["POST"]),
        Route("/api/account/login", api(login), methods=["POST"]),
        Route("/api/account/logout", api(logout), methods=["POST"]),
        Route("/api/account/password", api(change_password), methods=["POST"]),
        Route("/api/account/delete", api(delete_account), methods=["POST"]),
        Route("/api/account/export", api(export_data)),
        Route("/api/account/games", api(my_games)),
        Route("/api/account/games/{game_id}/{seat}/open", api(open_seat), methods=["POST"]),
    ]
