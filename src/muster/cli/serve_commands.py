"""``muster serve``: the web app (uvicorn), with its database migrated at startup."""

from __future__ import annotations

import typer

from muster import _native
from muster.cli.lang import _


def serve(
    host: str = typer.Option("127.0.0.1", help=_("Interface to listen on.")),
    port: int = typer.Option(8000, help=_("TCP port.")),
    database_url: str = typer.Option("sqlite:///muster.db", "--database-url",
                                     help=_("Any SQLAlchemy URL: sqlite:///path or postgresql://user@host/db.")),
    bot_delay_ms: int = typer.Option(400, "--bot-delay-ms", min=0, max=10_000,
                                     help=_("Default pause before each bot move, so people can follow it.")),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help=_("Server processes sharing the port (one per core uses every core).")),
    bot_workers: int = typer.Option(1, "--bot-workers", min=1, max=64,
                                    help=_("Bot processes per server process (bots never think in the web process).")),
    bot_time_limit: float = typer.Option(5.0, "--bot-time-limit", min=0.05, max=120,
                                         help=_("Hard limit in seconds on each bot choice; beyond it a random "
                                                "legal move is played (and logged).")),
    sqlite_sync: str = typer.Option("full", "--sqlite-sync",
                                    help=_("SQLite commits: 'full' fsyncs every commit before its actions are "
                                           "acknowledged (survives a power cut); 'normal' only at checkpoints "
                                           "(survives a crash or kill -9 of the server, not of the machine).")),
) -> None:
    """Serve the web app: play Freedom! in the browser against a bot or a person."""
    import math
    import os

    import uvicorn

    from muster.server import create_app

    if not math.isfinite(bot_time_limit):
        raise typer.BadParameter("give a number of seconds", param_hint="--bot-time-limit")
    if sqlite_sync.lower() not in ("full", "normal"):
        raise typer.BadParameter("give full or normal", param_hint="--sqlite-sync")
    os.environ["MUSTER_SQLITE_SYNC"] = sqlite_sync.lower()  # read by every server process
    check_database(database_url)

    os.environ["MUSTER_BOT_WORKERS"] = str(bot_workers)  # read by every server process (and its workers)
    os.environ["MUSTER_BOT_TIME_LIMIT"] = str(bot_time_limit)

    from muster.server.cluster import serve_workers, uvicorn_options
    from muster.server.sockets import raise_file_limit

    typer.echo(f"muster: serving on http://{host}:{port} (database {database_url.split('@')[-1]}"
               f"{f', {workers} processes' if workers > 1 else ''})")
    if not _native.ACTIVE:
        typer.echo(_("muster: the rules run as pure Python, so the Strongest bot takes 2-3 s a card instead of "
                     "about one; `python scripts/compile_rules.py` compiles them (once, a few minutes)."))
    raise_file_limit()  # before anything opens: the workers inherit the raised limit
    if workers > 1:
        serve_workers(host, port, database_url, bot_delay_ms, workers)
        return
    uvicorn.run(create_app(database_url, bot_delay_ms), host=host, port=port, **uvicorn_options())


def check_database(url: str) -> None:
    """Connect once before serving, so a wrong URL or a missing directory gets one clear line, not a traceback."""
    from sqlalchemy.exc import SQLAlchemyError

    from muster.server.db import make_engine

    try:
        engine = make_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        typer.secho(f"muster: cannot open the database {url.split('@')[-1]!r}: {str(exc).splitlines()[0]}",
                    fg="red", err=True)
        raise typer.Exit(2) from exc


def register(app: typer.Typer) -> None:
    """Add ``muster serve``."""
    app.command("serve", help=_("Serve the web app: play Freedom! in the browser against a bot or a person."))(serve)
