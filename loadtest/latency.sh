#!/usr/bin/env bash
# loadtest/latency.sh [mode=durable|memory] [auth=keys|none] [rates=2500,5000] [connections=64] [seconds=30]
#                     [warmup=10] [startwarmup=60] [runs=3] [dir=TMPDIR]
#
# Latency at fixed rates, corrected for coordinated omission (each answer timed from when its request was due), of
# the JSON-only server (loadtest/baseline.sh), the durable floor (loadtest/floor.sh) and the service, one at a time,
# in turns within each run, at the same rates with the same light C generator (target/fixedrate, built here from
# loadtest/fixedrate.c with the gcc Debian ships). Prints, per rate, p50/p99/p99.9/max and the generator's CPU per
# request for each, the median of the runs, and the service's p99 and p99.9 as ratios to the durable floor's
# (mode=durable: journal fsync, audit, PostgreSQL on 127.0.0.1:5432 in a fresh database dropped afterwards) or to
# the JSON-only server's (mode=memory: journal none, no database). See bench/latency.py. JAVA and JAVA_OPTS choose
# the JVM (default: bin/order-entry's flags).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gcc >/dev/null || { echo "gcc is not installed (apt-get install -y gcc)" >&2; exit 2; }
[ -f loadtest/fixedrate.c ] || { echo "loadtest/fixedrate.c, the load generator's source, is missing" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
if [ ! -x target/fixedrate ] || [ loadtest/fixedrate.c -nt target/fixedrate ]; then
  gcc -O2 -Wall -Wextra -o target/fixedrate loadtest/fixedrate.c -lm
fi
exec python3 bench/latency.py "$@"
