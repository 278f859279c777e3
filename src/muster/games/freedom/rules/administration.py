"""Rule 4.1 Administration and rule 5 Period Change; the round's sequence of phases (rule 4)."""

from __future__ import annotations

from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT, SEATS
from muster.games.freedom.datafiles import cards_file, design
from muster.games.freedom.engine import ACTIONS, Decision, auto, count_down, frame, push, space_actions
from muster.games.freedom.rules.common import (
    add_imperial,
    adjust,
    area_index,
    log,
    said,
    support,
)
from muster.games.freedom.state import Frame, State


@auto("round")
def run_round(s: State, f: Frame) -> None:
    """Rule 4: the five phases of a round, in order."""
    steps = [] if f.get("skip_administration") else [frame("administration")]
    steps += [
        frame("opening"),
        frame("action_phase"),
        frame("action_phase_end"),
        frame("cannons_phase"),
        frame("replenishment"),
        frame("round_end"),
    ]
    push(s, *steps)


@auto("administration")
def administration(s: State, f: Frame) -> None:
    """Rule 4.1: advance the round; Period change in round 4; Morale −1 in rounds 5–6; refill hands."""
    s.round += 1
    s.built_this_round = False
    log(s, "Round {n} begins.", n=s.round)
    steps: list[Frame] = []
    if s.round == design()["period_b_from_round"]:
        steps.append(frame("period_change"))
    steps.append(frame("administration_draw"))
    push(s, *steps)


@auto("administration_draw")
def administration_draw(s: State, f: Frame) -> None:
    """Rule 4.1: the round's Imperial Morale loss, then both hands refilled to 8."""
    if s.round in design()["administration"]["imperial_morale_loss_rounds"]:
        adjust(s, IMPERIAL, "morale", -1)
        if s.result:
            return
    deck = "B" if s.round >= design()["period_b_from_round"] else "A"
    if s.round == design()["period_b_from_round"]:
        for seat in SEATS:  # discard every Period-A card still in hand
            s.discards["A"].extend(s.hands[seat])
            s.hands[seat] = []
        log(s, "Both players discard their Period A cards.")
    for seat in SEATS:
        draw_to(s, seat, deck, design()["hand_size"])


def draw_to(s: State, seat: str, deck: str, size: int) -> None:
    """Refill a hand to ``size`` from a deck (an exhausted deck simply stops the draw)."""
    drawn = 0
    while len(s.hands[seat]) < size and s.decks[deck]:
        s.hands[seat].append(s.decks[deck].pop())
        drawn += 1
    if drawn:
        s.tainted = True
        s.hands[seat].sort()
        log(
            s,
            "{side} draws {n} card from deck {deck}.",
            "{side} draws {n} cards from deck {deck}.",
            side=seat,
            n=drawn,
            deck=deck,
        )


@auto("period_change")
def period_change(s: State, f: Frame) -> None:
    """Rule 5: Ibrahim arrives. Allied units, Sea support, supplies, money and tracks."""
    imp = design()["period_change"]["imperial"]
    log(s, "Period B: Ibrahim arrives with Egyptian troops and ships.")
    push(s, frame("place_allied", seat=IMPERIAL, left=imp["allied_mainland"]), frame("period_change_rest"))


@auto("period_change_rest")
def period_change_rest(s: State, f: Frame) -> None:
    """Rule 5, after the Allied placement: the Camp, the Sea, Supplies, Money, the tracks, Civilians."""
    pc = design()["period_change"]
    imp, ins = pc["imperial"], pc["insurgent"]
    placed = add_imperial(s, board().camp, "A", imp["allied_camp"])
    log(s, "{n} Allied unit arrives in the Camp.", "{n} Allied units arrive in the Camp.", n=placed)
    sea = area_index("sea")
    for _ in range(imp["sea_support"]):
        support(s, IMPERIAL, sea)
    adjust(s, IMPERIAL, "supplies", imp["supplies"])
    adjust(s, IMPERIAL, "money", imp["money"][s.ruleset])
    adjust(s, IMPERIAL, "plea", imp["plea"])
    civilians = min(ins["civilians"], s.pools["civilians"])
    s.pools["civilians"] -= civilians
    s.civilians += civilians
    log(
        s,
        "{n} Civilian takes refuge in the City ({total}).",
        "{n} Civilians take refuge in the City ({total}).",
        n=civilians,
        total=s.civilians,
    )
    adjust(s, INSURGENT, "pressure", ins["pressure"])


def allied_spaces(s: State) -> list[int]:
    """Rule 5: mainland spaces in the two rows nearest the Camp that can take an Allied unit."""
    ins, exp, ally = s.ins, s.exp, s.ally
    return [i for i, limit in _ALLIED_ROWS if ins[i] == 0 and exp[i] == 0 and ally[i] < limit]


_ALLIED_ROWS: Final = tuple(
    (i, board().limit[i]) for i in board().mainland
    if board().row[i] in design()["period_change"]["imperial"]["allied_mainland_rows"])
"""The mainland spaces of the two rows nearest the Camp (rule 5), each with its stacking limit."""
_TO: Final = space_actions("to")


class PlaceAllied(Decision):
    """Rule 5: place the 10 Allied units one by one; any that fit nowhere go to the Camp."""

    kind = "place_allied"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Place an Allied unit within two rows of the Camp ({n} left).", n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["left"] <= 0 or s.pools["allied"] <= 0:
            return []
        spaces = allied_spaces(s)
        if not spaces:
            return [ACTIONS["camp", None]]
        to = _TO
        return [to[i] for i in spaces]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "camp":
            n = add_imperial(s, b.camp, "A", f["left"])
            log(
                s,
                "No room on the mainland: {n} Allied unit goes to the Camp.",
                "No room on the mainland: {n} Allied units go to the Camp.",
                n=n,
            )
            s.stack.pop()
            return
        i = b.index[str(a.arg)]
        add_imperial(s, i, "A")
        log(s, "An Allied unit is placed in {space}.", space=i)
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "camp":
            return said("put the remaining Allied units in the Camp")
        return said("place an Allied unit in {space}", space=board().index[str(a.arg)])


def card_deck(number: int) -> str:
    """The deck letter of a card."""
    return "A" if number <= 50 else "B"


def card_count(deck: str) -> int:
    """How many cards a deck holds."""
    return sum(1 for c in cards_file().cards if c.deck == deck)
