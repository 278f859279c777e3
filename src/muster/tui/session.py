"""The interactive terminal session: one game, each seat played by a person or a bot.

Every line typed is either a choice number or a command (``help``, ``undo``, ``save FILE``,
``log [N]``, ``hand``, ``compact``, ``full``, ``quit``). Nothing typed wrongly ever reaches the
game: bad input only sets a message, shown under the choices on the next redraw. Ctrl-C (and ``quit``) offers to save.
With two people at one screen ("hot-seat"), the screen pauses for the hand-over whenever the
other player is to act, so neither sees the other's hand.
"""

from __future__ import annotations

import inspect
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from babel.numbers import format_percent
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from muster.ai.base import Bot, make_bot
from muster.analysis.consent import HintConsent, HintsRefusedError
from muster.core import Game, GameError
from muster.core.registry import game_module
from muster.error_texts import translate, words_of
from muster.i18n import N_, translator
from muster.tui.part import terminal_part

LOG_LINES = 10
"""Log lines shown on every screen (more when more happened since the player last looked)."""
MAX_NEW_LINES = 24
EXIT_OK, EXIT_EOF, EXIT_INTERRUPTED = 0, 1, 130
HINT_HEADER = N_("Hints (estimated win chance for {side} after this choice):")
STRONGEST_PICK = N_("the strongest bot's choice")
HINTS_OFF = N_("Hints are off in this game.")
NO_HINTS = N_("This game has no hints.")


def _umask() -> int:
    """The process's file-creation mask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _shorten(text: str, limit: int = 40) -> str:
    """Echo at most ``limit`` characters of what was typed."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class EndSession(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised inside the loop to stop the session with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def save_game(game: Game, path: str) -> Path:
    """Write the game's save file to ``path`` atomically (an existing file is only replaced when
    the new one is complete). Raises OSError when the file cannot be written."""
    target = Path(path).expanduser()
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".muster-save-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(game.dumps())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes private files; a save file is an ordinary one
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


