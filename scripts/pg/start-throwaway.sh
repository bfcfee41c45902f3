#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster for tests (pgvector enabled).
#   - fresh data dir under /tmp owned by `postgres`, trust auth
#   - listens on 127.0.0.1:${PGPORT:-54329} only (unix socket inside the temp dir)
#   - tuned for speed, not durability (fsync/full_page_writes/synchronous_commit off)
#   - creates database workstreams_test with `CREATE EXTENSION vector`
# The LAST line on stdout is the connection URL; everything else goes to stderr.
# Re-running restarts from scratch: a cluster previously started by this
# script on the same port is stopped and deleted first.
# Stop with scripts/pg/stop-throwaway.sh (same PGPORT).
set -euo pipefail

PORT="${PGPORT:-54329}"
PG_BIN=/usr/lib/postgresql/15/bin
DB=workstreams_test
STATE_FILE="/tmp/workstreams-pg-${PORT}.datadir"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf '[pg/start] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "must run as root (initdb runs as the postgres user via runuser)"
[[ -x $PG_BIN/initdb ]] || die "$PG_BIN/initdb not found; run scripts/pg/install.sh first"
[[ $PORT =~ ^[0-9]+$ ]] || die "PGPORT must be numeric, got '$PORT'"
id postgres >/dev/null 2>&1 || die "no 'postgres' user; run scripts/pg/install.sh first"

as_pg() { (cd / && runuser -u postgres -- "$@"); }

# Idempotent restart: stop and remove our previous cluster on this port.
if [[ -e $STATE_FILE ]]; then
  log "stopping previous throwaway cluster on port $PORT"
  PGPORT="$PORT" bash "$here/stop-throwaway.sh" >&2
fi

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  die "something else is already listening on 127.0.0.1:$PORT (not started by this script); set PGPORT to another port"
fi

base="$(mktemp -d /tmp/workstreams-pg.XXXXXX)"
ok=0
cleanup_on_error() {
  if ((!ok)); then
    if [[ -f $base/postgres.log ]]; then tail -n 30 "$base/postgres.log" >&2 || true; fi
    as_pg "$PG_BIN/pg_ctl" -D "$base/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$base"
    rm -f "$STATE_FILE"
  fi
}
trap cleanup_on_error EXIT

touch "$base/.workstreams-throwaway"
chown -R postgres:postgres "$base"
chmod 700 "$base"
data="$base/data"

log "initdb into $data"
as_pg "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 \
  --locale=C.UTF-8 --no-sync >/dev/null

cat >>"$data/postgresql.conf" <<CONF

# --- workstreams throwaway test cluster ---
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$base'
max_connections = 200
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
CONF

# Record the data dir before starting so stop-throwaway.sh can always find it.
printf '%s\n' "$data" >"$STATE_FILE"

log "starting on 127.0.0.1:$PORT"
as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$base/postgres.log" -w -t 60 start >&2

psql_do() {
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres "$@" >&2
}
psql_do -d postgres -c "CREATE DATABASE $DB"
psql_do -d "$DB" -c "CREATE EXTENSION IF NOT EXISTS vector"

ok=1
log "ready (data dir $data, log $base/postgres.log)"
echo "postgres://postgres@127.0.0.1:${PORT}/${DB}"
