"""The server's settings: one typed object, read from the environment and an optional file.

Every option has a ``MUSTER_<NAME>`` environment variable. ``MUSTER_CONFIG`` may name a TOML file whose keys are
the same names in lower case without the prefix (``database_url = "postgresql://…"``); the environment wins
over the file, and ``muster serve``'s options win over both. A wrong value stops the server at start-up with
the option's name and what it takes. ``python -m muster.server.settings`` prints the table of every option
(docs/settings.md is that table).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

PREFIX = "MUSTER_"


class Settings(BaseSettings):
    """Every setting of a muster server, with its default."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, extra="ignore", frozen=True)

    # --- where and what ---------------------------------------------------------------------------------
    database_url: str = Field(default="sqlite:///muster.db", description="Any SQLAlchemy URL: `sqlite:///path` or "
                              "`postgresql://user:password@host/db`.")
    host: str = Field(default="127.0.0.1",
                      description="Interface `muster serve` listens on (`0.0.0.0` in a container).")
    port: int = Field(default=8000, ge=1, le=65535, description="TCP port of `muster serve`.")
    workers: int = Field(default=1, ge=1, le=64, description="Server processes sharing the port (one per core).")
    node: str = Field(default="", max_length=64, description="Run as one of several independent nodes sharing a "
                      "PostgreSQL database, under this name (`muster serve --node`); empty: a single server.")
    lease_ttl_s: float = Field(default=6.0, gt=0.5, le=600, description="Seconds a node's lease on a game lasts "
                               "without renewal: how soon another node adopts a dead node's games.")
    sqlite_sync: Literal["full", "normal"] = Field(default="full", description="SQLite commits: `full` survives "
                                                   "a power cut, `normal` a crash of the server only.")
    max_live_games: int = Field(default=2000, ge=10, description="Games one process holds in memory at most (idle ones "
                                "are evicted and rebuilt from the database on demand).")

    # --- bots ----------------------------------------------------------------------------------------
    bot_delay_ms: int = Field(default=400, ge=0, le=10_000, description="Default pause before each bot move, so people "
                              "can follow it.")
    bot_workers: int = Field(default=1, ge=1, le=64, description="Bot processes per server process.")
    bot_time_limit: float = Field(default=5.0, ge=0.05, le=120, description="Hard limit in seconds on each bot choice; "
                                  "beyond it a random legal move is played and announced.")

    # --- paces and clocks (muster.server.clocks; docs/web.md, "Paces and clocks") -------------------------
    clock_tick_s: float = Field(default=5.0, gt=0, le=600, description="Seconds between two looks of each server "
                                "process for clocks run out and reminders due.")
    vacation_days: int = Field(default=21, ge=0, le=366, description="Vacation days an account has a year: used "
                               "a day at a time when its clock would run out.")
    vacation_day_s: float = Field(default=86400.0, gt=0, description="Tests and trials: the length of a vacation "
                                  "day in seconds.")
    paces: str = Field(default="", max_length=4000, description="Tests and trials: a JSON object replacing numbers "
                       "of the pace table for every game (`{\"fast\": {\"bank\": 6, \"increment\": 2}}`, seconds).")

    # --- limits per client -----------------------------------------------------------------------------
    create_per_minute: float = Field(default=30.0, ge=0, description="Games one address may create per minute "
                                     "(0: no limit).")
    create_burst: float = Field(default=30.0, ge=0, description="Games one address may create at once before the rate "
                                "applies.")
    replay_per_second: float = Field(default=20.0, ge=0, description="Replay steps one address may ask per second "
                                     "(0: no limit).")
    replay_burst: float = Field(default=60.0, ge=0, description="Replay steps one address may ask at once.")
    signups_per_window: int = Field(default=10, ge=0, description="Accounts one address may sign up in 15 minutes "
                                    "(0: no limit).")
    head_timeout_s: float = Field(default=10.0, gt=0, description="Seconds a client has to send a request's head.")
    body_timeout_s: float = Field(default=10.0, gt=0, description="Seconds a client may pause while sending a body.")

    bot_queue: int = Field(default=200, ge=0, le=100_000, description="Bot choices waiting for a bot worker; "
                           "beyond, a choice is played at random at once (and announced).")
    bot_games_per_address: int = Field(default=2, ge=0, description="Games between thinking bots running at once "
                                       "per client address (0: no limit).")

    # --- analyses and hints --------------------------------------------------------------------------
    analysis_per_address: int = Field(default=2, ge=1, le=1000, description="Post-game analyses under way per "
                                      "client address.")
    analysis_queue: int = Field(default=8, ge=0, description="Analyses waiting for an analysis worker.")
    analysis_workers: int = Field(default=1, ge=1, le=64, description="Analysis worker processes.")
    analysis_time_limit: float = Field(default=300.0, gt=0, description="Seconds one analysis may take.")
    advice_queue: int = Field(default=32, ge=0, description="Hints and live curves waiting for a worker.")
    advice_workers: int = Field(default=1, ge=1, le=64, description="Worker processes for hints and live curves.")
    advice_time_limit: float = Field(default=30.0, gt=0, description="Seconds one hint or live curve may take.")
    hints_seat_per_minute: float = Field(default=12.0, ge=0, description="Hints computed per seat per minute "
                                         "(0: no limit; answers already cached are free).")
    hints_address_per_minute: float = Field(default=60.0, ge=0, description="Hints computed per client address "
                                            "per minute (0: no limit).")

    # --- connections and messages ---------------------------------------------------------------------
    body_deadline_s: float = Field(default=30.0, gt=0, description="Seconds for a request's whole body.")
    ws_messages_per_second: float = Field(default=50.0, ge=0, description="Messages per websocket per second "
                                          "(past the burst: closed with 1008; 0: no limit).")
    ws_message_burst: float = Field(default=100.0, ge=0, description="Messages a websocket may send at once "
                                    "before the rate applies.")
    ws_per_address: int = Field(default=100, ge=0, description="Open websockets per client address (0: no cap).")
    connections_per_address: int = Field(default=100, ge=0, description="Open HTTP connections per peer address, "
                                         "trusted proxies exempt (0: no cap).")
    max_connections: int = Field(default=0, ge=0, description="Connections per server process (uvicorn's "
                                 "`limit_concurrency`; 0: the open-file limit less 256).")
    allowed_origins: str = Field(default="", description="Other origins whose pages may send requests "
                                 "(comma-separated, e.g. `https://play.example.org`).")

    # --- notifications (muster.server.notify) -----------------------------------------------------------
    public_url: str = Field(default="", max_length=200, description="The address people reach this server at "
                            "(`https://play.example.org`), for the links in e-mails and webhooks; empty: "
                            "`http://<host>:<port>`.")
    smtp_host: str = Field(default="", max_length=200, description="SMTP server that sends e-mail notices, "
                           "verification and password-reset links; empty: no e-mail.")
    smtp_port: int = Field(default=587, ge=1, le=65535, description="Port of the SMTP server.")
    smtp_user: str = Field(default="", max_length=200, description="SMTP login name (empty: no login).")
    smtp_password: str = Field(default="", max_length=500, description="SMTP password.")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(default="starttls", description="`starttls` (port 587), "
                                                       "`tls` (implicit, port 465) or `none` (a local relay).")
    mail_from: str = Field(default="muster@localhost", max_length=254, description="The sender of every e-mail.")
    notify_turn_delay_s: float = Field(default=30.0, ge=0, le=3600, description="Seconds a \"your turn\" notice "
                                       "waits before it is sent (it is dropped if the turn was taken back).")
    notify_digest_s: int = Field(default=6 * 3600, ge=1, le=7 * 86400, description="A digest e-mail gathers the "
                                 "notices of this many seconds into one.")
    notify_retry_s: float = Field(default=5.0, gt=0, le=3600, description="First pause before a failed notice is "
                                  "tried again (doubling each time).")
    notify_attempts: int = Field(default=4, ge=1, le=20, description="Tries of a notice before it fails; a webhook "
                                 "whose notice failed this often is disabled until its owner saves it again.")
    notify_timeout_s: float = Field(default=10.0, gt=0, le=120, description="Seconds one e-mail or webhook "
                                    "delivery may take.")
    notify_poll_s: float = Field(default=1.0, gt=0, le=60, description="How often each server process looks for "
                                 "notices that are due.")
    webhook_allow_private: bool = Field(default=False, description="Allow webhooks to private, loopback and "
                                        "link-local addresses (refused by default: a user could make the server "
                                        "call inside your network).")

    # --- watching it ---------------------------------------------------------------------------------
    log_level: Literal["debug", "info", "warning", "error"] = Field(default="info", description="`info` logs one "
                                                                    "event per request and action; `warning` "
                                                                    "only problems.")
    log_format: Literal["json", "text"] = Field(default="json", description="`json`: one JSON object a line; `text`: "
                                                "plain lines for a terminal.")
    metrics_token: str = Field(default="", description="Bearer token a Prometheus scraper sends for `/metrics` on the "
                               "main address; empty: `/metrics` answers 404 there.")
    metrics_port: int = Field(default=0, ge=0, le=65535, description="Also serve `/metrics` on this port, without a "
                              "token (0: off); keep it off the public network.")
    metrics_host: str = Field(default="127.0.0.1", description="Interface of `metrics_port`.")

    # --- for developers ------------------------------------------------------------------------------
    ack_times: str = Field(default="", description="Benchmarks: a path prefix to write each process's acknowledgement "
                           "and commit times to at exit.")
    pure_python: bool = Field(default=False, description="Run the pure-Python rules even where compiled ones are "
                              "installed (to compare them).")
    lang: str = Field(default="", description="Language of the terminal and the command-line help (`en` or `pl`; "
                      "default: from `LANG`).")

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource) -> tuple[Any, ...]:
        """Arguments, then the environment, then the ``MUSTER_CONFIG`` file."""
        sources: list[Any] = [init_settings, env_settings]
        config = os.environ.get(f"{PREFIX}CONFIG", "")
        if config:
            if not Path(config).is_file():
                raise ValueError(f"{PREFIX}CONFIG names {config!r}, which is not a file")
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config))
        return tuple(sources)


