#!/usr/bin/env bash
# Persistence benchmark: events/s from the output ring into PostgreSQL through the real consumer
# (stage -> spool -> writer -> PostgreSQL), COPY vs multi-row INSERT, and the catch-up after an outage.
#
#   bench/persistence.sh                       # all three measurements, 3 runs each, medians
#   bench/persistence.sh mode=sustained write=insert events=1000000 runs=5
#
# Needs a PostgreSQL where the user may create databases (default: 127.0.0.1:5432, user postgres,
# trust auth; set url=jdbc:postgresql://host:port/ user=... password=... otherwise). Each run uses a
# fresh database, dropped afterwards. The machine should be otherwise idle; repeat and take medians.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d target/test-classes/io/orderentry/bench ] || [ ! -f target/bench-classpath.txt ]; then
  mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt \
      -Dmdep.includeScope=test
fi
CP="target/classes:target/test-classes:$(cat target/bench-classpath.txt)"
JAVA_OPTS=(-Xmx2g -XX:+UseParallelGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)

run() {
  java "${JAVA_OPTS[@]}" -cp "$CP" io.orderentry.bench.persistence.PersistenceBench "$@"
}

if [ "$#" -gt 0 ]; then
  run "$@"
else
  run mode=sustained write=copy events=2000000 runs=3
  run mode=sustained write=insert events=2000000 runs=3
  run mode=catchup write=copy events=1000000 runs=3
fi
