"""Instructions the engine executes in random playouts, counted by valgrind: an exact, repeatable measure of its work.

Run: ``python benchmarks/instructions.py [--game freedom|hellenes] [--games 60]``. It plays the random games of
``benchmarks/engine.py``'s fast path (seeds 0 to ``--games`` − 1, ``legal_count`` + ``apply_nth``) in a child
process under ``valgrind --tool=cachegrind``, once with the games and once without any (the imports and setup
alone), and reports the difference. On a shared machine two timings of one build differ by more than most single
changes gain; an instruction count does not move with the load, so it weighs a change to the hot paths before the
paired timings of ``engine.py`` confirm it (it does not see cache misses, which the timings do). The install in use
(compiled or pure Python: ``MUSTER_PURE_PYTHON=1``) is the one counted. The last line printed is one JSON object:
``game``, ``games``, ``decisions``, ``instructions``, ``instructions_per_decision`` and ``install``. Needs
``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys

_PLAY = """
import random, sys
from muster.core.registry import get_rules
rules = get_rules(sys.argv[1])
decisions = 0
for seed in range(int(sys.argv[2])):
    state = rules.setup(seed, {"quiet": "1"})
    chooser = random.Random(seed)
    n = rules.legal_count(state)
    while n:
        n = rules.apply_nth(state, chooser.choice(range(n)))
        decisions += 1
from muster import _native
print(decisions, "compiled" if _native.ACTIVE else "pure")
"""


def count(game: str, games: int) -> tuple[int, int, str]:
    """(instructions, decisions, install) of one child process playing ``games`` random games."""
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", _PLAY, game, str(games)],
        capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{run.stderr[-2000:]}")
    decisions, install = run.stdout.split()
    return int(found.group(1).replace(",", "")), int(decisions), install


def main() -> None:
    """Count and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="freedom")
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt install valgrind)")
    if args.games < 1:
        parser.error("--games needs at least one game")
    played, decisions, install = count(args.game, args.games)
    idle, _, _ = count(args.game, 0)
    instructions = played - idle
    print(f"{args.game} ({install}): {instructions:,} instructions in {decisions:,} decisions of {args.games} "
          f"random games, {instructions / decisions:,.0f} a decision")
    print(json.dumps({"game": args.game, "games": args.games, "decisions": decisions, "instructions": instructions,
                      "instructions_per_decision": round(instructions / decisions), "install": install}))


if __name__ == "__main__":
    main()
