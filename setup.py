"""Build hooks: compile the rules with mypyc when a C compiler is present, install pure Python otherwise.

Everything else (metadata, packages, package data) is in ``pyproject.toml``. Whatever builds muster
(``pip install -e .``, ``pip install .``, ``python -m build``, ``pip install`` of the sdist) runs
:class:`BuildExt`, which compiles the modules listed in ``muster._native.COMPILED`` (the frame machine and
every game's ``compiled`` list, read from ``src/muster/games/*/module.py`` as text) into C extensions
and writes the manifest ``muster/_native.json`` that :mod:`muster._native` checks at import. It prints
one line saying which rules were installed (pip shows it with ``-v``; ``muster serve`` says it too):

- ``MUSTER_COMPILE=0`` opts out: a pure-Python build (a ``py3-none-any`` wheel; an editable install
  removes compiled modules it finds next to the sources);
- no working C compiler (or no mypyc): pure Python, nothing else changes;
- a compile that fails: pure Python, and an editable install keeps the previous compiled modules
  untouched (used while they match their sources, otherwise bypassed with a warning), so a failed
  build never breaks an install nor makes it silently slower.

Speed: mypyc writes one C file per module (``multi_file``) into one shared library, so compiled
modules still call each other directly, and :meth:`BuildExt.build_extensions` compiles those files on
every core at once; a single C file of all modules at ``-O3`` took half an hour, one file per module a few minutes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def native() -> ModuleType:
    """``muster._native`` loaded from its file alone (the build has none of muster's dependencies)."""
    spec = importlib.util.spec_from_file_location("_muster_native", SRC / "muster" / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def say(line: str) -> None:
    """One line of the build log (stderr, which pip keeps with the rest of the output)."""
    print(f"muster: {line}", file=sys.stderr, flush=True)


def probe_compiler() -> str:
    """Why no extension can be compiled here ("" if a C compiler builds against Python's headers)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

    compiler: Any = new_compiler()
    customize_compiler(compiler)  # honours CC and CFLAGS, as the real build does
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint muster_probe(void) { return Py_IsInitialized(); }\n")
        try:
            compiler.compile([str(source)], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception as exc:  # CompileError, or the compiler missing altogether
            return f"no working C compiler ({str(exc).strip().splitlines()[-1] if str(exc).strip() else exc})"
    return ""


@cache
def plan() -> str:
    """Why the rules are built as pure Python, or "" to compile them (decided once per build)."""
    if os.environ.get("MUSTER_COMPILE", "1").strip() == "0":
        return "MUSTER_COMPILE=0"
    try:
        import mypyc.build  # noqa: F401 - a build requirement, absent only under --no-build-isolation
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    return probe_compiler()


def remove_compiled(root: Path) -> int:
    """Remove the compiled rules modules, their shared library and the manifest under ``root``."""
    tags = native()
    suffix = tags.build_tag()
    found = [root.joinpath(*m.split(".")).with_suffix(suffix) for m in tags.COMPILED]
    found += [root / "muster" / "_native.json", *root.glob(f"muster/*__mypyc{suffix}"), *root.glob(f"*__mypyc{suffix}")]
    removed = 0
    for path in found:
        if path.exists():
            path.unlink()
            removed += 1
    return removed


class MusterDistribution(Distribution):
    """A distribution whose extension modules are decided at build time (generating them takes a minute)."""

    def has_ext_modules(self) -> bool:
        """Whether the wheel holds compiled modules (so it is tagged for this Python and platform)."""
        return plan() == ""


class BuildPy(build_py):
    """``build_py`` that never lets compiled modules of an earlier build into a pure-Python one."""

    def run(self) -> None:
        """Copy the sources; for a pure build also drop compiled leftovers (build dir, or the sources in place)."""
        super().run()
        why = plan()
        if why:
            removed = remove_compiled(Path(self.build_lib))
            editable = getattr(self, "editable_mode", False)
            if editable and why == "MUSTER_COMPILE=0":
                removed += remove_compiled(SRC)
            note = f"; removed {removed} compiled file(s)" if removed else ""
            if editable and (SRC / "muster" / "_native.json").exists():  # never made slower by a missing compiler
                note += "; the compiled rules already in place stay in use while they match their sources"
            say(f"installing the pure-Python rules ({why}){note}")


class BuildExt(build_ext):
    """Compile ``muster._native.COMPILED`` with mypyc, falling back to pure Python on any failure."""

    def run(self) -> None:
        """Generate the C code, compile it, install it with its manifest; on failure leave pure Python."""
        if plan():
            return
        tags = native()
        inplace = self.inplace  # setuptools clears it while building in build_lib
        if tags.MISSING:
            say(f"not compiled, listed by a game but without a source: {', '.join(tags.MISSING)}")
        # Hashed before generating: a source edited meanwhile makes the build stale, never wrongly current.
        self.digests = {m: tags.source_digest(tags.source_path(m)) for m in tags.COMPILED}
        try:
            self.extensions = self.adopt(self.generate(tags))
            super().run()  # builds in build_lib, then (editable install) copy_extensions_to_source
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error; the compiler raises
            for ext in self.extensions or []:  # what reached build_lib; the sources in place are untouched
                Path(self.build_lib, self.get_ext_filename(self.get_ext_fullname(ext.name))).unlink(missing_ok=True)
            self.extensions = []
            kept = " (a previous compiled build in place is used while it matches its sources)" if inplace else ""
            why = "mypyc's errors above" if isinstance(exc, SystemExit) else str(exc).strip()[-300:] or repr(exc)
            say(f"compiling the rules failed ({why}); "
                f"installing the pure-Python rules{kept}")
            return
        if not inplace:
            self.write_manifest(Path(self.build_lib) / "muster" / "_native.json")
        say(f"the rules are compiled (mypyc, {len(tags.COMPILED)} modules)")

    def generate(self, tags: ModuleType) -> list[Any]:
        """Run mypyc over the compiled modules: one shared library, one C file per module."""
        from mypyc.build import mypycify

        work = Path(self.build_temp).resolve() / "mypyc"
        work.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("MYPY_CACHE_DIR", str(work / "cache"))  # not in src
        paths = [str(tags.source_path(m).relative_to(tags.ROOT)) for m in tags.COMPILED]
        cwd = os.getcwd()
        os.chdir(SRC)  # mypy names modules from the paths (src/ has no __init__.py)
        try:
            # no configuration file, missing imports as Any: see muster._native.MYPY_FLAGS
            return list(mypycify([*tags.MYPY_FLAGS, *paths], opt_level="3", multi_file=True,
                                 group_name=tags.GROUP, target_dir=str(work / "c")))
        finally:
            os.chdir(cwd)

    def adopt(self, extensions: list[Any]) -> list[Any]:
        """What ``finalize_options`` records for each extension, for these that arrived later."""
        for ext in extensions:
            ext._full_name = self.get_ext_fullname(ext.name)
            self.ext_map[ext._full_name] = ext
            ext._links_to_dynamic = ext._needs_stub = False  # mypyc's modules are plain extensions
            ext._file_name = self.get_ext_filename(ext._full_name)
        return extensions

    def build_extensions(self) -> None:
        """Compile every C file on every core: the shared library's files at once, then the small shims."""
        self.check_extensions_list(self.extensions)
        jobs = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
        compile_one = self.compiler.compile

        def compile_parallel(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(jobs) as pool:  # each compile is a compiler process: threads suffice
                done = list(pool.map(lambda source: compile_one([source], *args, **kwargs), sources))
            return [obj for objects in done for obj in objects]

        self.compiler.compile = compile_parallel
        say(f"compiling the rules with mypyc on {jobs} core(s)")
        try:
            big = [ext for ext in self.extensions if len(ext.sources) > 1]
            for ext in big:
                self.build_extension(ext)
            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(self.build_extension, [ext for ext in self.extensions if ext not in big]))
        finally:
            self.compiler.compile = compile_one

    def copy_extensions_to_source(self) -> None:
        """Install in place (editable): the manifest goes last, so a half-copied build is never trusted."""
        manifest = SRC / "muster" / "_native.json"
        manifest.unlink(missing_ok=True)
        remove_compiled(SRC)  # also an older build's shared library under another name
        super().copy_extensions_to_source()
        self.write_manifest(manifest)

    def write_manifest(self, path: Path) -> None:
        """Record the compiled modules' source hashes and the Python build (see muster._native)."""
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"build": native().build_tag(), "modules": self.digests}, indent=1) + "\n")
        os.replace(tmp, path)


setup(distclass=MusterDistribution, cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
