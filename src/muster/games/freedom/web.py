"""The web adapter of Freedom! Messolonghi: board geometry with bastion names, hints, phases.

The hints are the terminal's own (:func:`muster.games.freedom.texts.explain`), so both front ends explain
a choice in the same words.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from muster.core import Action
from muster.games.freedom import RULES, guide
from muster.games.freedom.board import board
from muster.games.freedom.datafiles import areas_file, cards_file, design
from muster.games.freedom.texts import card_face, explain, outcome_detail_in, reward_text
from muster.games.freedom.texts import names as freedom_names
from muster.i18n import N_, check_lang, translator, words_in

# Wall sections west to east, named after the bastions of the land wall of 1825-26 (sources in
# ../shared/design/messolonghi-history.md; the mapping is ours and listed in docs/web.md). The
# history lists ten bastions for the game's nine sections: General Norman and Andreas Miaoulis,
# neighbours in mid-wall, share section 5.
BASTIONS: dict[str, str] = {
    "w1": "Sahtouris", "w2": "Mavromichalis", "w3": "William Tell", "w4": "Lord Byron",
    "w5": "Norman and Miaoulis", "w6": "Botsaris", "w7": "William of Orange", "w8": "Skenderbey",
    "w9": "Franklin",
}

OPPONENT_COLOUR = guide.OPPONENT_COLOUR
_ROLLS = ": rolls "
"""A log line of a die roll (English): an event preview that rolls shows nothing, its outcome being unknown."""

PHASE_OF_FRAME = {  # English ids: the browser shows them translated (t(phase)) and compares the ids
    "administration": N_("Administration"), "opening": N_("Opening"), "actions": N_("Action phase"),
    "cannons": N_("Cannon fire"), "replenishment": N_("Replenishment"),
}
GAME_OVER = N_("Game over")
# How the bot levels play Freedom! (the module's levels), for the lobby's t(); a test checks they match
LEVEL_WORDS = (
    N_("Plays any legal move: good for learning the rules."),
    N_("Weighs the board and plans the last card of each phase; answers at once."),
    N_("Looks ahead through the cards you might hold."),
)
# The other headings the board module gives log groups (static/games/freedom/board.js classify), translated there
LOG_HEADINGS = (N_("End of the round"), N_("Period B"), N_("Start"))
TRACK_WORDS = (N_("Imperial Morale"), N_("Insurgent Morale"), N_("Imperial Supplies"), N_("Insurgent Supplies"),
               N_("Imperial Preparation"), N_("Insurgent Preparation"), N_("Pressure"), N_("Plea"), N_("Round"))
CARD_SIDE_WORDS = (N_("Imperial event"), N_("Insurgent event"), N_("event for either side"))  # board.js SIDE_WORD


def _label(i: int, lang: str = "en") -> str:
    """A space's name for players: the bastion for a Wall section, else the board's own name."""
    b = board()
    sid = b.ids[i]
    tr = translator(lang)
    if sid in BASTIONS:
        kind = tr.gettext("fort") if b.fort[i] else tr.gettext("curtain")
        return tr.fmt("Bastion {name} ({kind}, Wall {n})", name=BASTIONS[sid], kind=kind, n=sid[1:])
    return freedom_names(lang).space(i)


@cache
def _static(lang: str = "en") -> dict[str, Any]:
    b = board()
    tr = translator(lang)
    names = freedom_names(lang)
    spaces = []
    for i, sid in enumerate(b.ids):
        spaces.append({
            "id": sid, "name": _label(i, lang), "short": BASTIONS.get(sid, names.space(i)), "kind": b.kind[i],
            "xy": list(b.xy[i]), "row": b.row[i] if b.row[i] else None, "col": b.col[i] if b.col[i] else None,
            "fort": bool(b.fort[i]), "limit": b.limit[i], "lagoon": bool(b.lagoon[i]), "thick": b.thick[i] >= 0,
            "log_name": names.space(i),
            "adjacent": [b.ids[j] for j in b.adj[i]],
        })
    tracks = design()["tracks"]
    areas = [{"id": a.id, "name": names.area(i),
              "rewards": {side: r.model_dump(exclude_defaults=True) for side, r in a.rewards.items()},
              "reward_text": {side: reward_text(side, r, lang) for side, r in a.rewards.items()}}
             for i, a in enumerate(areas_file().areas)]
    cards = [{"number": c.number, "deck": c.deck, "name": card_face(c.number, lang)["name"], "ap": c.ap,
              "side": c.side, "text": card_face(c.number, lang)["text"], "note": card_face(c.number, lang)["note"],
              "event": c.effect is not None}
             for c in cards_file().cards]
    return {
        "game": "freedom", "title": "Freedom! Messolonghi 1825–1826", "lang": lang,
        "seats": {"imperial": {"name": tr.gettext("side:imperial"), "colour": "red",
                               "people": tr.gettext("Ottoman besiegers")},
                  "insurgent": {"name": tr.gettext("side:insurgent"), "colour": "blue",
                                "people": tr.gettext("Greek defenders")}},
        "spaces": spaces, "areas": areas, "cards": cards, "support_limit": areas_file().support_limit,
        "tracks": {name: list(bounds) for name, bounds in tracks.items()},
        "rounds": design()["rounds"], "period_b_from_round": design()["period_b_from_round"],
        "cards_per_phase": design()["cards_per_action_phase"],
    }


class FreedomAdapter:
    """Freedom!'s answers to :class:`muster.server.games.WebAdapter`."""

    def static_data(self) -> dict[str, Any]:
        """Board spaces (with bastion names and neighbours), area tiles, card faces, track ranges."""
        return _static()

    def static_data_for(self, lang: str) -> dict[str, Any]:
        """The static data with names and card faces in ``lang``."""
        return _static(check_lang(lang))

    def phase(self, view: dict[str, Any]) -> str:
        """The phase of the current decision, as the terminal names it."""
        if view.get("result"):
            return GAME_OVER
        return PHASE_OF_FRAME[guide.current_phase(view)]

    def hint(self, view: dict[str, Any], action: Action, seat: str | None, lang: str = "en") -> str:
        """The terminal's one-line explanation of this choice (in ``lang``)."""
        return _explain(action, seat, lang)

    def decision_help(self, view: dict[str, Any], lang: str = "en") -> str:
        """The terminal's one line on the decision on top of the stack (in ``lang``)."""
        return guide.decision_help(view, lang)

    def warning(self, view: dict[str, Any], action: Action, seat: str | None, legal: list[Action],
                lang: str = "en") -> str:
        """Costly choices: an opponent-coloured event played for AP (rule 4.3.1), a turn ended with AP left."""
        tr = translator(lang)
        if action.verb == "ap" and isinstance(action.arg, int) and seat in OPPONENT_COLOUR:
            card = _cards_by_number(lang)[action.arg]
            if card["event"] and card["side"] == OPPONENT_COLOUR[seat]:
                return tr.fmt("{card} favours your opponent: if you use it for its {n} AP, your opponent may discard "
                              "a card to play its event. Use it for AP anyway?", card=card["name"], n=card["ap"])
        if action.verb == "end" and len(legal) > 1:
            frame = (view.get("stack") or [{}])[-1]
            left = frame.get("ap") if isinstance(frame, dict) else None
            if isinstance(left, int) and left > 0:
                return tr.fmt("You still have {n} AP; ending the turn loses them. End the turn?", n=left)
        return ""

    def effects_now(self, view: dict[str, Any], seat: str | None, actions: list[Action],
                    lang: str = "en") -> dict[int, str]:
        """What playing an event would do at once, for the events among ``actions`` (by their index) whose
        outcome is already certain: an event that asks nothing further and rolls nothing is played out on
        the player's own view, so a player sees before the click that *Notis Botsaris* with no attack
        possible only gives 1 Morale, or that an event would change nothing.

        Only the seat's view is used (a determinization of it, twice with different hidden parts): a note is
        given only when both agree, so no hidden card or future die shows through."""
        events = [k for k, a in enumerate(actions) if a.verb in ("event", "trigger")]
        if not events or seat is None:
            return {}
        rules: Any = RULES  # Freedom's rules: they also render the log from a line on
        tr = translator(lang)
        worlds = [rules.determinize(view, seat, seed) for seed in (1, 2)]
        out: dict[int, str] = {}
        for k in events:
            results = []
            for world in worlds:
                s = rules.clone(world)
                start = len(s.log)
                rules.apply(s, actions[k])
                top = (s.stack or [{}])[-1]
                asks = top.get("seat") == seat and top.get("kind") != "card_turn" and s.result is None
                rolled = any(_ROLLS in line for line in rules.log_from(s, start, "en"))
                lines = rules.log_from(s, start, lang)[1:]  # after "… plays … as an event"
                results.append(None if asks or rolled else tuple(lines))
            first = results[0]
            if first is None or results[1] != first:
                continue
            if not first:
                out[k] = tr.gettext("It has no effect now.")
            else:
                out[k] = tr.fmt("Played now: {effects}", effects=" ".join(first))
        return out

    def label_for(self, view: dict[str, Any], action: Action, seat: str | None, label: str, lang: str) -> str:
        """A choice's label in ``lang``, rendered from the message the rules keep with it."""
        return words_in(label, freedom_names(lang))

    def prompt_for(self, view: dict[str, Any], seat: str | None, prompt: str, lang: str) -> str:
        """The decision's prompt in ``lang``, rendered from the message the rules keep with it."""
        return words_in(prompt, freedom_names(lang))

    def outcome_detail_in(self, log: list[Any], lang: str) -> str | None:
        """Why the game ended, in ``lang`` (None for an old, English log)."""
        return outcome_detail_in(log, lang)

    lobby_options = ("ruleset",)
    """The lobby lets players choose the rules edition (under "Advanced")."""

    confirm_commits = True
    """A click that ends the turn or rolls dice, with nothing on it saying so, asks once more (the undo of a
    turn stops at the first die, card drawn or hand-over)."""

    public_facts = True
    """Every board fact is public: any seat's view gives the same facts as a spectator's."""

    def board_facts(self, view: dict[str, Any]) -> dict[str, dict[str, int]]:
        """Units of each kind, cannons and Wall damage per space (all public)."""
        facts: dict[str, dict[str, int]] = {}
        for kind, per_space in view.get("spaces", {}).items():
            for sid, n in per_space.items():
                facts.setdefault(sid, {})[kind] = int(n)
        facts.setdefault("camp", {})["camp_cannons"] = int(view.get("camp_cannons", 0))
        facts.setdefault("city", {})["civilians"] = int(view.get("civilians", 0))
        return facts

    def facts_by_kind(self, view: dict[str, Any]) -> dict[str, dict[str, int]]:
        """:meth:`board_facts` by kind, ``{kind: {space: n}}``: the view's own per-kind tables, shared, not copied
        (views are built anew for each position and only read)."""
        return {**view.get("spaces", {}), "camp_cannons": {"camp": int(view.get("camp_cannons", 0))},
                "civilians": {"city": int(view.get("civilians", 0))}}

    def card_played(self, action: Action) -> int | None:
        """Playing a card as its event, for AP or to trigger names it in the action's argument."""
        if action.verb in ("event", "ap", "trigger") and isinstance(action.arg, int):
            return action.arg
        return None

    def public_action(self, action: Action) -> list[Any]:
        """Every Freedom! action is public (cards are played face up)."""
        return action.to_json()


@cache
def _cards_by_number(lang: str) -> dict[int, dict[str, Any]]:
    """The static data's card faces in ``lang`` by number (asked for every card in hand at every push)."""
    return {c["number"]: c for c in _static(check_lang(lang))["cards"]}


@lru_cache(maxsize=8192)
def _explain(action: Action, seat: str | None, lang: str) -> str:
    """:func:`muster.games.freedom.texts.explain`, remembered: it depends on nothing else, and every push to the
    seat to act asks it for each legal choice."""
    return explain(action, seat, lang)


ADAPTER = FreedomAdapter()
