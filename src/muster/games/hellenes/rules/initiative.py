"""3.3 Initiative: both sides commit a card face down; the lower Action value goes first (an Event counts
0); Sparta wins ties; Leaders and Continuing Events do not count. Then the two Player Turns."""

from __future__ import annotations

from typing import Any

from muster.core.frames import VERB_ACTIONS
from muster.core.interface import Action
from muster.games.hellenes.datafiles import cards, design
from muster.games.hellenes.engine import Decision, act, auto, frame, known, push, said
from muster.games.hellenes.rules.common import other
from muster.games.hellenes.rules.events import event_frames, event_playable
from muster.games.hellenes.rules.new_year import card_label
from muster.games.hellenes.state import Frame, State


def initiative_value(card: int, mode: str) -> int:
    """3.3: the printed Action value of the card played, or 0 for an Event."""
    return 0 if mode == "event" else cards()[card].actions


def first_player(committed: dict[str, list[Any]]) -> str:
    """3.3: fewer Actions first; a tie goes to Sparta."""
    ath = initiative_value(int(committed["athens"][0]), str(committed["athens"][1]))
    spa = initiative_value(int(committed["sparta"][0]), str(committed["sparta"][1]))
    return "athens" if ath < spa else "sparta"


def leader_bonus(s: State, side: str) -> int:
    """4.0: the Leader's rating added to an Action card."""
    return int(design()["leaders"].get(s.leaders.get(side, ""), 0))


@auto("season")
def season(s: State, f: Frame) -> None:
    """A new Season: both sides commit their cards."""
    s.season += 1
    s.say("— {season} {year} BC —", season=s.season, year=s.year)
    push(s, frame("commit", seat="sparta", card=None), frame("commit", seat="athens", card=None), frame("reveal"))


_CARD = VERB_ACTIONS["card"]
_AS_ACTIONS, _AS_EVENT = act("as", "actions"), act("as", "event")
"""The shared actions of the Initiative decision."""


class Commit(Decision):
    """3.3: choose a card face down and whether it is played for its Event or its Actions."""

    kind = "commit"

    def prompt(self, s: State, f: Frame) -> str:
        if f["card"] is None:
            return said("{side.name}: {season} {year}: choose a card (face down)", side=f["seat"], season=s.season,
                        year=s.year)
        return said("{side.name}: play {card} for its Event or its Actions", side=f["seat"], card=f["card"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["card"] is None:
            card = _CARD  # the shared actions looked up by argument: no call per card
            return [card[n] for n in s.hands[f["seat"]]]
        if event_playable(s, f["card"], f["seat"]):
            return [_AS_ACTIONS, _AS_EVENT]
        return [_AS_ACTIONS]

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
        if a.arg == "event":
            return said("its Event: {title} (Initiative 0)", title=f["card"])
        actions = cards()[known(f["card"])].actions
        return said("{n} Action (+{bonus} Leader)", "{n} Actions (+{bonus} Leader)", n=actions,
                    bonus=leader_bonus(s, f["seat"]))


@auto("reveal")
def reveal(s: State, f: Frame) -> None:
    """Both cards are revealed; Initiative decides who takes the first Player Turn."""
    committed = {side: s.committed[side] or [0, "actions"] for side in ("athens", "sparta")}
    s.first = first_player(committed)
    for side in ("sparta", "athens"):
        card, mode = committed[side]
        s.revealed[side] = [card, mode]
        s.committed[side] = None
        s.discard.append(int(card))
        if mode == "event":
            s.say("{side} plays {card} for its Event.", side=side, card=int(card))
        else:
            s.say("{side} plays {card} for its Actions.", side=side, card=int(card))
    s.say("{side} has the Initiative.", side=s.first)
    push(s, frame("player_turn", side=s.first), frame("player_turn", side=other(s.first)), frame("season_end"))


@auto("player_turn")
def player_turn(s: State, f: Frame) -> None:
    """A Player Turn: the Action phase (the Event, or the Actions 4.0–5.5), then the Combat phase (6.0)."""
    side = f["side"]
    card, mode = s.revealed[side] or [0, "actions"]
    s.active, s.mode = side, str(mode)
    s.moved, s.via, s.forced, s.crossings, s.no_entry = [], {}, [], {}, []
    if mode == "event":
        s.actions_left = 0
        push(s, *event_frames(s, int(card), side), frame("combat", side=side), frame("turn_end"))
    else:
        s.actions_left = cards()[int(card)].actions + leader_bonus(s, side)
        push(s, frame("actions", seat=side), frame("end_actions"), frame("combat", side=side), frame("turn_end"))
