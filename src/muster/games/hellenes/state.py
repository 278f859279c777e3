"""The complete state of a game of Hellenes: plain dicts and lists plus one small class per block, JSON-ready,
cheap to copy.

Blocks are keyed by id, each a :class:`Block`. Every block on the map also carries a *token*, a number given
afresh each time it enters the map: what an opponent sees of a block standing upright. Frames and the per-turn
records (moved, routes, supply) name blocks by token only, so a view can show them without revealing identities.
"""

from __future__ import annotations

import copy
from typing import Any, Literal, Required, TypedDict

from muster.core.frames import MachineState, copy_frames
from muster.core.interface import CorruptStateError
from muster.games.hellenes.datafiles import SIDES, blocks, game_map

STATE_FORMAT = 1

BLOCK_KEYS = ("area", "cv", "inside", "carrier", "token", "known", "seen", "origin")
"""A block's fields in a saved state, in their order (:meth:`Block.to_json`)."""


class Block:
    """Where one block stands and what is known of it; ``State.units`` holds one per block of the roster.

    A plain class with typed attributes rather than a dict: compiled, each field is a native attribute (no
    dict lookup by key on the rules' hot paths), and mypy checks every read and write. Saved as a dict of
    :data:`BLOCK_KEYS` (:meth:`to_json`)."""

    __slots__ = ("area", "carrier", "cv", "inside", "known", "origin", "seen", "token")

    def __init__(self, area: str | None = None, cv: int = 0, inside: bool = False, carrier: str | None = None,
                 token: int = 0, known: bool = False, seen: int = 0, origin: str = "") -> None:
        self.area = area
        """The area it stands in (None: in its side's Pool)."""
        self.cv = cv
        """Its current CV (0 in the Pool)."""
        self.inside = inside
        """True while it stands inside the City of its area (besieged, or sheltering)."""
        self.carrier = carrier
        """The fleet carrying it at sea (5.2.1), if any."""
        self.token = token
        """The token it stands under on the map (0 in the Pool): what the enemy sees of it upright."""
        self.known = known
        """True once the enemy has seen it in battle."""
        self.seen = seen
        """The CV the enemy last saw (when ``known``)."""
        self.origin = origin
        """How it entered the map (public: ``setup``, ``recruit``, ``rebel:…``; "" in the Pool)."""

    def copy(self) -> Block:
        """An independent copy."""
        return Block(self.area, self.cv, self.inside, self.carrier, self.token, self.known, self.seen, self.origin)

    def to_json(self) -> dict[str, Any]:
        """The block as saved: a dict of :data:`BLOCK_KEYS`, in that order."""
        return {"area": self.area, "cv": self.cv, "inside": self.inside, "carrier": self.carrier,
                "token": self.token, "known": self.known, "seen": self.seen, "origin": self.origin}

    def __eq__(self, other: object) -> bool:
        """Equal when every field is (as the dicts the saved state holds are)."""
        if not isinstance(other, Block):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __repr__(self) -> str:
        """The fields, for test failures and debugging."""
        return f"Block({self.to_json()})"


RosterEntry = tuple[str, bool, int]
"""(id, fleet?, movement allowance) of one block: what the rules' hot loops over a side's blocks read."""
SideBlocks = tuple[tuple[RosterEntry, ...], tuple[str, ...]]
"""A side's blocks on the map (their roster entries) and the ids of those in its Pool, each in roster order."""


FrameKind = Literal[
    "actions", "after_battles", "allocate", "assault", "attrition_loss", "battle", "battle_area", "battle_pick",
    "battle_retreat", "battles", "combat", "commit", "end_actions", "ev_auto", "ev_city", "force_pick",
    "forced_rolls", "forced_take", "fortify", "fortify_pick", "free_move", "game_end", "group", "muster", "new_year",
    "ny_card", "ny_reveal", "pillage_to", "player_turn", "recruit", "recruit_draw", "retreat_moves", "retreat_to",
    "reveal", "season", "season_end", "siege_choice", "sortie", "storms", "turn_end",
]
"""Every kind of frame Hellenes' rules push: an automatic step or a decision each."""


