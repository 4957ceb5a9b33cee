#!/usr/bin/env bash
# loadtest/latency.sh MAX_RATE [URL] [SECONDS]
#
# Latency at a fixed request rate, corrected for coordinated omission: each answer is timed from the
# moment its request was due. Each rate first runs 10 s unrecorded (warm-up). Runs at 25%, 50% and 75% of MAX_RATE (take MAX_RATE from a wrk run of
# loadtest/run.sh) and prints p50/p99/p99.9 for each.
set -euo pipefail
max="${1:?usage: $0 MAX_RATE [URL] [SECONDS]}"
url="${2:-http://127.0.0.1:8080}"
seconds="${3:-30}"
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
for pct in 25 50 75; do
  rate=$((max * pct / 100))
  echo -n "${pct}% of max: "
  java -cp "$cp" io.orderentry.bench.http.FixedRateLoad "$url" "$rate" "$seconds" 64
done
