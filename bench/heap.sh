#!/usr/bin/env bash
# bench/heap.sh [RECORDS] [RESTING]: the heap a long history leaves in use (issue 13, "Sizing the heap").
# Writes a journal of RECORDS records (default 5,000,000) that leaves RESTING orders resting (default 1,000,000), the
# retained final orders and a full dedup window (HistoryGenerator), starts the jar on it with a 4 GiB heap, and prints
# the heap in use after a full GC: once with the snapshot writer off (the live state), once with its copy caught up.
set -euo pipefail
cd "$(dirname "$0")/.."
records="${1:-5000000}"
resting="${2:-1000000}"
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
mvn -q -B -DskipTests test-compile >/dev/null
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
work="$(mktemp -d /tmp/heap-bench-XXXXXX)"
# /admin/snapshot needs an admin key (authentication is on, as the service ships)
export ORDERS_AUTH_KEYS_FILE="$work/keys"
admin="$(java -jar target/order-entry.jar keys create --account heap-bench --admin 2>/dev/null)"
java -Xmx1g -cp "$cp" io.orderentry.bench.snapshot.HistoryGenerator "$work/journal" "$resting" "$records"
for snapshots in false true; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  rm -rf "$work/snapshots" "$work/audit"
  ORDERS_HTTP_HOST=127.0.0.1 ORDERS_HTTP_PORT=$port ORDERS_JOURNAL_DIR="$work/journal" ORDERS_AUDIT_DIR="$work/audit" \
  ORDERS_SNAPSHOT_DIR="$work/snapshots" ORDERS_DB_URL= ORDERS_JOURNAL_SYNC=none ORDERS_SNAPSHOT_ENABLED=$snapshots \
  ORDERS_SNAPSHOT_EVERY_COMMANDS=0 ORDERS_SNAPSHOT_INTERVAL_SECONDS=0 \
    java -Xms4g -Xmx4g -XX:+UseG1GC -jar target/order-entry.jar > "$work/service-$snapshots.log" 2>&1 &
  pid=$!
  until curl -fs "localhost:$port/ready" >/dev/null 2>&1; do sleep 1; done
  if [ "$snapshots" = true ]; then
    # answers once the writer has caught up and written
    curl -fsS -X POST -H "Authorization: Bearer $admin" "localhost:$port/admin/snapshot" >/dev/null
  fi
  jcmd "$pid" GC.run >/dev/null; sleep 2; jcmd "$pid" GC.run >/dev/null; sleep 1
  used=$(jcmd "$pid" GC.heap_info | sed -n 's/.*used \([0-9]*\)K.*/\1/p' | head -1)
  echo "snapshot writer $([ "$snapshots" = true ] && echo on || echo off): heap in use after GC $((used / 1024)) MiB"
  kill "$pid"; wait "$pid" || true
done
rm -rf "$work"
