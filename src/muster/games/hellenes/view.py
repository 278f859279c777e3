"""What each seat may see (blocks stand upright: enemy blocks show only their side and a token until a
battle reveals them), and rebuilding a full state from one seat's view (digest 3.1–3.3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final, NotRequired, TypedDict, cast

from muster.core import rng
from muster.core.interface import CorruptStateError
from muster.games.hellenes import engine
from muster.games.hellenes.datafiles import SIDES, blocks, cards, game_map
from muster.games.hellenes.state import Frame, State


def _other(side: str) -> str:
    return "athens" if side == "sparta" else "sparta"


PUBLIC: Final = frozenset({
    "format", "game", "step", "year", "years", "season", "next_token", "control", "loyal", "militia", "garrison",
    "sieges", "pillaged", "prestige", "leaders", "odrysian", "discard", "revealed", "first", "active", "mode",
    "actions_left", "moved", "via", "forced", "crossings", "supplied", "no_entry", "log", "result", "turn", "quiet",
})
"""The fields of the saved state (``State.to_json``) every seat sees as they are."""
PER_SEAT: Final = frozenset({"units", "hands", "deck", "committed", "draw", "stack"})
"""The fields each seat sees only in part (its own blocks, hand, committed card and recruit draw; the sizes and
upright tokens of the enemy's; the stack without the enemy's chosen card)."""
HIDDEN: Final = frozenset({"rng", "seed"})
"""The fields no seat sees (future dice and draws). A field of the state in none of these three sets is not
shown: a view is built from what a seat may see, so a new field stays hidden until it is listed."""


class Count(TypedDict):
    """Something a seat sees only the size of (the enemy's hand or Pool, the deck)."""

    count: int
    """How many cards or blocks."""


class OwnBlock(TypedDict):
    """One of the viewing side's blocks on the map, as the state holds it."""

    area: str
    """Where it stands."""
    cv: int
    """Its CV."""
    inside: bool
    """True inside a City (besieged)."""
    carrier: str | None
    """The fleet carrying it (None: none)."""
    token: int
    """Its token (what the enemy sees of it)."""
    known: bool
    """True once the enemy has seen it in battle."""
    seen: int
    """The CV the enemy saw it at."""
    origin: str
    """How it entered the map (public)."""


class EnemyBlock(TypedDict):
    """An enemy block as the viewing side sees it: standing upright, its identity known only after a battle."""

    token: int
    """Its token."""
    side: str
    """Its side."""
    area: str
    """Where it stands."""
    inside: bool
    """True inside a City (besieged)."""
    origin: str
    """How it entered the map (public)."""
    known_as: NotRequired[str]
    """Its block id, once seen in battle."""
    seen: NotRequired[int]
    """The CV it was seen at, once seen in battle."""


class Draw(TypedDict):
    """A recruit draw under way: whose it is; the blocks drawn and their CV only for that side."""

    side: str
    """The side recruiting."""
    ids: NotRequired[list[str]]
    """The blocks drawn (the recruiting side's view only)."""
    cv: NotRequired[int | None]
    """The CV they come in at (None: their usual; the recruiting side's view only)."""


class Turn(TypedDict):
    """Where the current turn began (for undo)."""

    seat: str | None
    """The side whose turn it is."""
    start: int
    """The action count at which it began."""
    tainted: bool
    """True once dice were rolled or cards drawn during it."""


class HellenesView(TypedDict):
    """What one side sees of a game of Hellenes (:func:`view`): the saved state's fields in :data:`PUBLIC` as
    they are, and those in :data:`PER_SEAT` as the side may know them, with the enemy's blocks upright."""

    format: int
    """The saved state's format."""
    game: str
    """``hellenes``."""
    step: int
    """Actions applied since setup."""
    year: int
    """The Year (BC: counting down)."""
    years: int
    """Years still to play."""
    season: int
    """-1 during the New Year, then 0–4 (Spring … Winter)."""
    units: dict[str, OwnBlock]
    """The viewing side's blocks on the map, by id."""
    next_token: int
    """The token the next block entering the map gets."""
    control: dict[str, str]
    """Who controls each controlled City."""
    loyal: dict[str, str]
    """Cities' loyalties."""
    militia: dict[str, int]
    """Each City's Militia CV."""
    garrison: list[str]
    """Cities garrisoned."""
    sieges: dict[str, dict[str, Any]]
    """Sieges under way, by City."""
    pillaged: list[str]
    """Areas pillaged this Year."""
    prestige: int
    """The Prestige track."""
    leaders: dict[str, str]
    """Each side's Leader."""
    odrysian: bool
    """True once the Odrysian blocks may enter."""
    deck: Count
    """The deck: its size only."""
    hands: dict[str, list[int] | Count]
    """Per side, its hand: the cards of the viewing side's own, the size of the enemy's."""
    discard: list[int]
    """The discard pile."""
    committed: dict[str, list[Any] | bool]
    """Per side, the card committed for this Season: ``[card, use]`` for the viewing side's own, else whether
    one is committed."""
    revealed: dict[str, list[Any] | None]
    """Per side, the card revealed this Season (``[card, use]``)."""
    first: str
    """The side that has the first Player Turn."""
    active: str | None
    """The side taking its Player Turn."""
    mode: str
    """How the active side plays its card (its Event or its Actions)."""
    actions_left: int
    """Actions the active side has left."""
    moved: list[int]
    """Tokens of the blocks moved this turn."""
    via: dict[str, str]
    """Per token (as a string), the border its block crossed into a battle."""
    forced: list[list[Any]]
    """Forced marches waiting for their rolls (``[token, destination, last area]``)."""
    crossings: dict[str, list[int]]
    """Hazardous sea borders crossed this turn → tokens of the fleets that crossed."""
    supplied: list[int]
    """Tokens supplied this turn."""
    no_entry: list[str]
    """Areas closed to movement this turn."""
    draw: Draw | None
    """A recruit draw under way."""
    stack: list[Frame]
    """The decision stack (the enemy's chosen card left out)."""
    log: list[Any]
    """The game log (message entries)."""
    result: dict[str, Any] | None
    """How the game ended (None while it goes on)."""
    turn: Turn
    """Where the current turn began."""
    quiet: bool
    """True when the game keeps no log (simulations)."""
    enemy: list[EnemyBlock]
    """The enemy's blocks on the map, upright, in token order."""
    pools: dict[str, list[str] | Count]
    """Per side, its Pool: the viewing side's blocks, the size of the enemy's."""
    seat: str | None
    """The side the view is for (None: a spectator, who sees both sides as an enemy would)."""


def view(s: State, seat: str | None) -> HellenesView:
    """The state as ``seat`` may know it (None: a spectator, who sees both sides as an opponent would).

    Hidden: enemy blocks' identity and CV (unless seen in battle: then the identity and the CV last seen),
    which enemy block carries which, the enemy Pool (only its size), the recruit draw, the enemy hand and
    committed card, the deck order, the generator and the seed.
    """
    # In the saved state's order (the per-seat fields are replaced below, in their places).
    data = {key: value for key, value in s.to_json().items() if key in PUBLIC or key in PER_SEAT}
    own: dict[str, Any] = {}
    others: list[dict[str, Any]] = []
    pools: dict[str, Any] = {}
    for side in SIDES:
        pool = [b for b, u in s.units.items() if u.area is None and blocks()[b].side == side]
        pools[side] = pool if side == seat else {"count": len(pool)}
    for bid, u in s.units.items():
        if u.area is None:
            continue
        side = blocks()[bid].side
        if side == seat:
            own[bid] = u.to_json()
            continue
        shown: dict[str, Any] = {"token": u.token, "side": side, "area": u.area, "inside": u.inside,
                                 "origin": u.origin}
        if u.known:
            shown["known_as"], shown["seen"] = bid, u.seen
        others.append(shown)
    data["units"] = own
    data["enemy"] = sorted(others, key=lambda x: x["token"])
    data["pools"] = pools
    data["hands"] = {side: (list(cards_) if side == seat else {"count": len(cards_)})
                     for side, cards_ in s.hands.items()}
    data["deck"] = {"count": len(s.deck)}
    data["committed"] = {side: (list(c) if side == seat and c else bool(c)) for side, c in s.committed.items()}
    data["draw"] = ({"side": s.draw["side"], "ids": list(s.draw["ids"]), "cv": s.draw["cv"]}
                    if s.draw and s.draw["side"] == seat else ({"side": s.draw["side"]} if s.draw else None))
    data["stack"] = [{**f, "card": None} if f["kind"] in ("commit", "ny_card") and f["seat"] != seat else f
                     for f in data["stack"]]
    data["seat"] = seat
    # built field by field from the allowlists above, which HellenesView lists (a test holds them together)
    return cast(HellenesView, data)


PUBLIC_CHOICE_TRIES = 16
"""Draws :func:`determinize` makes before giving up on a position where the enemy's open decision must have a
legal action (see there)."""


def determinize(v: Mapping[str, Any], seat: str, seed: int) -> State:
    """A full state consistent with ``v`` (a view for ``seat``), the hidden parts drawn at random.

    When the enemy is deciding, the fact that its decision has a legal action is public too (the game offered
    it): a Pillage's withdrawal, for one, exists only if the pillaging Group holds a fleet when no land area
    around is free of enemies. A draw that leaves the enemy's open decision without a legal action is
    therefore redrawn (from the next seeds, so the answer stays a function of ``seed``).
    """
    s = _determinize_once(v, seat, seed)
    stack = v.get("stack") or []
    if not stack or stack[-1].get("seat") in (None, seat) or s.result is not None:
        return s
    for k in range(1, PUBLIC_CHOICE_TRIES):
        if engine.legal_actions(s):
            break
        s = _determinize_once(v, seat, seed + k)
    return s


def _determinize_once(v: Mapping[str, Any], seat: str, seed: int) -> State:
    """One draw of :func:`determinize`: a full state consistent with ``v``, the hidden parts drawn at random.

    Enemy tokens are matched at random to enemy blocks that fit what is public (fleets at sea or on a coast,
    Barbarians never inside a City, fleets inside Ports only, recruits in their home, known blocks as known); CVs of
    unknown blocks are drawn from 1..max, known ones keep the CV last seen; unseen cards are shuffled into the enemy
    hand and the deck; the generator is seeded afresh.
    """
    if v.get("seat") != seat or seat not in SIDES:
        raise CorruptStateError("determinize needs a view made for that seat")
    enemy = _other(seat)
    state = rng.seed_state(seed)
    data = dict(v)
    units: dict[str, dict[str, Any]] = {}
    for bid, b in blocks().items():
        if b.side == seat:
            u = v["units"].get(bid)
            units[bid] = dict(u) if u else {"area": None, "cv": 0, "inside": False, "carrier": None, "token": 0,
                                            "known": False, "seen": 0, "origin": ""}
    tokens = list(v["enemy"])
    known = {t["known_as"]: t for t in tokens if "known_as" in t}
    unknown_tokens = [t for t in tokens if "known_as" not in t]
    candidates = [b for b, d in blocks().items() if d.side == enemy and b not in known
                  and (d.requires is None or v["odrysian"])]
    if len(unknown_tokens) > len(candidates):
        raise CorruptStateError("view inconsistent: more enemy blocks on the map than the roster allows")
    assignment: dict[int, str] | None = None
    # A few greedy tries over shuffled pools (cheap, and nearly always enough); then a full matching (augmenting
    # paths), strict; then only where the blocks may physically stand; at the very last, any block.
    for attempt in range(GREEDY_TRIES + 3):
        state, order = rng.shuffled(state, list(range(len(candidates))))
        pool = [candidates[i] for i in order]
        full = attempt >= GREEDY_TRIES
        assignment = _match(unknown_tokens, pool, strict=attempt <= GREEDY_TRIES, anywhere=attempt == GREEDY_TRIES + 2,
                            full=full)
        if assignment is not None:
            break
    if assignment is None:
        raise CorruptStateError("view inconsistent: no enemy roster fits the tokens on the map")
    for bid, b in blocks().items():
        if b.side == enemy:
            units[bid] = {"area": None, "cv": 0, "inside": False, "carrier": None, "token": 0, "known": False,
                          "seen": 0, "origin": ""}
    for t in tokens:
        bid = t.get("known_as") or assignment[t["token"]]
        maxcv = blocks()[bid].max_cv
        if "known_as" in t:
            cv = max(1, min(maxcv, int(t["seen"])))
        else:
            state, r = rng.below(state, maxcv)
            cv = r + 1
        units[bid] = {"area": t["area"], "cv": cv, "inside": t["inside"], "carrier": None, "token": t["token"],
                      "known": "known_as" in t, "seen": int(t.get("seen", 0)), "origin": t["origin"]}
    _board_passengers(units, enemy)
    data["units"] = units
    data["rng"] = rng.seed_state(state ^ (seed * 0x9E3779B97F4A7C15))
    data["seed"] = 0
    # cards: everything not seen is in the enemy hand or the deck
    seen = set(v["hands"][seat]) | set(v["discard"])
    own_commit = v["committed"].get(seat)
    if isinstance(own_commit, list):
        seen.add(int(own_commit[0]))
    unseen = sorted(set(cards()) - seen)
    state, unseen = rng.shuffled(state, unseen)
    n_hand = int(v["hands"][enemy]["count"])
    enemy_commit = v["committed"].get(enemy)
    n_commit = 1 if enemy_commit else 0
    if n_hand + n_commit > len(unseen) or n_hand + n_commit + int(v["deck"]["count"]) != len(unseen):
        raise CorruptStateError("view inconsistent: card counts do not add up")
    data["hands"] = {seat: list(v["hands"][seat]), enemy: sorted(unseen[:n_hand])}
    data["committed"] = {seat: own_commit if isinstance(own_commit, list) else None,
                         enemy: [unseen[n_hand], "actions"] if n_commit else None}
    data["deck"] = unseen[n_hand + n_commit:]
    draw = v.get("draw")
    if draw and draw.get("side") == enemy:
        pool_ids = [b for b, u in units.items() if u["area"] is None and blocks()[b].side == enemy]
        data["draw"] = {"side": enemy, "ids": pool_ids[:3], "cv": None}
    for key in ("enemy", "pools", "seat"):
        data.pop(key, None)
    return State.from_json(data)


def _fits(token: dict[str, Any], bid: str, strict: bool = True) -> bool:
    """Can this block stand where the token stands, given what is public? (Not ``strict``: only where it may
    physically stand, ignoring how the token entered the map.)"""
    return _fits_at(token["area"], bool(token["inside"]), str(token["origin"]), bid, strict)


@cache
def _fits_at(area: str, inside: bool, origin: str, bid: str, strict: bool) -> bool:
    """:func:`_fits` for a token's public facts (a pure function of the data files: cached)."""
    d = blocks()[bid]
    g = game_map()
    if g.is_sea(area):
        return d.kind == "fleet" or d.greek
    if d.kind == "fleet" and not g.coasts[area]:
        return False
    if inside and not d.greek:
        return False
    city = g.cities.get(area)
    if inside and d.kind == "fleet" and not (city and city.port):
        return False  # rule 7.2 (DESIGN): only a Port shelters fleets inside its walls
    if not strict:
        return True
    if origin == "recruit" and d.home != area and d.rebel is None:
        return False
    return not (origin.startswith("rebel:") and d.rebel != "aeolian")


GREEDY_TRIES = 5
"""Greedy matchings tried before the full one (a view where the greedy one keeps failing cost 50 tries once)."""


def _match(tokens: list[dict[str, Any]], pool: list[str], strict: bool,
           anywhere: bool = False, full: bool = False) -> dict[int, str] | None:
    """Give each token a distinct block that fits it (greedy over a shuffled pool, or with ``full`` a maximum
    matching by augmenting paths, which finds one whenever one exists; None if it fails).
    Sea tokens: at least one fleet per sea area first, so passengers have a carrier."""
    out: dict[int, str] = {}
    free = list(pool)
    g = game_map()
    at_sea: dict[str, int] = {}
    need_fleet: set[int] = set()
    for t in sorted(tokens, key=lambda t: t["token"]):
        if g.is_sea(t["area"]):
            # each fleet carries at most one block: at least half the tokens in a sea area are fleets
            k = at_sea.get(t["area"], 0)
            total = sum(1 for x in tokens if x["area"] == t["area"])
            if k < (total + 1) // 2:
                need_fleet.add(t["token"])
            at_sea[t["area"]] = k + 1
    ordered = sorted(tokens, key=lambda t: (t["token"] not in need_fleet, t["token"]))

    def ok(t: dict[str, Any], b: str) -> bool:
        return (anywhere or _fits(t, b, strict)) and (t["token"] not in need_fleet or blocks()[b].kind == "fleet")

    if full:
        return _augmenting(ordered, pool, ok)
    for t in ordered:
        fleet_only = t["token"] in need_fleet
        pick = next((b for b in free if (anywhere or _fits(t, b, strict))
                     and (not fleet_only or blocks()[b].kind == "fleet")), None)
        if pick is None:
            return None
        free.remove(pick)
        out[t["token"]] = pick
    return out


def _augmenting(tokens: list[dict[str, Any]], pool: list[str],
                ok: Callable[[dict[str, Any], str], bool]) -> dict[int, str] | None:
    """A matching of every token to a distinct fitting block by augmenting paths (Kuhn), None if there is none."""
    fits = {t["token"]: [b for b in pool if ok(t, b)] for t in tokens}
    owner: dict[str, int] = {}

    def place(token: int, seen: set[str]) -> bool:
        for b in fits[token]:
            if b in seen:
                continue
            seen.add(b)
            if b not in owner or place(owner[b], seen):
                owner[b] = token
                return True
        return False

    for t in tokens:
        if not place(t["token"], set()):
            return None
    return {token: b for b, token in owner.items()}


def _board_passengers(units: dict[str, dict[str, Any]], side: str) -> None:
    """Land blocks at sea need a fleet each, with a CV above theirs (5.2.1): pair them and fix CVs."""
    g = game_map()
    for bid, u in units.items():
        if u["area"] is None or not g.is_sea(u["area"]) or blocks()[bid].kind == "fleet" or blocks()[bid].side != side:
            continue
        used = {x["carrier"] for x in units.values() if x["carrier"]}
        fleets = [f for f, fu in units.items() if fu["area"] == u["area"] and blocks()[f].kind == "fleet"
                  and f not in used]
        if not fleets:
            raise CorruptStateError("view inconsistent: a land block at sea without a fleet")
        fleet = max(fleets, key=lambda f: blocks()[f].max_cv)
        u["carrier"] = fleet
        fu = units[fleet]
        if fu["cv"] <= u["cv"]:
            fu["cv"] = min(blocks()[fleet].max_cv, u["cv"] + 1)
            if fu["cv"] <= u["cv"]:
                u["cv"] = max(1, fu["cv"] - 1)
                fu["cv"] = max(fu["cv"], u["cv"] + 1)
