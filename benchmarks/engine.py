"""Engine speed on one core (CPU time): random games/s, decisions/s, state copies/s, save/load time, JSON size,
and python-chess's (and, when installed, OpenSpiel's C++ chess's) random playouts measured in the same run for scale.

Run: ``python benchmarks/engine.py [--game freedom|hellenes] [--games 200] [--chess-games 40] [--rounds 20]
[--warmup 50]``. The warm-up games (other seeds, untimed) fill the rules' caches as a bot's playouts find them.
The loops take turns: each of ``--rounds`` rounds plays its share of our games, at once its share of the chess
games (so the two sides of that round's ratio are measured at the same moment of a shared machine), then the same
games of ours through the legal lists. The ratios to chess are the median of the rounds' ratios (a moment of load
elsewhere on the machine moves one round's ratio far off; the median sets it aside, as comparing two commands
pair by pair does), with the middle half of the rounds beside it. The last line printed is one JSON object with
the keys ``game``, ``games_per_s``, ``decisions_per_s`` (random playouts through the rules' playout fast path,
``legal_count`` + ``apply_nth``: what bots' simulations use), ``list_decisions_per_s`` (the same games through
``legal_actions`` + ``apply``: what the server's one-move-at-a-time play uses), ``clones_per_s``,
``python_chess_moves_per_s``, ``vs_python_chess`` (our decisions per python-chess move, both per CPU-second: the
median round), ``vs_python_chess_quartiles`` (the first and third quartile of the rounds' ratios),
``vs_python_chess_rounds`` (the lowest and highest round's), ``vs_python_chess_total`` (all our decisions over all
chess moves, load and all), ``vs_python_chess_list`` (the legal-list loop's, over all rounds),
``openspiel_chess_moves_per_s``, ``vs_openspiel_chess`` (median round), ``vs_openspiel_chess_quartiles`` and
``vs_openspiel_chess_total`` when ``open_spiel`` is importable (its chess in C++, driven from a Python loop as ours
is), ``install``: ``compiled`` when the rules ran as mypyc-compiled modules (compiled at install when a C compiler
is present), else ``pure`` (also as the boolean ``compiled``), ``rounds`` and ``load_average`` (the one-minute
load average before and after).
The goals: Freedom! ``vs_python_chess`` ≥ 14 compiled and ≥ 6 pure, ``vs_openspiel_chess`` ≥ 1.5 compiled;
Hellenes ``vs_python_chess`` ≥ 6 compiled and ≥ 3 pure. python-chess is a dev dependency used only here.
"""

from __future__ import annotations

import argparse
import json
import os
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


def _random_playouts(seeds: range, rules: Any, sample_at: int = 0,
                     samples: list[Any] | None = None) -> tuple[int, float]:
    """Play one quiet random game per seed through the playout fast path (``legal_count`` and ``apply_nth``);
    return (decisions, CPU seconds), and add up to 20 states taken at decision ``sample_at`` to ``samples``.
    ``chooser.choice(range(n))`` draws as ``chooser.choice(legal_list)`` does, so these are the very games
    :func:`_random_list_games` plays."""
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        state = rules.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        step = 0
        n = rules.legal_count(state)
        while n:
            n = rules.apply_nth(state, chooser.choice(range(n)))
            step += 1
            if samples is not None and step == sample_at and len(samples) < 20:
                samples.append(rules.clone(state))
        decisions += step
    return decisions, time.process_time() - start


def random_games(count: int, rules: Any = RULES, sample_at: int = 300,
                 warmup: int = 0) -> tuple[float, float, list[Any]]:
    """Play ``count`` quiet random games of ``rules`` through the playout fast path; return (games/s,
    decisions/s, a few states taken at decision ``sample_at``). The Hellenes benchmark uses it. ``warmup`` games
    (other seeds) are played first and not timed: one-time costs such as loading the message catalog a result's
    words need (about 0.1 CPU-s for Hellenes, a tenth of a 40-game run) are not engine speed."""
    _random_playouts(range(10**6, 10**6 + warmup), rules)
    samples: list[Any] = []
    decisions, elapsed = _random_playouts(range(count), rules, sample_at, samples)
    return count / elapsed, decisions / elapsed, samples


