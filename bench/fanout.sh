#!/usr/bin/env bash
# bench/fanout.sh [subscribers=0,10,100,1000] [seconds=20] [warmup=20] [runs=1] [mode=memory|durable] [deflate=yes|no]
#                 [auth=keys|none]
#
# What the WebSocket fan-out costs order entry: for each subscriber count a fresh service, the subscribers
# connected first (book, trades and ticker of every symbol each; sequences and book checksums verified), then
# wrk -t2 -c64 of varied orders. Prints req/s and p99 as ratios to the run without subscribers, the fan-out's CPU
# per message per subscriber and the engine-event-to-write latency (see bench/fanout.py). The subscribers offer
# permessage-deflate, as browsers do, unless deflate=no. The orders authenticate with 64 API keys made once with the
# jar's `keys create` (auth=keys, as the service ships) unless auth=none.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
mvn -q -B -DskipTests test-compile >/dev/null
exec python3 bench/fanout.py "$@"
