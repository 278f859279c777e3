#!/bin/sh
# Start `muster serve` from the environment (the container's, or a systemd unit's EnvironmentFile):
#   MUSTER_DATABASE_URL   sqlite:////path or postgresql://user:password@host/db (required)
#   MUSTER_HOST, MUSTER_PORT   where to listen (default 0.0.0.0:8000)
#   MUSTER_WORKERS        server processes (default 1)
#   MUSTER_BOT_WORKERS    bot processes per server process (default 1)
#   MUSTER_METRICS_PORT, MUSTER_METRICS_HOST   Prometheus metrics (default off; host 127.0.0.1)
#   MUSTER_NODE           run as a named node of several sharing one PostgreSQL database (default: not)
# It first waits for the database to answer (up to MUSTER_DB_WAIT_S seconds, default 60: a PostgreSQL
# started alongside may take a while), then replaces itself with the server, which migrates the schema.
# Extra arguments go to `muster serve`.
set -eu
: "${MUSTER_DATABASE_URL:?set MUSTER_DATABASE_URL}"
wait_s="${MUSTER_DB_WAIT_S:-60}"
start=$(date +%s)
until error=$(python3 -c "
import sys
from sqlalchemy import text
from muster.server.db import make_engine
try:
    with make_engine(sys.argv[1]).connect() as conn:
        conn.execute(text('SELECT 1'))
except Exception as exc:  # the reason, on one line (never the URL: it may hold a password)
    sys.exit(f'{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc!r}')
" "$MUSTER_DATABASE_URL" 2>&1); do
  if [ $(( $(date +%s) - start )) -ge "$wait_s" ]; then
    echo "muster: the database did not answer within ${wait_s} s: $(printf '%s\n' "$error" | tail -n 1)" >&2
    exit 1
  fi
  sleep 1
done
set -- --host "${MUSTER_HOST:-0.0.0.0}" --port "${MUSTER_PORT:-8000}" \
  --database-url "$MUSTER_DATABASE_URL" --workers "${MUSTER_WORKERS:-1}" \
  --bot-workers "${MUSTER_BOT_WORKERS:-1}" \
  --metrics-port "${MUSTER_METRICS_PORT:-0}" --metrics-host "${MUSTER_METRICS_HOST:-127.0.0.1}" \
  ${MUSTER_NODE:+--node "$MUSTER_NODE"} "$@"
exec muster serve "$@"