def _random_list_games(seeds: range, rules: Any) -> tuple[int, float]:
    """The games of :func:`_random_playouts` played one legal list at a time (``legal_actions``, a random pick,
    ``apply``: the checked path a server move takes); return (decisions, CPU seconds)."""
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        state = rules.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        while rules.active_seat(state) is not None:
            rules.apply(state, chooser.choice(rules.legal_actions(state)))
            decisions += 1
    return decisions, time.process_time() - start


def _chess_games(count: int, chooser: random.Random) -> tuple[int, float]:
    """python-chess random playouts (legal moves listed, one picked at random, game-over checked); return
    (moves, CPU seconds)."""
    import chess  # a dev dependency, used only by this benchmark

    moves = 0
    start = time.process_time()
    for _ in range(count):
        board = chess.Board()
        while not board.is_game_over():
            board.push(chooser.choice(list(board.legal_moves)))
            moves += 1
    return moves, time.process_time() - start


def _openspiel_available() -> bool:
    """Whether OpenSpiel (``pyspiel``) is importable here."""
    try:
        import pyspiel  # noqa: F401  # optional: installed with open_spiel
    except ImportError:
        return False
    return True


def _openspiel_chess_games(count: int, chooser: random.Random) -> tuple[int, float]:
    """OpenSpiel's chess (C++) in random playouts driven from Python as ours are (legal actions listed, one
    picked at random, applied); return (moves, CPU seconds)."""
    import pyspiel

    game = pyspiel.load_game("chess")
    moves = 0
    start = time.process_time()
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            moves += 1
    return moves, time.process_time() - start


def _rate(measured: tuple[int, float]) -> float:
    """Moves or decisions per CPU-second of one loop's (count, CPU seconds)."""
    return measured[0] / measured[1]


def _paired(ratios: list[float]) -> tuple[float, tuple[float, float]]:
    """The median of the rounds' paired ratios and their middle half (first and third quartile; the lowest and
    highest ratio when there are fewer than four rounds). A moment of load on a shared machine slows one loop of
    one pair: it moves that pair's ratio far off, which the median sets aside and a sum over all rounds would
    not, the way ``farm-bench`` compares two commands pair by pair."""
    if len(ratios) < 4:
        return statistics.median(ratios), (min(ratios), max(ratios))
    first, _, third = statistics.quantiles(ratios, n=4)
    return statistics.median(ratios), (first, third)


