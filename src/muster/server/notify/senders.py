"""Delivery of one notice: e-mail through SMTP (aiosmtplib), webhooks (httpx), and the checks that keep a
webhook from reaching inside the server's network.

Every delivery has a deadline (``notify_timeout_s``); a failure raises :class:`DeliveryError` with a short
reason the worker stores (and, for a webhook disabled after repeated failures, shows on the settings page).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import uuid
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any
from urllib.parse import urlsplit

import aiosmtplib
import httpx

from muster.server.settings import settings

MAX_URL = 500
MAX_ADDRESSES = 4
"""Addresses of a host tried in turn when the first ones refuse the connection."""


class DeliveryError(Exception):
    """A notice could not be delivered this time (the message says why, briefly)."""


class GoneError(DeliveryError):
    """The address is gone for good (a push service's 404 or 410: the browser unsubscribed), so the
    notice is dropped and the address forgotten rather than retried."""


def _private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def check_webhook_form(url: str) -> str | None:
    """Why a webhook URL is refused by its form (None: acceptable so far): http(s), a host, no credentials."""
    if len(url) > MAX_URL:
        return "the address is too long"
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "a webhook is an http:// or https:// address"
    if parts.username or parts.password:
        return "a webhook address holds no user name or password"
    return None


async def _resolve(url: str) -> list[str] | str:
    """The addresses a webhook URL's host resolves to, or why it is refused (unknown, or private/local
    unless the ``webhook_allow_private`` setting allows private ones)."""
    parts = urlsplit(url)
    try:
        found = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM), 5)
    except (OSError, TimeoutError):
        return "the webhook's host is unknown"
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        return "the webhook's host is unknown"
    if not settings().webhook_allow_private and any(_private(address) for address in addresses):
        return "webhooks to private or local addresses are refused"
    return addresses


async def check_webhook_host(url: str) -> str | None:
    """Why a webhook URL is refused by where it leads (None: acceptable): every address its host resolves
    to must be public, unless the ``webhook_allow_private`` setting allows private ones."""
    reason = check_webhook_form(url)
    if reason is not None:
        return reason
    if settings().webhook_allow_private:
        return None
    found = await _resolve(url)
    return found if isinstance(found, str) else None


def pinned(url: str, address: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The request for ``url`` sent to the already checked ``address``: the URL with the address for its
    host, the original ``Host`` header, and TLS told the original name (SNI and certificate check).

    Connecting to the address that was checked, not resolving the name a second time, is what keeps a
    host that answers with a public address to the check and a private one to the request (DNS
    rebinding) from reaching inside the server's network."""
    parts = urlsplit(url)
    host = f"[{address.split('%', 1)[0]}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    target = parts._replace(netloc=netloc).geturl()
    original = parts.hostname or ""
    host_header = f"{original}:{parts.port}" if parts.port else original
    return target, {"host": host_header}, {"sni_hostname": original} if parts.scheme == "https" else {}


def webhook_body(fmt: str, text: str, details: dict[str, Any]) -> dict[str, Any]:
    """The JSON a webhook receives: Discord's ``content``, Slack's ``text``, or structured fields."""
    if fmt == "slack":
        return {"text": text}
    if fmt == "json":
        return {"text": text, **details}
    return {"content": text, "allowed_mentions": {"parse": []}}


async def post_checked(url: str, content: bytes, headers: dict[str, str]) -> int:
    """POST to a webhook or push endpoint, only to an address its check accepted, within the notice
    deadline; the answer's status. A refused address or no answer raises :class:`DeliveryError`."""
    reason = check_webhook_form(url)
    if reason is not None:
        raise DeliveryError(reason)
    found = await _resolve(url)  # again at sending: the host may resolve elsewhere by now
    if isinstance(found, str):
        raise DeliveryError(found)
    timeout = settings().notify_timeout_s
    deadline = asyncio.get_running_loop().time() + timeout
    failure: Exception | None = None
    for address in list(dict.fromkeys(found))[:MAX_ADDRESSES]:  # the next one only when one refuses to connect
        target, host, extensions = pinned(url, address)  # the request goes where the check looked
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            break
        try:
            async with httpx.AsyncClient(timeout=left, follow_redirects=False) as client:
                answer = await asyncio.wait_for(client.post(
                    target, content=content, extensions=extensions,
                    headers={**headers, **host, "user-agent": "muster-notify"}), left)
            return answer.status_code
        except httpx.ConnectError as exc:  # nothing was sent: the host's next address may answer
            failure = exc
        except (httpx.HTTPError, TimeoutError, OSError) as exc:  # it may have arrived: never sent twice
            raise DeliveryError(f"no answer: {type(exc).__name__}") from exc
    raise DeliveryError(f"no answer: {type(failure).__name__ if failure else 'TimeoutError'}")


async def send_webhook(url: str, body: dict[str, Any]) -> None:
    """POST one webhook message; any answer but 2xx, a timeout or a refused address is a failure."""
    status = await post_checked(url, json.dumps(body).encode(), {"content-type": "application/json"})
    if not 200 <= status < 300:
        raise DeliveryError(f"the webhook answered {status}")


def mail(to: str, subject: str, text: str, unsubscribe: str | None) -> EmailMessage:
    """An e-mail from the configured sender, with one-click unsubscribe headers (RFC 8058) when given."""
    message = EmailMessage()
    message["From"] = settings().mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    domain = settings().mail_from.rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{uuid.uuid4().hex}@{domain}>"
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe:
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    return message


async def send_mail(message: EmailMessage) -> None:
    """Send one e-mail through the configured SMTP server."""
    config = settings()
    if not config.smtp_host:
        raise DeliveryError("no SMTP server is configured")
    try:
        await aiosmtplib.send(message, hostname=config.smtp_host, port=config.smtp_port,
                              username=config.smtp_user or None, password=config.smtp_password or None,
                              use_tls=config.smtp_tls == "tls", start_tls=config.smtp_tls == "starttls",
                              timeout=config.notify_timeout_s)
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        raise DeliveryError(f"mail not sent: {type(exc).__name__}") from exc
