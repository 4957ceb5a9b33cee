#!/usr/bin/env bash
# bench/cluster.sh [seconds=30] [warmup=30] [rate=2000] [members=3] [target=follower|leader] [db=no|yes]
# A cluster of three members on this machine against one node, in one session: wrk's maximum and the latency of a
# committed order at a fixed rate (see bench/cluster.py).
# bench/cluster.sh failover [runs=5] [load=10] [after=10] [leader_timeout=MILLIS]
# The leader killed under load: from the kill to the first 201, and where the time goes (see bench/failover.py).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = failover ]; then
    shift
    mvn -q -B -DskipTests package >/dev/null
    exec python3 bench/failover.py "$@"
fi
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec python3 bench/cluster.py "$@"
