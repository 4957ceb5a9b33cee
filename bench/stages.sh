#!/usr/bin/env bash
# bench/stages.sh [seconds=30] [warmup=60] [mode=durable|memory] [baseline=yes|no] [wrk=2x64] [auth=keys|none]
# warmup=60 by default: at 20-30 s the C2 compiler still took 10-25% of the process's CPU (30 µs of 119 per order after
# 20 s, 2026-11-25); by 60 s it is down to a few percent, which is the steady state the figures are meant to show.
#
# What one order costs, thread by thread: CPU µs, wake-ups and heap bytes allocated per order under
# `wrk -t2 -c64` of varied orders, the PostgreSQL backends' CPU per order and the GC pauses, next to the
# JSON-only Vert.x server measured in the same run (see bench/stages.py for how each figure is taken).
# mode=durable (default): journal fsync, audit trail, PostgreSQL on 127.0.0.1:5432 (a fresh database,
# dropped afterwards); mode=memory: journal none, no database. JAVA and JAVA_OPTS choose the JVM.
# auth=keys (default): API keys and rate limits on, as the service ships, the orders spread over 64 keys made with the
# jar's `keys create`; auth=none: ORDERS_AUTH=none, the orders naming their accounts (what authentication costs).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec python3 bench/stages.py "$@"
