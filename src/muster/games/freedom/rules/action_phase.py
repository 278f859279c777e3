"""Rule 4.3 Actions: alternating card play, events, Action Points, and discard-to-trigger.

A turn plays one card: as its Event (own colour or grey), for its AP, or — right after the
opponent played a card of *my* colour for AP — by discarding any card to apply that event.
Each player plays 7 cards; then, if the second player's last card was such a card, the first
player may discard the last card in hand to use its event (rule 4.3, End of Action Phase).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final

from muster.core.interface import Action
from muster.games.freedom.constants import COLOUR_OF_SEAT, GREY, IMPERIAL, INSURGENT, other
from muster.games.freedom.datafiles import CardData, cards_file, design
from muster.games.freedom.engine import ACTIONS, Decision, auto, frame, push
from muster.games.freedom.rules.common import log, said, track_range
from muster.games.freedom.state import Frame, State


@cache
def _cards() -> dict[int, CardData]:
    return {c.number: c for c in cards_file().cards}


def card(number: int) -> CardData:
    """The data of a card by number."""
    return _cards()[number]


def card_name(number: int) -> str:
    """'30A Fleet's Departure'."""
    c = card(number)
    return f"{c.number}{c.deck} {c.name}"


def can_play_event(seat: str, number: int) -> bool:
    """Rule 4.3.1: a card's event may be played by the side it favours, grey by either."""
    c = card(number)
    return c.effect is not None and (c.side == GREY or c.side == COLOUR_OF_SEAT[seat])


def favours(number: int, seat: str) -> bool:
    """True if the card's event is coloured for ``seat`` (grey favours nobody in particular)."""
    c = card(number)
    return c.effect is not None and c.side == COLOUR_OF_SEAT[seat]


def _turn_choices(seat: str) -> list[tuple[Action, ...]]:
    """The ways ``seat`` may play each card, listed by card number: its ``event`` (when the seat may play that
    event, rule 4.3.1), then ``ap``."""
    choices: list[tuple[Action, ...]] = [()] * (max(c.number for c in cards_file().cards) + 1)
    for c in cards_file().cards:
        ap = ACTIONS["ap", c.number]
        choices[c.number] = (ACTIONS["event", c.number], ap) if can_play_event(seat, c.number) else (ap,)
    return choices


_TURN_CHOICES: Final = {seat: _turn_choices(seat) for seat in (IMPERIAL, INSURGENT)}
"""Per seat, the card-turn actions of each card, indexed by its number (a list: no hashing per card)."""


def _printed_ap() -> list[int]:
    """Each card's printed Action Points, indexed by its number."""
    ap = [0] * (max(c.number for c in cards_file().cards) + 1)
    for c in cards_file().cards:
        ap[c.number] = c.ap
    return ap


_CARD_AP: Final = _printed_ap()
_FAVOURED: Final = {seat: frozenset(c.number for c in cards_file().cards if favours(c.number, seat))
                    for seat in (IMPERIAL, INSURGENT)}
"""Per seat, the cards whose event is coloured for it (:func:`favours`)."""
_CARDS_PER_PHASE: Final[int] = design()["cards_per_action_phase"]
_END: Final = ACTIONS["end", None]


def discard(s: State, number: int) -> None:
    """Put a card on its deck's discard pile."""
    s.discards["A" if number <= 50 else "B"].append(number)


_EVENT_STARTER: Final[list[Callable[[State, str, int], None]]] = []
"""What starts a card's event: the cards (:mod:`muster.games.freedom.cards.effects`) build on these rules and
fill this in when they load, so the rules only need to know that a card has an event."""


def set_event_starter(starter: Callable[[State, str, int], None]) -> None:
    """Name the function that pushes the frames of a card's event (called once by the cards)."""
    _EVENT_STARTER[:] = [starter]


def start_event(s: State, seat: str, number: int) -> None:
    """Apply a card's event for ``seat``."""
    _EVENT_STARTER[0](s, seat, number)


@auto("action_phase")
def action_phase(s: State, f: Frame) -> None:
    """Rule 4.3: the side with the higher Morale starts (a tie: the Imperial player)."""
    imp = s.tracks[IMPERIAL]["morale"]
    ins = s.tracks[INSURGENT]["morale"]
    s.first = IMPERIAL if imp >= ins else INSURGENT
    s.played = {IMPERIAL: 0, INSURGENT: 0}
    s.trigger = None
    log(s, "Action phase: {side} player starts (Morale {imp} vs {ins}).", side=s.first, imp=imp, ins=ins)
    push(s, frame("card_turn", seat=s.first))


