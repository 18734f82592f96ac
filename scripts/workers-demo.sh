#!/usr/bin/env bash
# Three `receipts batch` workers on one PostgreSQL store over SampleReceipts/, the first killed
# with -9 after KILL_AFTER seconds: the others finish its image once its lease runs out.
#   scripts/workers-demo.sh [SERVER_URL]   a server of yours (a database receipts_demo is made
#                                          there, dropped first if it exists); without one, a
#                                          throw-away cluster (scripts/pg-test-cluster)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BIN:-.build/release/receipts}
LEASE=${LEASE:-10}; KILL_AFTER=${KILL_AFTER:-6}
export OMP_THREAD_LIMIT=1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
server=${1:-}
if [ -z "$server" ]; then
  server=$(scripts/pg-test-cluster start "$work/pg")
  trap 'scripts/pg-test-cluster stop "$work/pg"; rm -rf "$work"' EXIT
fi
PGOPTIONS="-c client_min_messages=warning" psql "$server" -qc "DROP DATABASE IF EXISTS receipts_demo" -c "CREATE DATABASE receipts_demo"
# the same server, database receipts_demo
S=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/receipts_demo")))' "$server")
for i in 1 2 3; do "$B" batch --store "$S" --jobs 1 --lease "$LEASE" SampleReceipts > "$work/w$i.out" 2> "$work/w$i.err" & eval "p$i=\$!"; done
sleep "$KILL_AFTER"; kill -9 "$p1"; wait "$p1" 2>/dev/null || true
echo "killed worker 1 after $KILL_AFTER s; the claims now:"
psql "$S" -c "SELECT worker, path, round((expires_at - extract(epoch FROM now()))::numeric, 1) AS seconds_left FROM claims ORDER BY 1"
wait "$p2" "$p3"
for i in 2 3; do echo "worker $i:"; cat "$work/w$i.err"; done
"$B" store info --store "$S"
