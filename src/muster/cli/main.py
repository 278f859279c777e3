"""The ``muster`` command: one typer app; each feature area adds its commands from its own module.

Command modules (``muster.cli.<name>``) expose ``register(app)``; they are imported lazily so a
missing optional dependency of one area never breaks the others.
"""

from __future__ import annotations

import importlib

import typer

from muster import __version__
from muster.cli.lang import _
from muster.core.registry import game_modules

app = typer.Typer(help=_("muster: play, watch and measure card-driven wargames."),
                  no_args_is_help=True, add_completion=False)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"muster {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help=_("Print muster's version and exit"))) -> None:
    """muster: play, watch and measure card-driven wargames."""


COMMAND_MODULES = ("engine_commands", "lab_commands", "research_commands", "play_commands", "serve_commands",
                   "analysis_commands", "host_commands", "admin_commands")


def _register_all() -> None:
    for module in COMMAND_MODULES:
        try:
            mod = importlib.import_module(f"muster.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("muster.cli."):
                continue  # that feature area is not present in this build
            raise
        mod.register(app)
    # Each game's own commands (e.g. ``muster card N`` for a card game), beside the shared ones.
    for game in game_modules().values():
        commands = game.part("commands")
        if commands is not None:
            app.add_typer(commands)


_register_all()


def main() -> None:
    """Entry point."""
    app()


if __name__ == "__main__":
    main()
