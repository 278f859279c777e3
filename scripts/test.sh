#!/usr/bin/env bash
# Every check of the project: installs what is missing, then ruff, mypy, the import contract and pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh -k fuzz --fuzz-games 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
# nginx: the reverse proxy of the two-node failover test (tests/server/test_failover.py)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing system packages: ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The container test (tests/test_container.py) builds a Debian base image with debootstrap and runs the
# app's image with podman on runc. Optional: if they cannot be installed, that test is skipped.
tools=()
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || tools+=("$tool")
done
if [ ${#tools[@]} -gt 0 ]; then
  echo "Installing container tools: ${tools[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${tools[@]}" >/dev/null; } \
    || echo "Could not install ${tools[*]}: tests/test_container.py will be skipped" >&2
fi
# rl and ray: the research adapters' tests (PettingZoo, Gymnasium, OpenSpiel) and the Ray backend's.
python3 -m pip install -q -e '.[dev,rl,ray]'

# A PostgreSQL server for the database tests (scripts/postgres.sh prints its URL).
# It is stopped and removed when this script exits.
if [ -z "${MUSTER_TEST_POSTGRES_URL:-}" ] && [ -x scripts/postgres.sh ]; then
  MUSTER_PG_DIR_FILE="$(mktemp)"
  export MUSTER_PG_DIR_FILE
  MUSTER_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
  export MUSTER_TEST_POSTGRES_URL
  trap 'scripts/postgres.sh stop "$(cat "$MUSTER_PG_DIR_FILE")"; rm -f "$MUSTER_PG_DIR_FILE"' EXIT
fi

ruff check src tests benchmarks
mypy
lint-imports  # the import contract in .importlinter: each game a plugin, no cycles
# Two test processes (pytest-xdist): the machines this runs on have two cores, and the tests wait on events,
# not on the clock, so they stay green under that load. Pass -n 0 to run them in one process.
python3 -m pytest -n 2 "$@"
