"""Web Push delivered to a real local HTTP receiver acting as the browser vendor's push service: the message
is encrypted for the browser's keys (RFC 8291, decrypted here with them) and signed with the server's VAPID
key, made at first start and kept across restarts."""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .helpers import Server, wait_for_turn
from .notify_support import NOTIFY_ENV, csrf, receiver, signup
from .test_notify_email import play_one_turn
from .test_notify_webhook import human_first


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Browser:
    """What a browser makes when it subscribes: a key pair and an auth secret, and the subscription that
    names its push service's endpoint."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.subscription = {"endpoint": endpoint, "expirationTime": None, "keys": {
            "p256dh": _b64(self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)),
            "auth": _b64(self.auth)}}

    def read(self, message: dict[str, Any]) -> dict[str, Any]:
        """A push message decrypted with this browser's keys."""
        clear: dict[str, Any] = json.loads(http_ece.decrypt(message["raw"], private_key=self.key,
                                                            auth_secret=self.auth, version="aes128gcm"))
        return clear


def test_a_turn_reaches_every_browser_of_the_account_through_its_push_service(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=NOTIFY_ENV)
    srv.start()
    try:
        with srv.client() as c, receiver() as push_service:
            key = c.get("/api/notify/push/key").json()["key"]
            srv.stop()
            srv.start()
            assert c.get("/api/notify/push/key").json()["key"] == key  # kept: subscriptions stay valid
            signup(c)
            laptop, phone = Browser(push_service.url("/push/laptop")), Browser(push_service.url("/push/phone"))
            for browser in (laptop, phone, laptop):  # subscribing again replaces, it does not add
                saved = c.post("/api/notify/push", json={"subscription": browser.subscription}, headers=csrf(c))
                assert saved.status_code == 200, saved.text
            assert saved.json()["push"] == 2
            assert sorted(saved.json()["push_endpoints"]) == sorted([laptop.subscription["endpoint"],
                                                                     phone.subscription["endpoint"]])
            made, token = human_first(c)
            play_one_turn(c, token, wait_for_turn(c, token))
            wait_for_turn(c, token)
            for path, browser in (("/push/laptop", laptop), ("/push/phone", phone)):
                message = push_service.wait_for(path, 1)[0]
                headers = {k.lower(): v for k, v in message["headers"].items()}
                assert headers["content-encoding"] == "aes128gcm"
                assert f"k={key}" in headers["authorization"]  # signed with the server's VAPID key
                clear = browser.read(message)
                assert "Your turn" in clear["body"] and made["game_id"] in clear["body"]
                assert clear["url"].endswith("/account")
            # the phone's browser unsubscribed: its push service answers 410, and the server forgets it
            push_service.always["/push/phone"] = 410
            play_one_turn(c, token, wait_for_turn(c, token))
            wait_for_turn(c, token)
            push_service.wait_for("/push/laptop", 2)
            push_service.wait_for("/push/phone", 2)
            deadline = time.monotonic() + 30
            while (shown := c.get("/api/notify/settings").json())["push"] != 1:
                assert time.monotonic() < deadline, shown
                time.sleep(0.1)
            assert shown["push_endpoints"] == [laptop.subscription["endpoint"]]
            # "stop in this browser" forgets that browser only; null without an endpoint forgets them all
            c.post("/api/notify/push", json={"subscription": phone.subscription}, headers=csrf(c))
            left = c.post("/api/notify/push", json={"subscription": None,
                                                    "endpoint": laptop.subscription["endpoint"]}, headers=csrf(c))
            assert left.json()["push_endpoints"] == [phone.subscription["endpoint"]]
            forgot = c.post("/api/notify/push", json={"subscription": None}, headers=csrf(c))
            assert forgot.json()["push"] == 0
            assert c.get("/static/sw.js").status_code == 200
    finally:
        srv.stop()
