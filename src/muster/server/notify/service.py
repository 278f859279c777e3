"""Starting the notifications with the server: the delivery task, and the events it hears of."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from sqlalchemy.engine import Engine

from muster.server import clocks
from muster.server.notify import clock_event, moved, sweep_turns
from muster.server.notify.keys import server_key
from muster.server.notify.push import public_key
from muster.server.notify.routes import verify_new_account_email
from muster.server.notify.worker import Notifier


async def start(app: Any, engine: Engine) -> Notifier:
    """Start this process's notifier and connect the server's events to it: moves (through
    ``Hub.on_move``), sign-ups that gave an address (``app.state.on_signup``) and the
    clocks' reminders and timeouts (:data:`muster.server.clocks.listeners`)."""
    await to_thread.run_sync(server_key, engine)  # made once, before any request needs it
    await to_thread.run_sync(public_key, engine)  # the VAPID key pair of Web Push, made at first start
    await to_thread.run_sync(sweep_turns, engine)
    app.state.hub.on_move = lambda live, seat: moved(engine, live, seat)
    app.state.on_signup = lambda account, email, lang: verify_new_account_email(engine, account, email, lang)
    notifier = Notifier(engine)
    listener = lambda event: clock_event(engine, event)  # noqa: E731 - the same object is removed on stop
    clocks.listeners.append(listener)
    notifier.on_stop.append(lambda: clocks.listeners.remove(listener))
    notifier.start()
    return notifier
