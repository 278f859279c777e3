"""The command line's language: ``--lang pl|en``, else ``MUSTER_LANG``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

Help texts are made when the commands are defined, before typer parses the command line, so :func:`_` reads
``--lang`` straight from ``sys.argv`` (``muster simulate --help --lang pl``); typer's own words ("Usage",
"Options") stay English. Output follows each command's ``--lang`` option through :func:`tr_of`.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from muster.i18n import N_, Translator, argv_lang, check_lang, from_environment, translator

HELP_LANG = argv_lang(sys.argv[1:])
"""The language of the help texts (fixed when the commands are defined)."""


def _(msgid: str) -> str:
    """A help text in :data:`HELP_LANG`."""
    return translator(HELP_LANG).gettext(msgid)


LANG_HELP = _("Language: en or pl (default: from LANG).")


def _typer_words() -> None:
    """The words typer lets a program change (its help panels' titles, the default and required marks)."""
    from typer import rich_utils

    for name, msgid in (("OPTIONS_PANEL_TITLE", "Options"), ("COMMANDS_PANEL_TITLE", "Commands"),
                        ("ARGUMENTS_PANEL_TITLE", "Arguments"), ("ERRORS_PANEL_TITLE", "Error"),
                        ("DEFAULT_STRING", "[default: {}]"), ("REQUIRED_LONG_STRING", "[required]"),
                        ("ABORTED_TEXT", "Aborted.")):
        setattr(rich_utils, name, _(msgid))


TYPER_WORDS = (N_("Options"), N_("Commands"), N_("Arguments"), N_("Error"), N_("[default: {}]"), N_("[required]"),
               N_("Aborted."))
"""Typer's own words, translated for the help screens (``_typer_words``)."""
if HELP_LANG != "en":
    _typer_words()


def lang_option() -> str | None:
    """A ``--lang`` option for a command."""
    value: str | None = typer.Option(None, "--lang", help=LANG_HELP)
    return value


def tr_of(lang: str | None, console: Console | None = None) -> Translator:
    """The translator of a command's ``--lang`` (else the environment's); an unknown language exits with 2."""
    try:
        return translator(check_lang(lang) if lang else from_environment())
    except ValueError as exc:
        (console or Console()).print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
