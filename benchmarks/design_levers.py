"""Does a DESIGN value move the balance? Bot-vs-bot games (Heuristic by default) with one lever changed in memory.

Each lever edits the loaded design data (``design.json``, ``areas.json``, card metadata) in this
process only, before the worker processes are forked, so the files on disk never change. Every
lever plays the same seeds, so the numbers compare like with like. docs/balance.md shows a run.

    python benchmarks/design_levers.py --games 60 --seed 1000            # every lever
    python benchmarks/design_levers.py --games 60 --lever baseline --lever desertion_light
    python benchmarks/design_levers.py --games 30 --seed 3000 --bot ismcts --lever baseline --lever sea_vasiladi
    python benchmarks/design_levers.py --games 60 --bot heuristic:counter=1 --lever sea_vasiladi+sea_markers_3

With ``--out FILE`` every finished game is appended to FILE as a JSON line (lever, bot, seed, winner, ending), and a
run started again with the same file plays only the games it lacks, so a long screen can be stopped and resumed and
two levers compared seed by seed. The last line is a JSON object: lever → Imperial wins / games.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.progress import Progress

from muster.games.freedom.datafiles import Reward, areas_file, design
from muster.games.freedom.rules import action_phase
from muster.lab.play import play_game


def _set_area(area_id: str, **fields: object) -> None:
    area = next(a for a in areas_file().areas if a.id == area_id)
    for key, value in fields.items():
        object.__setattr__(area, key, value)  # the models are frozen: this is an experiment in memory


def _start_imperial(*area_ids: str) -> Callable[[], None]:
    """The tiles ``area_ids`` start on their Imperial side, keeping their markers."""

    def lever() -> None:
        for area_id in area_ids:
            _set_area(area_id, start_side="imperial")

    return lever


def _insurgent_rewards_cut() -> None:
    for area_id in ("sea", "petalas"):
        area = next(a for a in areas_file().areas if a.id == area_id)
        area.rewards["insurgent"] = Reward(supplies=1)


def _vasiladi_on(area_id: str) -> Callable[[], None]:
    """``area_id``'s Imperial reward also lands 3 units beside Vasiladi."""

    def lever() -> None:
        area = next(a for a in areas_file().areas if a.id == area_id)
        area.rewards["imperial"] = area.rewards["imperial"].model_copy(update={"vasiladi": 3})

    return lever


def _imperial_reward_plus(field: str, area_ids: tuple[str, ...] = ()) -> Callable[[], None]:
    """One more of ``field`` on the Imperial side of each tile in ``area_ids`` (of every tile if none are named)."""

    def lever() -> None:
        for area in areas_file().areas:
            if not area_ids or area.id in area_ids:
                reward = area.rewards["imperial"]
                area.rewards["imperial"] = reward.model_copy(update={field: getattr(reward, field) + 1})

    return lever


def _kryoneri_morale() -> None:
    area = next(a for a in areas_file().areas if a.id == "kryoneri")
    area.rewards["imperial"] = area.rewards["imperial"].model_copy(update={"supplies": 2, "morale": 1})


def _population_quarter() -> None:
    bands = [{"population": [0, 3], "supplies": 1}]
    bands += [{"population": [4 * k - 3, 4 * k], "supplies": k} for k in range(2, 11)]
    bands.append({"population": [41, 43], "supplies": 11})
    design()["population_cost"] = bands


def _desertion_light() -> None:
    design()["desertion"] = [{"morale": [1, 1], "units": 1}]


def _imperial_forward() -> None:
    units = {f"r6c{c}": 3 for c in range(1, 10)} | {"r7c5": 3}
    design()["setup"]["imperial"]["mainland_units"] = units


def _sea_markers(markers: int) -> Callable[[], None]:
    return lambda: _set_area("sea", start_markers=markers)


def _no_designed_blue_events() -> None:
    original = action_phase.can_play_event

    def playable(seat: str, number: int) -> bool:
        c = action_phase.card(number)
        return original(seat, number) and not (c.side == "blue" and c.source == "design")

    action_phase.can_play_event = playable


