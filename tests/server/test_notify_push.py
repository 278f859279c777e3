"""Web Push delivered to a real local HTTP receiver acting as the browser vendor's push service: the message
is encrypted for the browser's keys (RFC 8291, decrypted here with them) and signed with the server's VAPID
key, made at first start and kept across restarts."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .helpers import Server, wait_for_turn
from .notify_support import NOTIFY_ENV, csrf, receiver, signup
from .test_notify_email import play_one_turn
from .test_notify_webhook import human_first


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def test_a_turn_reaches_the_browser_through_its_push_service(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=NOTIFY_ENV)
    srv.start()
    try:
        with srv.client() as c, receiver() as push_service:
            key = c.get("/api/notify/push/key").json()["key"]
            srv.stop()
            srv.start()
            assert c.get("/api/notify/push/key").json()["key"] == key  # kept: subscriptions stay valid
            signup(c)
            browser_key = ec.generate_private_key(ec.SECP256R1())  # what a browser makes when it subscribes
            auth = os.urandom(16)
            subscription = {"endpoint": push_service.url("/push/abc"), "expirationTime": None, "keys": {
                "p256dh": _b64(browser_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)),
                "auth": _b64(auth)}}
            saved = c.post("/api/notify/push", json={"subscription": subscription}, headers=csrf(c))
            assert saved.status_code == 200, saved.text
            assert saved.json()["push"] is True
            made, token = human_first(c)
            play_one_turn(c, token, wait_for_turn(c, token))
            wait_for_turn(c, token)
            message = push_service.wait_for("/push/abc", 1)[0]
            headers = {k.lower(): v for k, v in message["headers"].items()}
            assert headers["content-encoding"] == "aes128gcm"
            assert f"k={key}" in headers["authorization"]  # signed with the server's VAPID key
            clear = json.loads(http_ece.decrypt(message["raw"], private_key=browser_key, auth_secret=auth,
                                                version="aes128gcm"))
            assert "Your turn" in clear["body"] and made["game_id"] in clear["body"]
            assert clear["url"].endswith("/account")
            # a subscription to a private address is refused without the setting; null forgets it
            forgot = c.post("/api/notify/push", json={"subscription": None}, headers=csrf(c))
            assert forgot.json()["push"] is False
            assert c.get("/static/sw.js").status_code == 200
    finally:
        srv.stop()