INTERNAL = ("MUSTER_CONFIG", "MUSTER_BUS", "MUSTER_HANDOFF", "MUSTER_WORKER_INDEX", "MUSTER_COMPILE",
            "MUSTER_CACHE_DIR", "MUSTER_TIMING_DECISIONS")
"""Variables that are not settings of a running server: ``MUSTER_CONFIG`` names the settings file;
``MUSTER_COMPILE=0`` skips compiling the rules at install time; ``MUSTER_CACHE_DIR`` is where muster keeps what
it measured of this install (the bot levels' think times, :mod:`muster.ai.timing`; default ``~/.cache/muster``)
and ``MUSTER_TIMING_DECISIONS`` how many decisions that measure takes; the others are set by ``muster serve
--workers`` for the processes it starts."""


@functools.cache
def settings() -> Settings:
    """The settings of this process (read once; :func:`reload` reads them again)."""
    return Settings()


def reload() -> Settings:
    """Read the settings again (after the environment changed, e.g. by ``muster serve``'s options)."""
    settings.cache_clear()
    return settings()


def markdown() -> str:
    """The table of every setting (docs/settings.md)."""
    lines = ["| variable | default | what it does |", "| --- | --- | --- |"]
    for name, field in Settings.model_fields.items():
        default = field.default
        shown = f"`{default}`" if default not in ("", None) else "(empty)"
        lines.append(f"| `{PREFIX}{name.upper()}` | {shown} | {field.description} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
