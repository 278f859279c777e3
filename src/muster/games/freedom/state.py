"""The complete state of a game of Freedom!: plain lists and dicts, JSON-ready, cheap to copy.

Per-space arrays are indexed like :class:`~muster.games.freedom.board.Board`. The
decision stack ``stack`` holds *frames*: small dicts whose ``kind`` names the current
prompt (Rally the Troops' "states"); see :mod:`muster.games.freedom.engine`.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Final, Literal, Required, TypedDict

from muster.core.frames import MachineState, copy_frames
from muster.core.interface import CorruptStateError
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT

STATE_FORMAT: Final = 1

PER_SPACE: Final = ("exp", "ally", "ins", "cannon", "damage")
"""Per-space arrays: Expeditionary, Allied and Insurgent units, the cannon code, Wall damage (0–2)."""


FrameKind = Literal[
    "action_phase", "action_phase_end", "administration", "administration_draw", "after_turn", "ap", "cannons",
    "cannons_phase", "card_turn", "ev_advance", "ev_attack", "ev_build", "ev_camp_cannon", "ev_camp_to_row4",
    "ev_choose_support", "ev_civilians", "ev_damage", "ev_fire", "ev_fire_one", "ev_from_camp", "ev_grenades",
    "ev_night_works", "ev_place_imperial", "ev_plea", "ev_pool_to_camp", "ev_raid", "ev_regroup", "ev_remove",
    "ev_repair", "ev_send_back", "ev_spike", "ev_support", "ev_take_island", "ev_to_camp", "ev_track", "ev_train",
    "final_trigger", "government", "imperial_desertion", "imperial_money", "imperial_rewards", "imperial_supplies",
    "insurgent_population", "insurgent_rewards", "insurgent_upkeep", "morale_choice", "opening", "period_change",
    "period_change_rest", "place_allied", "place_insurgent", "remove_units", "replenishment", "round", "round_end",
    "round_over", "select", "victory_check",
]
"""Every kind of frame Freedom!'s rules push: an automatic step or a decision each."""


class FrameFields(TypedDict, total=False):
    """Every field a Freedom! frame may carry besides its ``kind`` (each kind uses a few of them); the
    keyword arguments of :func:`muster.games.freedom.engine.frame`."""

    seat: str
    """The deciding seat (``imperial`` or ``insurgent``)."""
    side: str
    """The side whose units, support or track the step is about."""
    left: int
    """Repetitions still to do (units to place or remove, attacks to make, …)."""
    src: str | None
    """The space chosen as the source so far (None: not chosen yet)."""
    cls: str | None
    """The unit class chosen at the source (``E``/``A`` or attacks already made; None: not chosen yet)."""
    op: str
    """A ``select`` frame's :class:`~muster.games.freedom.engine.Op` name."""
    card: int
    """The number of the card whose Action Points an ``ap`` frame spends."""
    ap: int
    """Action Points left on the card."""
    printed: int
    """The card's printed Action Points."""
    mode: str
    """How an ``ap`` frame's points came: ``card`` (a card played for its points) or ``mahmud`` (Captain
    Mahmud's lagoon moves)."""
    prep_used: bool
    """True once the Preparation track was drawn on for this card."""
    reward: int
    """Money the Imperial player earns at the end of this card."""
    rewarded: bool
    """True once the Imperial reward bonus was taken for this card."""
    attack_limit: int
    """How many times one unit may attack during this card."""
    spent: dict[str, list[int]]
    """Per space id, the attacks already made by each unit there that has attacked during this card."""
    fired: list[str]
    """The spaces whose cannons have already fired."""
    moved: list[str]
    """Units already moved by the event, as ``space:kind``."""
    done: list[str]
    """Areas already chosen."""
    arrived: dict[str, int]
    """Per space id, the units that have already advanced there this Opening."""
    row: str | None
    """The row the Opening's advance is restricted to (``camp`` or a row number; None: any)."""
    paid: bool
    """False while the Insurgent's free Opening regroup has not been paid for."""
    moved_to: str
    """The space the first unit moved to (a second move may not leave it)."""
    bonus: int
    """Added to each die roll."""
    only: str | None
    """The only kind of unit that may be chosen (None: any)."""
    where: str
    """Which spaces qualify (a name of :func:`muster.games.freedom.cards.primitives.spaces_where`)."""
    what: str
    """What is placed: ``unit`` or ``cannon``."""
    why: str
    """Why units are removed, in words for the prompt and the log."""
    when: str
    """When a victory check runs: ``actions`` (after the action phase) or ``round`` (at its end)."""
    owner: str | None
    """The side that must control a chosen area (None: any)."""
    exclude_row: int | None
    """A mainland row whose spaces may not be chosen (None or 0: none excluded)."""
    from_camp: bool
    """True when the placed units come from the Camp, not the pool."""
    unit: str
    """A kind of unit."""
    count: int
    """How many."""
    delta: int
    """A change of a track or of the civilians."""
    track: str
    """The name of the track that moves."""
    area: str
    """An area id."""
    col: int
    """A column of the board."""
    island: str
    """An island's space id."""
    stone_balls: bool
    """True when the cannon fires stone balls (Stone Cannon Balls)."""
    skip_administration: bool
    """True for the first round, which has no Administration phase."""


