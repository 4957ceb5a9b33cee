#!/usr/bin/env bash
# bench/auth.sh [JMH arguments]: what authentication costs an order request on its event loop, in ns per request,
# piece by piece (AuthBenchmark: the bearer secret, SHA-256, the key lookup with the constant-time comparison, the two
# token buckets, the whole check with its answer headers, on one and on two threads), with the GC profiler for the
# bytes it allocates per request. The end-to-end cost is bench/stages.sh auth=keys against auth=none.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
java -cp "$cp" org.openjdk.jmh.Main AuthBenchmark -prof gc "$@"
