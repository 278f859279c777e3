"""The examples in muster.rl's docstrings run (doctests)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["muster.rl.pettingzoo", "muster.rl.gymnasium", "muster.rl.openspiel"])
def test_module_examples(module: str) -> None:
    pytest.importorskip({"muster.rl.openspiel": "pyspiel"}.get(module, module.rsplit(".", 1)[1]))
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
