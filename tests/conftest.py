"""Shared fixtures and options of the test suite.

``tests/plugins`` holds games that are not part of muster, each registered by its own ``*.dist-info`` folder
(Duel, the third game, proves that a game needs no line outside its package). It goes on ``sys.path`` here,
before anything lists the games, and on ``PYTHONPATH`` for every process a test starts (servers, terminals,
the lab), so :func:`importlib.metadata.entry_points` finds those games everywhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().with_name("plugins")

if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))
_paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
if str(PLUGINS) not in _paths:
    os.environ["PYTHONPATH"] = os.pathsep.join([*_paths, str(PLUGINS)])


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--fuzz-games N``: how many random games the fuzzer plays (CI: 200)."""
    parser.addoption("--fuzz-games", type=int, default=200, help="random games per ruleset in the fuzzer")
