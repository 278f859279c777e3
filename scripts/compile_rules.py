"""Rebuild the compiled rules in place (a thin wrapper around the build in ``setup.py``).

``pip install -e .`` already compiles the rules of both games with mypyc when a C compiler is present
(see ``setup.py`` and docs/architecture.md "Engine speed"). This script does the same in the current
environment without reinstalling, e.g. after editing a compiled module (until then ``muster`` warns and
runs the pure-Python rules, see :mod:`muster._native`): ``python setup.py build_ext --inplace`` (it needs
mypy's mypyc and setuptools, both in ``.[dev]``), then it checks the build is in use and replays the golden
games with it (``--no-check`` skips that). A failed build leaves the previous one as it was. ``--clean``
removes the compiled modules, so the pure-Python rules run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
BUILD = ROOT / "build" / "mypyc"
sys.path.insert(0, str(SRC))
os.environ["MUSTER_PURE_PYTHON"] = "1"  # this script only needs the module list: no warning about an old build

from muster import _native  # noqa: E402 - after the path is set


def clean() -> int:
    """Remove the compiled modules, the shared mypyc library and the manifest; return how many files."""
    suffix = _native.build_tag()
    found = [_native.extension_path(m) for m in _native.COMPILED]
    found += [*SRC.glob(f"*__mypyc{suffix}"), _native.MANIFEST]
    removed = 0
    for path in found:
        if path.exists():
            path.unlink()
            removed += 1
    return removed


def main() -> None:
    """Compile (or ``--clean``), then check the golden games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules and stop")
    parser.add_argument("--no-check", action="store_true", help="do not replay the golden games afterwards")
    args = parser.parse_args()
    if args.clean:
        print(f"removed {clean()} compiled file(s): the pure-Python rules run")
        return
    env = {key: value for key, value in os.environ.items() if key not in ("MUSTER_PURE_PYTHON", "MUSTER_COMPILE")}
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace", "--build-temp", str(BUILD / "temp"),
                    "--build-lib", str(BUILD / "lib")], cwd=ROOT, env=env, check=True)
    env["PYTHONPATH"] = str(SRC)
    check = "import muster._native as n; print('compiled rules active:', n.ACTIVE); raise SystemExit(not n.ACTIVE)"
    subprocess.run([sys.executable, "-c", check], check=True, env=env)
    if not args.no_check:
        for golden in sorted((ROOT / "tests").glob("*/golden.py")):  # every game's golden games
            subprocess.run([sys.executable, str(golden), "check"], check=True, env=env)


if __name__ == "__main__":
    main()
