"""``muster serve``: the web app (uvicorn), with its database migrated at startup."""

from __future__ import annotations

from typing import Any

import typer

from muster import _native
from muster.cli.lang import _


def serve(
    host: str = typer.Option("127.0.0.1", envvar="MUSTER_HOST", help=_("Interface to listen on.")),
    port: int = typer.Option(8000, envvar="MUSTER_PORT", help=_("TCP port.")),
    database_url: str = typer.Option("sqlite:///muster.db", "--database-url", envvar="MUSTER_DATABASE_URL",
                                     help=_("Any SQLAlchemy URL: sqlite:///path or postgresql://user@host/db.")),
    bot_delay_ms: int = typer.Option(400, "--bot-delay-ms", envvar="MUSTER_BOT_DELAY_MS", min=0, max=10_000,
                                     help=_("Default pause before each bot move, so people can follow it.")),
    workers: int = typer.Option(1, "--workers", envvar="MUSTER_WORKERS", min=1, max=64,
                                help=_("Server processes sharing the port (one per core uses every core).")),
    bot_workers: int = typer.Option(1, "--bot-workers", envvar="MUSTER_BOT_WORKERS", min=1, max=64,
                                    help=_("Bot processes per server process (bots never think in the web process).")),
    bot_time_limit: float = typer.Option(5.0, "--bot-time-limit", envvar="MUSTER_BOT_TIME_LIMIT", min=0.05, max=120,
                                         help=_("Hard limit in seconds on each bot choice; beyond it a random "
                                                "legal move is played (and logged).")),
    node: str = typer.Option("", "--node", envvar="MUSTER_NODE",
                             help=_("Run as one of several independent nodes sharing a PostgreSQL database, under "
                                    "this name (each game's bots run on the node holding its lease; another node "
                                    "takes over if it dies).")),
    metrics_port: int = typer.Option(0, "--metrics-port", envvar="MUSTER_METRICS_PORT", min=0, max=65535,
                                     help=_("Serve Prometheus metrics on this port too (0: off); keep it private.")),
    metrics_host: str = typer.Option("127.0.0.1", "--metrics-host", envvar="MUSTER_METRICS_HOST",
                                     help=_("Interface for --metrics-port.")),
    sqlite_sync: str = typer.Option("full", "--sqlite-sync", envvar="MUSTER_SQLITE_SYNC",
                                    help=_("SQLite commits: 'full' fsyncs every commit before its actions are "
                                           "acknowledged (survives a power cut); 'normal' only at checkpoints "
                                           "(survives a crash or kill -9 of the server, not of the machine).")),
) -> None:
    """Serve the web app: play the installed games in the browser against a bot or a person."""
    import math
    import os

    from muster.server import create_app

    if not math.isfinite(bot_time_limit):
        raise typer.BadParameter("give a number of seconds", param_hint="--bot-time-limit")
    if sqlite_sync.lower() not in ("full", "normal"):
        raise typer.BadParameter("give full or normal", param_hint="--sqlite-sync")
    os.environ["MUSTER_SQLITE_SYNC"] = sqlite_sync.lower()  # read by every server process
    if node:
        if workers > 1 or not database_url.startswith("postgres"):
            raise typer.BadParameter("a node is one process sharing a PostgreSQL database (run more nodes "
                                     "rather than --workers)", param_hint="--node")
        os.environ["MUSTER_NODE"] = node
    check_database(database_url)

    os.environ["MUSTER_BOT_WORKERS"] = str(bot_workers)  # read by every server process (and its workers)
    os.environ["MUSTER_WORKERS"] = str(workers)
    os.environ["MUSTER_BOT_TIME_LIMIT"] = str(bot_time_limit)

    from muster.server.cluster import serve_workers, uvicorn_options
    from muster.server.logs import configure
    from muster.server.sockets import raise_file_limit

    try:
        configure()
    except ValueError as exc:  # pydantic's ValidationError: it names the setting and what it takes
        typer.secho(f"muster: a setting is wrong: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc

    serving = (f"muster: serving on http://{host}:{port} (database {database_url.split('@')[-1]}"
               f"{f', {workers} processes' if workers > 1 else ''})")
    if not _native.ACTIVE:
        typer.echo(_("muster: the rules run as pure Python, so the Strongest bot takes 2-3 s a card instead of "
                     "about one; reinstalling with a C compiler present (`pip install -e .`) compiles them."))
    if metrics_port and workers == 1:
        serve_metrics(metrics_host, metrics_port)
    raise_file_limit()  # before anything opens: the workers inherit the raised limit
    if workers > 1:
        serve_workers(host, port, database_url, bot_delay_ms, workers,
                      on_start=(lambda: serve_metrics(metrics_host, metrics_port)) if metrics_port else None,
                      ready=lambda: typer.echo(serving))
        return
    run_announced(serving, create_app(database_url, bot_delay_ms), host=host, port=port, **uvicorn_options())


def run_announced(line: str, app: Any, **options: Any) -> None:
    """``uvicorn.run``, printing ``line`` once the socket listens: whoever waits for it may connect at once."""
    import uvicorn

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                typer.echo(line)

    Announcing(uvicorn.Config(app, **options)).run()


def serve_metrics(host: str, port: int) -> None:
    """Serve ``/metrics`` on a separate address, in a background thread of this process (with several server
    processes: the supervisor's, adding up every worker's metrics)."""
    from prometheus_client import start_http_server

    from muster.server.observe import registry

    start_http_server(port, host, registry=registry())
    typer.echo(f"muster: metrics on http://{host}:{port}/metrics")


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
    app.command("serve", help=_("Serve the web app: play the installed games in the browser against a bot or a "
                                "person."))(serve)