class Pending(TypedDict):
    """The results of one firing in a battle, waiting to be applied (a battle frame's ``pending``)."""

    key: str
    """The side of the battle they land on (``att`` or ``dfn``)."""
    hits: int
    """Hits still to apply."""
    routs: int
    """Routs still to apply."""
    ready: bool
    """True once the current hit counts in full (Double Defense: every second hit removes a CV)."""


class Chase(TypedDict):
    """A Pursuit under way (a battle frame's ``chase``)."""

    key: str
    """The winner's side of the battle (``att`` or ``dfn``), whose blocks fire."""
    order: list[int]
    """The tokens of the winner's blocks, in firing order."""
    slot: int
    """The next of them to fire."""
    saved: list[int]
    """The routed tokens as they were when the Pursuit began (restored at its end)."""


class FrameFields(TypedDict, total=False):
    """Every field a Hellenes frame may carry besides its ``kind`` (each kind uses a few of them); the keyword
    arguments of :func:`muster.games.hellenes.engine.frame`. Blocks are named by token (see the module)."""

    seat: str
    """The deciding side (``athens`` or ``sparta``)."""
    side: str
    """The side the step is about (an automatic step's acting side, a battle area's attacker, …)."""
    area: str
    """An area id (a battle's, a siege's, a group's starting area, …)."""
    city: str
    """The City a Muster goes to."""
    card: int | None
    """The card committed (None: not chosen yet)."""
    event: str
    """The Event being resolved."""
    cv: int | None
    """The CV a recruited block starts with (None: its usual)."""
    token: int
    """The token of the block concerned (a free move's, a forced march's)."""
    dest: str
    """Where a forced march leads."""
    last: str
    """The area a forced march's block left last (a passenger follows from it)."""
    cur: int | None
    """The token of the block a group is moving (None: not chosen yet)."""
    skip: list[int]
    """Tokens of the group's blocks that stay."""
    left: int
    """Blocks still to choose (to take a loss, to go inside a City)."""
    losses: int
    """Attrition losses rolled."""
    eliminated: int
    """Blocks eliminated by Attrition so far."""
    hold: bool
    """True when fortifying answers the coming Sortie questions too (no Sortie until the Siege changes)."""
    done: list[str]
    """The Cities already asked about (a Sortie question)."""
    todo: list[str]
    """The areas where battles are still to be fought this turn."""
    fought: list[str]
    """The Forces (keys) of a battle area that have already fought."""
    asked: list[str] | bool
    """A battle's: the sides (``att``/``dfn``) already asked this round whether to Retreat; a battle area's:
    True once the defender was asked whether to Fortify."""
    next: str | None
    """The Force chosen to fight next in a battle area ("" for the one in the area itself; None: not chosen)."""
    verb: str
    """What an ``allocate`` decision places: ``hit`` or ``rout``."""
    key: str
    """A side of a battle: ``att`` or ``dfn``."""
    att_side: str
    """The attacking side of a battle."""
    att: list[int]
    """The attacking tokens of a battle (a retreat: of the battle it comes from)."""
    dfn: list[int]
    """The defending tokens of a battle (0: the City's Militia)."""
    assault: bool
    """True for an Assault on a City (its defenders inside cannot be routed, nor retreat)."""
    double: bool
    """True under Double Defense (two hits remove one CV)."""
    militia: int
    """The CV of the Militia defending (0: none)."""
    routed: list[int]
    """Routed tokens."""
    round: int
    """The Combat Round."""
    order: list[list[Any]]
    """This round's firing order: ``[side key, token]`` pairs."""
    slot: int
    """The next entry of the firing order."""
    carry: int
    """Double Defense hits carried toward the next CV."""
    leave: str | None
    """The side that Retreats (None: the battle goes on)."""
    started: bool
    """True once the battle was announced and its blocks revealed."""
    pending: Pending | None
    """The results of a firing waiting to be applied."""
    sortie: bool
    """True when the attackers come out of their besieged City."""
    chase: Chase | None
    """A Pursuit under way."""
    pursuit: bool
    """True during a Pursuit (only hits count)."""
    movers: list[int]
    """Tokens still to retreat, in order."""
    attacking: bool
    """True when the retreating side was the attacker."""
    lost: int
    """Blocks lost on a retreat."""
    report: bool
    """True when the retreat is logged once done."""


