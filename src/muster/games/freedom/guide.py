"""Freedom!'s help words, shared by the terminal and the web: which phase a decision belongs to, help on
that phase, and a short explanation of every kind of choice (:func:`muster.games.freedom.texts.explain`
picks among them).

All texts are written for this project in our own words from the rules digest; they summarise
the rules, the engine enforces them.
"""

from __future__ import annotations

from typing import Any

from muster.i18n import N_, translator

# The phase frames of a round in play order; the topmost one still waiting on the decision stack
# tells which phase the current decision belongs to (it is the phase *before* that frame).
_PHASE_BEFORE: dict[str, str] = {
    "period_change": "administration",
    "period_change_rest": "administration",
    "administration_draw": "administration",
    "opening": "administration",
    "action_phase": "opening",
    "action_phase_end": "actions",
    "cannons_phase": "actions",
    "replenishment": "cannons",
    "round_end": "replenishment",
}

PHASE_TITLES: dict[str, str] = {
    "administration": N_("Administration"),
    "opening": N_("Opening"),
    "actions": N_("Action phase"),
    "cannons": N_("Cannon fire"),
    "replenishment": N_("Replenishment"),
}

PHASE_HELP: dict[str, str] = {
    "administration": N_(
        "Administration (every round but the first). The round marker advances; in rounds 5 and 6 the "
        "Imperial side loses 1 Morale. Both players fill their hands back up to 8 cards from the deck of "
        "the current period. When round 4 begins the siege enters Period B: the Imperial side receives "
        "Allied units (placed in the two mainland rows nearest the Camp, never together with Expeditionary "
        "units), Supplies, Money and Plea steps; the Insurgent side gains Civilians and 1 Pressure; every "
        "Period A card still in hand is thrown away and fresh hands come from deck B."
    ),
    "opening": N_(
        "Opening. The Imperial player may step up to 5 units one space forward each (towards the Wall), "
        "from the mainland or out of the Camp; no Slow Movement. Then the Insurgent player may Regroup one "
        "unit for free: move it to any City space (Wall or Beach) or island that has room and no Imperial unit."
    ),
    "actions": N_(
        "Action phase. The side with the higher Morale starts (Imperial on a tie) and the players take turns, "
        "one card per turn, until each has played 7. A card may be played as its Event (only by the side "
        "its colour favours: red Imperial, blue Insurgent, grey either) or for its Action Points (2–4 AP), "
        "which buy actions one at a time. Unused AP are lost unless stored with Preparation. If your "
        "opponent just played a card of YOUR colour for its AP, you may instead discard any card to apply "
        "that card's Event. At the end of the phase the Imperial side wins at once if one of its units "
        "stands in a Fort or on the Beach (2nd edition)."
    ),
    "cannons": N_(
        "Cannon fire. Every Imperial cannon with a friendly unit in its space fires once, in the order "
        "the Imperial player chooses, then every Insurgent cannon. Two dice are rolled; each die that "
        "reaches the number needed for the distance (4 adjacent, 5 two spaces, 6 three spaces) is a hit. "
        "Imperial hits damage then destroy a Wall section, then remove defenders, then the cannon; "
        "Insurgent hits remove Imperial units, then the cannon."
    ),
    "replenishment": N_(
        "Replenishment. The Imperial side collects the rewards of its area tiles, pays Money (4, Period B 6) "
        "and Supplies (8, Period B 12) and loses Morale and units for what it cannot pay, then suffers "
        "desertion when its Morale is low. The Insurgent side counts its Population, collects area rewards "
        "(placing new units and cannons in the City or on islands), pays Supplies by Population and may "
        "receive help from the Government (2 dice + Pressure of 12 or more)."
    ),
}

FIRST_EDITION_NOTES: dict[str, str] = {
    "administration": N_("1st edition: at the Period change the Imperial side gets 6 Money instead of 8."),
    "opening": N_("1st edition: the advancing units must all come from one row, or all from the Camp."),
    "actions": N_(
        "1st edition: the Imperial victory check comes at the end of the round; Slow Movement may enter a "
        "damaged (not only a destroyed) Wall section; Reward Attacks may be bought more than once a turn."
    ),
    "cannons": N_("1st edition: a Wall section destroyed by a shot gives no Morale choice."),
    "replenishment": N_("1st edition: in Period B the Imperial side also loses 1 Morale as Replenishment begins."),
}
"""Where the 1st edition differs in each phase (digest section 10)."""

