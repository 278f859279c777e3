"""Web Push: not yet delivered by this server (a subscription is stored, so the page can offer it later)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from muster.server.notify.senders import DeliveryError


async def send_push(engine: Engine, subscription: str, text: str, link: str | None) -> None:
    """Deliver one push message (refused: Web Push delivery is not built yet)."""
    raise DeliveryError("Web Push is not available on this server")
