"""Rule 2, Game Setup: pieces, tracks, area tiles, decks and the first hands."""

from __future__ import annotations

from typing import Final

from muster.core import rng
from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.datafiles import areas_file, cards_file, design
from muster.games.freedom.engine import advance, frame, push
from muster.games.freedom.rules.common import log
from muster.games.freedom.state import State

RULESETS: Final = ("2nd", "1st")


def setup(seed: int, ruleset: str = "2nd", quiet: bool = False) -> State:
    """Set up a new game (rule 2) and run it to the first decision."""
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}; choose one of {RULESETS}")
    d, b = design(), board()
    s = State()
    s.ruleset, s.seed, s.quiet = ruleset, seed, quiet
    s.rng = rng.seed_state(seed)
    s.pools = {k: int(v) for k, v in d["pools"].items()}
    imp, ins = d["setup"]["imperial"], d["setup"]["insurgent"]
    for sid, n in imp["mainland_units"].items():
        s.exp[b.index[sid]] += n
        s.pools["expeditionary"] -= n
    s.exp[b.camp] += imp["camp"]["expeditionary"]
    s.pools["expeditionary"] -= imp["camp"]["expeditionary"]
    for sid in imp["mainland_cannons"]:
        s.cannon[b.index[sid]] = IMPERIAL_CANNON
        s.pools["cannons"] -= 1
    s.camp_cannons = imp["camp"]["cannons"]
    s.pools["cannons"] -= s.camp_cannons
    for sid, n in ins["units"].items():
        s.ins[b.index[sid]] += n
        s.pools["insurgent"] -= n
    for sid in ins["cannons"]:
        s.cannon[b.index[sid]] = INSURGENT_CANNON
        s.pools["cannons"] -= 1
    s.cannon[b.index[ins["bombard"]]] = BOMBARD
    s.pools["bombard"] -= 1
    s.civilians = ins["civilians"]
    s.pools["civilians"] -= s.civilians
    s.tracks[IMPERIAL] = {
        "morale": imp["morale"],
        "money": imp["money"],
        "supplies": imp["supplies"],
        "plea": imp["plea"],
        "preparation": imp["preparation"],
    }
    s.tracks[INSURGENT] = {
        "morale": ins["morale"],
        "supplies": ins["supplies"][ruleset],
        "pressure": ins["pressure"],
        "preparation": ins["preparation"],
        "population": sum(s.ins) + s.civilians,
    }
    for area in areas_file().areas:
        s.area_side.append(area.start_side)
        s.area_markers.append(area.start_markers)
        s.pools["support_markers"] -= area.start_markers
    for deck in ("A", "B"):
        numbers = [c.number for c in cards_file().cards if c.deck == deck]
        s.rng, s.decks[deck] = rng.shuffled(s.rng, numbers)
    for _ in range(d["hand_size"]):
        for seat in (IMPERIAL, INSURGENT):
            s.hands[seat].append(s.decks["A"].pop())
    for seat in (IMPERIAL, INSURGENT):
        s.hands[seat].sort()
    # The seed stays out of the log: the log is public and the seed would reveal deck order and dice.
    log(s, "Setup ({edition} edition rules). Round 1 begins: Period A.", edition=ruleset)
    push(s, frame("round", skip_administration=True))
    advance(s)
    s.turn_seat, s.turn_start, s.tainted = None, 0, False
    return s
