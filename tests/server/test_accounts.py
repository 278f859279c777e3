"""Accounts (docs/web.md, "Accounts"; docs/security.md, "Accounts"): sign-up and login with Argon2-hashed
passwords, server-side sessions that expire and end on logout, CSRF refused, logins throttled, a guest's games
attached on sign-up, My games on every device, and one account never reaching another's seats. Every test runs
a real server on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from muster.server.db import make_engine

from .helpers import Server, backends, create, database_url, secrets_in_log, ws_close_code

SESSION = "muster_session"


@pytest.fixture(params=backends(), scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"accounts-{request.param}")
    srv = Server(database_url(request.param, tmp), tmp, env={"MUSTER_SIGNUPS_PER_WINDOW": "0"})
    srv.start()
    yield srv
    srv.stop()


def _name() -> str:
    return "p" + secrets.token_hex(5)


def _signup(client: httpx.Client, name: str | None = None, password: str | None = None,
            **extra: Any) -> dict[str, Any]:
    name = name or _name()
    password = password or "pw-" + secrets.token_hex(8)
    answer = client.post("/api/account/signup", json={"name": name, "password": password, **extra})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    data["password"] = password
    return data


def _csrf(client: httpx.Client) -> dict[str, str]:
    me = client.get("/api/account").json()
    return {"X-Muster-CSRF": me["csrf"]}


def _cookie_header(client: httpx.Client) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{c.name}={c.value}" for c in client.cookies.jar)}


def _bot_game(client: httpx.Client) -> tuple[str, str]:
    made = create(client, imperial="human", insurgent="beginner", bot_delay_ms=0)
    return made["game_id"], made["tokens"]["imperial"]


def _sql(server: Server, query: str, **params: Any) -> list[Any]:
    engine = make_engine(server.database_url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(query), params)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


def test_signup_signs_in_with_a_safe_cookie_and_stores_only_hashes(server: Server) -> None:
    with server.client() as client:
        made = _signup(client, email="someone@example.org")
        cookie = next(c for c in client.cookies.jar if c.name == SESSION)
        raw = client.post("/api/account/login", json={"name": made["name"], "password": made["password"]})
        assert raw.status_code == 200
        set_cookie = raw.headers["set-cookie"].lower()
        assert "httponly" in set_cookie and "samesite=lax" in set_cookie and "secure" not in set_cookie
        me = client.get("/api/account").json()
        assert me["signed_in"] and me["name"] == made["name"] and me["csrf"]
        stored = _sql(server, "SELECT password_hash, email FROM accounts WHERE name = :n", n=made["name"])
        assert stored[0][0].startswith("$argon2id$") and made["password"] not in stored[0][0]
        sessions = _sql(server, "SELECT s.id_hash FROM account_sessions s JOIN accounts a ON a.id = s.account_id "
                                "WHERE a.name = :n", n=made["name"])
        assert len(sessions) == 2 and all(cookie.value not in row[0] for row in sessions)
        # the same name in another case is the same name
        other = server.client()
        taken = other.post("/api/account/signup", json={"name": made["name"].upper(), "password": "x" * 12})
        assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
        other.close()
    log = server.log()
    assert made["password"] not in log and cookie.value not in log
    assert not secrets_in_log(server)


def test_bad_names_and_passwords_are_refused(server: Server) -> None:
    with server.client() as client:
        for name, password in (("ab", "long enough"), ("-dash", "long enough"), ("x" * 30, "long enough"),
                               ("fine_name", "short"), ("fine_name", "p" * 201)):
            answer = client.post("/api/account/signup", json={"name": name, "password": password})
            assert answer.status_code == 400, (name, answer.text)
        assert client.post("/api/account/signup", json={"name": "a" * 10_000, "password": "x"}).status_code == 400
        assert not client.cookies.get(SESSION)


def test_a_guest_game_attaches_to_the_new_account_and_opens_on_another_device(server: Server) -> None:
    with server.client() as phone, server.client() as laptop, server.client() as stranger:
        game_id, token = _bot_game(phone)  # played as a guest first
        made = _signup(phone)
        assert made["attached"] == 1
        assert _sql(server, "SELECT holder FROM seats WHERE game_id = :g AND seat = 'imperial'", g=game_id)[0][0] \
            .startswith("account:")
        # the guest link keeps working in the browser that signed up
        assert phone.get(f"/api/seat/{token}").status_code == 200
        # on another device, signed in as the same person, My games lists it and opens it
        assert laptop.post("/api/account/login",
                           json={"name": made["name"], "password": made["password"]}).status_code == 200
        games = laptop.get("/api/account/games").json()["games"]
        assert [g["game_id"] for g in games] == [game_id]
        assert games[0]["opponents"] == [{"seat": "insurgent", "kind": "bot", "level": "Beginner"}]
        assert "bot_spec" not in json.dumps(games) and "random" not in json.dumps(games[0]["opponents"])
        opened = laptop.post(f"/api/account/games/{game_id}/imperial/open", json={}, headers=_csrf(laptop))
        assert opened.status_code == 200, opened.text
        minted = opened.json()["token"]
        assert laptop.get(f"/api/seat/{minted}").json()["seat"] == "imperial"
        assert laptop.get(f"/api/seat/{token}").status_code == 200  # the account's own seat, its first token
        assert ws_close_code(server, minted, _cookie_header(laptop)) == 1000
        # the minted token is no key on its own: a guest browser holding it opens nothing
        assert stranger.get(f"/api/seat/{minted}").status_code == 403
        assert ws_close_code(server, minted, {}) == 4403
        # and signing out of the laptop closes the seat there
        assert laptop.post("/api/account/logout", json={}, headers=_csrf(laptop)).status_code == 200
        assert laptop.get(f"/api/seat/{minted}").status_code == 403
    assert not secrets_in_log(server)


def test_a_seat_taken_while_signed_in_belongs_to_the_account(server: Server) -> None:
    with server.client() as alice, server.client() as bob:
        _signup(alice)
        _signup(bob)
        game_id, token = _bot_game(alice)
        holder = _sql(server, "SELECT holder FROM seats WHERE game_id = :g AND seat = 'imperial'", g=game_id)[0][0]
        assert holder.startswith("account:")
        # another account cannot read it, act in it, open it from My games or connect to it
        assert bob.get(f"/api/seat/{token}").status_code == 403
        assert bob.post(f"/api/seat/{token}/action", json={"version": 0, "action": ["pass", None]}).status_code == 403
        assert bob.post(f"/api/account/games/{game_id}/imperial/open", json={}, headers=_csrf(bob)).status_code == 404
        assert bob.get("/api/account/games").json()["games"] == []
        assert ws_close_code(server, token, _cookie_header(bob)) == 4403
        # an invitation claimed while signed in is the account's too
        made = alice.post("/api/games", json={"imperial": "human", "insurgent": "human", "seat": "imperial"})
        code = made.json()["invitations"]["insurgent"]
        claimed = bob.post(f"/api/invitations/{code}/claim", json={})
        assert claimed.status_code == 200
        bob_games = bob.get("/api/account/games").json()["games"]
        assert [(g["game_id"], g["seat"]) for g in bob_games] == [(made.json()["game_id"], "insurgent")]
        assert alice.get(f"/api/seat/{claimed.json()['token']}").status_code == 403


def test_logout_and_expiry_end_the_session_on_the_server(server: Server) -> None:
    with server.client() as client:
        made = _signup(client)
        secret = client.cookies.get(SESSION)
        assert secret
        # logout needs the CSRF token
        assert client.post("/api/account/logout", json={}).status_code == 403
        assert client.post("/api/account/logout", json={}, headers=_csrf(client)).status_code == 200
        # the old cookie, replayed by someone who kept it, signs in nobody
        with server.client() as thief:
            thief.cookies.set(SESSION, secret)
            assert thief.get("/api/account").json() == {"signed_in": False}
            assert thief.get("/api/account/games").status_code == 401
        # an expired session is no session
        assert client.post("/api/account/login",
                           json={"name": made["name"], "password": made["password"]}).status_code == 200
        assert client.get("/api/account").json()["signed_in"]
        _sql(server, "UPDATE account_sessions SET expires_at = :t WHERE account_id = "
                     "(SELECT id FROM accounts WHERE name = :n)", t="2000-01-01 00:00:00+00:00", n=made["name"])
        assert client.get("/api/account").json() == {"signed_in": False}


def test_cross_site_requests_are_refused(server: Server) -> None:
    with server.client() as client:
        _signup(client)
        evil = {"Origin": "https://evil.example"}
        body = {"imperial": "human", "insurgent": "beginner", "bot_delay_ms": 0}
        refused = client.post("/api/games", json=body, headers=evil)
        assert refused.status_code == 403 and refused.json()["code"] == "cross_site"
        assert client.post("/api/account/logout", json={}, headers={**evil, **_csrf(client)}).status_code == 403
        # the CSRF token must be this sign-in's
        assert client.post("/api/account/logout", json={}, headers={"X-Muster-CSRF": "x" * 32}).status_code == 403
        assert client.get("/api/account").json()["signed_in"]
        # the page's own origin passes
        own = {"Origin": server.url}
        assert client.post("/api/games", json=body, headers=own).status_code == 201
        # a guest's browser is refused the same way (every state-changing request from another site is)
        with server.client() as guest:
            assert guest.post("/api/games", json=body, headers=evil).json()["code"] == "cross_site"
            # but another site cannot log it in to an account of its choosing, nor sign it up
            made = _signup(guest)
            guest.cookies.delete(SESSION)
            forged = guest.post("/api/account/login", json={"name": made["name"], "password": made["password"]},
                                headers=evil)
            assert forged.status_code == 403 and not guest.cookies.get(SESSION)
            assert guest.post("/api/account/signup", json={"name": _name(), "password": "long enough"},
                              headers=evil).status_code == 403


def test_changing_the_password_ends_the_other_sessions(server: Server) -> None:
    with server.client() as here, server.client() as there:
        made = _signup(here)
        assert there.post("/api/account/login",
                           json={"name": made["name"], "password": made["password"]}).status_code == 200
        wrong = here.post("/api/account/password", json={"current": "not it at all", "new": "new-password-1"},
                          headers=_csrf(here))
        assert wrong.status_code == 403
        changed = here.post("/api/account/password", json={"current": made["password"], "new": "new-password-1"},
                            headers=_csrf(here))
        assert changed.status_code == 200 and changed.json()["other_sessions_ended"] == 1
        assert here.get("/api/account").json()["signed_in"]
        assert there.get("/api/account").json() == {"signed_in": False}
        assert there.post("/api/account/login",
                          json={"name": made["name"], "password": made["password"]}).status_code == 401
        assert there.post("/api/account/login",
                          json={"name": made["name"], "password": "new-password-1"}).status_code == 200
    assert "new-password-1" not in server.log()


def test_export_and_delete(server: Server) -> None:
    with server.client() as client, server.client() as other:
        made = _signup(client, email="me@example.org")
        game_id, token = _bot_game(client)
        exported = client.get("/api/account/export")
        assert exported.status_code == 200
        assert "attachment" in exported.headers["content-disposition"]
        data = exported.json()
        assert data["account"]["name"] == made["name"] and data["account"]["email"] == "me@example.org"
        assert [g["game_id"] for g in data["games"]] == [game_id]
        assert "argon2" not in exported.text and made["password"] not in exported.text
        assert other.get("/api/account/export").status_code == 401
        assert client.post("/api/account/delete", json={"password": "wrong password"},
                           headers=_csrf(client)).status_code == 403
        assert client.post("/api/account/delete", json={"password": made["password"]},
                           headers=_csrf(client)).status_code == 200
        assert client.get("/api/account").json() == {"signed_in": False}
        assert other.post("/api/account/login",
                          json={"name": made["name"], "password": made["password"]}).status_code == 401
        assert client.get(f"/api/seat/{token}").status_code == 403  # nobody can sign in to that seat again
        assert client.get(f"/api/games/{game_id}/status").status_code == 200  # the game itself stays
        assert not _sql(server, "SELECT 1 FROM accounts WHERE name = :n", n=made["name"])
        # the name is free again
        assert _signup(other, name=made["name"])["name"] == made["name"]


@pytest.fixture(params=backends())
def throttled_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    srv = Server(database_url(request.param, tmp_path), tmp_path, env={"MUSTER_SIGNUPS_PER_WINDOW": "3"})
    srv.start()
    yield srv
    srv.stop()


def test_logins_and_signups_are_throttled(throttled_server: Server) -> None:
    server = throttled_server
    with server.client() as client:
        first = _signup(client)
        second = _signup(client)
        _signup(client)
        limited = client.post("/api/account/signup", json={"name": _name(), "password": "long enough"})
        assert limited.status_code == 429
        # five wrong passwords for one name, then even the right one waits for the window to end
        for _ in range(5):
            assert client.post("/api/account/login",
                               json={"name": first["name"], "password": "guess-" + _name()}).status_code == 401
        refused = client.post("/api/account/login", json={"name": first["name"], "password": first["password"]})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        # another name from the same address is still let in
        assert client.post("/api/account/login",
                           json={"name": second["name"], "password": second["password"]}).status_code == 200
        # twenty failures from one address, over many names, close logins from it for every name
        for _ in range(15):
            client.post("/api/account/login", json={"name": _name(), "password": "whatever-it-is"})
        assert client.post("/api/account/login",
                           json={"name": second["name"], "password": second["password"]}).status_code == 429
    assert first["password"] not in server.log()


def _admin(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "muster.cli.main", "admin", *args, "--database-url",
                           server.database_url], capture_output=True, text=True, timeout=120, check=False)


def test_admin_lists_suspends_and_deletes_users_and_games(server: Server) -> None:
    with server.client() as client:
        made = _signup(client)
        game_id, _token = _bot_game(client)
        listed = _admin(server, "users", "--limit", "1000")
        assert listed.returncode == 0 and made["name"] in listed.stdout
        mine = _admin(server, "games", "--user", made["name"])
        assert mine.returncode == 0 and game_id in mine.stdout and "bot random" in mine.stdout
        assert _admin(server, "suspend", made["name"]).returncode == 0
        assert client.get("/api/account").json() == {"signed_in": False}  # logged out at once
        again = client.post("/api/account/login", json={"name": made["name"], "password": made["password"]})
        assert again.status_code == 403 and again.json()["code"] == "suspended"
        assert f"{made['name']}\t" in _admin(server, "users", "--limit", "1000").stdout
        assert _admin(server, "unsuspend", made["name"]).returncode == 0
        assert client.post("/api/account/login",
                           json={"name": made["name"], "password": made["password"]}).status_code == 200
        assert _admin(server, "delete-game", game_id).returncode == 0
        assert game_id not in _admin(server, "games", "--limit", "1000").stdout
        assert client.get("/api/account/games").json()["games"] == []
        assert _admin(server, "delete-game", game_id).returncode == 2
        assert _admin(server, "delete-user", made["name"]).returncode == 0
        assert client.get("/api/account").json() == {"signed_in": False}
        assert _admin(server, "suspend", made["name"]).returncode == 2


def test_games_stored_before_accounts_stay_playable_across_the_migration(tmp_path: Path) -> None:
    """A guest game kept through a downgrade to the schema before accounts and the upgrade back opens and plays
    as before, and attaches to an account when its guest signs up."""
    from alembic import command
    from alembic.config import Config

    from muster.server.db import MIGRATIONS

    url = database_url("sqlite", tmp_path)
    srv = Server(url, tmp_path)
    srv.start()
    try:
        with srv.client() as guest:
            game_id, token = _bot_game(guest)
            srv.stop()
            engine = make_engine(url)
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.downgrade(cfg, "0008")
                assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "0008"
            engine.dispose()
            srv.start()  # migrates to the newest revision again
            seat = guest.get(f"/api/seat/{token}")
            assert seat.status_code == 200 and seat.json()["seat"] == "imperial"
            assert _signup(guest)["attached"] == 1
            assert [g["game_id"] for g in guest.get("/api/account/games").json()["games"]] == [game_id]
    finally:
        srv.stop()
