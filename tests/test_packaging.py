"""The wheel and the sdist install into a fresh virtual environment and run both games there.

``python -m build`` makes the sdist and then the wheel from that sdist (so the sdist must hold
everything a build needs); each is installed with pip into its own new virtual environment, and the
installed ``muster`` serves both games, creates a Hellenes game in the lobby and plays a Hellenes demo.
Select these tests with ``-m packaging`` (or leave them out with ``-m "not packaging"``).

They build the pure-Python package: compiling takes minutes, and CI's editable install
(``scripts/test.sh``) already exercises the compiled build; what can go wrong only in a wheel (package
data, the sdist's contents, the entry point) does not depend on it. The build is given no C compiler
(``CC=/nonexistent/cc``), which also checks the fallback to pure Python; the sdist is installed with
``MUSTER_COMPILE=0``, the way to opt out. The virtual environments
see the system's site-packages, so muster's dependencies need no download; the tests check that
``muster`` itself is imported from the virtual environment, never from a checkout. A last test checks, without
compiling, that the compiled modules pass mypy as an isolated build sees them (with none of muster's dependencies),
so that a wheel built with a C compiler really compiles.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.helpers import create, free_port

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "muster"

pytestmark = pytest.mark.packaging


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would point Python at this checkout's sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUSTER_PURE_PYTHON", "VIRTUAL_ENV")}
    return {**env, "PYTHONUNBUFFERED": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def run(cmd: list[str | Path], cwd: Path, **extra: str) -> str:
    """Run a command to completion; its output, or a failure showing it."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=clean_env(**extra), capture_output=True, text=True,
                          timeout=1200)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from it, pure Python: with no C compiler the build falls back to it."""
    out = tmp_path_factory.mktemp("dist")
    log = run([sys.executable, "-m", "build", "--outdir", out, ROOT], cwd=out, CC="/nonexistent/cc")
    assert "muster: installing the pure-Python rules (no working C compiler" in log, log[-3000:]
    return out


def data_files() -> set[str]:
    """Every file of the package that is not Python source nor a build product, relative to ``src``."""
    skip = {".py", ".pyc", ".so", ".c", ".h", ".tmp"}
    return {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in skip and p.name != "_native.json"
            and "__pycache__" not in p.parts and not any(part.startswith(".") for part in p.parts)}


def test_the_wheel_and_the_sdist_hold_every_data_file(dist: Path) -> None:
    (wheel,) = dist.glob("muster-*.whl")
    (sdist,) = dist.glob("muster-*.tar.gz")
    assert wheel.name.endswith("-py3-none-any.whl")  # pure: nothing compiled, no stale extension let in
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    expected = data_files()
    assert "muster/games/hellenes/data/cards.json" in expected
    assert {"muster/games/freedom/static/board.js", "muster/games/hellenes/static/rules-hellenes.pl.html"} <= expected
    assert expected <= in_wheel, sorted(expected - in_wheel)
    assert {f"src/{name}" for name in expected} <= in_sdist, sorted({f"src/{n}" for n in expected} - in_sdist)
    assert "setup.py" in in_sdist and "pyproject.toml" in in_sdist
    assert not [name for name in in_wheel if name.endswith((".so", "_native.json"))]


@pytest.fixture(scope="module", params=["wheel", "sdist"])
def venv(request: pytest.FixtureRequest, dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with muster installed by pip from the wheel or from the sdist."""
    artifact = next(dist.glob("muster-*.whl" if request.param == "wheel" else "muster-*.tar.gz"))
    home = tmp_path_factory.mktemp(f"venv-{request.param}")
    run([sys.executable, "-m", "venv", "--system-site-packages", home / "env"], cwd=home)
    python = home / "env" / "bin" / "python"
    run([python, "-m", "pip", "install", "-q", artifact], cwd=home, MUSTER_COMPILE="0")
    where = run([python, "-c", "import muster, muster._native as n; print(muster.__file__, n.ACTIVE)"], cwd=home)
    assert where.split()[0].startswith(str(home / "env")), where  # not this checkout, nor another install
    assert where.split()[1] == "False"
    return home


def test_demo_plays_hellenes(venv: Path) -> None:
    out = run([venv / "env" / "bin" / "muster", "demo", "--game", "hellenes", "--seed", "3"], cwd=venv)
    assert " wins " in out and "decisions." in out, out[-2000:]


@pytest.fixture()
def served(venv: Path) -> Iterator[str]:
    """``muster serve`` of the virtual environment; its URL once it printed that it serves."""
    port = free_port()
    cmd = [str(venv / "env" / "bin" / "muster"), "serve", "--port", str(port),
           "--database-url", f"sqlite:///{venv / 'muster.db'}"]
    proc = subprocess.Popen(cmd, cwd=venv, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 120  # a generous bound on a loaded machine, not a speed check
    try:
        while b"muster: serving on" not in seen:
            assert proc.poll() is None, seen.decode(errors="replace")
            assert time.monotonic() < deadline, f"no 'serving on' line: {seen.decode(errors='replace')}"
            if select.select([proc.stdout], [], [], 1)[0]:
                seen += os.read(proc.stdout.fileno(), 65536)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_serve_runs_both_games(served: str) -> None:
    # The line came only once the socket listens: the first request needs no retry.
    with httpx.Client(base_url=served, timeout=30) as client:
        meta = client.get("/api/meta")
        assert meta.status_code == 200
        games = {game["name"]: game for game in meta.json()["games"]}
        assert {"freedom", "hellenes"} <= set(games)
        level = games["hellenes"]["levels"][0]["id"]
        game = create(client, game="hellenes", athens="human", sparta=level)  # asserts 201
        seat = client.get(f"/api/seat/{game['tokens']['athens']}")
        assert seat.status_code == 200, seat.text
        create(client, imperial="human", insurgent=meta.json()["default_level"])
        assert client.get("/").status_code == 200


def test_the_compiled_modules_type_check_as_an_isolated_build_sees_them(tmp_path: Path) -> None:
    # pip builds a wheel in an environment of its own: mypy and setuptools, none of muster's dependencies. The build
    # runs mypy from src/ with muster._native.MYPY_FLAGS; were the project's checking settings to apply there (mypy
    # finds pyproject.toml by walking up from src/), their strict flags would reject pydantic's BaseModel seen as Any
    # and every wheel would quietly fall back to pure Python. Here mypy looks through a bare virtual environment's
    # eyes (--python-executable) at the modules the build compiles.
    from muster import _native

    run([sys.executable, "-m", "venv", tmp_path / "bare"], cwd=tmp_path)  # no system site-packages
    paths = [str(_native.source_path(m).relative_to(_native.ROOT)) for m in _native.COMPILED]
    out = run([sys.executable, "-m", "mypy", *_native.MYPY_FLAGS, "--python-executable", tmp_path / "bare" / "bin" /
               "python", "--cache-dir", tmp_path / "cache", *paths], cwd=_native.ROOT)
    assert "Success" in out, out[-3000:]
