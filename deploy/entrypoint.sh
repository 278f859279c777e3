#!/bin/sh
# Start muster serve from the environment (the container's, or a systemd unit's EnvironmentFile):
#   MUSTER_DATABASE_URL  sqlite:///path or postgresql://user:password@host/db (required)
#   MUSTER_HOST, MUSTER_PORT  where to listen (default 0.0.0.0:8000)
#   MUSTER_WORKERS  server processes (default 1); MUSTER_METRICS_PORT  a private metrics port (default off)
# It waits for the database (up to MUSTER_DB_WAIT_S seconds, default 60), then serves; the schema is
# migrated by the server itself at start-up. Extra arguments go to `muster serve`.
set -eu
: "${MUSTER_DATABASE_URL:?set MUSTER_DATABASE_URL}"
wait_s="${MUSTER_DB_WAIT_S:-60}"
start=$(date +%s)
until python -c "
import sys
from sqlalchemy import text
from muster.server.db import make_engine
engine = make_engine(sys.argv[1])
with engine.connect() as conn:
    conn.execute(text('SELECT 1'))
" "$MUSTER_DATABASE_URL" 2>/dev/null; do
  if [ $(( $(date +%s) - start )) -ge "$wait_s" ]; then
    echo "muster: the database did not answer within ${wait_s} s" >&2
    exit 1
  fi
  sleep 1
done
set -- --host "${MUSTER_HOST:-0.0.0.0}" --port "${MUSTER_PORT:-8000}" \
  --database-url "$MUSTER_DATABASE_URL" --workers "${MUSTER_WORKERS:-1}" \
  --metrics-port "${MUSTER_METRICS_PORT:-0}" "$@"
exec muster serve "$@"
