"""The deployment files in ``deploy/``: the container image built and run with podman, and its start-up
script run directly (so the script is covered wherever containers cannot run).

The container test builds everything locally, since a CI machine may reach no container registry: a
Debian base image made with debootstrap (cached, keyed by its recipe), then ``deploy/Containerfile`` on top
of it. It is skipped, saying why, unless podman, runc and debootstrap are installed, we are root (debootstrap
needs it) and a container actually runs; ``MUSTER_CONTAINER_TEST=0`` skips it too (it takes minutes).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.helpers import backends, create, free_port, fresh_postgres_database, state

ROOT = Path(__file__).resolve().parent.parent
ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"
CACHE = Path(os.environ.get("MUSTER_CONTAINER_CACHE", "/var/tmp/muster-container-cache"))
IMAGE = "localhost/muster-test:run"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
# runc rather than crun, and explicit ulimits: a sandboxed CI machine (hybrid cgroups, capped limits)
# refuses podman's defaults; on an ordinary machine these change nothing that matters here.
RUN_OPTIONS = ["--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1000:1000"]
# The base image's recipe: any change to it (or to the suite or mirror) builds a new base.
BASE_PACKAGES = "python3,python3-venv,ca-certificates"
BASE_RECIPE_VERSION = "1"


def run(cmd: list[str], timeout: float, check: bool = True, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing its output; on failure raise with the tail of that output."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd[:4])} ... failed ({proc.returncode}):\n"
                             f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def debian_source() -> tuple[str, str]:
    """The host's Debian suite (codename) and main mirror, from /etc/os-release and its apt sources."""
    release = Path("/etc/os-release").read_text() if Path("/etc/os-release").exists() else ""
    match = re.search(r"^VERSION_CODENAME=\"?(\w+)", release, re.M)
    suite = match.group(1) if match else "bookworm"
    mirror = "http://deb.debian.org/debian"
    files = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in files:
        text = path.read_text(errors="replace") if path.is_file() else ""
        # One-line entries ("deb URI suite components") and deb822 stanzas ("URIs: ...", "Suites: ...").
        for uri, suites in re.findall(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)", text, re.M):
            if suites == suite and "/debian" in uri and "security" not in uri:
                return suite, uri
        for stanza in re.split(r"\n\s*\n", text):
            uris = re.search(r"^URIs:\s*(\S+)", stanza, re.M)
            suites = re.search(r"^Suites:(.*)$", stanza, re.M)
            if (uris and suites and suite in suites.group(1).split() and "/debian" in uris.group(1)
                    and "security" not in uris.group(1)):
                return suite, uris.group(1)
    return suite, mirror


def image_exists(name: str) -> bool:
    """Whether podman holds an image of that name."""
    return run(["podman", "image", "exists", name], timeout=60, check=False).returncode == 0


def base_image() -> str:
    """A minimal Debian image with python3, built once per recipe (debootstrap, then ``podman import``).

    The root file system is also kept as a tarball in CACHE, so a pruned podman store costs an import, not
    a new debootstrap. dpkg's unsafe I/O (no fsync per file) during the install makes it about twice as fast;
    the setting is removed before the image is made."""
    suite, mirror = debian_source()
    recipe = json.dumps([BASE_RECIPE_VERSION, suite, mirror, BASE_PACKAGES, "minbase"])
    key = hashlib.sha256(recipe.encode()).hexdigest()[:12]
    name = f"localhost/muster-base:{key}"
    if image_exists(name):
        return name
    CACHE.mkdir(parents=True, exist_ok=True)
    tarball = CACHE / f"base-{key}.tar"
    if not tarball.exists():
        rootfs = CACHE / f"rootfs-{key}"
        shutil.rmtree(rootfs, ignore_errors=True)
        try:
            run(["debootstrap", "--foreign", "--variant=minbase", f"--include={BASE_PACKAGES}",
                 suite, str(rootfs), mirror], timeout=900)
            unsafe = rootfs / "etc" / "dpkg" / "dpkg.cfg.d" / "muster-unsafe-io"
            unsafe.parent.mkdir(parents=True, exist_ok=True)
            unsafe.write_text("force-unsafe-io\n")
            run(["chroot", str(rootfs), "/debootstrap/debootstrap", "--second-stage"], timeout=900)
            unsafe.unlink()
            for leftover in [*rootfs.glob("var/cache/apt/archives/*.deb"), *rootfs.glob("var/lib/apt/lists/*_*")]:
                leftover.unlink()
            partial = tarball.with_suffix(".partial")
            run(["tar", "-C", str(rootfs), "--numeric-owner", "-cf", str(partial), "."], timeout=600)
            partial.rename(tarball)
        finally:
            shutil.rmtree(rootfs, ignore_errors=True)
    run(["podman", "import", str(tarball), name], timeout=600)
    return name


