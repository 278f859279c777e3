"""Compiled (mypyc) rules modules, used only while they match their sources exactly.

Installing muster (``pip install -e .``, or a wheel or sdist) compiles the frame machine and each game's hot
modules (its ``GameModule.compiled`` list) into C extension modules when a C compiler is present
(``setup.py``; ``MUSTER_COMPILE=0`` opts out; see docs/architecture.md "Engine speed") and writes
``_native.json``: the compiled modules with a hash of each source and the Python build they were made for.
Python prefers an extension module to a ``.py`` file of the same name, so after an edit of a compiled module's
source (an editable install, a ``git pull``) the extension would silently run the old code. :func:`activate`,
run by ``muster/__init__.py`` before anything imports the rules, prevents that: when any source differs from
the manifest (or the Python build does), every compiled module is bypassed, all or nothing (the compiled
modules call each other directly), and a warning says how to rebuild. Without a manifest or compiled files
nothing happens (a pure-Python install).
``MUSTER_PURE_PYTHON=1`` bypasses a valid build too.
"""

from __future__ import annotations

import ast
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


MYPY_FLAGS = ("--config-file=", "--ignore-missing-imports")
"""The mypy options the build compiles with (run from ``src``). No configuration file: mypy would find the
project's ``pyproject.toml`` above ``src`` and apply its checking settings, whose strict flags reject what a build
environment makes of the dependencies it lacks (pydantic's ``BaseModel`` seen as ``Any``), and the compile would fall
back to pure Python in every wheel. Missing imports are ``Any``: the build has none of muster's dependencies, and
modules outside the compiled set that import them are only read for their types."""


CORE_COMPILED = ("muster.core.rng", "muster.core.frames")
"""The game-independent modules the build compiles: the random generator and the frame machine every game's
rules run through at each step."""


def game_compiled_lists(root: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Per game package folder under ``muster/games``, the modules its ``GameModule`` lists as ``compiled``.

    Read from each ``module.py`` as text (the ``compiled=`` keyword of its ``GameModule(...)``, a tuple
    of string literals), never imported: the build runs without muster's dependencies, and this module
    runs before anything else of muster's. A game whose list is not literal compiles nothing (with a
    warning)."""
    games = (root or ROOT) / "muster" / "games"
    found: dict[str, tuple[str, ...]] = {}
    for module_file in sorted(games.glob("*/module.py")):
        try:
            tree = ast.parse(module_file.read_text(encoding="utf-8"), str(module_file))
        except (OSError, SyntaxError, ValueError) as exc:
            warnings.warn(f"cannot read {module_file}: {exc}", stacklevel=2)
            continue
        listed: tuple[str, ...] = ()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "GameModule"):
                continue
            for keyword in node.keywords:
                if keyword.arg != "compiled":
                    continue
                try:
                    value = ast.literal_eval(keyword.value)
                except ValueError:
                    value = None
                if isinstance(value, tuple) and all(isinstance(name, str) for name in value):
                    listed = value
                else:
                    warnings.warn(f"{module_file}: `compiled` must be a tuple of module names written out "
                                  "(the build reads it without running the file); nothing of it is compiled",
                                  stacklevel=2)
        found[module_file.parent.name] = listed
    return found


def compiled_modules(root: Path | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the modules the build compiles, those listed whose source is missing): :data:`CORE_COMPILED` and
    every game's list, each once, in that order."""
    listed = [*CORE_COMPILED, *(name for names in game_compiled_lists(root).values() for name in names)]
    unique = tuple(dict.fromkeys(listed))
    base = root or ROOT
    present = tuple(m for m in unique if base.joinpath(*m.split(".")).with_suffix(".py").is_file())
    return present, tuple(m for m in unique if m not in present)


def __getattr__(name: str) -> tuple[str, ...]:
    """``COMPILED``: the modules the build compiles (core's and each game's hot paths: the rules a simulation
    runs through at every step, and what a game's searching bots call at every node); ``MISSING``: those a game
    lists that have no source here (the build names them and compiles the rest). Both are read from the game
    modules on first use, so a plain ``import muster`` with a current build never parses them."""
    if name in ("COMPILED", "MISSING"):
        present, missing = compiled_modules()
        globals().update(COMPILED=present, MISSING=missing)
        return present if name == "COMPILED" else missing
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def shared_library_present() -> bool:
    """True if a compiled build's shared library lies in the tree (every compiled module needs it)."""
    name = f"{GROUP}__mypyc{build_tag()}"
    return (ROOT / name).exists() or (ROOT / "muster" / name).exists()


def activate() -> bool:
    """Use the compiled modules if the manifest matches every source; otherwise bypass them all."""
    global ACTIVE
    listed: tuple[str, ...] = ()
    manifest: object = {}
    if MANIFEST.is_file():
        with contextlib.suppress(OSError, ValueError):
            manifest = json.loads(MANIFEST.read_text())
        if isinstance(manifest, dict) and isinstance(manifest.get("modules"), dict):
            listed = tuple(str(m) for m in manifest["modules"])
    elif not shared_library_present():
        return False  # a pure-Python install (the usual case)
    if os.environ.get("MUSTER_PURE_PYTHON") == "1":  # e.g. to compare both in one checkout
        sys.meta_path.insert(0, _SourcesOnly((*listed, *compiled_modules()[0])))
        return False
    stale = stale_modules(manifest) if isinstance(manifest, dict) and manifest else ["(no manifest)"]
    if stale:
        # Every module that may have an extension here: the build's (manifest) and those listed now.
        sys.meta_path.insert(0, _SourcesOnly((*listed, *compiled_modules()[0])))
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
