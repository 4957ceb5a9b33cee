#!/usr/bin/env bash
# bench/stages.sh [seconds=30] [warmup=30] [mode=durable|memory] [baseline=yes|no] [wrk=2x64]
#
# What one order costs, thread by thread: CPU µs, wake-ups and heap bytes allocated per order under
# `wrk -t2 -c64` of varied orders, the PostgreSQL backends' CPU per order and the GC pauses, next to the
# JSON-only Vert.x server measured in the same run (see bench/stages.py for how each figure is taken).
# mode=durable (default): journal fsync, audit trail, PostgreSQL on 127.0.0.1:5432 (a fresh database,
# dropped afterwards); mode=memory: journal none, no database. JAVA and JAVA_OPTS choose the JVM.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec python3 bench/stages.py "$@"