VICTORY_HELP = N_(
    "Winning: the Imperial side wins at the end of an Action phase (2nd edition; end of the round in the "
    "1st) if one of its units stands in any Fort or on the Beach. A side whose Morale reaches 0 loses at "
    "once. Otherwise the Insurgent side wins when Messolonghi holds out to the end of round 6."
)

COMMANDS_HELP = N_(
    "Commands: a number picks that choice; 'help' shows this text; 'undo' goes back to the start of your "
    "turn (only while no dice were rolled and no cards drawn); 'save FILE' writes a save file (load it "
    "with 'muster play --load FILE'); 'log [N]' shows the last N log lines; 'hand' shows your cards "
    "with their texts; 'hint' shows the strongest bot's top three choices (when the game was started "
    "with hints and, between two people, both agreed); 'compact' and 'full' switch between the short "
    "screen and the full one; 'quit' "
    "stops (offering to save). Ctrl-C also offers to save."
)

# Explanations of what each step of a generic select decision means, by the op it runs.
OP_HELP: dict[str, str] = {
    "advance": N_("Opening advance: pick a unit's space, then the space one step forward it moves to."),
    "opening_regroup": N_("Free Regroup: pick a defender, then any City space or island with room for it."),
    "move": N_("Normal Movement: pick a unit, then a space 1 or 2 steps away (never back towards the Camp)."),
    "move_second": N_("Normal Movement: after a 1-space move you may move a second unit 1 space."),
    "slow": N_("Slow Movement: 1 unit 1 space onto a broken Wall section, along the Wall, onto Rows 1–2 "
               "or the Lagoon."),
    "imperial_attack": N_("Attack: pick an attacking unit, then the adjacent Insurgent space. 2 dice, one 8 wins."),
    "imperial_build": N_("Build Cannon: a Camp cannon goes to a space with an Imperial unit and no cannon."),
    "support": N_("Support Area: add a marker to your own area, remove one from an enemy area, or flip a bare one."),
    "regroup": N_("Regroup: move a defender to any City space or island that has room and no Imperial unit."),
    "insurgent_attack": N_("Attack: pick a defender, then an adjacent Imperial space. 1 die: 6+ (5+ on Wall/Beach)."),
    "raid": N_("Raid: a Wall defender strikes a mainland space 2+ rows out; costs 1 AP per step of a clear path."),
    "repair": N_("Repair Wall: a section with a defender goes from destroyed to damaged or damaged to intact."),
    "train": N_("Train Civilians: one Civilian becomes a unit in a City space or on a free island."),
    "insurgent_build": N_("Build Cannon: a new cannon where a defender stands in the City or on an island."),
}

KIND_HELP: dict[str, str] = {
    "card_turn": N_("Your turn: play one card from your hand as its Event, for its AP, or discard it to trigger."),
    "ap": N_("Spend the card's Action Points on actions, one at a time; 'end the turn' stops."),
    "cannons": N_("Pick the next cannon to fire, then its target."),
    "morale_choice": N_("You emptied a space: raise your own Morale by 1 or lower your opponent's by 1."),
    "place_allied": N_("Period B begins: place each Allied unit in one of the two mainland rows nearest the Camp."),
    "remove_units": N_("Remove units as the rules or the event demand."),
    "place_insurgent": N_("Place each new defender in a City space or on an island not held by the enemy."),
    "final_trigger": N_("End of the Action phase: you may discard your last card to use the event just played."),
    "ev_choose_support": N_("The event gives free Support actions: choose an area for each."),
    "ev_to_camp": N_("The event sends Imperial units back to the Camp: choose them."),
    "ev_from_camp": N_("The event moves units out of the Camp one space: choose them, or stop."),
    "ev_fire_one": N_("The event fires one cannon: choose the cannon, then the Wall section it fires at."),
    "ev_night_works": N_("Night Works: a Row 6 cannon moves forward, a unit may go with it."),
    "ev_grenades": N_("Grenades: choose a Row 5 space with Allied units."),
}

