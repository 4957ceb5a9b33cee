#!/usr/bin/env bash
# loadtest/latency.sh MAX_RATE [URL] [SECONDS]
#
# Latency at fixed request rates, corrected for coordinated omission: each answer is timed from the moment
# its request was due. Runs 5,000 orders/s, then 25%, 50% and 75% of MAX_RATE (take MAX_RATE from a wrk run
# of loadtest/run.sh or bench/stages.sh); each rate first runs 10 s unrecorded (warm-up). Prints
# p50/p99/p99.9/max and the harness's own CPU for each: FixedRateLoad runs on one event loop and releases
# the requests due in each 1 ms tick together, so it takes little from the service it measures.
#
# API keys as loadtest/run.sh takes them (loadtest/keys.sh): ORDERS_LOAD_KEYS, else ORDERS_LOAD_KEY_COUNT (40) keys
# created with the jar in this directory's keys file; none when the service runs with ORDERS_AUTH=none.
set -euo pipefail
max="${1:?usage: $0 MAX_RATE [URL] [SECONDS]}"
url="${2:-http://127.0.0.1:8080}"
seconds="${3:-30}"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=loadtest/keys.sh
. "$here/keys.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prepare_load_keys "$url" "$work" "$(date +%s%N | cut -c1-13)" "${ORDERS_LOAD_KEY_COUNT:-40}" || exit 2
export ORDERS_LOAD_KEYS="$keys_file"
cd "$here/.."
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
for rate in 5000 $((max * 25 / 100)) $((max * 50 / 100)) $((max * 75 / 100)); do
  echo -n "$rate/s: "
  java -Xmx512m -XX:TieredStopAtLevel=1 -cp "$cp" io.orderentry.bench.http.FixedRateLoad "$url" "$rate" "$seconds" 64
done
