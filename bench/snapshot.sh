#!/usr/bin/env bash
# bench/snapshot.sh [records=50000000] [resting=1000000] [heap=4g] [rate=2000] [seconds=60] [dir=DIR] [phases=123]
#                   [accounts=N]   (N > 0: ORDERS_RISK=balances, each of N accounts funded first)
#
# Restart after a long history (issue 12): writes a journal of RECORDS records that leaves RESTING orders in the
# books (bench/snapshot.py, HistoryGenerator), starts the service on it (a whole-journal replay), has it write a
# snapshot, restarts it and times launch to /ready; then measures order latency at a fixed RATE while snapshots
# are written every 10 s against the same without. Journal none-sync, no database, so only the journal's length
# and the snapshot decide the restart.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
mvn -q -B -DskipTests test-compile >/dev/null
exec python3 bench/snapshot.py "$@"
