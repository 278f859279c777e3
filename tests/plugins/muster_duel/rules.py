"""The rules of Duel, in full.

Cards numbered 1 to 2·H+3 are shuffled and each seat is dealt a hand of H (the option ``hand``: 5 or 3);
the three cards left over stay face down all game. North leads the first trick. A trick: the leader shows a
card, the other seat answers with one; the higher card wins the trick and its winner leads the next. When
the hands are empty, whoever won more tricks wins (H is odd, so there is no draw).

A seat's turn is two steps: pick a card from the hand (still hidden: the seat may take it back with undo),
then play it (shown to everyone: undo can no longer go back before it). Everything hidden — both hands, the
card picked but not yet played and the face-down cards — is in the state, and the views show each seat only
its own hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from muster.core import JSON, Action, CorruptStateError, GameInfo, IllegalActionError, Outcome
from muster.core.spaces import ActionSpace, NumberedActions

SEATS = ("north", "south")
NAMES = {"north": "North", "south": "South"}
HANDS = ("5", "3")
"""The hand sizes offered (the option ``hand``); the first is the default."""
LEFT_OVER = 3
"""Cards that stay face down all game, so that the last hand is not known by counting."""
MOST_CARDS = 2 * max(int(h) for h in HANDS) + LEFT_OVER
PLAY = Action("play")


def other(seat: str) -> str:
    """The other seat."""
    return SEATS[1 - SEATS.index(seat)]


def _cards(state: dict[str, Any]) -> list[int]:
    return list(range(1, 2 * state["hand_size"] + LEFT_OVER + 1))


class DuelRules(NumberedActions):
    """Duel as a :class:`muster.core.Rules` (and a :class:`muster.core.spaces.LearningRules`)."""

    info = GameInfo(name="duel", title="Duel", seats=SEATS, options={"hand": HANDS}, version="duel-1")
    action_space = ActionSpace("duel", 1, [Action("pick", n) for n in range(1, MOST_CARDS + 1)] + [PLAY])

    # --- the game ---------------------------------------------------------------------------
    def setup(self, seed: int, options: dict[str, str] | None = None) -> dict[str, Any]:
        """Shuffle and deal; North to lead."""
        options = dict(options or {})
        unknown = set(options) - set(self.info.options)
        hand = options.get("hand", HANDS[0])
        if unknown or hand not in HANDS:
            raise ValueError(f"Duel has no option {sorted(unknown) or hand!r} (hand: {', '.join(HANDS)})")
        size = int(hand)
        deck = list(range(1, 2 * size + LEFT_OVER + 1))
        random.Random(seed).shuffle(deck)
        return {"hand_size": size, "hands": {"north": sorted(deck[:size]), "south": sorted(deck[size:2 * size])},
                "down": sorted(deck[2 * size:]), "active": "north", "picked": None, "table": [],
                "tricks": {"north": 0, "south": 0}, "played": [], "actions": 0, "turn_start": 0, "log": []}

    def active_seat(self, state: dict[str, Any]) -> str | None:
        """The seat to pick or play, None when every card is played."""
        active: str | None = state["active"]
        return active

    def legal_actions(self, state: dict[str, Any]) -> list[Action]:
        """Pick any card of the hand; once one is picked, play it."""
        seat = state["active"]
        if seat is None:
            return []
        if state["picked"] is not None:
            return [PLAY]
        return [Action("pick", n) for n in state["hands"][seat]]

    def apply(self, state: dict[str, Any], action: Action) -> None:
        """Pick or play (state untouched and IllegalActionError for anything not legal)."""
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"illegal action {list(action)}")
        seat = state["active"]
        state["actions"] += 1
        if action.verb == "pick":
            state["hands"][seat].remove(action.arg)
            state["picked"] = action.arg
            return
        card, state["picked"] = state["picked"], None
        state["table"].append([seat, card])
        state["played"].append([seat, card])
        state["log"].append(["{seat} leads the {card}." if len(state["table"]) == 1 else "{seat} answers with the "
                             "{card}.", {"seat": seat, "card": card}])
        if len(state["table"]) == 1:
            state["active"] = other(seat)
        else:
            (lead_seat, lead), (_, answer) = state["table"]
            winner = lead_seat if lead > answer else seat
            state["tricks"][winner] += 1
            state["table"] = []
            state["log"].append(["{seat} wins the trick.", {"seat": winner}])
            state["active"] = winner if state["hands"][winner] else None
            if state["active"] is None:
                north, south = state["tricks"]["north"], state["tricks"]["south"]
                state["log"].append(["Game over: North {north} tricks, South {south}.", {"north": north,
                                                                                          "south": south}])
        state["turn_start"] = state["actions"]

    def label(self, state: dict[str, Any], action: Action) -> str:
        """``Pick the 7`` / ``Play the 7``."""
        if action.verb == "pick":
            return f"Pick the {action.arg}"
        return f"Play the {state['picked']}"

    def prompt(self, state: dict[str, Any]) -> str:
        """What the active seat decides."""
        seat = state["active"]
        if seat is None:
            return "The game is over."
        if state["picked"] is not None:
            return f"{NAMES[seat]}: play the {state['picked']} (or undo to pick another card)"
        if state["table"]:
            return f"{NAMES[seat]}: answer the {state['table'][0][1]}"
        return f"{NAMES[seat]}: lead a card"

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        """More tricks wins, once every hand is empty."""
        if state["active"] is not None:
            return None
        north, south = state["tricks"]["north"], state["tricks"]["south"]
        winner = "north" if north > south else "south"
        return Outcome(winner, "tricks", f"{NAMES[winner]} won {max(north, south)} tricks to {min(north, south)}.")

    # --- what each seat knows -----------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, JSON]:
        """Built from what is public, plus ``seat``'s own hand and its own picked card (nothing else hidden)."""
        picked = state["picked"]
        counts = {s: len(state["hands"][s]) + (picked is not None and s == state["active"]) for s in SEATS}
        hands: dict[str, JSON] = {s: {"count": counts[s]} for s in SEATS}
        if seat is not None:
            mine = state["hands"][seat] + ([picked] if picked is not None and seat == state["active"] else [])
            hands[seat] = sorted(mine)
        return {"game": "duel", "seat": seat, "active": state["active"], "hand_size": state["hand_size"],
                "hands": hands, "picked": picked if seat is not None and seat == state["active"] else None,
                "picking": picked is not None, "table": [list(t) for t in state["table"]],
                "played": [list(p) for p in state["played"]], "tricks": dict(state["tricks"]),
                "face_down": len(state["down"]), "actions": state["actions"], "turn_start": state["turn_start"],
                "log": [list(entry) for entry in state["log"]]}

    def log(self, state: dict[str, Any], lang: str | None = None) -> list[str]:
        """The game in English words (Duel has no other language: every language gets English)."""
        return [text.format(**{k: NAMES.get(v, v) if isinstance(v, str) else v for k, v in args.items()})
                for text, args in state["log"]]

    def log_entries(self, state: dict[str, Any], start: int = 0) -> list[dict[str, Any]]:
        """The log's messages from the ``start``-th on, each its text and arguments (seats by id)."""
        return [{"m": text, "a": dict(args)} for text, args in state["log"][start:]]

    def private_info(self, state: dict[str, Any]) -> dict[str, frozenset[Any]]:
        """Each seat's hand, with the card it picked but has not played (playing it shows it to the other)."""
        out = {s: frozenset(state["hands"][s]) for s in SEATS}
        if state["picked"] is not None:
            out[state["active"]] |= {state["picked"]}
        return out

    def determinize(self, view: dict[str, JSON], seat: str, seed: int) -> dict[str, Any]:
        """A state ``seat`` cannot tell from the real one: the other hand and the face-down cards redrawn."""
        size = int(view["hand_size"])
        mine = list(view["hands"][seat])
        seen = set(mine) | {card for _, card in view["played"]}
        unseen = [n for n in range(1, 2 * size + LEFT_OVER + 1) if n not in seen]
        random.Random(seed).shuffle(unseen)
        them = other(seat)
        count = int(view["hands"][them]["count"])
        theirs, down = sorted(unseen[:count]), sorted(unseen[count:])
        picked = view["picked"]
        if picked is not None:
            mine.remove(picked)
        elif view["picking"]:  # the other seat picked a card not yet shown: any of the cards drawn for it
            picked = theirs.pop(random.Random(seed + 1).randrange(len(theirs)))
        return {"hand_size": size, "hands": {seat: sorted(mine), them: theirs}, "down": down,
                "active": view["active"], "picked": picked, "table": [list(t) for t in view["table"]],
                "tricks": dict(view["tricks"]), "played": [list(p) for p in view["played"]],
                "actions": view["actions"], "turn_start": view["turn_start"],
                "log": [list(entry) for entry in view["log"]]}

    # --- copies, saving, undo -------------------------------------------------------------------
    def clone(self, state: dict[str, Any]) -> dict[str, Any]:
        """An independent copy."""
        copy: dict[str, Any] = json.loads(json.dumps(state))
        return copy

    def to_json(self, state: dict[str, Any]) -> dict[str, JSON]:
        """The whole state (it is JSON already)."""
        return self.clone(state)

    def from_json(self, data: JSON) -> dict[str, Any]:
        """A state from :meth:`to_json`, checked: every card once, counts that add up, a seat that can act."""
        try:
            state = self.clone(data)
            size = state["hand_size"]
            everywhere = (state["hands"]["north"] + state["hands"]["south"] + state["down"]
                          + [card for _, card in state["played"]] + ([state["picked"]] if state["picked"] else []))
            if (str(size) not in HANDS or sorted(everywhere) != _cards(state)
                    or len(state["down"]) != LEFT_OVER or state["active"] not in (*SEATS, None)
                    or sum(state["tricks"].values()) * 2 + len(state["table"]) != len(state["played"])
                    or not isinstance(state["actions"], int) or not isinstance(state["log"], list)):
                raise ValueError("the cards or counts do not add up")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CorruptStateError(f"not a Duel state: {exc}") from exc
        return state

    def undo_start(self, state: dict[str, Any]) -> int | None:
        """The active seat may take back the card it picked: its turn began at its last play (or the other's)."""
        return None if state["active"] is None else int(state["turn_start"])

    def action_count(self, state: dict[str, Any]) -> int:
        """Picks and plays so far."""
        return int(state["actions"])

    # --- for learning agents ---------------------------------------------------------------------
    def observation_shape(self) -> tuple[int, ...]:
        """Four card vectors (my hand, played, the card to answer, my picked card) and five numbers."""
        return (4 * MOST_CARDS + 5,)

    def observation(self, state: dict[str, Any], seat: str) -> np.ndarray:
        """What ``seat`` knows as a tensor, built from its view alone."""
        view = self.view(state, seat)
        out = np.zeros(self.observation_shape(), dtype=np.float32)
        for n in view["hands"][seat]:
            out[n - 1] = 1
        for _, n in view["played"]:
            out[MOST_CARDS + n - 1] = 1
        if view["table"]:
            out[2 * MOST_CARDS + view["table"][0][1] - 1] = 1
        if view["picked"] is not None:
            out[3 * MOST_CARDS + view["picked"] - 1] = 1
        size = view["hand_size"]
        out[4 * MOST_CARDS:] = [view["active"] == seat, view["tricks"][seat] / size,
                                view["tricks"][other(seat)] / size, view["hands"][other(seat)]["count"] / size,
                                SEATS.index(seat)]
        return out

    def information_state(self, state: dict[str, Any], seat: str) -> str:
        """``seat``'s view as canonical JSON: equal exactly for the states it cannot tell apart."""
        return json.dumps(self.view(state, seat), sort_keys=True, separators=(",", ":"))


RULES = DuelRules()
"""The rules object the game module names."""
