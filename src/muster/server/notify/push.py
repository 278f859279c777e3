"""Web Push: a notice reaches a browser whose muster tab is closed, through the push service its browser
vendor runs (RFC 8030), encrypted for that browser (RFC 8291) and signed with the server's VAPID key (RFC 8292).

The VAPID key pair is made at first start and kept in ``server_keys`` (every process and node signs with the
same one, so a subscription made through one is served by all). The page's service worker (``static/sw.js``)
shows the notice and opens its link when clicked. A subscription is an endpoint URL with the browser's keys;
its endpoint is checked like a webhook's (no private addresses unless ``webhook_allow_private``).
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any
from urllib.parse import urlsplit

from anyio import to_thread
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02  # type: ignore[import-untyped]
from pywebpush import WebPusher  # type: ignore[import-untyped]
from sqlalchemy.engine import Engine

from muster.server.notify.keys import server_key
from muster.server.notify.senders import DeliveryError, GoneError, check_webhook_host, post_checked
from muster.server.settings import settings

_VAPID: dict[int, Vapid02] = {}


def _new_pem() -> str:
    vapid = Vapid02()
    vapid.generate_keys()
    return vapid.private_pem().decode("ascii")


def vapid(engine: Engine) -> Vapid02:
    """The server's VAPID key pair (made and stored at first use)."""
    if id(engine) not in _VAPID:
        _VAPID[id(engine)] = Vapid02.from_pem(server_key(engine, "vapid", make=_new_pem).encode("ascii"))
    return _VAPID[id(engine)]


def public_key(engine: Engine) -> str:
    """The key a page subscribes with (``applicationServerKey``): the uncompressed point, base64url."""
    raw = vapid(engine).public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


async def check_subscription(sub: Any) -> str | None:
    """Why a subscription is refused (None: acceptable): an endpoint URL and the browser's two keys."""
    if not isinstance(sub, dict) or not isinstance(sub.get("endpoint"), str) or not isinstance(sub.get("keys"), dict):
        return "a subscription has an endpoint and keys"
    keys = sub["keys"]
    if not all(isinstance(keys.get(k), str) and 8 <= len(keys[k]) <= 200 for k in ("p256dh", "auth")):
        return "a subscription's keys are p256dh and auth"
    return await check_webhook_host(sub["endpoint"])


async def send_push(engine: Engine, subscription: str, text: str, link: str | None) -> None:
    """Deliver one push message (the title and the link the notification opens)."""
    sub = json.loads(subscription)
    reason = await check_subscription(sub)
    if reason is not None:
        raise DeliveryError(reason)
    key = await to_thread.run_sync(vapid, engine)
    endpoint = urlsplit(sub["endpoint"])
    claims = {"sub": "mailto:" + settings().mail_from, "aud": f"{endpoint.scheme}://{endpoint.netloc}",
              "exp": int(time.time()) + 12 * 3600}
    body = json.dumps({"title": "muster", "body": text, "url": link or "/"}).encode()

    def seal() -> tuple[bytes, dict[str, str]]:  # encrypted for the browser, signed by the server
        encoded = WebPusher({"endpoint": sub["endpoint"], "keys": {"p256dh": sub["keys"]["p256dh"],
                                                                   "auth": sub["keys"]["auth"]}}).encode(body)
        return encoded["body"], {**key.sign(claims), "content-encoding": "aes128gcm", "ttl": "86400"}
    try:
        content, headers = await to_thread.run_sync(seal)
    except (ValueError, TypeError, KeyError) as exc:
        raise DeliveryError("the browser's subscription keys are not usable") from exc
    # sent like a webhook: only to the address that was checked (pywebpush's own sender would look it up again)
    status = await post_checked(sub["endpoint"], content, headers)
    if status in (404, 410):
        raise GoneError(f"the push service answered {status}: the browser's subscription has ended")
    if status > 202:
        raise DeliveryError(f"the push service answered {status}")
