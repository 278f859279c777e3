"""``muster admin``: moderation from the server's own machine: list, suspend and delete accounts and games.

These commands talk to the database directly (the same one ``muster serve`` uses), so they need no web
login; whoever may run them already holds the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from muster.cli.host_commands import DATABASE_HELP
from muster.cli.lang import _

if TYPE_CHECKING:
    from muster.server.accounts import AccountStore
    from muster.server.db import AccountRow

admin = typer.Typer(help=_("Moderation: list, suspend and delete accounts and games."), no_args_is_help=True)

DATABASE = typer.Option("sqlite:///muster.db", "--database-url", envvar="MUSTER_DATABASE_URL", help=DATABASE_HELP)


def _store(database_url: str) -> AccountStore:
    from muster.server.accounts import AccountStore
    from muster.server.db import make_engine, migrate

    engine = make_engine(database_url)
    migrate(engine)
    return AccountStore(engine)


def _account(store: AccountStore, name: str) -> AccountRow:
    found = store.by_name(name)
    if found is None:
        typer.secho(_("muster: no account {name}").format(name=name), fg="red", err=True)
        raise typer.Exit(2)
    return found


@admin.command("users", help=_("List accounts (newest first), with their games and whether they are suspended."))
def users(database_url: str = DATABASE,
          limit: int = typer.Option(100, "--limit", min=1, max=100_000, help=_("Show at most this many."))) -> None:
    """List accounts."""
    from muster.server.admin import list_users

    for row in list_users(_store(database_url), limit):
        flag = "  " + _("suspended") if row["suspended"] else ""
        typer.echo(f"{row['name']}\t{row['created_at']}\t{row['games']}{flag}")


@admin.command("suspend", help=_("Suspend an account: it is logged out everywhere and cannot log in."))
def suspend(name: str = typer.Argument(..., help=_("The account's name.")), database_url: str = DATABASE) -> None:
    """Suspend an account."""
    from muster.server.admin import set_suspended

    store = _store(database_url)
    set_suspended(store, _account(store, name).id, True)
    typer.echo(_("muster: suspended {name}").format(name=name))


@admin.command("unsuspend", help=_("Let a suspended account log in again."))
def unsuspend(name: str = typer.Argument(..., help=_("The account's name.")), database_url: str = DATABASE) -> None:
    """Lift a suspension."""
    from muster.server.admin import set_suspended

    store = _store(database_url)
    set_suspended(store, _account(store, name).id, False)
    typer.echo(_("muster: {name} may log in again").format(name=name))


@admin.command("delete-user", help=_("Delete an account (its games stay for its opponents)."))
def delete_user(name: str = typer.Argument(..., help=_("The account's name.")), database_url: str = DATABASE) -> None:
    """Delete an account."""
    store = _store(database_url)
    store.delete(_account(store, name).id)
    typer.echo(_("muster: deleted {name}").format(name=name))


@admin.command("games", help=_("List games (newest first), or one account's games."))
def games(database_url: str = DATABASE,
          user: str | None = typer.Option(None, "--user", help=_("Only this account's games.")),
          limit: int = typer.Option(100, "--limit", min=1, max=100_000, help=_("Show at most this many."))) -> None:
    """List games."""
    from muster.server.admin import list_games

    store = _store(database_url)
    account_id = _account(store, user).id if user else None
    for row in list_games(store, account_id, limit):
        typer.echo(f"{row['game_id']}\t{row['game']}\t{row['status']}\t{row['steps']}\t{row['updated_at']}\t"
                   f"{row['players']}")


@admin.command("delete-game", help=_("Delete a game and everything stored with it."))
def delete_game(game_id: str = typer.Argument(..., help=_("The game's id.")), database_url: str = DATABASE) -> None:
    """Delete a game."""
    from muster.server.admin import delete_game as run

    if not run(_store(database_url), game_id):
        typer.secho(_("muster: no game {game}").format(game=game_id), fg="red", err=True)
        raise typer.Exit(2)
    typer.echo(_("muster: deleted game {game}").format(game=game_id))


def register(app: typer.Typer) -> None:
    """Add ``muster admin``."""
    app.add_typer(admin, name="admin")