class Frame(FrameFields, total=False):
    """One step of Hellenes' rules on the decision stack (a plain dict at run time)."""

    kind: Required[FrameKind]
    """The step."""


class State(MachineState[Frame]):
    """Everything about one game at one decision point (including the random generator); the decision
    stack and turn bookkeeping are :class:`~muster.core.frames.MachineState`'s."""

    __slots__ = (
        "_cities", "_held", "_menu_pool", "_muster", "_occ", "_own_occ", "_sides", "_where", "actions_left", "active",
        "committed", "control", "crossings", "deck", "discard", "draw", "first", "forced", "garrison", "hands",
        "leaders", "log", "loyal", "militia", "mode", "moved", "next_token", "no_entry", "odrysian", "pillaged",
        "prestige", "quiet", "revealed", "rng", "season", "seed", "sieges", "supplied", "tok", "units", "via", "year",
        "years",
    )

    def __init__(self, blank: bool = False) -> None:
        """The state before setup; ``blank``: no field set at all, for :meth:`clone` to fill in. (Compiled, a
        class runs its ``__init__`` even when made by ``__new__``, so a copy would otherwise build a whole
        fresh state first and throw it away.)"""
        if blank:
            return
        super().__init__()
        self.seed = 0
        self.rng = 0
        self.year = 431
        self.years = 3
        self.season = -1
        """-1 during the New Year, then 0..4 (Spring … Winter)."""
        self.units: dict[str, Block] = {}
        """Every block of the roster by id, in roster order (the Recruit Pool is drawn in it)."""
        self.tok: dict[int, str] = {}
        self.next_token = 1
        self.control: dict[str, str] = {}
        self.loyal: dict[str, str] = {}
        self.militia: dict[str, int] = {}
        self.garrison: list[str] = []
        self.sieges: dict[str, dict[str, Any]] = {}
        self.pillaged: list[str] = []
        self.prestige = 0
        self.leaders: dict[str, str] = {}
        self.odrysian = False
        self.deck: list[int] = []
        self.hands: dict[str, list[int]] = {side: [] for side in SIDES}
        self.discard: list[int] = []
        self.committed: dict[str, list[Any] | None] = {side: None for side in SIDES}
        self.revealed: dict[str, list[Any] | None] = {side: None for side in SIDES}
        self.first = "sparta"
        self.active: str | None = None
        self.mode = ""
        self.actions_left = 0
        self.moved: list[int] = []
        self.via: dict[str, str] = {}
        self.forced: list[list[Any]] = []
        self.crossings: dict[str, list[int]] = {}
        """Hazardous sea borders crossed this turn (\"a|b\") → tokens of the fleets that crossed."""
        self.supplied: list[int] = []
        self.no_entry: list[str] = []
        self.draw: dict[str, Any] | None = None
        self.log: list[Any] = []
        """Language-neutral entries (dicts); a game stored before they came holds English strings."""
        self.quiet = False
        self._occ: tuple[dict[str, int], dict[str, int]] | None = None
        """Which sides stand in each area (``rules.common.occupancy``), kept across moves: every
        change of a block's area or City flag goes through a rule helper that recounts the areas it touched
        (``rules.common.refresh_occupancy``) or clears it."""
        self._where: tuple[dict[str, int], dict[str, list[str]], dict[str, int]] | None = None
        """The blocks in each area (``rules.common.blocks_at``) and each block's place in ``units``, valid
        while the first dict of ``_occ`` is the one paired with them: every change of a block's area replaces
        or clears ``_occ``."""
        self._held: tuple[dict[str, int], dict[str, tuple[int, int]]] | None = None
        """Per side, the areas it holds in the field and with fleets (``rules.common.held``), valid while the
        first dict of ``_occ`` is the one paired with them."""
        self._cities: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int, int] | None = None
        """The Cities Athens holds, those Sparta holds, and the captured ones (held against their loyalty), each in
        the order of ``control``, then the Cities of each side as area sets (``rules.common.city_lists``), kept
        until a City changes hands or loyalty:
        every write to ``control`` or ``loyal`` goes through ``rules.common.set_control`` or is followed by
        ``rules.common.cities_changed``."""
        self._sides: tuple[dict[str, int], dict[str, SideBlocks]] | None = None
        """Per side, its blocks on the map and those in its Pool, each in roster order (``rules.common.side_blocks``),
        valid while the first dict of ``_occ`` is the one paired with them: a block enters or leaves the map only
        through ``rules.common.place`` and ``eliminate``, which replace ``_occ`` (a move keeps them)."""
        self._own_occ = False
        """True while the dicts of ``_occ``, ``_where`` and ``_held`` belong to this state alone (no clone shares
        them), so a block's move may update them in place (``rules.common.shift_occupancy``)."""
        self._menu_pool: tuple[int, Frame, list[tuple[str, str, bool, bool, int]]] | None = None
        """The blocks that could still move when the Action menu (the frame) listed its choices at a step
        (``rules.movement.movers``): a Muster chosen there starts from the very same blocks at the next step."""
        self._muster: tuple[int, str, tuple[str, ...]] | None = None
        """The blocks that may still Muster into a City at a step (``rules.movement.Muster``): after one
        of them musters, the others' reach is unchanged (only enemy blocks and closed areas bar the way)."""

    # --- helpers ---------------------------------------------------------------------------
    def say(self, msgid: str, plural: str | None = None, /, **args: Any) -> None:
        """Add a public line to the log (skipped in quiet simulations): a message id and its arguments
        (``{"m": msgid, "a": args}``, ``"p"``: a plural counted by ``args["n"]``), rendered later in each
        reader's language (:mod:`muster.i18n`)."""
        if not self.quiet:
            line: dict[str, Any] = {"m": msgid, "a": args}
            if plural is not None:
                line["p"] = plural
            self.log.append(line)

    def season_index(self) -> int:
        """A global Season counter: Sieges record it to know when they are established."""
        return (431 - self.year) * 5 + self.season

    def clone(self) -> State:
        """An independent copy."""
        c = State(blank=True)
        # the plain fields one by one (compiled, a store by name through setattr() is a generic lookup each)
        c.seed, c.rng, c.step = self.seed, self.rng, self.step
        c.year, c.years, c.season = self.year, self.years, self.season
        c.next_token, c.prestige, c.odrysian, c.first = self.next_token, self.prestige, self.odrysian, self.first
        c.active, c.mode, c.actions_left = self.active, self.mode, self.actions_left
        c.turn_seat, c.turn_start, c.tainted, c.quiet = self.turn_seat, self.turn_start, self.tainted, self.quiet
        c.units = {k: v.copy() for k, v in self.units.items()}
        c.tok = dict(self.tok)
        c.control, c.loyal, c.militia = dict(self.control), dict(self.loyal), dict(self.militia)
        c.garrison, c.pillaged, c.no_entry = self.garrison[:], self.pillaged[:], self.no_entry[:]
        c.sieges = {k: dict(v) for k, v in self.sieges.items()}
        c.leaders = dict(self.leaders)
        c.deck, c.discard = self.deck[:], self.discard[:]
        c.hands = {k: v[:] for k, v in self.hands.items()}
        c.committed = {k: (v[:] if v else None) for k, v in self.committed.items()}
        c.revealed = {k: (v[:] if v else None) for k, v in self.revealed.items()}
        c.moved, c.supplied = self.moved[:], self.supplied[:]
        c.via = dict(self.via)
        c.crossings = {k: v[:] for k, v in self.crossings.items()}
        c.forced = [f[:] for f in self.forced]
        c.draw = {"side": self.draw["side"], "ids": self.draw["ids"][:], "cv": self.draw["cv"]} if self.draw else None
        c.stack = copy_frames(self.stack)
        c.log = self.log[:]
        c.result = dict(self.result) if self.result else None
        # legal lists are never changed, so the copy may share the one kept (with its step and decision)
        c._legal, c._legal_step, c._legal_by = self._legal, self._legal_step, self._legal_by
        c._occ = self._occ  # never changed in place, only replaced: safe to share
        c._where = self._where  # the same
        c._held = self._held  # the same (filled in place only with facts of that same occupancy)
        c._sides = self._sides  # the same
        c._muster = self._muster
        c._menu_pool = None  # keyed by the menu's frame, which the copy does not share
        c._cities = self._cities  # tuples: never changed, only replaced
        c._own_occ = self._own_occ = False  # shared from now on: the next move of either builds its own
        return c

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {
            "format": STATE_FORMAT,
            "game": "hellenes",
            "seed": self.seed, "rng": self.rng, "step": self.step,
            "year": self.year, "years": self.years, "season": self.season,
            "units": {k: v.to_json() for k, v in self.units.items()},
            "next_token": self.next_token,
            "control": dict(self.control), "loyal": dict(self.loyal), "militia": dict(self.militia),
            "garrison": list(self.garrison), "sieges": {k: dict(v) for k, v in self.sieges.items()},
            "pillaged": list(self.pillaged), "prestige": self.prestige, "leaders": dict(self.leaders),
            "odrysian": self.odrysian,
            "deck": list(self.deck), "hands": {k: list(v) for k, v in self.hands.items()},
            "discard": list(self.discard),
            "committed": {k: (list(v) if v else None) for k, v in self.committed.items()},
            "revealed": {k: (list(v) if v else None) for k, v in self.revealed.items()},
            "first": self.first, "active": self.active, "mode": self.mode, "actions_left": self.actions_left,
            "moved": list(self.moved), "via": dict(self.via), "forced": [list(f) for f in self.forced],
            "crossings": {k: list(v) for k, v in self.crossings.items()}, "supplied": list(self.supplied),
            "no_entry": list(self.no_entry),
            "draw": ({"side": self.draw["side"], "ids": list(self.draw["ids"]), "cv": self.draw["cv"]}
                     if self.draw else None),
            "stack": copy_frames(self.stack),
            "log": list(self.log),  # entries are never changed once written: sharing them is safe
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
            raise CorruptStateError(f"not a valid Hellenes state: {exc!r}") from exc

    @classmethod
    def _from_json(cls, data: Any) -> State:
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT or data.get("game") != "hellenes":
            raise CorruptStateError("not a Hellenes state")
        s = cls()
        s.seed, s.rng, s.step = _int(data["seed"]), _int(data["rng"]), _int(data["step"])
        s.year, s.years, s.season = _int(data["year"]), _int(data["years"]), _int(data["season"])
        roster, g = blocks(), game_map()
        units = dict(data["units"])
        if set(units) != set(roster):
            raise CorruptStateError("the state's blocks are not the roster")
        for bid in roster:  # in the roster's order, whatever order the JSON kept: the Recruit Pool is drawn in it
            rec = dict(units[bid])
            if set(rec) != set(BLOCK_KEYS):
                raise CorruptStateError(f"block {bid}: bad fields")
            if rec["area"] is not None and rec["area"] not in g.names:
                raise CorruptStateError(f"block {bid}: unknown area")
            s.units[bid] = Block(rec["area"], _int(rec["cv"]), bool(rec["inside"]),
                                 rec["carrier"] if rec["carrier"] in roster else None,
                                 _int(rec["token"]), bool(rec["known"]), _int(rec["seen"]), str(rec["origin"]))
        s.tok = {u.token: bid for bid, u in s.units.items() if u.area is not None}
        s.next_token = _int(data["next_token"])
        s.control = {str(k): _side(v) for k, v in dict(data["control"]).items()}
        s.loyal = {str(k): str(v) for k, v in dict(data["loyal"]).items()}
        s.militia = {str(k): _int(v) for k, v in dict(data["militia"]).items()}
        s.garrison = [str(x) for x in data["garrison"]]
        s.sieges = {str(k): _siege(v) for k, v in dict(data["sieges"]).items()}
        s.pillaged = [str(x) for x in data["pillaged"]]
        s.prestige = _int(data["prestige"])
        s.leaders = {_side(k): str(v) for k, v in dict(data["leaders"]).items()}
        s.odrysian = bool(data["odrysian"])
        s.deck = [_int(c) for c in data["deck"]]
        s.hands = {side: [_int(c) for c in data["hands"][side]] for side in SIDES}
        s.discard = [_int(c) for c in data["discard"]]
        s.committed = {side: (list(data["committed"][side]) if data["committed"][side] else None) for side in SIDES}
        s.revealed = {side: (list(data["revealed"][side]) if data["revealed"][side] else None) for side in SIDES}
        s.first = _side(data["first"])
        s.active = None if data["active"] is None else _side(data["active"])
        s.mode, s.actions_left = str(data["mode"]), _int(data["actions_left"])
        s.moved = [_int(t) for t in data["moved"]]
        s.via = {str(k): str(v) for k, v in dict(data["via"]).items()}
        s.forced = [[_int(f[0]), str(f[1]), str(f[2])] for f in data["forced"]]
        s.crossings = {str(k): [_int(t) for t in v] for k, v in dict(data["crossings"]).items()}
        s.supplied = [_int(t) for t in data["supplied"]]
        s.no_entry = [str(x) for x in data["no_entry"]]
        d = data["draw"]
        s.draw = {"side": _side(d["side"]), "ids": [str(x) for x in d["ids"]], "cv": d["cv"]} if d else None
        saved: list[Any] = [dict(f) for f in data["stack"]]  # frames: kinds checked here, the rest by the rules
        s.stack = copy_frames(saved)
        if any(not isinstance(f.get("kind"), str) for f in s.stack):
            raise CorruptStateError("decision stack frame without a kind")
        s.log = [_log_line(line) for line in data["log"]]
        s.result = dict(data["result"]) if data["result"] else None
        turn = data["turn"]
        s.turn_seat = turn["seat"]
        s.turn_start, s.tainted = _int(turn["start"]), bool(turn["tainted"])
        s.quiet = bool(data.get("quiet", False))
        return s


def _siege(record: Any) -> dict[str, Any]:
    """A Siege record of a stored state: the Season it was laid, the besieging side and, once the besieged
    put off the Sortie question until it changes, the situation they answered in (``rules.siege``)."""
    out: dict[str, Any] = {"since": _int(record["since"]), "by": _side(record["by"])}
    if "held" in record:
        if not isinstance(record["held"], str) or len(record["held"]) > 2000:
            raise CorruptStateError("bad Sortie hold in a Siege record")
        out["held"] = record["held"]
    return out


def _log_line(line: Any) -> Any:
    """A log entry of a stored state: a message (``{"m": id, "a": args}``) or an older game's English line."""
    if isinstance(line, dict):
        if not isinstance(line.get("m"), str) or not isinstance(line.get("a", {}), dict):
            raise CorruptStateError("log entry without a message id")
        return copy.deepcopy(line)
    return str(line)


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptStateError(f"expected an integer, got {value!r}")
    return value


def _side(value: Any) -> str:
    if value not in SIDES:
        raise CorruptStateError(f"expected a side, got {value!r}")
    return str(value)
