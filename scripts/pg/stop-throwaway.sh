#!/usr/bin/env bash
# Stops the throwaway cluster started by scripts/pg/start-throwaway.sh on
# ${PGPORT:-54329} and deletes its data. No-op when none is recorded.
set -euo pipefail

PORT="${PGPORT:-54329}"
PG_BIN=/usr/lib/postgresql/15/bin
STATE_FILE="/tmp/workstreams-pg-${PORT}.datadir"

log() { printf '[pg/stop] %s\n' "$*" >&2; }

if [[ ! -e $STATE_FILE ]]; then
  log "no throwaway cluster recorded for port $PORT"
  exit 0
fi

data="$(head -n1 "$STATE_FILE")"
base="$(dirname "$data")"

# Only ever delete directories this script family created.
if [[ -z $data || ! -f $base/.workstreams-throwaway ]]; then
  log "state file $STATE_FILE points at '$data', which is not a throwaway cluster; removing the state file only"
  rm -f "$STATE_FILE"
  exit 0
fi

if [[ -f $data/postmaster.pid ]] &&
  (cd / && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1); then
  log "stopping cluster in $data"
  (cd / && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$data" -m fast -w -t 60 stop) >&2
fi

rm -rf "$base"
rm -f "$STATE_FILE"
log "removed $base"
