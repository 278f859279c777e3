"""10.0 New Year (PUBLIC order, digest 2.7): Tribute, Victory Check, Pillage and Militia reset, the deal,
and the New-Year card played as an Event or a Sacrifice."""

from __future__ import annotations

from muster.core import rng
from muster.core.interface import Action
from muster.games.hellenes.datafiles import design, game_map
from muster.games.hellenes.engine import Decision, auto, frame, known, push, said
from muster.games.hellenes.rules.events import event_frames, event_playable
from muster.games.hellenes.rules.victory import tribute, victory_check
from muster.games.hellenes.state import Frame, State


@auto("new_year")
def new_year(s: State, f: Frame) -> None:
    """Steps 1–7 of the New Year; then each side plays its New-Year card."""
    s.season = -1
    s.say("— New Year {year} BC —", year=s.year)
    first_year = s.year == 431
    if not first_year:
        tribute(s)
        if victory_check(s):
            return
    s.pillaged = []
    g = game_map()
    for area, city in g.cities.items():
        if s.control.get(area) == s.loyal.get(area) and area not in s.sieges:
            s.militia[area] = city.value
    if s.leaders.get("sparta") == "brasidas":
        s.leaders["sparta"] = "archidamos"
        s.say("Brasidas's command ends; Archidamos leads Sparta again.")
    deal(s)
    push(s, frame("ny_card", seat="sparta", card=None), frame("ny_card", seat="athens", card=None),
         frame("ny_reveal"), frame("season"))


def deal(s: State) -> None:
    """Collect and shuffle every card, then deal a hand to each side (DESIGN: 6, one per Season and New Year)."""
    everything = sorted(s.deck + s.discard + s.hands["athens"] + s.hands["sparta"])
    s.rng, shuffled = rng.shuffled(s.rng, everything)
    s.tainted = True
    size = design()["hand_size"]
    s.hands = {"sparta": sorted(shuffled[:size]), "athens": sorted(shuffled[size:2 * size])}
    s.deck = shuffled[2 * size:]
    s.discard = []


def card_label(n: int) -> str:
    """A card in words."""
    return said("{card}", card=n)


class NewYearCard(Decision):
    """10.4: a card face down, played as a New-Year Event or a Sacrifice (DESIGN: a plain discard)."""

    kind = "ny_card"

    def prompt(self, s: State, f: Frame) -> str:
        if f["card"] is None:
            return said("{side.name}: New Year {year}: choose the New-Year card (face down)", side=f["seat"],
                        year=s.year)
        return said("{side.name}: play {card} as an Event or Sacrifice it", side=f["seat"], card=f["card"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["card"] is None:
            return [Action("card", n) for n in s.hands[f["seat"]]]
        acts = [Action("as", "sacrifice")]
        if event_playable(s, f["card"], f["seat"]):
            acts.insert(0, Action("as", "event"))
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "card":
            f["card"] = int(a.arg)  # type: ignore[arg-type]
            return
        s.stack.pop()
        card = known(f["card"])
        s.hands[f["seat"]].remove(card)
        s.committed[f["seat"]] = [card, str(a.arg)]

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "card":
            return card_label(int(a.arg))  # type: ignore[arg-type]
        return said("play it as its Event") if a.arg == "event" else said("sacrifice it (discard)")


@auto("ny_reveal")
def ny_reveal(s: State, f: Frame) -> None:
    """Both New-Year cards are revealed; Events resolve, Sparta's first (2.1)."""
    todo: list[Frame] = []
    for side in ("sparta", "athens"):
        card, mode = s.committed[side] or [0, "sacrifice"]
        s.committed[side] = None
        s.discard.append(card)
        if mode == "event":
            s.say("{side} New-Year card: {card} as its Event.", side=side, card=card)
        else:
            s.say("{side} New-Year card: {card} as a Sacrifice.", side=side, card=card)
        if mode == "event":
            todo += event_frames(s, card, side)
    push(s, *todo)

