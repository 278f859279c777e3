"""Compile the rules of both games with mypyc (opt-in): the same code, faster simulations (Freedom! about
2-3x, Hellenes about 1.5x).

Run ``python scripts/compile_rules.py`` in a checkout after ``pip install -e '.[dev]'`` (it needs mypy's
mypyc and a C compiler with the Python headers; a few minutes). It writes C extension modules next to
the ``.py`` files of :data:`muster._native.COMPILED` and the manifest ``src/muster/_native.json``; then
it replays the golden games with the compiled modules (``--no-check`` skips that). ``--clean`` removes
them all again. A pure-Python install never needs this, and a stale build is never used: once a
compiled module's source changes, ``muster`` warns and runs the pure-Python rules (see
:mod:`muster._native`) until this script is run again.
"""

from __future__ import annotations

import argparse
import json
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


def compile_modules() -> None:
    """Run mypyc over the compiled modules (in ``src``) and put the extensions next to their sources."""
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:
        raise SystemExit(f"compiling needs mypy's mypyc and setuptools: pip install -e '.[dev]' ({exc})") from exc

    paths = [str(_native.source_path(m).relative_to(SRC)) for m in _native.COMPILED]
    os.chdir(SRC)
    setup(
        name="muster-compiled-rules",
        ext_modules=mypycify(paths, opt_level="3", target_dir=str(BUILD / "c")),
        script_args=["build_ext", "--inplace", "--build-temp", str(BUILD / "temp"), "--build-lib", str(BUILD / "lib")],
    )
    os.chdir(ROOT)


def source_digests() -> dict[str, str]:
    """Each compiled module's source hash (taken before compiling: an edit meanwhile makes the build stale)."""
    return {m: _native.source_digest(_native.source_path(m)) for m in _native.COMPILED}


def write_manifest(modules: dict[str, str]) -> None:
    """Record the compiled modules' source hashes and the Python build."""
    _native.MANIFEST.write_text(json.dumps({"build": _native.build_tag(), "modules": modules}, indent=1) + "\n")


def main() -> None:
    """Compile (or ``--clean``), then check the golden games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules and stop")
    parser.add_argument("--no-check", action="store_true", help="do not replay the golden games afterwards")
    args = parser.parse_args()
    removed = clean()
    if args.clean:
        print(f"removed {removed} compiled file(s): the pure-Python rules run")
        return
    digests = source_digests()
    compile_modules()
    write_manifest(digests)
    check = [sys.executable, "-c", "import muster._native as n; print('compiled rules active:', n.ACTIVE)"]
    env = {key: value for key, value in os.environ.items() if key != "MUSTER_PURE_PYTHON"}
    env["PYTHONPATH"] = str(SRC)
    subprocess.run(check, check=True, env=env)
    if not args.no_check:
        for game in ("engine", "hellenes"):  # Freedom!'s golden games, then Hellenes'
            subprocess.run([sys.executable, str(ROOT / "tests" / game / "golden.py"), "check"], check=True, env=env)


if __name__ == "__main__":
    main()