LEVERS: dict[str, tuple[str, Callable[[], None]]] = {
    "baseline": ("no change", lambda: None),
    "areas_imperial": ("Sea and Petalas start on the Imperial side", _start_imperial("sea", "petalas")),
    "areas_imperial_3": ("Sea, Petalas and Anatolikon start on the Imperial side",
                         _start_imperial("sea", "petalas", "anatolikon")),
    "anatolikon_imperial": ("Anatolikon starts on the Imperial side", _start_imperial("anatolikon")),
    "gouria_imperial": ("Gouria starts on the Imperial side", _start_imperial("gouria")),
    "inland_imperial": ("Anatolikon and Gouria start on the Imperial side", _start_imperial("anatolikon", "gouria")),
    "patra_vasiladi": ("Patra's Imperial reward also lands 3 units beside Vasiladi (areas.json v4)",
                       _vasiladi_on("patra")),
    "kryoneri_vasiladi": ("Kryoneri's Imperial reward also lands 3 units beside Vasiladi", _vasiladi_on("kryoneri")),
    "insurgent_rewards_cut": ("Sea and Petalas give the Insurgent 1 Supply only", _insurgent_rewards_cut),
    "imperial_supplies": ("every area's Imperial reward gives 1 Supply more", _imperial_reward_plus("supplies")),
    "imperial_morale": ("Kryoneri and Patra give the Imperial 1 Morale more",
                        _imperial_reward_plus("morale", ("kryoneri", "patra"))),
    "imperial_morale_all": ("every area's Imperial reward gives 1 Morale more",
                            _imperial_reward_plus("morale")),
    "kryoneri_morale": ("Kryoneri gives the Imperial 2 Supplies and 1 Morale (not 3 Supplies)", _kryoneri_morale),
    "imperial_units": ("Kryoneri and Patra give the Imperial 1 unit more",
                       _imperial_reward_plus("units", ("kryoneri", "patra"))),
    "population_quarter": ("Population cost ceil(Population / 4) instead of / 5 (against the example of rule 4.5)",
                           _population_quarter),
    "desertion_light": ("desertion only at Morale 1, and 1 unit", _desertion_light),
    "imperial_forward": ("Imperial start: 3 units on every Row-6 space, 3 on r7c5", _imperial_forward),
    "no_designed_blue_events": ("no designed blue card may be played as an event", _no_designed_blue_events),
    "sea_markers_3": ("the Sea starts with 3 Insurgent markers instead of 2", _sea_markers(3)),
    "sea_markers_4": ("the Sea starts with 4 Insurgent markers instead of 2", _sea_markers(4)),
    "sea_vasiladi": ("the Sea's Imperial reward also lands 3 units beside Vasiladi (areas.json v1)",
                     _vasiladi_on("sea")),
}

BOT = ["heuristic"]
"""The bot spec playing both sides (set from ``--bot`` before the workers are forked)."""


def _play(seed: int) -> tuple[int, str | None, str]:
    record = play_game([BOT[0], BOT[0]], seed, "freedom")
    return seed, record.winner, record.reason


def _played(out: Path | None, lever: str) -> dict[int, tuple[str | None, str]]:
    """The games of ``lever`` by this bot already in ``out``: seed → (winner, ending)."""
    if out is None or not out.exists():
        return {}
    games = (json.loads(line) for line in out.read_text().splitlines() if line.strip())
    return {g["seed"]: (g["winner"], g["ending"]) for g in games if g["lever"] == lever and g["bot"] == BOT[0]}


def run_lever(name: str, seeds: range, workers: int, out: Path | None) -> tuple[int, Counter[str]]:
    """Apply one lever (or several joined by ``+``) in a fresh process and play those of ``seeds`` not yet in
    ``out``; (Imperial wins, endings) over all of ``seeds``."""
    for part in name.split("+"):
        LEVERS[part][1]()
    results = {seed: game for seed, game in _played(out, name).items() if seed in seeds}
    todo = [seed for seed in seeds if seed not in results]
    with Progress(transient=True) as progress, mp.get_context("fork").Pool(workers) as pool:
        task = progress.add_task(name, total=len(seeds), completed=len(results))
        for seed, winner, ending in pool.imap_unordered(_play, todo):
            results[seed] = (winner, ending)
            if out is not None:
                with out.open("a") as sink:
                    sink.write(json.dumps({"lever": name, "bot": BOT[0], "seed": seed, "winner": winner,
                                           "ending": ending}) + "\n")
            progress.advance(task)
    return sum(w == "imperial" for w, _ in results.values()), Counter(e for _, e in results.values())


def main() -> None:
    """Play every chosen lever and print a Markdown table, then the JSON summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--lever", action="append",
                        help=f"a lever, or several joined by '+' (default: each alone): {', '.join(LEVERS)}")
    parser.add_argument("--bot", default="heuristic", help="bot spec for both sides, e.g. ismcts")
    parser.add_argument("--out", type=Path, help="JSONL file of the games, appended to and resumed from")
    args = parser.parse_args()
    BOT[0] = args.bot
    names = args.lever or list(LEVERS)
    unknown = sorted({part for name in names for part in name.split("+")} - set(LEVERS))
    if unknown:
        parser.error(f"unknown lever(s) {', '.join(unknown)}; known: {', '.join(LEVERS)}")
    seeds = range(args.seed, args.seed + args.games)
    summary: dict[str, str] = {}
    print("| lever | Imperial wins | endings |\n| --- | --- | --- |")
    for name in names:
        # each lever in its own process, so one lever's edits never leak into the next; a failure there is
        # raised here
        with ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as isolated:
            wins, endings = isolated.submit(run_lever, name, seeds, args.workers, args.out).result()
        share = f"{wins}/{args.games} ({wins / args.games:.0%})"
        described = " + ".join(LEVERS[part][0] for part in name.split("+"))
        print(f"| {described} | {share} | {dict(endings)} |", flush=True)
        summary[name] = f"{wins}/{args.games}"
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