class Session:
    """Runs one game in the terminal until it ends or the people stop it.

    ``players`` maps each seat to a :class:`~muster.ai.base.Bot`, or to None for a person.
    ``read`` reads one line after showing a prompt (raises EOFError at end of input and
    KeyboardInterrupt on Ctrl-C, like :func:`input`).
    """

    def __init__(
        self,
        game: Game,
        players: dict[str, Bot | None],
        console: Console,
        read: Callable[[str], str] | None = None,
        compact: bool = False,
        hints: HintConsent | None = None,
        lang: str = "en",
        terminal: Any | None = None,
    ) -> None:
        self.game = game
        self.ui = terminal if terminal is not None else terminal_part(game.rules)
        """The game's terminal part (see :class:`muster.tui.part.TerminalPart`): ``terminal``, else the game's own,
        else a plain one."""
        self.hints = hints
        """The game's hint option (None: hints off)."""
        self.lang = lang
        """The language of the log and of the words the session prints (``muster play --lang``); a game
        without a translation (its terminal UI has no ``label_in``) stays in English where it has no words."""
        self.tr = translator(lang)
        self.compact = compact
        """Draw the short screen (the game's ``screen`` with ``compact``); 'compact'/'full' switch it."""
        self.players = players
        self.console = console
        self.read = read or console.input
        self.message: RenderableType | None = None
        self.seen: dict[str, int] = {seat: len(game.log(lang)) for seat in self.ui.SEATS}
        self.facing: str | None = None
        """The person currently in front of the screen (hot-seat)."""
        self.bot_busy = False

    def seat_name(self, seat: str) -> str:
        """A seat's name in the session's language."""
        key = f"side:{seat}"
        text = self.tr.gettext(key)
        return str(self.ui.SEAT_NAME.get(seat, seat)) if text == key else text

    @property
    def translated(self) -> bool:
        """Whether the game's own words (choices, prompts, the log) are rendered in a language other than English."""
        return self.lang != "en" and hasattr(self.ui, "label_in")

    def in_lang(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the game's panel ``name``, in the session's language when that panel takes a ``lang``."""
        fn = getattr(self.ui, name)
        if self.lang != "en" and "lang" in inspect.signature(fn).parameters:
            kwargs["lang"] = self.lang
        return fn(*args, **kwargs)

    def phase_help(self, view: dict[str, Any]) -> str:
        """The game's help on the current decision, in the session's language where the game has it."""
        if self.translated:
            return str(self.ui.phase_help(view, self.lang))
        return str(self.ui.phase_help(view))

    @property
    def humans(self) -> list[str]:
        """The seats played by people."""
        return [seat for seat in self.ui.SEATS if self.players.get(seat) is None]

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the session is stopped; returns a process exit code."""
        while True:
            try:
                if self.game.active_seat is None:
                    return self.finish()
                self.step()
            except EndSession as stop:
                return stop.code
            except KeyboardInterrupt:
                # The game object is only changed by complete, validated actions, so an interrupt
                # at any point leaves it consistent; offer to keep it.
                try:
                    self.offer_save(self.tr.gettext("Interrupted."))
                except EndSession as stop:
                    return stop.code

    def step(self) -> None:
        """One decision: a bot's move, or a person's screen and one line of input."""
        seat = self.game.active_seat
        assert seat is not None
        bot = self.players.get(seat)
        if bot is not None:
            self.bot_move(seat, bot)
            return
        self.bot_busy = False
        if len(self.humans) == 2 and self.facing != seat:
            self.hand_over(seat)
        self.facing = seat
        self.draw(seat)
        line = self.ask(f"[{self.ui.SEAT_STYLE[seat]}]{self.seat_name(seat)}[/] › ")
        self.handle(seat, line)

    def bot_move(self, seat: str, bot: Bot) -> None:
        """Let a bot choose for ``seat`` and apply its choice."""
        if not self.bot_busy and self.humans:
            playing = self.tr.fmt("{side} ({bot}) is playing…", side=self.seat_name(seat), bot=bot.name)
            self.console.print(f"[dim]{escape(playing)}[/dim]")
            self.bot_busy = True
        action = bot.choose(self.game.view(seat), self.game.legal_actions(), seat)
        self.game.apply(action, seat)
        if not self.humans:
            self.print_new_log()

    def ask(self, prompt: str) -> str:
        """Read one line; end of input stops the session without touching the game."""
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print("\n[yellow]" + escape(self.tr.gettext(
                "End of input: no move was made and the session stops here "
                "(use 'save FILE' before leaving to keep a game).")) + "[/yellow]")
            raise EndSession(EXIT_EOF) from None

    # --- screens ----------------------------------------------------------------------------
    def draw(self, seat: str) -> None:
        """Clear the terminal and show everything ``seat`` needs for the current decision."""
        log = self.game.log(self.lang)
        new = max(0, len(log) - self.seen[seat])
        shown = min(max(LOG_LINES, new), MAX_NEW_LINES)
        self.console.clear()
        view = self.game.view(seat)
        prompt, labelled = self.game.prompt, self.game.labelled_actions()
        if self.translated:  # the rules' choices and prompt, rendered from their messages in the reader's language
            prompt = self.ui.prompt_in(view, seat, prompt, self.lang)
            with_view = {"view": view} if "view" in inspect.signature(self.ui.label_in).parameters else {}
            labelled = [(action, self.ui.label_in(action, seat, label, self.lang, **with_view))
                        for action, label in labelled]
        self.console.print(self.in_lang("screen", view, seat, prompt, labelled, log[-shown:], new,
                                        compact=self.compact))
        tr = self.tr
        undo = tr.gettext("undo") + " · " if self.game.can_undo(seat) else ""
        layout = tr.gettext("hand · full") if self.compact else tr.gettext("compact")
        line = tr.fmt("Type a number 1–{n} · help · {undo}save FILE · log [N] · {layout} · quit",
                      n=len(self.game.legal_actions()), undo=undo, layout=layout)
        self.console.print(f"[dim]{escape(line)}[/dim]")
        if self.message is not None:
            self.console.print(self.message)
            self.message = None

    def hand_over(self, seat: str) -> None:
        """Hot-seat: hide the board and hands until the next player is at the screen."""
        self.console.clear()
        self.console.print(
            Panel(
                Text.assemble(
                    (self.tr.fmt("Pass the screen to the {side} player.", side=self.seat_name(seat)),
                     self.ui.SEAT_STYLE[seat]),
                    "\n" + self.tr.gettext("The other player's hand stays hidden. Press Enter when ready."),
                ),
                title=self.tr.gettext("Hot-seat"),
            )
        )
        self.ask("")

    def print_new_log(self) -> None:
        """Bots only: print the log lines written since the last call (a watchable game)."""
        log = self.game.log(self.lang)
        start = self.seen[self.ui.SEATS[0]]
        for line in log[start:]:
            self.console.print(line, highlight=False)
        for seat in self.ui.SEATS:
            self.seen[seat] = len(log)

    # --- input ------------------------------------------------------------------------------
    def handle(self, seat: str, line: str) -> None:
        """Act on one line typed by the person playing ``seat``."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        count = len(self.game.legal_actions())
        if text.isdecimal() and len(text) <= 9:  # isdecimal: int() accepts every such string
            self.choose(seat, int(text), count)
        elif word in ("help", "h", "?"):
            self.message = Text(self.phase_help(self.game.view(seat)))
        elif word in ("undo", "u"):
            self.undo(seat)
        elif word == "save":
            self.save(rest)
        elif word == "log":
            self.show_log(rest)
        elif word == "hand":
            self.message = self.in_lang("hand_panel", self.game.view(seat), seat)
        elif word == "hint":
            self.hint(seat)
        elif word in ("compact", "full"):
            self.compact = word == "compact"
            self.message = Text(self.tr.fmt("Screen layout: {layout}.", layout=self.tr.gettext(word)), style="green")
        elif word in ("quit", "q", "exit"):
            self.offer_save(self.tr.gettext("Leaving the game."))
        elif not text:
            self.message = Text(self.tr.fmt("Type the number of a choice (1–{n}), or 'help'.", n=count),
                                style="yellow")
        else:
            self.message = Text(
                self.tr.fmt("Not understood: {text}. Type a number from 1 to {n}, or one of: "
                            "help, undo, save FILE, log [N], hand, hint, compact, full, quit.",
                            text=repr(_shorten(text)), n=count),
                style="red",
            )

    def hint(self, seat: str) -> None:
        """Show the strongest bot's top three choices with estimated chances (if hints are agreed and the game
        has an analysis to give them)."""
        tr = self.tr
        analysis = game_module(self.game.rules.info.name).part("analysis")
        if analysis is None:
            self.message = Text(tr.gettext(NO_HINTS), style="yellow")
            return
        try:
            if self.hints is None:
                raise HintsRefusedError(HINTS_OFF)
            self.hints.check(seat)
        except HintsRefusedError as exc:
            self.message = Text(translate(words_of(exc), self.lang), style="yellow")
            return
        legal = self.game.legal_actions()
        lines = [tr.fmt(HINT_HEADER, side=analysis.side_in(seat, self.lang))]
        for advice in analysis.hints(self.game.view(seat), legal, seat, rules=self.game.rules, search=make_bot):
            number = legal.index(advice.action) + 1
            mark = f" ({tr.gettext(STRONGEST_PICK)})" if advice.strongest else ""
            label = self.ui.label_in(advice.action, seat, advice.label, self.lang) if self.translated else advice.label
            chance = format_percent(advice.chance, locale=self.lang)
            lines.append(f"  {number}. {label}: {chance}{mark} — {analysis.reason_in(advice.reason, self.lang)}")
        self.message = Text("\n".join(lines))

    def choose(self, seat: str, number: int, count: int) -> None:
        """Apply choice ``number`` (1-based) if it exists."""
        if not 1 <= number <= count:
            self.message = Text(self.tr.fmt("There is no choice {number}: choose from 1 to {n}.", number=number,
                                            n=count), style="red")
            return
        action = self.game.legal_actions()[number - 1]
        try:
            self.game.apply(action, seat)
        except GameError as exc:  # cannot happen for a listed action; reported rather than hidden
            self.message = Text(self.tr.fmt("That move was refused: {error}", error=exc), style="red")
            return
        self.seen[seat] = len(self.game.log(self.lang))

    def undo(self, seat: str) -> None:
        """Go back to the start of this turn, if the engine allows it."""
        if not self.game.can_undo(seat):
            self.message = Text(
                self.tr.gettext("Nothing to undo: undo returns to the start of your own turn, and only while no dice "
                                "were rolled and no cards drawn since."),
                style="yellow",
            )
            return
        self.game.undo(seat)
        self.seen[seat] = min(self.seen[seat], len(self.game.log(self.lang)))
        self.message = Text(self.tr.gettext("Back to the start of your turn."), style="green")

    def save(self, path: str) -> None:
        """``save FILE``: write the save file and say where."""
        if not path:
            self.message = Text(self.tr.gettext("Give a file name: save FILE"), style="yellow")
            return
        try:
            target = save_game(self.game, path)
        except OSError as exc:
            self.message = Text(self.tr.fmt("Could not save to {path}: {error}", path=path, error=exc.strerror or exc),
                                style="red")
            return
        moves = len(self.game.actions)
        self.message = Text(
            self.tr.nfmt("Saved {n} move to {path}. Continue it with: muster play --load {path}",
                         "Saved {n} moves to {path}. Continue it with: muster play --load {path}", moves,
                         path=target),
            style="green",
        )

    def show_log(self, arg: str) -> None:
        """``log [N]``: the last N lines of the game's log (default 40)."""
        if arg and not (arg.isdecimal() and len(arg) <= 9):
            self.message = Text(self.tr.gettext("Use 'log' or 'log N' with N a number of lines."), style="yellow")
            return
        lines = self.game.log(self.lang)[-(int(arg) if arg else 40) :] if arg != "0" else []
        self.message = Text("\n".join(lines) if lines else self.tr.gettext("(no log lines)"), style="white")

    def offer_save(self, why: str) -> None:
        """Ask whether to save before leaving; returns only if the player goes back to the game."""
        self.console.print(
            f"\n[yellow]{escape(why)}[/yellow] " + escape(self.tr.gettext(
                "Type a file name to save and quit, 'c' to continue playing, or just Enter to quit without saving."))
        )
        answer = self.ask_save(allow_continue=True)
        if answer == "continue":
            self.message = Text(self.tr.gettext("Back to the game."), style="green")
            return
        if answer == "skipped":
            self.console.print(self.tr.gettext("Quit without saving."))
            raise EndSession(EXIT_INTERRUPTED)
        raise EndSession(EXIT_OK)

    def ask_save(self, allow_continue: bool) -> str:
        """Read a file name and save there (asking again if it cannot be written).

        Returns ``"saved"``, ``"skipped"`` (empty line, end of input or Ctrl-C) or ``"continue"``.
        """
        while True:
            try:
                answer = self.read(self.tr.gettext("save as") + " › ").strip()
            except (EOFError, KeyboardInterrupt):
                answer = ""
            if allow_continue and answer.lower() in ("c", "continue"):
                return "continue"
            if not answer:
                return "skipped"
            try:
                target = save_game(self.game, answer)
            except OSError as exc:
                failed = self.tr.fmt("Could not save to {path}: {error}", path=answer, error=exc)
                self.console.print(f"[red]{escape(failed)}[/red] " + escape(self.tr.gettext("Try again.")))
                continue
            self.console.print(escape(self.tr.fmt("Saved to {path}. Continue it with: muster play --load {path}",
                                                  path=target)))
            return "saved"

    def finish(self) -> int:
        """The game is over: show the final position and the result; offer to save the record."""
        outcome = self.game.outcome
        assert outcome is not None
        view = self.game.view(None)
        if self.humans:
            self.console.clear()
        self.console.print(self.in_lang("board_panel", view))
        self.console.print(self.in_lang("tracks_panel", view))
        if self.humans:  # a watched game has printed its whole log already
            for line in self.game.log(self.lang)[-LOG_LINES:]:
                self.console.print(line, highlight=False)
        winner = self.seat_name(outcome.winner) if outcome.winner else self.tr.gettext("Nobody")
        detail = outcome.detail
        if self.translated and hasattr(self.ui, "outcome_detail_in"):
            detail = self.ui.outcome_detail_in(self.game.state.log, self.lang) or detail
        self.console.print(
            Panel(
                Text.assemble((self.tr.fmt("GAME OVER: {side} wins. ", side=winner), "bold"), detail),
                border_style=self.ui.SEAT_STYLE.get(outcome.winner or "", "bold"),
            )
        )
        if self.humans:
            self.console.print(self.tr.gettext("Type a file name to save the finished game, or just Enter to leave."))
            self.ask_save(allow_continue=False)
        return EXIT_OK
