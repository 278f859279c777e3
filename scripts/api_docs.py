"""Build the API reference from the docstrings with pdoc: every public module of muster, each linked from its
package's page.

pdoc finds and lists a package's submodules from its ``__all__`` when it has one, and muster's packages use
``__all__`` for the names they re-export (``muster`` exports ``Game``, ``muster.core`` exports ``Rules``…), so whole
parts of the package (``muster.games``, ``muster.core.spaces``, Freedom!'s bots and observation) had no page.
Here every public submodule (not starting with ``_``) is found and listed, as pdoc does for a package without
``__all__``. Used by ``scripts/api_docs.sh`` and ``tests/test_library.py``.
"""

from __future__ import annotations

import pkgutil
import re
import sys
import types
from functools import cached_property
from pathlib import Path

import pdoc
import pdoc.doc
import pdoc.extract
import pdoc.render

EXCLUDED = re.compile(r"muster\.server\.migrations")
"""Modules left out: the database migrations (scripts run by the migration tool, not an API)."""


def _iter_modules(module: types.ModuleType) -> dict[str, pkgutil.ModuleInfo]:
    """The direct submodules of ``module``, whatever its ``__all__`` says (the migrations left out)."""
    prefix = f"{module.__name__}."
    return {info.name.rpartition(".")[2]: info for info in pkgutil.iter_modules(getattr(module, "__path__", []), prefix)
            if not EXCLUDED.match(info.name)}


def _submodules(self: pdoc.doc.Module) -> list[pdoc.doc.Module]:
    """Every public direct submodule."""
    out = []
    for name, info in _iter_modules(self.obj).items():
        if name.startswith("_"):
            continue
        try:
            out.append(pdoc.doc.Module.from_name(info.name))
        except RuntimeError:  # an optional extra that is not installed here: no page, as pdoc itself does
            continue
    return out


def configure() -> None:
    """Make pdoc find and list every public submodule, and read reStructuredText docstrings."""
    pdoc.extract.iter_modules2 = _iter_modules
    prop = cached_property(_submodules)
    prop.__set_name__(pdoc.doc.Module, "submodules")
    pdoc.doc.Module.submodules = prop  # type: ignore[method-assign,assignment]
    pdoc.render.configure(docformat="restructuredtext")


def build(out: Path) -> None:
    """Write the API reference of every muster module into ``out``."""
    configure()
    pdoc.pdoc("muster", f"!{EXCLUDED.pattern}", output_directory=out)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "build/api")
    build(target)
    print(f"API reference: {target}/index.html")
