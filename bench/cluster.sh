#!/usr/bin/env bash
# bench/cluster.sh [seconds=30] [warmup=30] [rate=2000] [members=3] [target=follower|leader] [db=no|yes]
# A cluster of three members on this machine against one node, in one session: wrk's maximum and the latency of a
# committed order at a fixed rate (see bench/cluster.py).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec python3 bench/cluster.py "$@"
