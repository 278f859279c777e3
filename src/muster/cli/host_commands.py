"""``muster backup``, ``muster restore`` and ``muster prune``: looking after a server's database."""

from __future__ import annotations

from pathlib import Path

import typer

from muster.cli.lang import _

DATABASE_HELP = _("Any SQLAlchemy URL: sqlite:///path or postgresql://user@host/db.")


def backup(
    out: Path = typer.Argument(..., help=_("The backup file to write (it must not exist yet).")),
    database_url: str = typer.Option("sqlite:///muster.db", "--database-url", envvar="MUSTER_DATABASE_URL",
                                     help=DATABASE_HELP),
) -> None:
    """Copy the database to a file while the server keeps running (SQLite's online backup; pg_dump for
    PostgreSQL)."""
    from muster.server.backup import BackupError
    from muster.server.backup import backup as run

    try:
        size = run(database_url, out)
    except BackupError as exc:
        typer.secho(f"muster: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc
    typer.echo(_("muster: backed up to {path} ({kb} KB)").format(path=out, kb=round(size / 1024)))


def restore(
    backup_file: Path = typer.Argument(..., help=_("A file written by muster backup.")),
    database_url: str = typer.Option("sqlite:///muster.db", "--database-url", envvar="MUSTER_DATABASE_URL",
                                     help=DATABASE_HELP),
    force: bool = typer.Option(False, "--force", help=_("Replace a database that already holds games.")),
) -> None:
    """Load a backup into the database (stop the server first), then bring its schema up to date."""
    from muster.server.backup import BackupError
    from muster.server.backup import restore as run

    try:
        games = run(backup_file, database_url, force=force)
    except BackupError as exc:
        typer.secho(f"muster: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc
    typer.echo(_("muster: restored {n} games from {path}").format(n=games, path=backup_file))


def prune(
    archive: Path = typer.Option(..., "--archive", help=_("Folder for the JSON save files of the games removed.")),
    finished_days: float | None = typer.Option(None, "--finished-days", min=0,
                                               help=_("Remove finished games older than this many days.")),
    abandoned_days: float | None = typer.Option(None, "--abandoned-days", min=0,
                                                help=_("Remove unfinished games nobody moved in for this many days.")),
    dry_run: bool = typer.Option(False, "--dry-run", help=_("Only count what would be removed.")),
    database_url: str = typer.Option("sqlite:///muster.db", "--database-url", envvar="MUSTER_DATABASE_URL",
                                     help=DATABASE_HELP),
) -> None:
    """Apply a retention policy: archive old finished and abandoned games as JSON, then delete them."""
    from muster.server.backup import prune as run

    if finished_days is None and abandoned_days is None:
        raise typer.BadParameter(_("give --finished-days, --abandoned-days or both"))
    done = run(database_url, archive, finished_days, abandoned_days, dry_run=dry_run)
    line = _("would remove {finished} finished and {abandoned} abandoned games") if dry_run else \
        _("archived and removed {finished} finished and {abandoned} abandoned games")
    typer.echo("muster: " + line.format(finished=done.finished, abandoned=done.abandoned))


def register(app: typer.Typer) -> None:
    """Add ``muster backup``, ``muster restore`` and ``muster prune``."""
    app.command("backup", help=_("Copy the database to a file while the server keeps running."))(backup)
    app.command("restore", help=_("Load a backup into the database (stop the server first)."))(restore)
    app.command("prune", help=_("Archive old finished and abandoned games as JSON, then delete them."))(prune)
