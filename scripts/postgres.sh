#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster (Debian's package) for the database tests and print its
# SQLAlchemy URL on stdout. It runs as the `postgres` user on a free loopback port, with trust
# authentication, in a temporary directory. `scripts/postgres.sh stop DIR` stops it and removes DIR
# (the directory is printed on stderr, and in MUSTER_PG_DIR_FILE when that variable names a file).
set -euo pipefail
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = "stop" ]; then
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  as_pg "$bin/pg_ctl" -D "$2/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$2"
  exit 0
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
if [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 1
fi
dir="$(mktemp -d /tmp/muster-pg.XXXXXX)"
chown postgres:postgres "$dir"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 >"$dir/initdb.log" 2>&1
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >&2
as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres muster
echo "PostgreSQL running: data in $dir/data (stop: scripts/postgres.sh stop $dir)" >&2
if [ -n "${MUSTER_PG_DIR_FILE:-}" ]; then echo "$dir" > "$MUSTER_PG_DIR_FILE"; fi
echo "postgresql://postgres@127.0.0.1:$port/muster"
