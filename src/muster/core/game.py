"""A game in progress: rules + seed + options + the list of actions taken.

:class:`Game` is the object people use, in the spirit of python-chess's ``Board``: it
validates every action against the legal list, keeps the action history (so a game can
be replayed, saved, loaded and undone), and never lets a bad input change anything.
"""

from __future__ import annotations

import json
from typing import Any

from muster.core.interface import (
    JSON,
    Action,
    CorruptStateError,
    IllegalActionError,
    Outcome,
    Rules,
    UndoError,
)

RECORD_FORMAT = "muster-game"
RECORD_VERSION = 1


class Game:
    """A rules-enforced game with history. Create with :func:`muster.core.new_game`."""

    def __init__(self, rules: Rules, seed: int, options: dict[str, str] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.options: dict[str, str] = dict(options or {})
        self.state: Any = rules.setup(seed, self.options)
        self.actions: list[Action] = []

    # --- asking -------------------------------------------------------------------------
    @property
    def active_seat(self) -> str | None:
        """The seat to act, or None when the game is over."""
        return self.rules.active_seat(self.state)

    def legal_actions(self) -> list[Action]:
        """The legal actions for the active seat."""
        return self.rules.legal_actions(self.state)

    def labelled_actions(self) -> list[tuple[Action, str]]:
        """The legal actions with their human-readable labels."""
        return [(a, self.rules.label(self.state, a)) for a in self.rules.legal_actions(self.state)]

    @property
    def prompt(self) -> str:
        """What is being decided, in words."""
        return self.rules.prompt(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None."""
        return self.rules.outcome(self.state)

    def view(self, seat: str | None) -> dict[str, JSON]:
        """What ``seat`` may see (None: spectator)."""
        return self.rules.view(self.state, seat)

    def log(self) -> list[str]:
        """The game so far in words."""
        return self.rules.log(self.state)

    def find_action(self, text: str) -> Action:
        """The legal action whose label is ``text`` (case and surrounding spaces ignored), or else the
        only one whose label contains it, or whose ``"verb arg"`` form equals it.

        ``game.apply(game.find_action("end the turn"))``. Raises
        :class:`~muster.core.interface.IllegalActionError` naming the candidates when no action or
        more than one matches.
        """
        wanted = " ".join(text.split()).casefold()
        labelled = self.labelled_actions()
        for action, label in labelled:
            if label.casefold() == wanted or " ".join(str(x) for x in action if x is not None).casefold() == wanted:
                return action
        partial = [(a, label) for a, label in labelled if wanted and wanted in label.casefold()]
        if len(partial) == 1:
            return partial[0][0]
        shown = partial or labelled
        names = "; ".join(label for _, label in shown[:12]) + ("; …" if len(shown) > 12 else "")
        what = "several actions match" if partial else "no legal action matches"
        raise IllegalActionError(f"{what} {text!r}: {names}")

    # --- showing ------------------------------------------------------------------------
    def __repr__(self) -> str:
        where = f"{self.rules.info.name} seed={self.seed}"
        if self.options:
            where += " " + " ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        outcome = self.outcome
        if outcome is not None:
            now = f"over: {outcome.winner or 'draw'} ({outcome.reason})"
        else:
            now = f"{self.active_seat} to act: {self.prompt}"
        return f"<Game {where}, {len(self.actions)} actions, {now}>"

    def _repr_svg_(self) -> str | None:
        """The board drawing, for notebooks (Jupyter shows a ``Game`` as its board)."""
        render = getattr(self.rules, "render_svg", None)
        return render(self.state) if render is not None else None

    # --- acting -------------------------------------------------------------------------
    def apply(self, action: Action | JSON, seat: str | None = None) -> None:
        """Apply an action (an :class:`Action` or its JSON form).

        If ``seat`` is given, it must be the active seat. Raises
        :class:`~muster.core.interface.MalformedActionError` or
        :class:`~muster.core.interface.IllegalActionError`; the game is then unchanged.
        """
        act = action if isinstance(action, Action) else Action.from_json(action)
        active = self.rules.active_seat(self.state)
        if active is None:
            raise IllegalActionError("the game is over")
        if seat is not None and seat != active:
            raise IllegalActionError(f"it is not {seat}'s turn (waiting for {active})")
        if act not in self.rules.legal_actions(self.state):
            raise IllegalActionError(f"illegal action {list(act)} (prompt: {self.rules.prompt(self.state)})")
        work = self.rules.clone(self.state)
        self.rules.apply(work, act)
        self.state = work
        self.actions.append(act)

    def can_undo(self, seat: str | None = None) -> bool:
        """True if undo back to the start of the current turn is allowed (for ``seat``, if given)."""
        start = self.rules.undo_start(self.state)
        if start is None or start >= len(self.actions):
            return False
        return seat is None or seat == self.rules.active_seat(self.state)

    def undo(self, seat: str | None = None) -> None:
        """Return to the start of the current turn (replaying the history up to it)."""
        if not self.can_undo(seat):
            raise UndoError("nothing to undo, or dice were rolled or cards drawn since this turn began")
        start = self.rules.undo_start(self.state)
        assert start is not None
        self._replay(self.actions[:start])

    def _replay(self, actions: list[Action]) -> None:
        state = self.rules.setup(self.seed, self.options)
        for act in actions:
            self.rules.apply(state, act)
        self.state = state
        self.actions = list(actions)

    # --- saving -------------------------------------------------------------------------
    def to_record(self) -> dict[str, JSON]:
        """A save file: how to rebuild the game, plus the full current state for checking."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.rules.info.name,
            "rules_version": self.rules.info.version,
            "seed": self.seed,
            "options": self.options,
            "actions": [a.to_json() for a in self.actions],
            "state": self.rules.to_json(self.state),
        }

    def dumps(self) -> str:
        """The save file as a JSON string."""
        return json.dumps(self.to_record(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_record(cls, rules: Rules, record: JSON) -> Game:
        """Load a save file, replaying its actions and checking the stored state matches.

        Raises :class:`CorruptStateError` for anything wrong with it.
        """
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise CorruptStateError("not a muster save file")
        if record.get("game") != rules.info.name:
            raise CorruptStateError(f"save file is for game {record.get('game')!r}")
        recorded = record.get("rules_version")
        if recorded is not None and recorded != rules.info.version:  # files from before the stamp carry none
            raise CorruptStateError(f"save file was made under rules version {recorded!r}, and this muster plays "
                                    f"{rules.info.version!r}: open it with the release that made it")
        seed, options, actions = record.get("seed"), record.get("options", {}), record.get("actions")
        if not isinstance(seed, int) or not isinstance(options, dict) or not isinstance(actions, list):
            raise CorruptStateError("save file lacks a seed, options or action list")
        try:
            game = cls(rules, seed, options)
            for raw in actions:
                game.apply(Action.from_json(raw))
        except CorruptStateError:
            raise
        except Exception as exc:  # any failure while rebuilding means the file is corrupt
            raise CorruptStateError(f"save file does not replay: {exc}") from exc
        stored = record.get("state")
        if stored is not None and stored != rules.to_json(game.state):
            raise CorruptStateError("save file's state does not match its replayed actions "
                                    "(edited, or saved by another release?)")
        return game

    @classmethod
    def loads(cls, rules: Rules, text: str) -> Game:
        """Load a save file from a JSON string."""
        try:
            record = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise CorruptStateError(f"save file is not JSON: {exc}") from exc
        return cls.from_record(rules, record)
