"""Compiled (mypyc) rules modules, used only while they match their sources exactly.

Installing muster (``pip install -e .``, or a wheel or sdist) compiles the rules of both games into C
extension modules when a C compiler is present (``setup.py``; ``MUSTER_COMPILE=0`` opts out; see
docs/architecture.md "Engine speed") and writes ``_native.json``: the compiled modules with a hash of each
source and the Python build they were made for. Python prefers an extension module to a ``.py`` file of the
same name, so after an edit of a compiled module's source (an editable install, a ``git pull``) the
extension would silently run the old code. :func:`activate`, run by ``muster/__init__.py`` before anything
imports the rules, prevents that: when any source differs from the manifest (or the Python build does),
every compiled module is bypassed, all or nothing (the compiled modules call each other directly), and a
warning says how to rebuild. Without a manifest or compiled files nothing happens (a pure-Python install).
``MUSTER_PURE_PYTHON=1`` bypasses a valid build too.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
"""The directory holding the ``muster`` package (``src`` in a checkout)."""
MANIFEST = Path(__file__).with_name("_native.json")
GROUP = "muster_rules"
"""mypyc's name for the compiled modules' group: their shared library is the top-level module ``muster_rules__mypyc``
(a dotted group name puts mypyc's headers where its C files do not look)."""


HELLENES_COMPILED = (
    "muster.games.hellenes.state",
    "muster.games.hellenes.engine",
    *(f"muster.games.hellenes.rules.{name}" for name in (
        "common", "actions", "build", "pillage", "winter", "movement", "storms", "engage", "combat", "battle_end",
        "siege", "events", "initiative", "new_year", "sequence", "victory", "setup")),
)
"""The Hellenes modules among :data:`COMPILED` (its state, engine and every rules module)."""

COMPILED = (
    "muster.core.rng",
    "muster.games.freedom.constants",
    "muster.games.freedom.board",
    "muster.games.freedom.state",
    "muster.games.freedom.engine",
    *(f"muster.games.freedom.rules.{name}" for name in (
        "common", "action_phase", "movement", "combat", "cannons", "imperial_actions", "insurgent_actions",
        "opening", "administration", "replenishment", "victory", "setup")),
    "muster.games.freedom.cards.primitives",
    "muster.games.freedom.cards.effects",
    # The bots' evaluation: two thirds of a searching bot's time goes to it (it reads every space at every node).
    "muster.games.freedom.bots.evaluation",
    *HELLENES_COMPILED,
)
"""The modules the build compiles: the rules a simulation runs through at every step, and the
Freedom! evaluation every bot's lookahead calls at each node."""


class StaleCompiledModulesWarning(UserWarning):
    """The compiled rules no longer match their sources, so the pure-Python ones run instead."""


def source_path(module: str) -> Path:
    """The ``.py`` file of a (non-package) module under :data:`ROOT`."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(path: Path) -> str:
    """The hash the manifest records for a source file."""
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def build_tag() -> str:
    """The Python build compiled modules are made for (their file suffix)."""
    return str(sysconfig.get_config_var("EXT_SUFFIX"))


def stale_modules(manifest: dict[str, object]) -> list[str]:
    """The compiled modules whose source no longer matches (all of them for another Python build)."""
    modules = manifest.get("modules")
    if not isinstance(modules, dict):
        return ["(manifest)"]
    if manifest.get("build") != build_tag():
        return sorted(modules)
    stale = []
    for name, digest in modules.items():
        path = source_path(str(name))
        if not path.is_file() or source_digest(path) != digest:
            stale.append(str(name))
    return stale


class _SourcesOnly:
    """A meta path finder that loads the listed modules from their ``.py`` files, never an extension."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = source_path(fullname)
        if not source.is_file():
            return None
        loader = importlib.machinery.SourceFileLoader(fullname, str(source))
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)


def extension_path(module: str) -> Path:
    """Where the compiled form of a module would be."""
    return source_path(module).with_suffix(build_tag())


ACTIVE = False
"""True when the compiled rules modules are in use (benchmarks report it)."""


def activate() -> bool:
    """Use the compiled modules if the manifest matches every source; otherwise bypass them all."""
    global ACTIVE
    if os.environ.get("MUSTER_PURE_PYTHON") == "1":  # e.g. to compare both in one checkout
        if any(extension_path(m).exists() for m in COMPILED):
            sys.meta_path.insert(0, _SourcesOnly(COMPILED))
        return False
    manifest: object = {}
    if MANIFEST.is_file():
        with contextlib.suppress(OSError, ValueError):
            manifest = json.loads(MANIFEST.read_text())
    elif not any(extension_path(m).exists() for m in COMPILED):
        return False  # a pure-Python install (the usual case)
    stale = stale_modules(manifest) if isinstance(manifest, dict) and manifest else ["(no manifest)"]
    if stale:
        sys.meta_path.insert(0, _SourcesOnly(COMPILED))
        warnings.warn(
            f"compiled rules modules are out of date ({', '.join(stale[:3])}{'…' if len(stale) > 3 else ''}); "
            "running the pure-Python rules. Rebuild with `pip install -e .` (or `python scripts/compile_rules.py`) "
            "or remove them with `python scripts/compile_rules.py --clean`.",
            StaleCompiledModulesWarning,
            stacklevel=2,
        )
        return False
    ACTIVE = True
    return True
