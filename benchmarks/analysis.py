"""Speed of the game analysis on one core: the win-probability estimate, a hint, a whole game's analysis.

    python benchmarks/analysis.py [--games 2]

Plays quick games (Heuristic without planning, seeded), then times, in CPU seconds of this process:
the estimate at every card point (from the view of the side to choose), the hints at a few card
points, and ``postgame.analyze`` of one finished game. Then, as a user runs it, the whole
``muster analyze SAVE`` command (a new process: start-up, replay, curve, turning points, the plot) on
``--command-games`` games between two Heuristic bots, in that process's CPU seconds (the goal: at most 8 s
with the compiled rules). The last line printed is JSON: ``estimate_ms``, ``hint_s``, ``analyze_s``,
``positions``, ``analyze_command_cpu_s`` (each game's), its median and maximum, and ``install``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.progress import track

from muster import _native
from muster.ai import make_bot
from muster.core import Game, get_rules
from muster.games.freedom.analysis.advice import hints
from muster.games.freedom.analysis.postgame import analyze
from muster.games.freedom.analysis.winprob import imperial_chance
from muster.games.freedom.bots.features import is_card_point


def play(seed: int) -> tuple[Game, list[tuple[dict[str, Any], str, list[Any]]]]:
    """A quick bot game and the (view, seat, legal) of each card point."""
    rules = get_rules("freedom")
    game = Game(rules, seed)
    bot = make_bot("heuristic:plan=off,samples=1", seed=seed, rules=rules)
    points = []
    while game.active_seat is not None:
        seat = game.active_seat
        view = game.view(seat)
        legal = game.legal_actions()
        if is_card_point(view):
            points.append((view, seat, legal))
        game.apply(legal[0] if len(legal) == 1 else bot.choose(view, legal, seat))
    return game, points


def bot_game(seed: int) -> Game:
    """A whole game between two Heuristic bots (the default level, as a person's opponent plays)."""
    rules = get_rules("freedom")
    game = Game(rules, seed)
    bots = {seat: make_bot("heuristic", seed=seed + k, rules=rules) for k, seat in enumerate(rules.info.seats)}
    while game.active_seat is not None:
        seat = game.active_seat
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(), seat))
    return game


def analyze_command_cpu(game: Game, folder: Path) -> float:
    """CPU seconds (user + system) of one ``muster analyze`` process on ``game``'s save file."""
    save = folder / "game.json"
    save.write_text(game.dumps(), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "muster", "analyze", str(save), "--out", str(folder / "out")],
                   check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--command-games", type=int, default=3,
                        help="games analysed by the whole muster analyze command (seeds from 871000)")
    args = parser.parse_args()
    rules = get_rules("freedom")
    games = [play(100 + k) for k in range(args.games)]
    points = [p for _game, ps in games for p in ps]
    t0 = time.process_time()
    for view, seat, _legal in points:
        imperial_chance(view, seat, rules)
    ms_estimate = 1000 * (time.process_time() - t0) / len(points)
    sample = points[5::max(1, len(points) // 6)][:6]
    t0 = time.process_time()
    for view, seat, legal in sample:
        hints(view, legal, seat, rules=rules)
    s_hint = (time.process_time() - t0) / len(sample)
    t0 = time.process_time()
    analyze(games[0][0])
    s_analyze = time.process_time() - t0
    print(f"estimate: {ms_estimate:.3f} ms per position over {len(points)} card points")
    print(f"hints: {s_hint:.2f} s per decision over {len(sample)} card points")
    print(f"analysis of one game ({len(games[0][1])} cards): {s_analyze:.1f} s")
    command_cpu = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in track(range(871000, 871000 + args.command_games), description="muster analyze"):
            command_cpu.append(round(analyze_command_cpu(bot_game(seed), Path(folder)), 2))
    figures: dict[str, Any] = {"estimate_ms": round(ms_estimate, 3), "hint_s": round(s_hint, 2),
                               "analyze_s": round(s_analyze, 1), "positions": len(points),
                               "analyze_command_cpu_s": command_cpu}
    if command_cpu:
        print(f"muster analyze, whole command: {', '.join(f'{s:.1f}' for s in command_cpu)} s of CPU")
        figures["analyze_command_cpu_s_median"] = round(statistics.median(command_cpu), 2)
        figures["analyze_command_cpu_s_max"] = max(command_cpu)
    figures["install"] = "compiled" if _native.ACTIVE else "pure"
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