def _chunks(total: int, parts: int) -> list[range]:
    """``range(total)`` cut into ``parts`` consecutive pieces as even as possible (none empty)."""
    parts = max(1, min(parts, total))
    bounds = [total * k // parts for k in range(parts + 1)]
    return [range(bounds[k], bounds[k + 1]) for k in range(parts)]


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
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--chess-games", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=50,
                        help="untimed games (other seeds) played first, so the rules' caches are as in play")
    parser.add_argument("--rounds", type=int, default=20,
                        help="rounds that each play a share of every loop, so all loops see the same machine")
    args = parser.parse_args()
    if args.games < 1 or args.chess_games < 1 or args.rounds < 1 or args.warmup < 1:
        parser.error("--games, --chess-games, --rounds and --warmup need at least one each")
    rules = get_rules(args.game)
    # decision 300 is mid-game in Freedom!; a random Hellenes game is shorter (about 300 decisions in all)
    sample_at = 120 if args.game == "hellenes" else 300
    spiel = _openspiel_available()
    load_before = os.getloadavg()[0]
    # untimed games of each loop first: imports and one-time tables (the message catalog a result's words need,
    # python-chess's attack tables) are not playing speed; nor are the rules' caches of movement reach, keyed by
    # situations that recur from game to game and full after a few dozen games (a bot's playouts always see
    # them full; measured cold, the first loop of a run would pay for filling them and the second would not)
    _random_playouts(range(10**6, 10**6 + args.warmup), rules)
    _chess_games(1, random.Random(10**6))
    if spiel:
        _openspiel_chess_games(1, random.Random(10**6))
    # the loops take turns in rounds: on a shared machine the load changes from second to second, and a ratio
    # is only honest when both of its sides were measured under the same load
    samples: list[Any] = []
    sums = {"fast": [0, 0.0], "list": [0, 0.0], "chess": [0, 0.0], "spiel": [0, 0.0]}
    per_round: list[float] = []
    spiel_per_round: list[float] = []
    chess_chooser, spiel_chooser = random.Random(0), random.Random(0)
    rounds = min(args.rounds, args.games, args.chess_games)  # every round plays at least one game of each
    work = list(zip(_chunks(args.games, rounds), _chunks(args.chess_games, rounds), strict=True))
    for seeds, chess_part in track(work, description=f"{len(work)} rounds of every loop"):
        # each round's pair of loops back to back (ours, then chess), so one pair shares the same moment
        fast = _random_playouts(seeds, rules, sample_at, samples)
        chess = _chess_games(len(chess_part), chess_chooser)
        per_round.append(_rate(fast) / _rate(chess))
        measured = [("fast", fast), ("chess", chess)]
        if spiel:
            spiel_games = _openspiel_chess_games(len(chess_part), spiel_chooser)
            spiel_per_round.append(_rate(fast) / _rate(spiel_games))
            measured.append(("spiel", spiel_games))
        measured.append(("list", _random_list_games(seeds, rules)))
        for name, (count, seconds) in measured:
            sums[name][0] += count
            sums[name][1] += seconds
    load_after = os.getloadavg()[0]
    decisions_s, list_s, chess_s = (sums[name][0] / sums[name][1] for name in ("fast", "list", "chess"))
    games_s = args.games / sums["fast"][1]
    spiel_s = sums["spiel"][0] / sums["spiel"][1] if spiel else None
    clones = statistics.median(clones_per_s(samples) for _ in range(3))
    save_ms, load_ms, state_bytes, file_bytes = save_load(rules=rules)
    table = Table(title=f"muster engine benchmark: {args.game} (one core)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    ratio, ratio_q = _paired(per_round)
    spiel_rows = [] if spiel_s is None else [
        ("OpenSpiel chess moves / s", f"{spiel_s:,.0f}"),
        ("decisions per OpenSpiel chess move (median round)", f"{_paired(spiel_per_round)[0]:.2f}")]
    for name, value in [("random games / s", f"{games_s:.1f}"), ("decisions / s", f"{decisions_s:,.0f}"),
                        ("decisions / s (legal lists)", f"{list_s:,.0f}"),
                        ("state copies / s", f"{clones:,.0f}"), ("save (dumps) ms", f"{save_ms:.1f}"),
                        ("load (replay + check) ms", f"{load_ms:.1f}"), ("state JSON bytes", f"{state_bytes:,}"),
                        ("save file bytes", f"{file_bytes:,}"), ("python-chess moves / s", f"{chess_s:,.0f}"),
                        ("decisions per python-chess move (median round)", f"{ratio:.2f}"),
                        ("the same, middle half of the rounds", f"{ratio_q[0]:.2f}–{ratio_q[1]:.2f}"),
                        ("the same, lowest and highest round", f"{min(per_round):.2f}–{max(per_round):.2f}"),
                        ("the same, all decisions over all moves", f"{decisions_s / chess_s:.2f}"),
                        *spiel_rows,
                        ("compiled rules (mypyc)", "yes" if _native.ACTIVE else "no")]:
        table.add_row(name, value)
    Console().print(table)
    figures: dict[str, Any] = {
        "game": args.game, "games_per_s": round(games_s, 2), "decisions_per_s": round(decisions_s),
        "list_decisions_per_s": round(list_s), "clones_per_s": round(clones), "save_ms": round(save_ms, 2),
        "load_ms": round(load_ms, 2), "state_json_bytes": state_bytes, "save_file_bytes": file_bytes,
        "python_chess_moves_per_s": round(chess_s), "vs_python_chess": round(ratio, 2),
        "vs_python_chess_quartiles": [round(ratio_q[0], 2), round(ratio_q[1], 2)],
        "vs_python_chess_rounds": [round(min(per_round), 2), round(max(per_round), 2)],
        "vs_python_chess_total": round(decisions_s / chess_s, 2),
        "vs_python_chess_list": round(list_s / chess_s, 2),
        "rounds": len(per_round), "load_average": [round(load_before, 2), round(load_after, 2)]}
    if spiel_s is not None:
        spiel_ratio, spiel_q = _paired(spiel_per_round)
        figures["openspiel_chess_moves_per_s"] = round(spiel_s)
        figures["vs_openspiel_chess"] = round(spiel_ratio, 2)
        figures["vs_openspiel_chess_quartiles"] = [round(spiel_q[0], 2), round(spiel_q[1], 2)]
        figures["vs_openspiel_chess_total"] = round(decisions_s / spiel_s, 2)
    figures["install"] = "compiled" if _native.ACTIVE else "pure"
    figures["compiled"] = _native.ACTIVE
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
