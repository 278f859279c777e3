"""The opt-in compiled rules are never used once their sources change (``muster._native``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from muster import _native

SRC = Path(_native.__file__).resolve().parent.parent


def test_a_changed_source_is_stale(tmp_path: Path) -> None:
    manifest = {"build": _native.build_tag(),
                "modules": {m: _native.source_digest(_native.source_path(m)) for m in _native.COMPILED}}
    assert _native.stale_modules(manifest) == []
    manifest["modules"]["muster.games.freedom.engine"] = "0" * 32
    assert _native.stale_modules(manifest) == ["muster.games.freedom.engine"]
    manifest["build"] = ".cpython-00-other.so"
    assert _native.stale_modules(manifest) == sorted(_native.COMPILED)


def test_a_stale_build_falls_back_to_the_sources_with_a_warning(tmp_path: Path) -> None:
    # A copy of the package with a manifest that no longer matches one source: importing muster warns,
    # and every compiled module comes from its .py file (a stale extension would be preferred otherwise).
    shutil.copytree(SRC / "muster", tmp_path / "muster", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    modules = {m: _native.source_digest(_native.source_path(m)) for m in _native.COMPILED}
    modules["muster.games.freedom.engine"] = "0" * 32
    (tmp_path / "muster" / "_native.json").write_text(json.dumps({"build": _native.build_tag(), "modules": modules}))
    probe = ("import warnings; warnings.simplefilter('always')\n"
             "import muster, muster._native as n, muster.games.freedom.engine as e\n"
             "print(n.ACTIVE, e.__file__.endswith('engine.py'))")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("MUSTER_PURE_PYTHON", None)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["False", "True"]
    assert "compiled rules modules are out of date" in done.stderr
