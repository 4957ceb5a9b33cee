#!/usr/bin/env bash
# bench/memory.sh [N] [HEAP] [snapshots]: do N resting orders (default 1,000,000) fit in the whole service
# with the given heap (default 1g)? Writes a journal of N resting orders, starts the service on it, and
# prints the heap in use after recovery and a full GC. Without "snapshots" the snapshot writer is off (the live
# state alone); with it, the heap is measured once the writer's copy has caught up and written a snapshot.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000000}"
heap="${2:-1g}"
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
java -Xmx"$heap" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  io.orderentry.bench.memory.RestingOrdersHarness "$count" "${3:-}"
