"""The named effect of every card with an event. Each returns the frames of its event, built
from :mod:`muster.games.freedom.cards.primitives`; ``cards.json`` names the function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from muster.games.freedom.board import board
from muster.games.freedom.cards.primitives import (
    advance,
    attack_sources,
    build_free,
    cannon_to_camp,
    choose_support,
    civilians,
    damage_wall,
    fire_cannons,
    fire_one_cannon,
    free_attacks,
    free_plea,
    free_raids,
    free_regroups,
    grenades,
    march_from_camp,
    night_works,
    place_imperial,
    place_insurgent,
    pool_to_camp,
    raid_sources,
    ready_cannons,
    remove_unit,
    remove_where,
    repair_wall,
    send_back,
    spaces_where,
    spike_cannon,
    support_at,
    take_island,
    track,
    train,
    units_to_camp,
)
from muster.games.freedom.constants import IMPERIAL, INSURGENT, cannon_owner, other
from muster.games.freedom.datafiles import areas_file, cards_file
from muster.games.freedom.engine import push
from muster.games.freedom.rules.action_phase import ap_frame, set_event_starter
from muster.games.freedom.rules.common import areas_of, log, track_range
from muster.games.freedom.state import Frame, State

Effect = Callable[[State, str], list[Frame]]
EFFECTS: Final[dict[str, Effect]] = {}


def effect(fn: Effect) -> Effect:
    """Register a card effect under its function name."""
    EFFECTS[fn.__name__] = fn
    return fn


# --- rulebook cards (2nd edition, effects as printed) ------------------------------------------


@effect
def sacred_city(s: State, seat: str) -> list[Frame]:
    """1A: +1 on the Pressure track."""
    return [track(INSURGENT, "pressure", 1)]


@effect
def unequal_share_of_money(s: State, seat: str) -> list[Frame]:
    """3A: the Empire loses 1 Money; remove 1 Imperial unit from any space."""
    return [track(IMPERIAL, "money", -1), remove_unit(seat, IMPERIAL)]


@effect
def marsh_diseases(s: State, seat: str) -> list[Frame]:
    """4A: 2 Imperial units not in Row 4 return to the Camp."""
    return [units_to_camp(seat, 2, exclude_row=4)]


@effect
def georgios_karaiskakis(s: State, seat: str) -> list[Frame]:
    """5A: Support in 2 Imperial-controlled areas; Imperial Morale −2."""
    return [choose_support(seat, 2, controlled_by=other(seat)), track(IMPERIAL, "morale", -2)]


@effect
def fleets_departure(s: State, seat: str) -> list[Frame]:
    """30A: Support at Sea, Kryoneri and Petalas."""
    return [support_at(seat, "sea"), support_at(seat, "kryoneri"), support_at(seat, "petalas")]


@effect
def chieftains_defect(s: State, seat: str) -> list[Frame]:
    """31A: Support in 2 Insurgent-controlled areas; Insurgent Morale −1."""
    return [choose_support(seat, 2, controlled_by=other(seat)), track(INSURGENT, "morale", -1)]


@effect
def yusuf_pasha(s: State, seat: str) -> list[Frame]:
    """32A: Support at Sea; +1 Imperial Supply; a cannon to the Camp."""
    return [support_at(seat, "sea"), track(IMPERIAL, "supplies", 1), cannon_to_camp()]


@effect
def abandoned_cause(s: State, seat: str) -> list[Frame]:
    """33A: remove 1 Insurgent unit anywhere."""
    return [remove_unit(seat, INSURGENT)]


@effect
def night_works_card(s: State, seat: str) -> list[Frame]:
    """34A: a Row 6 cannon and up to 1 unit move one space forward."""
    return [night_works(seat)]


@effect
def captain_mahmud(s: State, seat: str) -> list[Frame]:
    """36A: Lagoon movements and attacks worth up to 6 AP; each unit may attack twice."""
    f = ap_frame(seat, 36, 6, mode="mahmud")
    f["attack_limit"] = 2
    return [f]


@effect
def aqueduct_destroyed(s: State, seat: str) -> list[Frame]:
    """38A: −2 Insurgent Supplies."""
    return [track(INSURGENT, "supplies", -2)]


@effect
def kutahi(s: State, seat: str) -> list[Frame]:
    """39A: Support in each Imperial area; 4 units leave the Camp one space forward."""
    frames = [support_at(seat, areas_file().areas[i].id) for i in areas_of(s, seat)]
    return [*frames, march_from_camp(seat, 4)]


@effect
def stone_cannon_balls(s: State, seat: str) -> list[Frame]:
    """42A: fire one cannon, hits remove units instead of damaging; a Camp unit to Row 4."""
    return [fire_one_cannon(seat, stone_balls=True)]


@effect
def reinforcements(s: State, seat: str) -> list[Frame]:
    """43A (grey): Support in any 2 areas."""
    return [choose_support(seat, 2, controlled_by=None)]


@effect
def raise_morale(s: State, seat: str) -> list[Frame]:
    """48A (grey): +2 Morale for the player of the event."""
    return [track(seat, "morale", 2)]


@effect
def grenades_card(s: State, seat: str) -> list[Frame]:
    """89B: the Allied units of a Row 5 space each attack the Wall section in front of them."""
    return [grenades(seat)]


# --- designed cards: deck A, Kütahi's siege (April–November 1825) ------------------------------
# Conditions ("if …, otherwise …") are read when the card is played.


def _any_imperial(s: State, where: str) -> bool:
    return any(s.exp[i] + s.ally[i] for i in spaces_where(where))


def _any_cannon(s: State, code_side: str, where: str) -> bool:
    return any(cannon_owner(s.cannon[i]) == code_side for i in spaces_where(where))


def _any_damage(s: State) -> bool:
    return any(s.damage[i] and not (s.exp[i] + s.ally[i]) for i in spaces_where("wall"))


@effect
def notis_botsaris(s: State, seat: str) -> list[Frame]:
    """2A: up to 2 free attacks at +1; if none is possible, +1 Insurgent Morale."""
    if attack_sources(s, INSURGENT):
        return [free_attacks(seat, 2, 1)]
    return [track(INSURGENT, "morale", 1)]


@effect
def kitsos_tzavelas(s: State, seat: str) -> list[Frame]:
    """6A: up to 2 free Regroups, then up to 2 free attacks at +1."""
    return [free_regroups(2), free_attacks(seat, 2, 1)]


@effect
def dimitrios_makris(s: State, seat: str) -> list[Frame]:
    """8A: a free Raid at +1; if none is possible, −1 Imperial Morale."""
    if raid_sources(s):
        return [free_raids(1, 1)]
    return [track(IMPERIAL, "morale", -1)]


@effect
def counter_mines(s: State, seat: str) -> list[Frame]:
    """9A: remove an Imperial unit from Row 4 or 5; if none is there, −1 Imperial Morale."""
    if _any_imperial(s, "row45"):
        return [remove_where(seat, IMPERIAL, 1, "row45")]
    return [track(IMPERIAL, "morale", -1)]


@effect
def sortie_against_the_guns(s: State, seat: str) -> list[Frame]:
    """10A: remove an Imperial cannon in Rows 4–6; −1 Imperial Morale."""
    return [spike_cannon(seat, IMPERIAL, "row46"), track(IMPERIAL, "morale", -1)]


@effect
def miaoulis_relief_run(s: State, seat: str) -> list[Frame]:
    """12A: Insurgent Support at Sea; +2 Insurgent Supplies."""
    return [support_at(seat, "sea"), track(INSURGENT, "supplies", 2)]


@effect
def byrons_legacy(s: State, seat: str) -> list[Frame]:
    """13A: +1 Insurgent Morale, +1 Pressure."""
    return [track(INSURGENT, "morale", 1), track(INSURGENT, "pressure", 1)]


@effect
def greek_chronicle(s: State, seat: str) -> list[Frame]:
    """14A: Support in any 1 area; +1 Insurgent Preparation."""
    return [choose_support(seat, 1, controlled_by=None), track(INSURGENT, "preparation", 1)]


@effect
def women_rebuild_the_walls(s: State, seat: str) -> list[Frame]:
    """16A/58B: repair a Wall section one step; if none can be repaired, +1 Insurgent Morale."""
    if _any_damage(s):
        return [repair_wall(seat, 1)]
    return [track(INSURGENT, "morale", 1)]


@effect
def christos_kapsalis(s: State, seat: str) -> list[Frame]:
    """17A: +3 Insurgent Supplies, +1 Insurgent Morale."""
    return [track(INSURGENT, "supplies", 3), track(INSURGENT, "morale", 1)]


@effect
def bishop_of_rogoi(s: State, seat: str) -> list[Frame]:
    """18A: +1 Insurgent Morale; a Civilian is trained for free."""
    return [track(INSURGENT, "morale", 1), train(1)]


@effect
def chieftains_slip_in(s: State, seat: str) -> list[Frame]:
    """20A: 2 new Insurgent units in the City or on islands."""
    return [place_insurgent(2)]


@effect
def autumn_floods(s: State, seat: str) -> list[Frame]:
    """21A: 2 Imperial units in Rows 4–6 go back to the Camp; −1 Imperial Supplies."""
    return [send_back(seat, 2, "row46"), track(IMPERIAL, "supplies", -1)]


@effect
def fireships(s: State, seat: str) -> list[Frame]:
    """22A: Insurgent Support at Sea; −2 Imperial Supplies."""
    return [support_at(seat, "sea"), track(IMPERIAL, "supplies", -2)]


@effect
def families_to_kalamos(s: State, seat: str) -> list[Frame]:
    """24A: 2 Civilians leave the City; +2 Insurgent Supplies, +1 Insurgent Morale."""
    return [civilians(-2), track(INSURGENT, "supplies", 2), track(INSURGENT, "morale", 1)]


@effect
def klephts_in_the_rear(s: State, seat: str) -> list[Frame]:
    """25A: −2 Imperial Supplies, −1 Imperial Money."""
    return [track(IMPERIAL, "supplies", -2), track(IMPERIAL, "money", -1)]


@effect
def tomb_of_markos_botsaris(s: State, seat: str) -> list[Frame]:
    """27A: +1 Insurgent Morale, +1 more if it is below the Imperial Morale."""
    gain = 2 if s.tracks[INSURGENT]["morale"] < s.tracks[IMPERIAL]["morale"] else 1
    return [track(INSURGENT, "morale", gain)]


@effect
def powder_from_hydra(s: State, seat: str) -> list[Frame]:
    """29A: a new Insurgent cannon in the City or on an island; +1 Insurgent Supplies."""
    return [place_insurgent(1, what="cannon"), track(INSURGENT, "supplies", 1)]


@effect
def albanian_levies(s: State, seat: str) -> list[Frame]:
    """7A: 2 Expeditionary units from the pool to the Camp; +1 Imperial Morale."""
    return [pool_to_camp("E", 2), track(IMPERIAL, "morale", 1)]


@effect
def kapudan_pasha_fleet(s: State, seat: str) -> list[Frame]:
    """11A: Imperial Support at Sea twice; +2 Imperial Supplies."""
    return [support_at(seat, "sea"), support_at(seat, "sea"), track(IMPERIAL, "supplies", 2)]


@effect
def siege_trenches(s: State, seat: str) -> list[Frame]:
    """15A: up to 4 Imperial units move one space forward each."""
    return [advance(seat, 4)]


@effect
def the_mound(s: State, seat: str) -> list[Frame]:
    """19A: damage a Wall section one step; +1 Imperial Preparation."""
    return [damage_wall(seat, 1), track(IMPERIAL, "preparation", 1)]


@effect
def mine_under_the_bastion(s: State, seat: str) -> list[Frame]:
    """23A: two steps of damage to the Wall (the same section or two)."""
    return [damage_wall(seat, 2)]


@effect
def lagoon_blockade(s: State, seat: str) -> list[Frame]:
    """26A: Imperial Support at Sea; −2 Insurgent Supplies."""
    return [support_at(seat, "sea"), track(INSURGENT, "supplies", -2)]


@effect
def sultans_firman(s: State, seat: str) -> list[Frame]:
    """28A: +2 Imperial Money, +1 Imperial Morale."""
    return [track(IMPERIAL, "money", 2), track(IMPERIAL, "morale", 1)]


@effect
def capture_of_petrohori(s: State, seat: str) -> list[Frame]:
    """35A: Imperial Support in Petrochori; an Expeditionary unit from the pool to the Camp."""
    return [support_at(seat, "petrochori"), pool_to_camp("E", 1)]


@effect
def guns_from_patras(s: State, seat: str) -> list[Frame]:
    """37A: a cannon from the pool to the Camp; then one Imperial cannon fires."""
    return [cannon_to_camp(), fire_cannons(seat, 1, 0)]


@effect
def bombardment(s: State, seat: str) -> list[Frame]:
    """40A: up to 2 Imperial cannons fire."""
    return [fire_cannons(seat, 2, 0)]


@effect
def boats_on_the_lagoon(s: State, seat: str) -> list[Frame]:
    """41A: up to 2 Expeditionary units from the Camp into Lagoon waters; +1 Imperial Supplies."""
    return [place_imperial(seat, "E", 2, "water", from_camp=True), track(IMPERIAL, "supplies", 1)]


@effect
def assault_on_the_walls(s: State, seat: str) -> list[Frame]:
    """44A: up to 3 free attacks at +1; if none is possible, up to 3 units move one space forward."""
    if attack_sources(s, IMPERIAL):
        return [free_attacks(seat, 3, 1)]
    return [advance(seat, 3)]


@effect
def plans_betrayed(s: State, seat: str) -> list[Frame]:
    """45A: −2 Insurgent Preparation; +1 Imperial Preparation."""
    return [track(INSURGENT, "preparation", -2), track(IMPERIAL, "preparation", 1)]


@effect
def deserters(s: State, seat: str) -> list[Frame]:
    """46A (grey): the opponent removes 1 of its own units."""
    return [remove_where(other(seat), other(seat), 1, "any")]


@effect
def powder_convoy(s: State, seat: str) -> list[Frame]:
    """47A (grey): +3 Supplies and +1 Preparation for the player."""
    return [track(seat, "supplies", 3), track(seat, "preparation", 1)]


@effect
def messengers(s: State, seat: str) -> list[Frame]:
    """49A (grey): +2 Preparation for the player."""
    return [track(seat, "preparation", 2)]


@effect
def summer_heat(s: State, seat: str) -> list[Frame]:
    """50A (grey): the opponent loses 2 Supplies and 1 Morale."""
    return [track(other(seat), "supplies", -2), track(other(seat), "morale", -1)]


# --- designed cards: deck B, Ibrahim's siege (December 1825–April 1826) -------------------------


@effect
def miaoulis_breaks_through(s: State, seat: str) -> list[Frame]:
    """51B: +3 Insurgent Supplies; Insurgent Support at Sea."""
    return [track(INSURGENT, "supplies", 3), support_at(seat, "sea")]


@effect
def defence_of_klisova(s: State, seat: str) -> list[Frame]:
    """52B: with a unit on Klisova, −2 Imperial Morale and remove an Imperial unit from its waters;
    otherwise −1 Imperial Morale."""
    if s.ins[board().index["klisova"]]:
        return [track(IMPERIAL, "morale", -2), remove_where(seat, IMPERIAL, 1, "klisova")]
    return [track(IMPERIAL, "morale", -1)]


@effect
def mound_blown_up(s: State, seat: str) -> list[Frame]:
    """53B: remove 2 Imperial units from Rows 4–5; if none is there, −1 Imperial Morale."""
    if _any_imperial(s, "row45"):
        return [remove_where(seat, IMPERIAL, 2, "row45")]
    return [track(IMPERIAL, "morale", -1)]


@effect
def geneva_committee(s: State, seat: str) -> list[Frame]:
    """54B: +3 Insurgent Supplies."""
    return [track(INSURGENT, "supplies", 3)]


@effect
def terms_refused(s: State, seat: str) -> list[Frame]:
    """55B: +1 Insurgent Morale, −1 Imperial Morale."""
    return [track(INSURGENT, "morale", 1), track(IMPERIAL, "morale", -1)]


@effect
def kasomoulis(s: State, seat: str) -> list[Frame]:
    """56B: up to 2 free attacks at +1; if none is possible, up to 2 free Regroups."""
    if attack_sources(s, INSURGENT):
        return [free_attacks(seat, 2, 1)]
    return [free_regroups(2)]


@effect
def winter_rain(s: State, seat: str) -> list[Frame]:
    """57B: 1 Imperial unit in Rows 4–6 goes back to the Camp; −1 Imperial Supplies."""
    return [send_back(seat, 1, "row46"), track(IMPERIAL, "supplies", -1)]


@effect
def pressure_nafplio(s: State, seat: str) -> list[Frame]:
    """59B: +2 Pressure; if the track is gone (the Government answered) or at its top, +2 Supplies instead."""
    if not _pressure_open(s):
        return [track(INSURGENT, "supplies", 2)]
    return [track(INSURGENT, "pressure", 2)]


def _pressure_open(s: State) -> bool:
    """True while the Pressure track can still go up."""
    return 0 <= s.tracks[INSURGENT]["pressure"] < track_range("pressure")[1]


@effect
def eating_the_horses(s: State, seat: str) -> list[Frame]:
    """60B: +3 Insurgent Supplies; 1 Civilian leaves the City."""
    return [track(INSURGENT, "supplies", 3), civilians(-1)]


@effect
def greek_gunners(s: State, seat: str) -> list[Frame]:
    """61B: one Insurgent cannon fires at +1; if none can, +1 Insurgent Preparation."""
    if ready_cannons(s, INSURGENT, []):
        return [fire_cannons(seat, 1, 1)]
    return [track(INSURGENT, "preparation", 1)]


@effect
def makris_raids(s: State, seat: str) -> list[Frame]:
    """62B: up to 2 free Raids; if none is possible, −1 Imperial Morale."""
    if raid_sources(s):
        return [free_raids(2, 0)]
    return [track(IMPERIAL, "morale", -1)]


@effect
def egyptian_deserters(s: State, seat: str) -> list[Frame]:
    """63B: remove an Allied unit (the Camp included); if none, −1 Imperial Morale."""
    if _any_allied(s):
        return [remove_where(seat, IMPERIAL, 1, "map", only="A")]
    return [track(IMPERIAL, "morale", -1)]


def _any_allied(s: State) -> bool:
    return any(s.ally)


@effect
def karaiskakis_strikes(s: State, seat: str) -> list[Frame]:
    """64B: Support in 1 Imperial area; −1 Imperial Supplies."""
    return [choose_support(seat, 1, controlled_by=IMPERIAL), track(IMPERIAL, "supplies", -1)]


@effect
def island_garrisons(s: State, seat: str) -> list[Frame]:
    """65B: 2 new Insurgent units in the City or on islands; +1 Insurgent Morale."""
    return [place_insurgent(2), track(INSURGENT, "morale", 1)]


@effect
def fishing_the_lagoon(s: State, seat: str) -> list[Frame]:
    """66B: +2 Insurgent Supplies; 1 free Regroup."""
    return [track(INSURGENT, "supplies", 2), free_regroups(1)]


@effect
def guns_spiked(s: State, seat: str) -> list[Frame]:
    """67B: remove an Imperial cannon in Rows 4–6; if there is none, −1 Imperial Morale."""
    if _any_cannon(s, IMPERIAL, "row46"):
        return [spike_cannon(seat, IMPERIAL, "row46")]
    return [track(IMPERIAL, "morale", -1)]


@effect
def jean_jacques_meyer(s: State, seat: str) -> list[Frame]:
    """68B: +1 Pressure (+1 Morale instead if the track is gone or at its top); Support in any area."""
    first = track(INSURGENT, "pressure", 1) if _pressure_open(s) else track(INSURGENT, "morale", 1)
    return [first, choose_support(seat, 1, controlled_by=None)]


@effect
def townsmen_trained(s: State, seat: str) -> list[Frame]:
    """69B: a Civilian is trained for free; +1 Insurgent Preparation."""
    return [train(1), track(INSURGENT, "preparation", 1)]


@effect
def fireships_egyptian_fleet(s: State, seat: str) -> list[Frame]:
    """70B: −2 Imperial Supplies; Insurgent Support at Sea."""
    return [track(IMPERIAL, "supplies", -2), support_at(seat, "sea")]


@effect
def council_of_captains(s: State, seat: str) -> list[Frame]:
    """71B: +2 Insurgent Preparation."""
    return [track(INSURGENT, "preparation", 2)]


@effect
def bastion_guns(s: State, seat: str) -> list[Frame]:
    """72B: up to 2 Insurgent cannons fire; +1 Insurgent Preparation."""
    return [fire_cannons(seat, 2, 0), track(INSURGENT, "preparation", 1)]


@effect
def ibrahim_pasha(s: State, seat: str) -> list[Frame]:
    """73B: 3 Allied units from the pool to the Camp; Imperial Support at Sea; +1 Imperial Morale."""
    return [pool_to_camp("A", 3), support_at(seat, "sea"), track(IMPERIAL, "morale", 1)]


@effect
def egyptian_regulars(s: State, seat: str) -> list[Frame]:
    """74B: up to 2 free attacks by Allied units at +1; if none is possible, up to 2 units advance."""
    if attack_sources(s, IMPERIAL, only="A"):
        return [free_attacks(seat, 2, 1, only="A")]
    return [advance(seat, 2)]


@effect
def suleyman_bey(s: State, seat: str) -> list[Frame]:
    """75B: up to 2 Allied units from the pool into Rows 7–8."""
    return [place_imperial(seat, "A", 2, "rows78")]


@effect
def egyptian_mound(s: State, seat: str) -> list[Frame]:
    """76B: damage a Wall section one step; 2 units leave the Camp one space each."""
    return [damage_wall(seat, 1), march_from_camp(seat, 2)]


@effect
def flat_bottomed_boats(s: State, seat: str) -> list[Frame]:
    """77B: up to 2 Allied units from the Camp into Lagoon waters; +1 Imperial Supplies."""
    return [place_imperial(seat, "A", 2, "water", from_camp=True), track(IMPERIAL, "supplies", 1)]


@effect
def fall_of_vasiladi(s: State, seat: str) -> list[Frame]:
    """78B: Vasiladi falls (its defenders removed, an Allied unit lands) if no Imperial unit is already
    there; −1 Insurgent Morale; +1 Imperial Supplies."""
    return [take_island(seat, "vasiladi", "A"), track(INSURGENT, "morale", -1), track(IMPERIAL, "supplies", 1)]


@effect
def surrender_of_anatolikon(s: State, seat: str) -> list[Frame]:
    """79B: Imperial Support in Anatolikon twice; −1 Insurgent Morale."""
    return [support_at(seat, "anatolikon"), support_at(seat, "anatolikon"), track(INSURGENT, "morale", -1)]


@effect
def great_bombardment(s: State, seat: str) -> list[Frame]:
    """80B: up to 2 Imperial cannons fire at +1."""
    return [fire_cannons(seat, 2, 1)]


@effect
def hussein_bey(s: State, seat: str) -> list[Frame]:
    """81B: 1 free attack at +2; if none is possible, an Allied unit from the pool to the Camp."""
    if attack_sources(s, IMPERIAL):
        return [free_attacks(seat, 1, 2)]
    return [pool_to_camp("A", 1)]


@effect
def starvation(s: State, seat: str) -> list[Frame]:
    """82B: −1 Insurgent Supplies, −1 Insurgent Morale."""
    return [track(INSURGENT, "supplies", -1), track(INSURGENT, "morale", -1)]


@effect
def egyptian_fleet(s: State, seat: str) -> list[Frame]:
    """83B: Imperial Support at Sea twice; −1 Insurgent Supplies."""
    return [support_at(seat, "sea"), support_at(seat, "sea"), track(INSURGENT, "supplies", -1)]


@effect
def assault_ladders(s: State, seat: str) -> list[Frame]:
    """84B: up to 2 Imperial units move one space forward each."""
    return [advance(seat, 2)]


@effect
def muharrem_bey(s: State, seat: str) -> list[Frame]:
    """85B: +3 Imperial Supplies."""
    return [track(IMPERIAL, "supplies", 3)]


@effect
def gold_of_mehmed_ali(s: State, seat: str) -> list[Frame]:
    """86B: +4 Imperial Money, +1 Imperial Morale."""
    return [track(IMPERIAL, "money", 4), track(IMPERIAL, "morale", 1)]


@effect
def mortar_shells(s: State, seat: str) -> list[Frame]:
    """87B: damage a Wall section one step."""
    return [damage_wall(seat, 1)]


@effect
def egyptian_sappers(s: State, seat: str) -> list[Frame]:
    """88B: damage a Wall section one step; +1 Imperial Preparation."""
    return [damage_wall(seat, 1), track(IMPERIAL, "preparation", 1)]


@effect
def blockade_tightens(s: State, seat: str) -> list[Frame]:
    """91B: −3 Insurgent Supplies."""
    return [track(INSURGENT, "supplies", -3)]


@effect
def fall_of_dolmas(s: State, seat: str) -> list[Frame]:
    """92B: remove an Insurgent unit from an island (else from the Wall); −1 Insurgent Morale."""
    where = "islands" if any(s.ins[i] for i in spaces_where("islands")) else "wall"
    return [remove_where(seat, INSURGENT, 1, where), track(INSURGENT, "morale", -1)]


@effect
def egyptian_engineers(s: State, seat: str) -> list[Frame]:
    """93B: a free cannon in Rows 5–6 where you have a unit; +1 Imperial Preparation."""
    return [build_free(seat, "rows56"), track(IMPERIAL, "preparation", 1)]


@effect
def ibrahims_ultimatum(s: State, seat: str) -> list[Frame]:
    """94B: −1 Insurgent Morale."""
    return [track(INSURGENT, "morale", -1)]


@effect
def winter_storms(s: State, seat: str) -> list[Frame]:
    """95B (grey): the opponent loses 1 Supply; +1 Preparation for the player."""
    return [track(other(seat), "supplies", -1), track(seat, "preparation", 1)]


@effect
def fever(s: State, seat: str) -> list[Frame]:
    """96B (grey): the opponent loses 1 Morale."""
    return [track(other(seat), "morale", -1)]


@effect
def news_from_the_lines(s: State, seat: str) -> list[Frame]:
    """97B (grey): Support in any 1 area; +1 Morale and +1 Preparation for the player."""
    return [choose_support(seat, 1, controlled_by=None), track(seat, "morale", 1), track(seat, "preparation", 1)]


@effect
def powder_magazine(s: State, seat: str) -> list[Frame]:
    """98B (grey): remove 1 enemy unit from a space of your choice."""
    return [remove_where(seat, other(seat), 1, "any")]


@effect
def palm_sunday(s: State, seat: str) -> list[Frame]:
    """99B (grey): +1 Morale and +1 Supplies for the player."""
    return [track(seat, "morale", 1), track(seat, "supplies", 1)]


@effect
def the_exodus(s: State, seat: str) -> list[Frame]:
    """100B (grey): +1 Morale for the player, −1 Morale for the opponent."""
    return [track(seat, "morale", 1), track(other(seat), "morale", -1)]


@effect
def plea_to_the_porte(s: State, seat: str) -> list[Frame]:
    """90B: a free Plea for Funds; +1 Imperial Supplies."""
    return [free_plea(), track(IMPERIAL, "supplies", 1)]


def start_event(s: State, seat: str, number: int) -> None:
    """Push the frames of card ``number``'s event, played for ``seat``."""
    effect = _EFFECT_OF[number]
    if effect is None:
        log(s, "This card has no event.")
        return
    push(s, *EFFECTS[effect](s, seat))


_EFFECT_OF: Final = {c.number: c.effect for c in cards_file().cards}
"""Each card's effect name by card number (None: no event)."""


def check_effects() -> None:
    """Every effect named in cards.json exists (called when the game module loads)."""
    missing = {c.effect for c in cards_file().cards if c.effect} - set(EFFECTS)
    if missing:
        raise ValueError(f"cards.json names effects with no implementation: {sorted(missing)}")


set_event_starter(start_event)
