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
MAX_RECORD_BYTES = 16 * 2**20
"""The largest save file read (a whole game takes well under 1 MB)."""
MAX_RECORD_DEPTH = 64
"""The deepest nesting of lists and objects accepted in a save file (real ones nest under 10)."""


class Game:
    """A rules-enforced game with history. Create with :func:`muster.core.new_game`."""

    def __init__(self, rules: Rules, seed: int, options: dict[str, str] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.options: dict[str, str] = dict(options or {})
        self.state: Any = rules.setup(seed, self.options)
        self.actions: list[Action] = []
        self.undo_floor = 0
        """Undo never goes back before this many actions: the last action that showed another seat
        something hidden (a card from a hand) ended there."""
        self.hold_reveals = False
        """When True, what the acting seat shows of its own hidden facts during its turn (a card played)
        does not yet count as seen: undo may take it back until the turn is committed (it ends, or dice,
        a draw or another seat's hidden facts fix it). Only for a host that shows every other seat the
        game at :attr:`shown_step` meanwhile, as the web app does (see :meth:`hold`)."""
        self._shown: tuple[int, Any] = (0, self.state)
        """The last position others may see (its action count and state): kept so that
        :meth:`shown` costs no replay."""
        self.ended: Outcome | None = None
        """Set when the game ended outside its rules (a player resigned): it is then over, whatever the
        position."""

    @classmethod
    def at_position(cls, rules: Rules, seed: int, options: dict[str, str], state: Any,
                    actions: list[Action]) -> Game:
        """The game whose ``actions`` led to ``state`` (taken over as is, not replayed): for callers that
        keep snapshots of positions, such as the web app's replays."""
        game = cls.__new__(cls)
        game.rules, game.seed, game.options = rules, seed, dict(options)
        game.state, game.actions, game.undo_floor, game.hold_reveals = state, list(actions), 0, False
        game._shown = (len(game.actions), state)
        game.ended = None
        return game

    # --- asking -------------------------------------------------------------------------
    @property
    def active_seat(self) -> str | None:
        """The seat to act, or None when the game is over."""
        if self.ended is not None:
            return None
        return self.rules.active_seat(self.state)

    def legal_actions(self) -> list[Action]:
        """The legal actions for the active seat (none once a player resigned)."""
        if self.ended is not None:
            return []
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
        if self.ended is not None:
            return self.ended
        return self.rules.outcome(self.state)

    def view(self, seat: str | None) -> dict[str, JSON]:
        """What ``seat`` may see (None: spectator)."""
        return self.rules.view(self.state, seat)

    def views(self, seats: list[str | None]) -> dict[str | None, dict[str, JSON]]:
        """``view`` for each of ``seats`` (rules offering ``views(state, seats)`` serialise the state once
        for all of them; their views may share unchanged parts, so treat them as read-only)."""
        many = getattr(self.rules, "views", None)
        if many is not None:
            return dict(many(self.state, seats))
        return {seat: self.rules.view(self.state, seat) for seat in seats}

    def log(self, lang: str | None = None, start: int = 0) -> list[str]:
        """The game so far in words of ``lang`` (None: English), from its ``start``-th line on.

        The log only grows as actions are applied, so a caller holding the first lines can ask for
        the rest alone (rules offering ``log_from(state, start, lang)`` then render only those)."""
        if start:
            log_from = getattr(self.rules, "log_from", None)
            if log_from is not None:
                return list(log_from(self.state, start, lang))
        lines = self.rules.log(self.state, lang)
        return lines[start:] if start else lines

    def log_entries(self, start: int = 0) -> list[Any] | None:
        """The log's language-neutral entries from the ``start``-th on, one per line of :meth:`log`: message
        dicts ``{"m": msgid, "a": args}`` (an older game's English lines as strings); None where the rules
        keep their log only in words (rules offer ``log_entries(state, start)`` to give theirs)."""
        entries = getattr(self.rules, "log_entries", None)
        return None if entries is None else list(entries(self.state, start))

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
        active = self.active_seat
        if active is None:
            raise IllegalActionError("the game is over")
        if seat is not None and seat != active:
            raise IllegalActionError(f"it is not {seat}'s turn (waiting for {active})")
        if act not in self.rules.legal_actions(self.state):
            raise IllegalActionError(f"illegal action {list(act)} (prompt: {self.rules.prompt(self.state)})")
        work = self.rules.clone(self.state)
        before = self.rules.private_info(work)
        self.rules.apply(work, act)
        self.state = work
        self.actions.append(act)
        if _revealed(before, self.rules.private_info(work), active if self.hold_reveals else None):
            self.undo_floor = len(self.actions)
        self._note_shown()

    def hold(self) -> None:
        """Hold from now on what the acting seat shows of its own hidden facts until its turn is committed
        (sets ``hold_reveals``; a game with a history works out its undo floor again)."""
        if not self.hold_reveals:
            self.hold_reveals = True
            if self.actions:
                self._replay(self.actions)

    @property
    def shown_step(self) -> int:
        """How many actions the other seats may see: all of them, except, while reveals are held
        (``hold_reveals``), the acting seat's turn so far as long as it may still be undone."""
        start = self._undo_target() if self.hold_reveals else None
        return len(self.actions) if start is None or start >= len(self.actions) else start

    def shown(self) -> Game:
        """The game at :attr:`shown_step` (itself when that is now): what any seat but the acting one may
        see, as long as the acting seat's turn can still be taken back."""
        step = self.shown_step
        if step == len(self.actions):
            return self
        at, state = self._shown
        if at != step:  # not seen being reached (cannot happen while the rules start turns as they do)
            state = self.rules.setup(self.seed, self.options)
            for act in self.actions[:step]:
                self.rules.apply(state, act)
            self._shown = (step, state)
        return Game.at_position(self.rules, self.seed, self.options, state, self.actions[:step])

    def _note_shown(self) -> None:
        if self.shown_step == len(self.actions):  # states in self.state are never changed in place after
            self._shown = (len(self.actions), self.state)

    def resign(self, seat: str, reason: str = "resigned") -> None:
        """``seat`` gives up: the game is over and, with two seats, the other one wins (with more, nobody).
        ``reason`` says why the game ended outside the rules: ``"resigned"``, or e.g. ``"timeout"`` when a
        platform ends it for a player out of time.

        Raises :class:`~muster.core.interface.IllegalActionError` if the game is already over or ``seat``
        is not one of its seats."""
        if seat not in self.rules.info.seats:
            raise IllegalActionError(f"no seat {seat!r} in {self.rules.info.name}")
        if self.outcome is not None:
            raise IllegalActionError("the game is over")
        others = [s for s in self.rules.info.seats if s != seat]
        detail = f"{seat} resigned" if reason == "resigned" else f"{seat} lost: {reason}"
        self.ended = Outcome(others[0] if len(others) == 1 else None, reason, detail)

    def _undo_target(self) -> int | None:
        if self.ended is not None:
            return None
        start = self.rules.undo_start(self.state)
        if start is None:
            return None
        return max(start, self.undo_floor)

    def can_undo(self, seat: str | None = None) -> bool:
        """True if undo is allowed (for ``seat``, if given): back to the start of the current turn, or to
        just after the turn's last action that showed another seat a hidden card, whichever is later."""
        start = self._undo_target()
        if start is None or start >= len(self.actions):
            return False
        return seat is None or seat == self.rules.active_seat(self.state)

    def undo(self, seat: str | None = None, steps: int | None = None) -> None:
        """Take back the current turn's actions (replaying the history up to :meth:`can_undo`'s point), or
        only its last ``steps`` of them."""
        if not self.can_undo(seat):
            raise UndoError("nothing to undo: dice were rolled, cards drawn or a card shown since this turn began")
        start = self._undo_target()
        assert start is not None
        if steps is not None:
            start = max(start, len(self.actions) - max(steps, 1))
        self._replay(self.actions[:start])

    def _replay(self, actions: list[Action]) -> None:
        state = self.rules.setup(self.seed, self.options)
        floor = 0
        for step, act in enumerate(actions, 1):
            before = self.rules.private_info(state)
            actor = self.rules.active_seat(state)
            self.rules.apply(state, act)
            if _revealed(before, self.rules.private_info(state), actor if self.hold_reveals else None):
                floor = step
        self.state = state
        self.actions = list(actions)
        self.undo_floor = floor
        if self.shown_step == len(actions):
            self._shown = (len(actions), state)

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
    def loads(cls, rules: Rules, text: str | bytes) -> Game:
        """Load a save file from a JSON string, or from the file's bytes (which must be UTF-8).

        Whatever the input, the only error raised is :class:`CorruptStateError`, with a one-line message.
        """
        if isinstance(text, bytes):
            if len(text) > MAX_RECORD_BYTES:
                raise CorruptStateError(f"save file is too large ({len(text)} bytes; at most {MAX_RECORD_BYTES})")
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptStateError(f"save file is not UTF-8 text (bad byte at offset {exc.start})") from exc
        try:
            record = json.loads(text)
        except RecursionError as exc:
            raise CorruptStateError(f"save file nests deeper than {MAX_RECORD_DEPTH} levels") from exc
        except (ValueError, TypeError) as exc:
            raise CorruptStateError(f"save file is not JSON: {exc}") from exc
        if _depth(record) > MAX_RECORD_DEPTH:
            raise CorruptStateError(f"save file nests deeper than {MAX_RECORD_DEPTH} levels")
        return cls.from_record(rules, record)


def _revealed(before: dict[str, frozenset[Any]], after: dict[str, frozenset[Any]], held: str | None = None) -> bool:
    """True if some seat's hidden facts lost one (it became known to others, e.g. a card played); the
    ``held`` seat's own are not counted (what it shows is held from the others until its turn is committed,
    while what another seat shows it cannot be taken back)."""
    return any(not facts <= after.get(seat, frozenset()) for seat, facts in before.items() if seat != held)


def _depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (counted without recursion)."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth + 1)
            pending.extend((child, depth + 1) for child in children if isinstance(child, (list, dict)))
    return deepest