class Frame(FrameFields, total=False):
    """One step of Freedom!'s rules on the decision stack (a plain dict at run time)."""

    kind: Required[FrameKind]
    """The step."""


class State(MachineState[Frame]):
    """Everything about one game at one decision point (including the random generator); the decision
    stack and turn bookkeeping are :class:`~muster.core.frames.MachineState`'s."""

    __slots__ = (
        "ally",
        "area_markers",
        "area_side",
        "built_this_round",
        "camp_cannons",
        "cannon",
        "civilians",
        "damage",
        "decks",
        "discards",
        "exp",
        "first",
        "hands",
        "ins",
        "log",
        "played",
        "pools",
        "quiet",
        "rng",
        "round",
        "ruleset",
        "seed",
        "tracks",
        "trigger",
    )

    def __init__(self, blank: bool = False) -> None:
        """The state before setup; ``blank``: no field set at all, for :meth:`clone` to fill in. (Compiled, a
        class runs its ``__init__`` even when made by ``__new__``, so a copy would otherwise build a whole
        fresh state first and throw it away.)"""
        if blank:
            return
        super().__init__()
        n = len(board().ids)
        self.ruleset = "2nd"
        self.seed = 0
        self.rng = 0
        self.round = 1
        self.exp = [0] * n
        self.ally = [0] * n
        self.ins = [0] * n
        self.cannon = [0] * n
        self.damage = [0] * n
        self.camp_cannons = 0
        self.civilians = 0
        self.pools: dict[str, int] = {}
        self.tracks: dict[str, dict[str, int]] = {IMPERIAL: {}, INSURGENT: {}}
        self.area_side: list[str] = []
        self.area_markers: list[int] = []
        self.decks: dict[str, list[int]] = {"A": [], "B": []}
        self.hands: dict[str, list[int]] = {IMPERIAL: [], INSURGENT: []}
        self.discards: dict[str, list[int]] = {"A": [], "B": []}
        self.played: dict[str, int] = {IMPERIAL: 0, INSURGENT: 0}
        self.first = IMPERIAL
        self.trigger: dict[str, Any] | None = None
        self.built_this_round = False
        self.log: list[Any] = []  # muster.i18n log entries (legacy saves: English strings)
        self.quiet = False

    def clone(self) -> State:
        """An independent copy."""
        c = State(blank=True)
        c.ruleset, c.seed, c.rng, c.round, c.step = self.ruleset, self.seed, self.rng, self.round, self.step
        c.exp, c.ally, c.ins = self.exp[:], self.ally[:], self.ins[:]
        c.cannon, c.damage = self.cannon[:], self.damage[:]
        c.camp_cannons, c.civilians = self.camp_cannons, self.civilians
        c.pools = dict(self.pools)
        c.tracks = {IMPERIAL: dict(self.tracks[IMPERIAL]), INSURGENT: dict(self.tracks[INSURGENT])}
        c.area_side, c.area_markers = self.area_side[:], self.area_markers[:]
        c.decks = {"A": self.decks["A"][:], "B": self.decks["B"][:]}
        c.hands = {IMPERIAL: self.hands[IMPERIAL][:], INSURGENT: self.hands[INSURGENT][:]}
        c.discards = {"A": self.discards["A"][:], "B": self.discards["B"][:]}
        c.played = dict(self.played)
        c.first = self.first
        c.trigger = dict(self.trigger) if self.trigger else None
        c.built_this_round = self.built_this_round
        c.stack = copy_frames(self.stack)
        c.log = self.log[:]
        c.result = dict(self.result) if self.result else None
        c.turn_seat, c.turn_start, c.tainted, c.quiet = self.turn_seat, self.turn_start, self.tainted, self.quiet
        # legal lists are never changed, so the copy may share the one kept (with its step and decision)
        c._legal, c._legal_step, c._legal_by = self._legal, self._legal_step, self._legal_by
        return c

    # --- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; per-space arrays become {space id: value} for non-zero values."""
        ids = board().ids

        def sparse(values: list[int]) -> dict[str, int]:
            return dict(compress(zip(ids, values, strict=True), values))  # the non-zero values, in C

        return {
            "format": STATE_FORMAT,
            "board_version": board().version,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "rng": self.rng,
            "round": self.round,
            "step": self.step,
            "spaces": {name: sparse(getattr(self, name)) for name in PER_SPACE},
            "camp_cannons": self.camp_cannons,
            "civilians": self.civilians,
            "pools": dict(self.pools),
            "tracks": {side: dict(t) for side, t in self.tracks.items()},
            "areas": {"side": list(self.area_side), "markers": list(self.area_markers)},
            "decks": {k: list(v) for k, v in self.decks.items()},
            "hands": {k: list(v) for k, v in self.hands.items()},
            "discards": {k: list(v) for k, v in self.discards.items()},
            "played": dict(self.played),
            "first": self.first,
            "trigger": dict(self.trigger) if self.trigger else None,
            "built_this_round": self.built_this_round,
            "stack": copy_frames(self.stack),
            "log": list(self.log),
            "result": dict(self.result) if self.result else None,
            "turn": {"seat": self.turn_seat, "start": self.turn_start, "tainted": self.tainted},
            "quiet": self.quiet,
        }

    @classmethod
    def from_json(cls, data: Any) -> State:
        """Rebuild a state; raises CorruptStateError when the data is not a valid state."""
        try:
            return cls._from_json(data)
        except CorruptStateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise CorruptStateError(f"not a valid Freedom! state: {exc!r}") from exc

    @classmethod
    def _from_json(cls, data: Any) -> State:
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise CorruptStateError("not a Freedom! state (format)")
        b = board()
        if data["board_version"] != b.version:
            raise CorruptStateError("state was saved with another board version")
        s = cls()
        s.ruleset = _str(data["ruleset"], ("1st", "2nd"))
        s.seed, s.rng = _int(data["seed"]), _int(data["rng"])
        s.round, s.step = _int(data["round"]), _int(data["step"])
        for name in PER_SPACE:
            arr = [0] * len(b.ids)
            for sid, value in dict(data["spaces"][name]).items():
                arr[b.index[sid]] = _int(value)
            setattr(s, name, arr)
        s.camp_cannons, s.civilians = _int(data["camp_cannons"]), _int(data["civilians"])
        s.pools = {str(k): _int(v) for k, v in dict(data["pools"]).items()}
        s.tracks = {
            side: {str(k): _int(v) for k, v in dict(data["tracks"][side]).items()} for side in (IMPERIAL, INSURGENT)
        }
        s.area_side = [_str(v, (IMPERIAL, INSURGENT)) for v in data["areas"]["side"]]
        s.area_markers = [_int(v) for v in data["areas"]["markers"]]
        s.decks = {k: [_int(c) for c in data["decks"][k]] for k in ("A", "B")}
        s.hands = {k: [_int(c) for c in data["hands"][k]] for k in (IMPERIAL, INSURGENT)}
        s.discards = {k: [_int(c) for c in data["discards"][k]] for k in ("A", "B")}
        s.played = {k: _int(data["played"][k]) for k in (IMPERIAL, INSURGENT)}
        s.first = _str(data["first"], (IMPERIAL, INSURGENT))
        s.trigger = dict(data["trigger"]) if data["trigger"] else None
        s.built_this_round = bool(data["built_this_round"])
        saved: list[Any] = [dict(f) for f in data["stack"]]  # frames: kinds checked here, the rest by the rules
        s.stack = copy_frames(saved)
        if any(not isinstance(f.get("kind"), str) for f in s.stack):
            raise CorruptStateError("decision stack frame without a kind")
        s.log = [line if isinstance(line, dict) else str(line) for line in data["log"]]
        s.result = dict(data["result"]) if data["result"] else None
        turn = data["turn"]
        s.turn_seat = turn["seat"]
        s.turn_start, s.tainted = _int(turn["start"]), bool(turn["tainted"])
        s.quiet = bool(data.get("quiet", False))
        return s


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptStateError(f"expected an integer, got {value!r}")
    return value


def _str(value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise CorruptStateError(f"expected one of {allowed}, got {value!r}")
    return str(value)
