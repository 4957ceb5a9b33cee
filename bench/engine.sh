#!/usr/bin/env bash
# Matcher benchmarks: the HdrHistogram harness (throughput, bytes/command, latency at a fixed rate,
# heap for 1,000,000 resting orders under -Xmx1g) and then the JMH benchmark with the GC profiler.
# Usage: bench/engine.sh [harness|jmh|all] [extra JMH arguments...]
# Environment: HARNESS_OPTS (extra JVM options for the harness, e.g. -Dbench.seconds=5).
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-all}"
[ $# -gt 0 ] && shift

mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"

if [ "$what" = harness ] || [ "$what" = all ]; then
  # shellcheck disable=SC2086
  java -Xms1g -Xmx1g ${HARNESS_OPTS:-} -cp "$cp" io.orderentry.bench.engine.MatcherLatencyHarness
fi
if [ "$what" = jmh ] || [ "$what" = all ]; then
  java -cp "$cp" org.openjdk.jmh.Main MatcherBenchmark -prof gc "$@"
fi