OPPONENT_COLOUR = {"imperial": "blue", "insurgent": "red"}
"""The card colour whose events favour each seat's opponent."""

# Short explanations per action verb (``seat:verb`` when the sides' actions of that name differ);
# for AP actions they add what the engine's label does not already say.
VERB_HELP: dict[str, str] = {
    "ap": N_("spend its AP on actions (the event is not used)"),
    "trigger": N_("discard this card to apply the event your opponent just played for AP"),
    "pass": N_("keep the card and do nothing"),
    "from": N_("the space the acting unit comes from"),
    "to": N_("the space it goes to (or the place chosen)"),
    "unit": N_("which kind of unit acts"),
    "done": N_("finish this step"),
    "end": N_("finish your turn; AP not spent are lost"),
    "cannon": N_("the cannon that fires next"),
    "target": N_("what that cannon fires at"),
    "remove": N_("take one unit away from that space"),
    "morale": N_("'own': your Morale +1; 'enemy': opponent's Morale −1"),
    "area": N_("the area tile that receives the Support"),
    "camp": N_("send the unit to the Camp instead"),
    "with": N_("a unit of this kind moves forward with the cannon"),
    "alone": N_("the cannon moves forward alone"),
    "move": N_("never back towards the Camp; not into Slow spaces, enemy-held or full spaces"),
    "slow": N_("the Wall only where destroyed (1st ed.: or damaged) and undefended; the Lagoon from its entry spaces"),
    "imperial:attack": N_("2 dice, one reaching 8 wins: fort −1, from Row 4 at a damaged/destroyed Wall +1/+2, "
                          "Reward +2"),
    "insurgent:attack": N_("1 die: 6+ succeeds, 5+ against a unit on the Wall or the Beach"),
    "reward": N_("once a turn; every later attack of this turn gets +2"),
    "prepare": N_("stored AP can top up one later action that costs more than its card's AP"),
    "support": N_("own area: +1 marker (max 5); enemy area: −1 marker, or flip it when bare"),
    "plea": N_("2 dice + Plea track: under 12 gives +3 Money and moves the Plea track up 2"),
    "imperial:build": N_("needs a cannon waiting in the Camp and a unit in a space without a cannon"),
    "insurgent:build": N_("a defender must stand in the City space or on the island; no cannon there yet"),
    "regroup": N_("not into spaces with Imperial units; space limits apply"),
    "raid": N_("from a Wall section, 2+ rows out, AP = steps of a path with no Imperial unit; 1 die, 5+ hits"),
    "pressure": N_("Pressure track +1: the Government's help (2 dice + Pressure ≥ 12) comes more easily"),
    "repair": N_("destroyed → damaged → intact; a defender must stand in the section"),
    "train": N_("one Civilian becomes a defender in a City space or on a free island"),
}


def current_phase(view: dict[str, Any]) -> str:
    """The phase the current decision belongs to (a key of :data:`PHASE_TITLES`), from the view's stack."""
    for frame in reversed(view.get("stack", [])):
        phase = _PHASE_BEFORE.get(str(frame.get("kind")))
        if phase is not None:
            return phase
    return "replenishment"


def decision_help(view: dict[str, Any], lang: str = "en") -> str:
    """A sentence on the decision on top of the stack (empty if there is nothing specific to say), in ``lang``."""
    stack = view.get("stack", [])
    if not stack:
        return ""
    top = stack[-1]
    kind = str(top.get("kind"))
    text = OP_HELP.get(str(top.get("op")), "") if kind == "select" else KIND_HELP.get(kind, "")
    return translator(lang).gettext(text) if text else ""


def phase_help(view: dict[str, Any], lang: str = "en") -> str:
    """The full help text for the phase of the current decision, in ``lang``."""
    tr = translator(lang)
    phase = current_phase(view)
    parts = [tr.gettext(PHASE_HELP[phase])]
    if view.get("ruleset") == "1st":
        parts.append(tr.gettext(FIRST_EDITION_NOTES[phase]))
    now = decision_help(view, lang)
    if now:
        parts.append(tr.fmt("Now: {what}", what=now))
    parts += [tr.gettext(VICTORY_HELP), tr.gettext(COMMANDS_HELP)]
    return "\n\n".join(parts)

