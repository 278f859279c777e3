"""Engine speed on one core (CPU time): random games/s, decisions/s, state copies/s, save/load time, JSON size,
and python-chess's (and, when installed, OpenSpiel's C++ chess's) random playouts measured in the same run for scale.

Run: ``python benchmarks/engine.py [--game freedom|hellenes] [--games 60] [--chess-games 30]``. The last line
printed is one JSON object with the keys ``game``, ``games_per_s``, ``decisions_per_s`` (random playouts through
the rules' playout fast path, ``legal_count`` + ``apply_nth``: what bots' simulations use),
``list_decisions_per_s`` (the same games through ``legal_actions`` + ``apply``: what the server's one-move-at-a-time
play uses), ``clones_per_s``, ``python_chess_moves_per_s`` and ``vs_python_chess`` (our decisions per
python-chess move, both per CPU-second), ``vs_python_chess_list`` (the same for the legal-list loop),
``openspiel_chess_moves_per_s`` and ``vs_openspiel_chess`` when ``open_spiel`` is importable (its chess in C++,
driven from a Python loop as ours is), and ``install``: ``compiled`` when the rules ran as mypyc-compiled modules
(compiled at install when a C compiler is present), else ``pure`` (also as the boolean ``compiled``).
The goals: Freedom! ``vs_python_chess`` ≥ 14 compiled and ≥ 6 pure, ``vs_openspiel_chess`` ≥ 1.5 compiled;
Hellenes ``vs_python_chess`` ≥ 6 compiled and ≥ 3 pure. python-chess is a dev dependency used only here.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

from muster import _native
from muster.core import Game
from muster.core.registry import game_names, get_rules
from muster.games.freedom import RULES


def random_games(count: int, rules: Any = RULES, sample_at: int = 300,
                 warmup: int = 0) -> tuple[float, float, list[Any]]:
    """Play ``count`` quiet random games of ``rules`` through the playout fast path (``legal_count`` and
    ``apply_nth``); return (games/s, decisions/s, a few states taken at decision ``sample_at``). The Hellenes
    benchmark uses it too. ``warmup`` games (other seeds) are played first and not timed: one-time costs such
    as loading the message catalog a result's words need (about 0.1 CPU-s for Hellenes, a tenth of a 40-game
    run) are not engine speed. ``chooser.choice(range(n))`` draws as ``chooser.choice(legal_list)`` does, so
    these are the very games :func:`random_list_games` plays."""
    for seed in range(10**6, 10**6 + warmup):
        state = rules.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = rules.legal_count(state)
        while n:
            n = rules.apply_nth(state, chooser.choice(range(n)))
    decisions = 0
    samples: list[Any] = []
    start = time.process_time()
    for seed in track(range(count), description="random games"):
        state = rules.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        step = 0
        n = rules.legal_count(state)
        while n:
            n = rules.apply_nth(state, chooser.choice(range(n)))
            step += 1
            if step == sample_at and len(samples) < 20:
                samples.append(rules.clone(state))
        decisions += step
    elapsed = time.process_time() - start
    return count / elapsed, decisions / elapsed, samples


def random_list_games(count: int, rules: Any = RULES) -> float:
    """The games of :func:`random_games` played one legal list at a time (``legal_actions``, a random pick,
    ``apply``: the checked path a server move takes); return decisions/s."""
    decisions = 0
    start = time.process_time()
    for seed in track(range(count), description="random games (legal lists)"):
        state = rules.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        while rules.active_seat(state) is not None:
            rules.apply(state, chooser.choice(rules.legal_actions(state)))
            decisions += 1
    return decisions / (time.process_time() - start)


def chess_moves_per_s(count: int) -> float:
    """python-chess random playouts (legal moves listed, one picked at random, game-over checked), moves/s."""
    import chess  # a dev dependency, used only by this benchmark

    moves = 0
    chooser = random.Random(0)
    start = time.process_time()
    for _ in track(range(count), description="python-chess"):
        board = chess.Board()
        while not board.is_game_over():
            board.push(chooser.choice(list(board.legal_moves)))
            moves += 1
    return moves / (time.process_time() - start)


def openspiel_chess_moves_per_s(count: int) -> float | None:
    """OpenSpiel's chess (C++) in random playouts driven from Python as ours are (legal actions listed, one
    picked at random, applied), moves/s; None when ``open_spiel`` is not installed."""
    try:
        import pyspiel  # optional: installed with open_spiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    moves = 0
    chooser = random.Random(0)
    start = time.process_time()
    for _ in track(range(count), description="OpenSpiel chess"):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            moves += 1
    return moves / (time.process_time() - start)


def clones_per_s(states: list[Any], rounds: int = 5000) -> float:
    """State copies per second (mid-game states)."""
    start = time.process_time()
    for k in range(rounds):
        states[k % len(states)].clone()
    return rounds / (time.process_time() - start)


def save_load(seed: int = 1, rules: Any = RULES) -> tuple[float, float, int, int]:
    """(save ms, load ms, state JSON bytes, save-file bytes) of a finished game with its log."""
    game = Game(rules, seed)
    chooser = random.Random(seed)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    start = time.perf_counter()
    text = game.dumps()
    save_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    Game.loads(rules, text)
    load_ms = (time.perf_counter() - start) * 1000
    state_bytes = len(json.dumps(rules.to_json(game.state)))
    return save_ms, load_ms, state_bytes, len(text)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=game_names(), default="freedom")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--chess-games", type=int, default=30)
    args = parser.parse_args()
    if args.games < 1 or args.chess_games < 1:
        parser.error("--games and --chess-games need at least one game each (the ratios divide by them)")
    rules = get_rules(args.game)
    # decision 300 is mid-game in Freedom!; a random Hellenes game is shorter (about 300 decisions in all)
    hellenes = args.game == "hellenes"  # Freedom!'s figures stay measured as they always were (no warm-up game)
    games_s, decisions_s, samples = random_games(args.games, rules, sample_at=120 if hellenes else 300,
                                                 warmup=1 if hellenes else 0)
    list_s = random_list_games(args.games, rules)
    chess_s = chess_moves_per_s(args.chess_games)
    spiel_s = openspiel_chess_moves_per_s(args.chess_games)
    clones = statistics.median(clones_per_s(samples) for _ in range(3))
    save_ms, load_ms, state_bytes, file_bytes = save_load(rules=rules)
    table = Table(title=f"muster engine benchmark: {args.game} (one core)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    spiel_rows = [] if spiel_s is None else [("OpenSpiel chess moves / s", f"{spiel_s:,.0f}"),
                                              ("decisions per OpenSpiel chess move", f"{decisions_s / spiel_s:.2f}")]
    for name, value in [("random games / s", f"{games_s:.1f}"), ("decisions / s", f"{decisions_s:,.0f}"),
                        ("decisions / s (legal lists)", f"{list_s:,.0f}"),
                        ("state copies / s", f"{clones:,.0f}"), ("save (dumps) ms", f"{save_ms:.1f}"),
                        ("load (replay + check) ms", f"{load_ms:.1f}"), ("state JSON bytes", f"{state_bytes:,}"),
                        ("save file bytes", f"{file_bytes:,}"), ("python-chess moves / s", f"{chess_s:,.0f}"),
                        ("decisions per python-chess move", f"{decisions_s / chess_s:.2f}"), *spiel_rows,
                        ("compiled rules (mypyc)", "yes" if _native.ACTIVE else "no")]:
        table.add_row(name, value)
    Console().print(table)
    figures: dict[str, Any] = {
        "game": args.game, "games_per_s": round(games_s, 2), "decisions_per_s": round(decisions_s),
        "list_decisions_per_s": round(list_s), "clones_per_s": round(clones), "save_ms": round(save_ms, 2),
        "load_ms": round(load_ms, 2), "state_json_bytes": state_bytes, "save_file_bytes": file_bytes,
        "python_chess_moves_per_s": round(chess_s), "vs_python_chess": round(decisions_s / chess_s, 2),
        "vs_python_chess_list": round(list_s / chess_s, 2)}
    if spiel_s is not None:
        figures["openspiel_chess_moves_per_s"] = round(spiel_s)
        figures["vs_openspiel_chess"] = round(decisions_s / spiel_s, 2)
    figures["install"] = "compiled" if _native.ACTIVE else "pure"
    figures["compiled"] = _native.ACTIVE
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
