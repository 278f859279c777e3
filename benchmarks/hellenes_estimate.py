"""How well Hellenes' analysis estimate predicts the winner, read as the analysis reads it (from each side's own
view, determinized): the learned value against the hand-written evaluation's logistic at its fitted scale.

Run: ``python benchmarks/hellenes_estimate.py [--games 40] [--seed 600000]``. Plays ``--games`` Heuristic games
(seeds never used to fit the value), takes the curve's figure (:func:`muster.games.hellenes.analysis.public_chance`)
at every turn under both estimates and scores them against who won: log-loss, Brier score, and the same for the
base rate (Athens' share of wins), and how much lower the learned value's Brier score is game by game (mean and
95% interval). The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from typing import Any
from unittest import mock

from rich.progress import track

from muster.core import get_rules
from muster.games.hellenes import analysis
from muster.games.hellenes.bots import HellenesHeuristicBot
from muster.games.hellenes.train import brier, log_loss


def turns(seed: int) -> tuple[list[Any], str]:
    """The states at every turn of one Heuristic game (a Player Turn's first Action), and the winner."""
    rules = get_rules("hellenes")
    bots = {side: HellenesHeuristicBot(rules, seed * 2 + (side == "sparta")) for side in ("athens", "sparta")}
    s = rules.setup(seed, {"quiet": "1"})
    out, last = [], None
    while (seat := rules.active_seat(s)) is not None:
        key = analysis.turn_key(s)
        if key is not None and key != last:
            out.append(rules.clone(s))
            last = key
        rules.apply(s, bots[seat].choose_in(s, rules.legal_actions(s), seat))
    return out, str((s.result or {}).get("winner"))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=600000)
    args = parser.parse_args()
    rules = get_rules("hellenes")
    chances: dict[str, list[float]] = {"learned": [], "hand": []}
    wins: list[float] = []
    gains: list[float] = []  # per game: the hand curve's Brier score less the learned one's
    for seed in track(range(args.seed, args.seed + args.games), description=f"{args.games} Heuristic games"):
        states, winner = turns(seed)
        first = len(wins)
        for s in states:
            wins.append(1.0 if winner == "athens" else 0.0)
            chances["learned"].append(analysis.public_chance(s, rules))
            with mock.patch.object(analysis, "_learned", return_value=None):  # the hand-written curve
                chances["hand"].append(analysis.public_chance(s, rules))
        if len(wins) > first:
            mine = slice(first, len(wins))
            gains.append(brier(chances["hand"][mine], wins[mine]) - brier(chances["learned"][mine], wins[mine]))
    rate = sum(wins) / len(wins)
    figures: dict[str, Any] = {"games": args.games, "seed": args.seed, "turns": len(wins),
                               "athens_win_share": round(rate, 3)}
    for name, values in (*chances.items(), ("base_rate", [rate] * len(wins))):
        figures[name] = {"log_loss": round(log_loss(values, wins), 4), "brier": round(brier(values, wins), 4)}
    base = figures["base_rate"]["brier"]
    for name in chances:
        figures[name]["brier_skill"] = round(1 - figures[name]["brier"] / base, 3) if base else math.nan
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.nan
    figures["brier_gain_per_game"] = {"mean": round(mean, 4), "interval_95": [round(mean - half, 4),
                                                                               round(mean + half, 4)]}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
