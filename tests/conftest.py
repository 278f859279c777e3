"""Shared fixtures and options of the test suite."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--fuzz-games N``: how many random games the fuzzer plays (CI: 200)."""
    parser.addoption("--fuzz-games", type=int, default=200, help="random games per ruleset in the fuzzer")
