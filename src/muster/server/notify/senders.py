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


class DeliveryError(Exception):
    """A notice could not be delivered this time (the message says why, briefly)."""


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


async def check_webhook_host(url: str) -> str | None:
    """Why a webhook URL is refused by where it leads (None: acceptable): every address its host resolves
    to must be public, unless the ``webhook_allow_private`` setting allows private ones."""
    reason = check_webhook_form(url)
    if reason is not None:
        return reason
    if settings().webhook_allow_private:
        return None
    parts = urlsplit(url)
    try:
        found = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM), 5)
    except (OSError, TimeoutError):
        return "the webhook's host is unknown"
    if not found or any(_private(str(info[4][0])) for info in found):
        return "webhooks to private or local addresses are refused"
    return None


def webhook_body(fmt: str, text: str, details: dict[str, Any]) -> dict[str, Any]:
    """The JSON a webhook receives: Discord's ``content``, Slack's ``text``, or structured fields."""
    if fmt == "slack":
        return {"text": text}
    if fmt == "json":
        return {"text": text, **details}
    return {"content": text, "allowed_mentions": {"parse": []}}


async def send_webhook(url: str, body: dict[str, Any]) -> None:
    """POST one webhook message; any answer but 2xx, a timeout or a refused address is a failure."""
    reason = await check_webhook_host(url)  # again at sending: the host may resolve elsewhere by now
    if reason is not None:
        raise DeliveryError(reason)
    timeout = settings().notify_timeout_s
    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
            answer = await asyncio.wait_for(client.post(url, content=json.dumps(body).encode(),
                                                        headers={"content-type": "application/json",
                                                                 "user-agent": "muster-notify"}), timeout)
    except (httpx.HTTPError, TimeoutError, OSError) as exc:
        raise DeliveryError(f"no answer: {type(exc).__name__}") from exc
    if not 200 <= answer.status_code < 300:
        raise DeliveryError(f"the webhook answered {answer.status_code}")


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