@pytest.fixture(scope="module")
def image() -> Iterator[str]:
    """The muster image built from deploy/Containerfile on the local base (skips if containers cannot run).

    Built without layer caching: the sources are copied before the install, so a cached layer would rarely
    be reused, and no intermediate images are left behind; the image itself is removed afterwards."""
    if os.environ.get("MUSTER_CONTAINER_TEST", "1") == "0":
        pytest.skip("MUSTER_CONTAINER_TEST=0 (the image takes minutes to build)")
    missing = [tool for tool in ("podman", "runc", "debootstrap") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install podman runc debootstrap)")
    if os.geteuid() != 0:
        pytest.skip("building the base image with debootstrap needs root")
    started = time.monotonic()
    base = base_image()
    probe = run(["podman", "run", "--rm", *RUN_OPTIONS, "--network", "none", base, "true"], timeout=300,
                check=False)
    if probe.returncode != 0:
        pytest.skip(f"containers cannot run here: {probe.stderr.strip()[-500:]}")
    base_s = time.monotonic() - started
    tag = f"{IMAGE}-{uuid.uuid4().hex[:10]}"  # our own: other runs on this machine may build at the same time
    # The host's CA bundle, for pip behind a TLS-inspecting proxy; mounted for the build only, never copied in.
    certs = ["-v", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"] if CA_BUNDLE.exists() else []
    # Pure-Python rules: compiling them takes minutes and is covered by the packaging tests.
    try:
        run(["podman", "build", *RUN_OPTIONS, *certs, "--layers=false", "--format", "docker",
             "-f", str(ROOT / "deploy" / "Containerfile"), "--build-arg", f"BASE={base}",
             "--build-arg", "MUSTER_COMPILE=0", "-t", tag, str(ROOT)], timeout=1200)
        size = run(["podman", "image", "inspect", "--format", "{{.Size}}", tag], timeout=60).stdout.strip()
        sys.stderr.write(f"\ncontainer: base image ready in {base_s:.0f} s, muster image built in "
                         f"{time.monotonic() - started - base_s:.0f} s, {int(size) / 1e6:.0f} MB\n")
        yield tag
    finally:
        run(["podman", "rmi", "-f", tag], timeout=300, check=False)


@pytest.fixture
def container(image: str, request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """A running muster container on SQLite (in a volume) or PostgreSQL; yields its name and base URL."""
    name = f"muster-test-{uuid.uuid4().hex[:10]}"
    if request.param == "sqlite":
        port = free_port()
        options = ["-p", f"127.0.0.1:{port}:8000", "-v", f"{name}:/var/lib/muster"]
    else:  # the test PostgreSQL listens on the host's loopback: share the host's network
        port = free_port()
        options = ["--network", "host", "-e", f"MUSTER_PORT={port}", "-e", "MUSTER_HOST=127.0.0.1",
                   "-e", f"MUSTER_DATABASE_URL={fresh_postgres_database()}"]
    run(["podman", "run", "-d", "--name", name, *RUN_OPTIONS, *options, image], timeout=300)
    try:
        yield name, f"http://127.0.0.1:{port}"
    finally:
        run(["podman", "rm", "-f", "-t", "10", name], timeout=120, check=False)
        if request.param == "sqlite":
            run(["podman", "volume", "rm", "-f", name], timeout=60, check=False)


def wait_healthy(name: str, timeout: float = 180) -> None:
    """Run the image's own health check until it passes (fail if the container stops or it never does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if run(["podman", "healthcheck", "run", name], timeout=60, check=False).returncode == 0:
            return
        status = run(["podman", "inspect", "--format", "{{.State.Status}}", name], timeout=60).stdout.strip()
        if status != "running":
            logs = run(["podman", "logs", name], timeout=60, check=False)
            raise AssertionError(f"the container stopped ({status}):\n{logs.stdout[-3000:]}{logs.stderr[-3000:]}")
        time.sleep(1)
    raise AssertionError(f"the health check did not pass within {timeout:.0f} s")


@pytest.mark.parametrize("container", backends(), indirect=True)
def test_container_is_healthy_serves_games_and_runs_unprivileged(container: tuple[str, str]) -> None:
    name, url = container
    wait_healthy(name)
    health = json.loads(run(["podman", "inspect", "--format", "{{json .State.Health}}", name], timeout=60).stdout)
    assert health["Status"] == "healthy"

    with httpx.Client(base_url=url, timeout=20) as client:
        assert client.get("/readyz").json()["status"] == "ok"
        game = create(client, imperial="human", insurgent="beginner")
        seen = state(client, game["tokens"]["imperial"])
        assert seen["game_id"] == game["game_id"]

    # Every process in the container runs as the image's own unprivileged user, also as seen from the host.
    top = run(["podman", "top", name, "user", "huser", "args"], timeout=60).stdout.splitlines()[1:]
    assert any("muster serve" in line for line in top), top
    for line in top:
        user, host_user = line.split()[:2]
        assert user == "muster" and host_user not in ("root", "0"), line
    uid = run(["podman", "exec", name, "id", "-u"], timeout=60).stdout.strip()
    assert uid != "0"

    # The stop signal reaches the server (the start-up script exec'd it), which shuts down by itself rather
    # than being killed (137) when the grace period ends.
    run(["podman", "stop", "-t", "20", name], timeout=120)
    status = run(["podman", "inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name], timeout=60)
    assert status.stdout.split() in (["exited", "0"], ["exited", "143"]), status.stdout


def start_entrypoint(env: dict[str, str], tmp_path: Path) -> subprocess.Popen[bytes]:
    """deploy/entrypoint.sh run by sh, with this Python's muster (and its tools) first on PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.Popen(["sh", str(ENTRYPOINT)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PATH": path, **env})


def test_entrypoint_serves_from_environment_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    proc = start_entrypoint({"MUSTER_DATABASE_URL": f"sqlite:///{tmp_path / 'muster.db'}",
                             "MUSTER_HOST": "127.0.0.1", "MUSTER_PORT": str(port)}, tmp_path)
    try:
        deadline = time.monotonic() + 120
        ready: httpx.Response | None = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                if ready.status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert ready is not None and ready.status_code == 200, proc.poll()
        assert ready.json()["status"] == "ok"
        assert (tmp_path / "muster.db").exists()
        # The script replaced itself with the server (exec), so a container's stop signal reaches the server.
        command = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
        assert b"serve" in command and not any(part.endswith(b"entrypoint.sh") for part in command), command
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn shuts down, then re-raises the signal
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_entrypoint_gives_up_on_a_silent_database_without_showing_its_password(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    url = f"postgresql://muster:hunter2secret@127.0.0.1:{free_port()}/muster"
    proc = start_entrypoint({"MUSTER_DATABASE_URL": url, "MUSTER_DB_WAIT_S": "2"}, tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert b"did not answer within 2 s" in err
    assert b"hunter2secret" not in out + err


def test_entrypoint_needs_a_database_url(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "MUSTER_DATABASE_URL"}
    proc = subprocess.run(["sh", str(ENTRYPOINT)], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    assert proc.returncode != 0
    assert b"MUSTER_DATABASE_URL" in proc.stderr