class CardTurn(Decision):
    """One turn of the Action phase: play a card as event, for AP, or discard to trigger."""

    kind = "card_turn"

    def prompt(self, s: State, f: Frame) -> str:
        n = s.played[f["seat"]] + 1
        total = design()["cards_per_action_phase"]
        if s.trigger and s.trigger["seat"] == f["seat"]:
            return said("{side}: play card {n} of {total}. You may discard a card to use the event of {card}.",
                        side=f["seat"], n=n, total=total, card=s.trigger["card"])
        return said("{side}: play card {n} of {total}.", side=f["seat"], n=n, total=total)

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat = f["seat"]
        choices = _TURN_CHOICES[seat]
        acts: list[Action] = []
        for n in s.hands[seat]:
            acts.extend(choices[n])
        if s.trigger and s.trigger["seat"] == seat:
            acts += [ACTIONS["trigger", n] for n in s.hands[seat]]
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f["seat"]
        number = int(a.arg)  # type: ignore[arg-type]
        pending = s.trigger
        s.stack.pop()
        s.hands[seat].remove(number)
        s.played[seat] += 1
        discard(s, number)
        s.trigger = None
        s.stack.append({"kind": "after_turn", "seat": seat})  # push() of one frame, as a literal: every card
        if a.verb == "event":
            if not s.quiet:
                log(s, "{side} plays {card} as an event.", side=seat, card=number)
            start_event(s, seat, number)
        elif a.verb == "ap":
            ap = _CARD_AP[number]
            if not s.quiet:
                log(s, "{side} plays {card} for {n} AP.", side=seat, card=number, n=ap)
            if number in _FAVOURED[other(seat)]:  # favours(number, other(seat))
                s.trigger = {"seat": other(seat), "card": number}
            push(s, ap_frame(seat, number, ap))
        else:
            assert pending is not None
            if not s.quiet:
                log(s, "{side} discards {card} to use the event of {other_card}.", side=seat, card=number,
                    other_card=pending["card"])
            start_event(s, seat, pending["card"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        number = int(a.arg)  # type: ignore[arg-type]
        if a.verb == "event":
            return said("play {card} as its event", card=number)
        if a.verb == "ap":
            return said("play {card} for {n} AP", card=number, n=card(number).ap)
        assert s.trigger is not None
        return said("discard {card} to use the event of {other_card}", card=number, other_card=s.trigger["card"])


def ap_frame(seat: str, number: int, ap: int, mode: str = "card") -> Frame:
    """A frame spending a card's Action Points."""
    # a copy of a template (the keys table copied whole) costs a fraction of building the dict key by key
    f = _AP_FRAME.copy()
    f["seat"], f["card"], f["ap"], f["printed"], f["mode"], f["spent"] = seat, number, ap, ap, mode, {}
    return f


_AP_FRAME: Final[Frame] = {"kind": "ap", "seat": "", "card": 0, "ap": 0, "printed": 0, "mode": "card",
                           "prep_used": False, "reward": 0, "rewarded": False, "attack_limit": 1, "spent": {}}


@auto("after_turn")
def after_turn(s: State, f: Frame) -> None:
    """Hand the turn over, or end the phase once both players have played their cards."""
    per_phase = _CARDS_PER_PHASE
    if s.played[IMPERIAL] >= per_phase and s.played[INSURGENT] >= per_phase:
        return
    nxt = other(f["seat"])
    if s.played[nxt] >= per_phase or not s.hands[nxt]:
        nxt = f["seat"]
        if s.played[nxt] >= per_phase or not s.hands[nxt]:
            return
    s.stack.append({"kind": "card_turn", "seat": nxt})  # push() of one frame, as a literal: every card


@auto("action_phase_end")
def action_phase_end(s: State, f: Frame) -> None:
    """End of the Action phase: the first player's last-card trigger, then the victory check."""
    steps: list[Frame] = []
    if s.trigger and s.trigger["seat"] == s.first and s.hands[s.first]:
        steps.append(frame("final_trigger", seat=s.first))
    steps.append(frame("victory_check", when="actions"))
    push(s, *steps)


class FinalTrigger(Decision):
    """Rule 4.3, End of Action Phase: discard the 8th card to use the opponent's last event."""

    kind = "final_trigger"

    def prompt(self, s: State, f: Frame) -> str:
        assert s.trigger is not None
        return said("You may discard your last card to use the event of {card}.", card=s.trigger["card"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if not s.trigger:
            return []
        return [*[ACTIONS["trigger", n] for n in s.hands[f["seat"]]], ACTIONS["pass", None]]  # shared actions

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f["seat"]
        s.stack.pop()
        pending = s.trigger
        s.trigger = None
        if a.verb == "pass":
            log(s, "{side} keeps the last card.", side=seat)
            return
        assert pending is not None
        number = int(a.arg)  # type: ignore[arg-type]
        s.hands[seat].remove(number)
        discard(s, number)
        log(
            s,
            "{side} discards {card} to use the event of {other_card}.",
            side=seat,
            card=number,
            other_card=pending["card"],
        )
        start_event(s, seat, pending["card"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "pass":
            return said("keep the card")
        return said("discard {card} to use the event", card=int(a.arg))  # type: ignore[arg-type]


# --- spending Action Points --------------------------------------------------------------


@dataclass(frozen=True)
class Verb:
    """One action a player may buy with AP (rule 4.3.2)."""

    name: str
    label: str
    """Its words in a menu: an English message id (``N_``), rendered in the reader's language."""
    available: Callable[[State, Frame], bool]
    start: Callable[[State, Frame], None]


VERBS: Final[dict[str, list[Verb]]] = {IMPERIAL: [], INSURGENT: []}


def register_verbs(side: str, *verbs: Verb) -> None:
    """Add a side's AP verbs (in menu order)."""
    VERBS[side].extend(verbs)


Menu = Callable[[State, Frame], list[Action]]
MENUS: Final[dict[str, Menu]] = {}
"""Per side, a fast AP menu: exactly the verbs of :func:`reference_menu`, found with shared work and early
exits. The menu is computed at every AP choice, the engine's most frequent costly step."""


def reference_menu(s: State, f: Frame) -> list[Action]:
    """The AP verbs available now, one ``Verb.available`` at a time: the definition the fast menus must match."""
    return [ACTIONS[v.name, None] for v in VERBS[f["seat"]] if v.available(s, f)]


def register_menu(side: str, menu: Menu) -> None:
    """Install a side's fast AP menu (tests check it against :func:`reference_menu`)."""
    MENUS[side] = menu


def affordable(s: State, f: Frame, cost: int) -> bool:
    """Can this action be paid? Stored Preparation AP may complete a single action whose cost
    exceeds the AP printed on the card (rule 4.3.2 Preparation)."""
    if cost <= f["ap"]:
        return True
    if f["mode"] != "card" or f["prep_used"] or cost <= f["printed"]:
        return False
    return f["ap"] + s.tracks[f["seat"]]["preparation"] >= cost


def spend(s: State, f: Frame, cost: int) -> None:
    """Pay an action's AP from the card, then (if needed) from the Preparation track."""
    if cost <= f["ap"]:
        f["ap"] -= cost
        return
    need = cost - f["ap"]
    f["ap"] = 0
    f["prep_used"] = True
    t = s.tracks[f["seat"]]
    t["preparation"] -= need
    log(s, "{side} uses {n} stored AP from the Preparation track.", side=f["seat"], n=need)


def find_ap(s: State) -> Frame | None:
    """The nearest AP frame on the stack (the one paying for the current choice)."""
    for f in reversed(s.stack):
        if f["kind"] == "ap":
            return f
    return None


class SpendAP(Decision):
    """Choose the next action to buy with the card's remaining AP (or stop)."""

    kind = "ap"

    def prompt(self, s: State, f: Frame) -> str:
        prep = s.tracks[f["seat"]]["preparation"]
        if f["mode"] == "mahmud":
            return said("{side}: choose Captain Mahmud's Lagoon actions ({n} AP left, {stored} stored).",
                        side=f["seat"], n=f["ap"], stored=prep)
        return said("{side}: choose actions ({n} AP left, {stored} stored).", side=f["seat"], n=f["ap"], stored=prep)

    def legal(self, s: State, f: Frame) -> list[Action]:
        menu = MENUS.get(f["seat"])
        acts = menu(s, f) if menu is not None else reference_menu(s, f)
        if acts or f["ap"] > 0:
            acts.append(_END)
        return acts  # no AP left and nothing stored AP can buy: the turn ends by itself

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "end":
            s.stack.pop()
            if f["ap"] > 0:
                log(s, "{side} ends the turn ({n} AP unused).", side=f["seat"], n=f["ap"])
            return
        verb = a.verb
        for v in VERBS[f["seat"]]:
            if v.name == verb:
                v.start(s, f)
                return

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "end":
            return said("end the turn (losing {n} AP)", n=f["ap"]) if f["ap"] else said("end the turn")
        for v in VERBS[f["seat"]]:
            if v.name == a.verb:
                return said(v.label)
        return said("{verb}", verb=a.verb)


def prep_room(s: State, seat: str) -> bool:
    """True if the Preparation track can still go up."""
    return s.tracks[seat]["preparation"] < track_range("preparation")[1]
